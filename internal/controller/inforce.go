package controller

import (
	"time"

	"cabinet/internal/game"
	"cabinet/internal/inforce"
)

// InForce is the settings in force (internal/inforce): the configuration
// with the operator's overrides applied. Settings (returns.go) builds it;
// the controller's own type of it carries the controller's methods (the
// round factory, the money rules), a conversion apart.
type InForce inforce.InForce

// Validate checks the settings the controller relies on.
func (s *InForce) Validate() error { return (*inforce.InForce)(s).Validate() }

// DuelInForce is the Poker Duel configuration in force.
type DuelInForce = inforce.DuelInForce

// PoolUnitsPerCent is the progressive pool's resolution: 1e-7 cent.
const PoolUnitsPerCent = inforce.PoolUnitsPerCent

// voidAfter is how long an unfinished round of game id may stay open before
// it is voided at boot (24 h when s sets none).
func voidAfter(s *InForce, id game.ID) time.Duration {
	if d, ok := s.VoidAfter[id]; ok && d > 0 {
		return d
	}
	return 24 * time.Hour
}
