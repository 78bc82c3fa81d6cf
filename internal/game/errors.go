package game

import (
	"errors"
	"fmt"
)

// ErrRoundOver is returned by Apply on a settled round.
var ErrRoundOver = errors.New("game: round is over")

// ErrIllegal is wrapped by every IllegalError: the action is not legal now.
var ErrIllegal = errors.New("game: illegal action")

// ErrFunds is returned when an action's stake exceeds Action.Funds.
var ErrFunds = errors.New("game: not enough credits")

// ErrBet is wrapped when a Deal's bets break the table rules (limits, spots,
// a side bet not offered).
var ErrBet = errors.New("game: bet not allowed")

// IllegalError says which action was refused and why. errors.Is(err, ErrIllegal) holds.
type IllegalError struct {
	Action ActionKind
	Reason string
}

func (e *IllegalError) Error() string {
	return fmt.Sprintf("game: illegal action %q: %s", e.Action, e.Reason)
}

// Unwrap lets errors.Is match ErrIllegal.
func (e *IllegalError) Unwrap() error { return ErrIllegal }

// Illegal builds an IllegalError.
func Illegal(a ActionKind, format string, args ...any) error {
	return &IllegalError{Action: a, Reason: fmt.Sprintf(format, args...)}
}
