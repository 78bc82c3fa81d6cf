package analysis

import "errors"

// ErrUnknownGame is returned by Figures for a game without figures.
var ErrUnknownGame = errors.New("analysis: unknown game")
