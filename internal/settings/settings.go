// Package settings is the cabinet's settings wiring: the configuration file
// (internal/config) turned into the settings in force (internal/inforce),
// the operator's overrides applied on top, and the return check of the
// rules in force (internal/analysis/rtp, platform.md §6, issue 19). It is
// the controller's Settings: the controller sees that one interface and
// imports neither the configuration nor the analysers; cmd/cabinet wires
// it.
package settings

import (
	"context"
	"errors"
	"fmt"
	"time"

	"cabinet/internal/analysis/par"
	"cabinet/internal/analysis/rtp"
	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/inforce"
	"cabinet/internal/view"
)

// FromConfig turns a validated configuration into the settings in force.
func FromConfig(cfg *config.Config) (inforce.InForce, error) {
	s := inforce.InForce{
		Games:         cfg.Enabled(),
		Rules:         map[game.ID]blackjack.Rules{},
		VoidAfter:     map[game.ID]time.Duration{},
		CreditLimit:   cfg.Cabinet.CreditLimit,
		HandpayLimit:  cfg.Cabinet.HandpayLimit,
		Bills:         cfg.Cabinet.Bills,
		Chips:         cfg.Cabinet.Chips,
		Denom:         cfg.Cabinet.Denomination,
		Currency:      cfg.Cabinet.Currency,
		Language:      cfg.Cabinet.Language,
		Sound:         cfg.Cabinet.Sound,
		Volume:        cfg.Cabinet.Volume,
		DealPaceMS:    cfg.Cabinet.DealPaceMS,
		ResultHoldMS:  cfg.Cabinet.ResultHoldMS,
		JackpotReset:  cfg.Jackpot.Reset,
		JackpotRateE7: cfg.Jackpot.RateE7,
		Duel:          inforce.DuelInForce{Enabled: cfg.Duel.Enabled, Config: cfg.Duel},
	}
	s.DecisionPauseMS = cfg.Cabinet.DecisionPauseMS
	for _, id := range game.IDs {
		s.VoidAfter[id] = cfg.VoidAfter(id)
		if id == game.Duel {
			continue
		}
		r, err := cfg.Rules(id)
		if err != nil {
			return s, fmt.Errorf("config: rules of %s: %w", id, err)
		}
		s.Rules[id] = r
	}
	return s, s.Validate()
}

// Settings applies operator overrides to a configuration and, with a
// return guard, checks the return of the result: a combination whose
// return is 100 % or more, or below min_rtp for any wager, is refused with
// the figure (the error wraps an *rtp.RefusedError naming the game, the
// wager, its figure and min_rtp), as a bad value is. It is safe for
// concurrent use (the guard locks its cache): the controller computes a
// draft's return off its input path.
type Settings struct {
	cfg    *config.Config
	guard  *rtp.Guard // nil: no return check, no figures
	minRTP int64      // hundredths of a percent ([cabinet] min_rtp)
}

// New is the settings of cfg. guard nil: overrides are applied without a
// return check and no return figures are computed.
func New(cfg *config.Config, guard *rtp.Guard) *Settings {
	return &Settings{cfg: cfg, guard: guard, minRTP: cfg.MinRTP()}
}

// Apply is the configuration with the stored overrides o in force (the
// configuration validates them and names a bad key), checked by the guard.
// base is not read: the configuration is the base.
func (st *Settings) Apply(_ inforce.InForce, o map[string]string) (inforce.InForce, error) {
	c2, err := st.cfg.With(o)
	if err != nil {
		return inforce.InForce{}, err
	}
	s, err := FromConfig(c2)
	if err != nil || st.guard == nil {
		return s, err
	}
	if _, err := st.guard.Check(context.Background(), st.input(s)); err != nil {
		return inforce.InForce{}, fmt.Errorf("cabinet: operator overrides: %w", err)
	}
	return s, nil
}

// Validate is the configuration's refusal of the overrides o, without the
// guard's return computation (controller.Settings).
func (st *Settings) Validate(o map[string]string) error {
	c2, err := st.cfg.With(o)
	if err != nil {
		return err
	}
	_, err = FromConfig(c2)
	return err
}

// input is the analyser's view of s.
func (st *Settings) input(s inforce.InForce) rtp.Input {
	return rtp.Input{Games: s.Games, Rules: s.Rules, MinRTP: st.minRTP,
		Progressive: par.Progressive{Reset: s.JackpotReset, RateE7: s.JackpotRateE7}}
}

// Figures are the help figures of game id under s (nil without a guard, for
// a game without money figures, or one the analyser cannot evaluate).
func (st *Settings) Figures(s inforce.InForce, id game.ID) []view.RTPLine {
	if st.guard == nil {
		return nil
	}
	rules, ok := s.Rules[id]
	if !ok {
		return nil
	}
	fs, err := st.guard.Game(context.Background(), rules, st.input(s).Progressive)
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

// Return is the operator menu's return of game id under s: its main bet's
// figure with min_rtp (nil without a guard or without a figure). s comes
// from Apply, which has refused a forbidden return already; Refused is set
// all the same when the figure is out of bounds.
func (st *Settings) Return(s inforce.InForce, id game.ID) (*view.OperatorRTP, error) {
	for _, l := range st.Figures(s, id) {
		if l.Bet == game.Main {
			r := &view.OperatorRTP{Game: id, RTP: l.RTPBP, MinRTP: st.minRTP}
			r.Refused = r.RTP >= 10000 || (st.minRTP > 0 && r.RTP < st.minRTP)
			return r, nil
		}
	}
	return nil, nil
}

// Explain reads an error of Apply: a refused return (*rtp.RefusedError),
// the key the configuration names (*config.KeyError), a refused value
// (config.ErrInvalid).
func (st *Settings) Explain(err error) inforce.Refusal {
	var r inforce.Refusal
	var ref *rtp.RefusedError
	if errors.As(err, &ref) {
		r.Return = &view.OperatorRTP{Game: ref.Game, RTP: ref.RTP, MinRTP: ref.MinRTP, Refused: true}
	}
	var ke *config.KeyError
	if errors.As(err, &ke) {
		r.Key, r.Value = ke.Key, ke.Value
	}
	r.Invalid = errors.Is(err, config.ErrInvalid)
	return r
}
