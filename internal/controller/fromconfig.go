package controller

import (
	"fmt"
	"time"

	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
)

// InForceFrom turns a validated configuration into the controller's settings.
func InForceFrom(cfg *config.Config) (InForce, error) {
	s := InForce{
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
		Duel:          DuelInForce{Enabled: cfg.Duel.Enabled, Config: cfg.Duel},
	}
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

// OverridesFrom applies operator overrides kept in the store to cfg (the
// configuration package validates them and names a bad key).
func OverridesFrom(cfg *config.Config) func(InForce, map[string]string) (InForce, error) {
	return func(_ InForce, o map[string]string) (InForce, error) {
		c2, err := cfg.With(o)
		if err != nil {
			return InForce{}, err
		}
		return InForceFrom(c2)
	}
}
