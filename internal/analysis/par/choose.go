package par

import (
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
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
	pos, n := place(t)
	return v.decide(Decision{Up: value(t.Dealer.Cards[0]), Cards: values(hv.Cards), Split: n > 1, Second: pos > 0, Hands: n, Zapped: hv.Note == "zapped"}, legal)
}

// place is the active hand's position among its spot's hands and their
// number (more than one: a split).
func place(t game.Table) (pos, n int) {
	for i, h := range t.Hands {
		if h.Spot == t.Hands[t.Active].Spot {
			if i < t.Active {
				pos++
			}
			n++
		}
	}
	return pos, n
}

// decide is Choose once the table is read: d is the active hand (Hands its
// spot's hands), legal the actions.
func (v *Values) decide(d Decision, legal []game.ActionKind) game.ActionKind {
	if d.Hands > 1 && slices.Contains(legal, game.Split) {
		return game.Split // resplits are always taken (as analysed)
	}
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

// roundChooser is Choose for the simulations (capsim.go, cutcard.go): it
// reads the active hand from the engine's round instead of building its
// table, and keeps every decision it made by what the decision depends on
// (up card, the hand's cards, its place among its spot's hands, zapped and
// the discarded cards, the legal actions). The insurance prompt goes to
// Choose. Unlike Choose, which sees only the table, it values a zapped hand
// knowing the two cards it discarded (the player saw them), as the
// analyser's figures do, so the simulations play the analyser's strategy
// exactly. One per goroutine. TestRoundChooserIsChoose plays rounds
// comparing it with Choose (with the discarded cards on a zapped hand).
type roundChooser struct {
	v     *Values
	cache map[[2]uint64]game.ActionKind
}

func newRoundChooser(v *Values) *roundChooser {
	return &roundChooser{v: v, cache: map[[2]uint64]game.ActionKind{}}
}

// playActions are the actions a play decision can be among, by bit.
var playActions = [...]game.ActionKind{game.Hit, game.Stand, game.Double, game.Split, game.Surrender, game.Zap}

func (c *roundChooser) choose(rd *blackjack.Round, legal []game.ActionKind) game.ActionKind {
	if rd.Phase != blackjack.PhasePlay || rd.Active < 0 || rd.Active >= len(rd.Hands) || len(rd.Dealer) == 0 || len(legal) == 0 {
		return c.v.Choose(rd.Table(), legal)
	}
	h := &rd.Hands[rd.Active]
	if len(h.Cards) > 23 {
		return c.v.Choose(rd.Table(), legal)
	}
	pos, n := 0, 0
	for i := range rd.Hands {
		if rd.Hands[i].Spot == h.Spot {
			if i < rd.Active {
				pos++
			}
			n++
		}
	}
	zapped := h.Note == "zapped"
	// The key: legal actions (bits 0–5), zapped (7), up card (8–11),
	// place (12–15), hands (16–19), card count (20–24), then the hand's
	// card values, 4 bits each: nine in the first word, the rest in the
	// second (at most 23 cards), whose top byte holds the discarded cards.
	var mask uint64
	for _, a := range legal {
		bit := -1
		for i, p := range playActions {
			if a == p {
				bit = i
			}
		}
		if bit < 0 {
			return c.v.Choose(rd.Table(), legal)
		}
		mask |= 1 << bit
	}
	k := [2]uint64{mask | uint64(value(rd.Dealer[0]))<<8 | uint64(pos)<<12 | uint64(n)<<16 | uint64(len(h.Cards))<<20}
	if zapped {
		k[0] |= 1 << 7
	}
	for i, cd := range h.Cards {
		if v := uint64(value(cd)); i < 9 {
			k[0] |= v << (28 + 4*i)
		} else {
			k[1] |= v << (4 * (i - 9))
		}
	}
	var discarded []int
	if zapped && len(h.Zapped) == 2 {
		discarded = values(h.Zapped)
		k[1] |= uint64(discarded[0])<<56 | uint64(discarded[1])<<60
	}
	if a, ok := c.cache[k]; ok {
		return a
	}
	a := c.v.decide(Decision{Up: value(rd.Dealer[0]), Cards: values(h.Cards), Split: n > 1, Second: pos > 0, Hands: n, Zapped: zapped, Discarded: discarded}, legal)
	c.cache[k] = a
	return a
}

func pick(legal []game.ActionKind, want game.ActionKind) game.ActionKind {
	if slices.Contains(legal, want) {
		return want
	}
	return legal[0]
}
