package par

import (
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// value is the analyser's value of a card: card.HardValue (an ace 1).
func value(c card.Card) int { return c.HardValue() }

func values(cs []card.Card) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = value(c)
	}
	return out
}

// Choose is the analyser's player (internal/player.Optimal): the action to
// take at table t among legal, the one of greatest value (Options). It never
// takes insurance (a separate bet); even money only when worth more than the
// blackjack; resplits always (as analysed). A zapped hand is valued without
// the two discarded cards (the table does not show them), a negligible
// difference from the analyser's own sums. With nothing to
// decide (no active hand) it returns the first legal action.
func (v *Values) Choose(t game.Table, legal []game.ActionKind) game.ActionKind {
	if len(legal) == 0 {
		return ""
	}
	if t.Active < 0 || t.Active >= len(t.Hands) || len(t.Dealer.Cards) == 0 {
		return legal[0]
	}
	switch t.Prompt {
	case "evenmoney":
		if v.EvenMoney() && slices.Contains(legal, game.EvenMoney) {
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
	d := Decision{Up: value(t.Dealer.Cards[0]), Cards: values(hv.Cards), Split: n > 1, Second: pos > 0, Hands: n, Zapped: hv.Note == "zapped"}
	var best *Option
	opts := v.Options(d)
	for i := range opts {
		op := &opts[i]
		if !slices.Contains(legal, op.Action) {
			continue
		}
		if best == nil || Better(*op, *best) {
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
