package analysis

import "errors"

var (
	// ErrUnknownGame is returned for a game the analyser does not cover.
	ErrUnknownGame = errors.New("analysis: unknown game")
	// ErrNoSideBet is returned when a side bet is not offered by the rules.
	ErrNoSideBet = errors.New("side bet not offered")
	// ErrRules is returned for rules the analyser cannot evaluate.
	ErrRules = errors.New("rules not supported by the analyser")
	// ErrUsage is returned for bad command-line arguments.
	ErrUsage = errors.New("usage")
	// ErrStale is returned when the committed figures differ from a recomputation.
	ErrStale = errors.New("analysis: committed figures are stale")
)
