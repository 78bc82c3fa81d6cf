package duel

import "errors"

// ErrUsage is returned for bad command-line arguments.
var ErrUsage = errors.New("duel-eval: usage")
