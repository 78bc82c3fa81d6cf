package rngtest

import "errors"

// ErrUsage is returned for bad command-line arguments.
var ErrUsage = errors.New("usage")
