// Package inforce is the settings in force as the controller sees them:
// the configuration with the operator's overrides applied, as plain data.
// It knows no configuration file and no return analysis (internal/settings
// builds it from internal/config and checks its return), so the controller
// can hold it without depending on either.
package inforce

import (
	"fmt"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// InForce is what the controller needs from configuration (and operator
// overrides). internal/settings builds it from internal/config.
type InForce struct {
	Games     []game.ID                   // enabled games, menu order
	Rules     map[game.ID]blackjack.Rules // blackjack games
	Duel      DuelInForce                 // Poker Duel
	VoidAfter map[game.ID]time.Duration   // unfinished-round limit per game

	CreditLimit  money.Cents
	HandpayLimit money.Cents   // a single win at or above locks for a handpay; 0 = never
	Bills        []money.Cents // enabled denominations
	Chips        []money.Cents // BET+ chip values
	Denom        money.Cents
	Currency     string
	Language     string
	Sound        bool // sound effects on (operator: cabinet.sound)
	Volume       int  // their volume, percent (operator: cabinet.volume)
	DealPaceMS   int  // ms a dealt card takes from the shoe (operator: cabinet.deal_pace_ms)
	// ResultHoldMS is how long a settled round's result stays on screen,
	// once shown, before DEAL and REBET light (operator:
	// cabinet.result_hold_ms). The display measures it (Shown.Held).
	ResultHoldMS int
	// DecisionPauseMS is how long a step's picture stays complete on
	// screen before a decision is taken on it (operator:
	// cabinet.decision_pause_ms; issue 35). The display measures it: it
	// reports a picture shown once it has been drawn in full that long.
	DecisionPauseMS int

	JackpotReset  money.Cents
	JackpotRateE7 int64 // contribution per 10^7 of the Royal Poker stake
}

// DuelInForce is the Poker Duel configuration as the controller sees it; the
// engine's own Config is carried opaquely.
type DuelInForce struct {
	Enabled bool
	Config  any // duel.Config
}

// PoolUnitsPerCent is the progressive pool's resolution: 1e-7 cent.
const PoolUnitsPerCent = blackjack.PoolUnitsPerCent

// Validate checks the settings the controller relies on.
func (s *InForce) Validate() error {
	if len(s.Games) == 0 {
		return fmt.Errorf("cabinet: no game enabled")
	}
	for _, id := range s.Games {
		if !id.Valid() {
			return fmt.Errorf("cabinet: unknown game %q", id)
		}
		if id != game.Duel {
			r, ok := s.Rules[id]
			if !ok {
				return fmt.Errorf("cabinet: no rules for game %q", id)
			}
			if err := r.Validate(); err != nil {
				return fmt.Errorf("cabinet: rules of %s: %w", id, err)
			}
		}
	}
	if len(s.Chips) == 0 {
		return fmt.Errorf("cabinet: no chip values")
	}
	if s.CreditLimit <= 0 {
		return fmt.Errorf("cabinet: credit limit %v, want more than 0", s.CreditLimit)
	}
	return nil
}

// Refusal is what an error of applying overrides says, for the operator
// menu (controller.Settings.Explain): the return refused with its figure,
// or the setting the configuration names.
type Refusal struct {
	// Return is the refused return with its figure (nil: the error is not
	// a refused return).
	Return *view.OperatorRTP
	// Key and Value are the setting the configuration names and its value
	// as the configuration quotes it (Key "": none named).
	Key, Value string
	// Invalid: the configuration refused a value (a minimum above the
	// maximum…), not the return and not a failure.
	Invalid bool
}
