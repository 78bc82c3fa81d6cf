package rtp

import (
	"errors"
	"fmt"
)

// ErrRefused is wrapped by every *RefusedError: the rules in force give a
// wager a return the platform forbids (100 % or more, or below min_rtp).
var ErrRefused = errors.New("return refused")

// RefusedError is a refused wager: its figure (game, wager, computed
// return, and the worst bet it was computed at where a cap applies) and the
// minimum, in hundredths of a percent (9970 = 99.70 %).
type RefusedError struct {
	Figure
	MinRTP int64 // [cabinet] min_rtp, hundredths of a percent
}

func (e *RefusedError) Error() string {
	why := "below min_rtp"
	if e.RTP >= 10000 {
		why = "100 % or more: the player has the advantage"
	}
	at := ""
	if e.WorstBet > 0 {
		at = fmt.Sprintf(" at the worst bet (%d spot(s) at %v)", e.WorstSpots, e.WorstBet)
	}
	return fmt.Sprintf("rtp: %s %s returns %s%s, %s (min_rtp %s): %v", e.Game, e.Bet, Percent(e.RTP), at, why, Percent(e.MinRTP), ErrRefused)
}

// Unwrap makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// Percent writes hundredths of a percent as "99.70 %".
func Percent(bp int64) string { return fmt.Sprintf("%d.%02d %%", bp/100, bp%100) }
