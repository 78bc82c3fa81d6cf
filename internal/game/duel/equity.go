package duel

import (
	"math/rand/v2"
	"slices"

	"cabinet/internal/game/card"
	"cabinet/internal/game/poker"
)

// unknown returns the cards the deciding side cannot see: the deck less its
// own hand and its own discards.
func unknown(v *View) []card.Card {
	deck := card.Deck()
	if v.Deck == 32 {
		deck = card.ShortDeck()
	}
	out := deck[:0]
	for _, c := range deck {
		if !slices.Contains(v.Hand[:], c) && !slices.Contains(v.Discarded, c) {
			out = append(out, c)
		}
	}
	return out
}

// equity estimates, in per mille, the share of the pot the deciding side's
// hand wins at showdown (ties count half) against an opponent holding a
// random hand consistent with the number of cards it drew, by sampling with
// a generator seeded from the view's random word (a pure function of the
// view). Before the draw both hands are completed with the sound exchange,
// own positions discard.
func equity(v *View, discard []int, samples int) int {
	short := v.Deck == 32
	rng := rand.New(rand.NewPCG(v.Rand, 0x5eed))
	pool := unknown(v)
	n := len(pool)
	var score int
	pick := func(k int) card.Card { // partial Fisher–Yates: the k-th random card
		j := k + rng.IntN(n-k)
		pool[k], pool[j] = pool[j], pool[k]
		return pool[k]
	}
	for range samples {
		var opp [5]card.Card
		var oppDiscard []int
		// Opponent's hand before its draw, consistent with its draw count.
		for try := 0; ; try++ {
			for i := range 5 {
				opp[i] = pick(i)
			}
			oppDiscard = StandardDiscard(opp, short, 1)
			if v.OpponentDrew < 0 || len(oppDiscard) == v.OpponentDrew || try >= 40 {
				break
			}
		}
		k := 5
		mine := v.Hand
		if v.Drew < 0 { // our draw is still to come
			for _, p := range discard {
				mine[p] = pick(k)
				k++
			}
		}
		if v.OpponentDrew < 0 || v.Drew < 0 {
			for _, p := range oppDiscard {
				opp[p] = pick(k)
				k++
			}
		} else {
			for _, p := range oppDiscard[:min(len(oppDiscard), v.OpponentDrew)] {
				opp[p] = pick(k)
				k++
			}
		}
		a, b := poker.Eval(mine, short), poker.Eval(opp, short)
		switch {
		case a > b:
			score += 2
		case a == b:
			score++
		}
	}
	return score * 500 / samples
}
