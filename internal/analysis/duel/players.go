package duel

import (
	"math/rand/v2"
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/duel"
	"cabinet/internal/game/poker"
)

// AlwaysCall never bets, never folds: it checks or calls everything and
// draws soundly.
type AlwaysCall struct{}

// Decide implements duel.Strategy.
func (AlwaysCall) Decide(v duel.View) duel.Decision {
	if v.Phase == duel.PhaseDraw {
		return duel.Decision{Kind: game.Draw, Discard: duel.StandardDiscard(v.Hand, v.Deck == 32, 1)}
	}
	return passive(v)
}

// Threshold bets the minimum and raises with a strong hand (before the draw
// a pair of jacks or better, after it two pairs or better), calls with any
// pair, and otherwise checks or folds. It draws soundly.
type Threshold struct{}

// Decide implements duel.Strategy.
func (Threshold) Decide(v duel.View) duel.Decision {
	short := v.Deck == 32
	if v.Phase == duel.PhaseDraw {
		return duel.Decision{Kind: game.Draw, Discard: duel.StandardDiscard(v.Hand, short, 1)}
	}
	val := poker.Eval(v.Hand, short)
	strong := val.Category() >= poker.TwoPairs
	if v.Phase == duel.PhaseBet1 {
		strong = strong || val.Category() == poker.OnePair && val.Ranks()[0] >= card.Jack
	}
	switch {
	case strong && slices.Contains(v.Legal, game.Raise):
		return duel.Decision{Kind: game.Raise, Amount: v.MinBet}
	case strong && slices.Contains(v.Legal, game.Open):
		return duel.Decision{Kind: game.Open, Amount: v.MinBet}
	case v.ToCall == 0 || val.Category() >= poker.OnePair:
		return passive(v)
	}
	return duel.Decision{Kind: game.Pass}
}

// Random picks any legal action with a random size and random discards
// (from the view's random word, so it is reproducible).
type Random struct{}

// Decide implements duel.Strategy.
func (Random) Decide(v duel.View) duel.Decision {
	rng := rand.New(rand.NewPCG(v.Rand, 3))
	if v.Phase == duel.PhaseDraw {
		var d []int
		for p := range 5 {
			if rng.IntN(2) == 0 {
				d = append(d, p)
			}
		}
		return duel.Decision{Kind: game.Draw, Discard: d}
	}
	k := v.Legal[rng.IntN(len(v.Legal))]
	d := duel.Decision{Kind: k}
	if k == game.Open || k == game.Raise {
		d.Amount = v.MinBet + rng.Int64N(v.MaxBet-v.MinBet+1)
	}
	return d
}

// passive checks or calls.
func passive(v duel.View) duel.Decision {
	for _, k := range []game.ActionKind{game.Wait, game.Change, game.See} {
		if slices.Contains(v.Legal, k) {
			return duel.Decision{Kind: k}
		}
	}
	return duel.Decision{Kind: game.Pass}
}
