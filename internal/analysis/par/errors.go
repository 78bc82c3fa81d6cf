package par

import "errors"

var (
	// ErrUnknownGame is returned for a game the analyser does not cover.
	ErrUnknownGame = errors.New("par: unknown game")
	// ErrNoSideBet is returned when a side bet is not offered by the rules.
	ErrNoSideBet = errors.New("side bet not offered")
	// ErrRules is returned for rules the analyser cannot evaluate.
	ErrRules = errors.New("rules not supported by the analyser")
	// ErrUsage is returned for bad command-line arguments.
	ErrUsage = errors.New("usage")
)
