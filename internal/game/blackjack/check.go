package blackjack

import (
	"fmt"

	"cabinet/internal/money"
)

// Check verifies the invariants of a round, for a round decoded from the
// store before it is resumed: the encoding version, the rules, the phase and
// active hand, every card, and that Staked covers exactly the money held on
// the hands and side bets. A failure wraps ErrCorrupt.
func (r *Round) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("blackjack: check round %d: %s: %w", r.Number, fmt.Sprintf(format, args...), ErrCorrupt)
	}
	if r.V != Version {
		return bad("encoding version %d, want %d", r.V, Version)
	}
	if err := r.Rules.Validate(); err != nil {
		return bad("rules: %v", err)
	}
	for _, c := range r.Dealer {
		if !c.Valid() {
			return bad("dealer card %v", c)
		}
	}
	var held money.Cents
	for i := range r.Hands {
		h := &r.Hands[i]
		if h.Spot < 0 || h.Spot >= r.Rules.MaxSpots {
			return bad("hand %d on spot %d", i, h.Spot)
		}
		for _, c := range append(h.Cards[:len(h.Cards):len(h.Cards)], h.Zapped...) {
			if !c.Valid() {
				return bad("hand %d card %v", i, c)
			}
		}
		if h.Stake < 0 || h.Token < 0 || h.Double < 0 || h.DoubleToken < 0 || h.Insured < 0 {
			return bad("hand %d holds a negative amount", i)
		}
		held += h.Stake + h.Double + h.Insured
	}
	for _, s := range r.Sides {
		if _, ok := r.Rules.SideRule(s.Kind); !ok || r.spotHand(s.Spot) < 0 {
			return bad("side bet %s on spot %d", s.Kind, s.Spot)
		}
		held += s.Amount
	}
	if held != r.Staked {
		return bad("staked %v, the bets hold %v", r.Staked, held)
	}
	var pending money.Cents
	for _, p := range r.Pending {
		pending += p.Amount
	}
	if r.Paid < 0 || pending < 0 {
		return bad("paid %v, pending %v", r.Paid, pending)
	}
	switch r.Phase {
	case PhaseBet:
		if len(r.Hands) != 0 || len(r.Dealer) != 0 || r.Active != -1 {
			return bad("cards or hands before the deal")
		}
	case PhaseInsurance, PhasePlay:
		if len(r.Hands) == 0 || len(r.Dealer) == 0 {
			return bad("phase %s without hands or dealer", r.Phase)
		}
		if r.Active < 0 || r.Active >= len(r.Hands) || r.Hands[r.Active].Done && r.Phase == PhasePlay {
			return bad("active hand %d of %d in phase %s", r.Active, len(r.Hands), r.Phase)
		}
		if r.Phase == PhasePlay && len(r.Hands[r.Active].Cards) < 2 {
			return bad("active hand %d holds %d cards", r.Active, len(r.Hands[r.Active].Cards))
		}
	case PhaseDone:
		if r.Active != -1 || len(r.Pending) != 0 {
			return bad("settled round with active hand %d and %d pending payouts", r.Active, len(r.Pending))
		}
	default:
		return bad("unknown phase %q", r.Phase)
	}
	return nil
}
