package player

import (
	"fmt"
	"slices"

	"cabinet/internal/analysis/par"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// Optimal is the analyser's composition-dependent player for one set of
// rules: every decision maximises the expected value computed by the same
// recursion as the PAR figures.
//
// It never takes insurance (insurance is analysed as a separate bet); even
// money is taken only when it is worth more than letting the blackjack ride.
// Resplits are always taken (as analysed). A zapped hand is valued without
// the two discarded cards (the table does not show them), a negligible
// difference from the analyser.
//
// Safe for concurrent use.
type Optimal struct{ v *par.Values }

// NewOptimal returns the player for rules r (values computed on demand).
func NewOptimal(r blackjack.Rules) (*Optimal, error) {
	v, err := par.NewValues(r)
	if err != nil {
		return nil, fmt.Errorf("player: %w", err)
	}
	return &Optimal{v: v}, nil
}

// OptimalFor returns the player choosing by v.
func OptimalFor(v *par.Values) *Optimal { return &Optimal{v: v} }

// value is the analyser's value of a card: card.HardValue (an ace 1).
func value(c card.Card) int { return c.HardValue() }

func values(cs []card.Card) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = value(c)
	}
	return out
}

// Choose returns the action to take at table t among legal. With nothing to
// decide (no active hand) it returns the first legal action.
func (o *Optimal) Choose(t game.Table, legal []game.ActionKind) game.ActionKind {
	if len(legal) == 0 {
		return ""
	}
	if t.Active < 0 || t.Active >= len(t.Hands) || len(t.Dealer.Cards) == 0 {
		return legal[0]
	}
	switch t.Prompt {
	case "evenmoney":
		if o.v.EvenMoney() && slices.Contains(legal, game.EvenMoney) {
			return game.EvenMoney
		}
		return pick(legal, game.NoInsure)
	case "insurance":
		return pick(legal, game.NoInsure)
	}
	hv := t.Hands[t.Active]
	// The hand's position among its spot's hands: more than one means a split.
	pos, n := 0, 0
	for i, h := range t.Hands {
		if h.Spot == hv.Spot {
			if i < t.Active {
				pos++
			}
			n++
		}
	}
	if n > 1 && slices.Contains(legal, game.Split) {
		return game.Split // resplits are always taken (as analysed)
	}
	d := par.Decision{Up: value(t.Dealer.Cards[0]), Cards: values(hv.Cards), Split: n > 1, Second: pos > 0, Hands: n, Zapped: hv.Note == "zapped"}
	var best *par.Option
	opts := o.v.Options(d)
	for i := range opts {
		op := &opts[i]
		if !slices.Contains(legal, op.Action) {
			continue
		}
		if best == nil || par.Better(*op, *best) {
			best = op
		}
	}
	if best == nil {
		return pick(legal, game.Stand)
	}
	return best.Action
}

func pick(legal []game.ActionKind, want game.ActionKind) game.ActionKind {
	if slices.Contains(legal, want) {
		return want
	}
	return legal[0]
}
