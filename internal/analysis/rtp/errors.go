package rtp

import (
	"errors"
	"fmt"
	"strings"
)

// ErrRefused is wrapped by every *RefusedError: the rules in force give a
// wager a return the platform forbids (100 % or more, or below min_rtp).
var ErrRefused = errors.New("return refused")

// RefusedError is a refused combination: the first refused wager's figure
// (game, wager, computed return, and the worst bet it was computed at where
// a cap applies), every other refused wager's (Also), and the minimum, in
// hundredths of a percent (9970 = 99.70 %).
type RefusedError struct {
	Figure
	Also   []Figure // the other refused wagers, in the order checked
	MinRTP int64    // [cabinet] min_rtp, hundredths of a percent
}

func (e *RefusedError) Error() string {
	parts := []string{refusal(e.Figure)}
	for _, f := range e.Also {
		parts = append(parts, refusal(f))
	}
	return fmt.Sprintf("rtp: %s (min_rtp %s): %v", strings.Join(parts, "; "), Percent(e.MinRTP), ErrRefused)
}

// Refused is every refused wager: the first and Also.
func (e *RefusedError) Refused() []Figure { return append([]Figure{e.Figure}, e.Also...) }

// refusal names one refused wager with its figure and why.
func refusal(f Figure) string {
	why := "below min_rtp"
	if f.RTP >= 10000 {
		why = "100 % or more: the player has the advantage"
	}
	at := ""
	if f.WorstBet > 0 {
		at = fmt.Sprintf(" at the worst bet (%d spot(s) at %v)", f.WorstSpots, f.WorstBet)
	}
	return fmt.Sprintf("%s %s returns %s%s, %s", f.Game, f.Bet, Percent(f.RTP), at, why)
}

// Unwrap makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// Percent writes hundredths of a percent as "99.70 %".
func Percent(bp int64) string { return fmt.Sprintf("%d.%02d %%", bp/100, bp%100) }
