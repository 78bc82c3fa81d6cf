package controller

import (
	"context"
	"fmt"

	"cabinet/internal/analysis/par"
	"cabinet/internal/analysis/rtp"
	"cabinet/internal/game"
	"cabinet/internal/view"
)

// Returns is the return check of the rules in force (platform.md §6, issue
// 19): the help figures follow the settings in force (file plus operator
// overrides), and a combination whose return is 100 % or more, or below
// min_rtp for any wager, is refused with the figure.
//
// Wiring: Options.Returns makes help show these figures; Guarded wraps
// Options.Overrides so that the operator menu's change (setOverride) and the
// stored overrides at boot are refused the same way as a bad value — the
// error wraps an *rtp.RefusedError (errors.As) naming the game, the wager,
// its figure and min_rtp. PreviewReturns gives the operator menu the figures
// of a draft before it is saved.
type Returns struct {
	Guard  *rtp.Guard
	MinRTP int64 // hundredths of a percent ([cabinet] min_rtp)
}

// Input is the analyser's view of s.
func (r *Returns) Input(s InForce) rtp.Input {
	return rtp.Input{Games: s.Games, Rules: s.Rules, MinRTP: r.MinRTP,
		Progressive: par.Progressive{Reset: s.JackpotReset, RateE7: s.JackpotRateE7}}
}

// Check computes every wager of s and refuses a forbidden one.
func (r *Returns) Check(s InForce) (rtp.Figures, error) {
	return r.Guard.Check(context.Background(), r.Input(s))
}

// Lines are the help figures of game id under s (nil for a game without
// money figures, or one the analyser cannot evaluate).
func (r *Returns) Lines(s InForce, id game.ID) []view.RTPLine {
	rules, ok := s.Rules[id]
	if !ok {
		return nil
	}
	in := r.Input(s)
	fs, err := r.Guard.Game(context.Background(), rules, in.Progressive)
	if err != nil {
		return nil
	}
	out := make([]view.RTPLine, 0, len(fs))
	for _, f := range fs {
		out = append(out, view.RTPLine{Bet: f.Bet, RTPBP: f.RTP, Method: f.Method, Basis: string(f.Basis),
			InitialBP: f.Initial, WorstBet: f.WorstBet, WorstSpots: f.WorstSpots})
	}
	return out
}

// Guarded wraps an Overrides function: settings whose return is refused
// are an error, as a bad value is.
func (r *Returns) Guarded(ov func(InForce, map[string]string) (InForce, error)) func(InForce, map[string]string) (InForce, error) {
	return func(base InForce, o map[string]string) (InForce, error) {
		s, err := ov(base, o)
		if err != nil {
			return s, err
		}
		if _, err := r.Check(s); err != nil {
			return InForce{}, fmt.Errorf("cabinet: operator overrides: %w", err)
		}
		return s, nil
	}
}

// PreviewReturns is the figures of game id if the operator set key to
// value (nothing is stored): for the operator menu to show the return live
// as a draft changes. A refused combination returns an error wrapping an
// *rtp.RefusedError, which carries the figure; a bad value returns the
// configuration's error.
func (c *Controller) PreviewReturns(id game.ID, key, value string) ([]view.RTPLine, error) {
	return previewReturns(c.opt, c.base, withValue(c.cur.overrides, key, value), id, key, value)
}

// ReturnFigures are the figures of game id under the settings in force, as
// help shows them (cabinet sim's "computed" column): the rules in force
// when Returns is wired, else the static Figures.
func (c *Controller) ReturnFigures(id game.ID) []view.RTPLine {
	if c.opt.Returns != nil {
		return c.opt.Returns.Lines(c.set, id)
	}
	if c.opt.Figures != nil {
		return c.opt.Figures(id)
	}
	return nil
}
