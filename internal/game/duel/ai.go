package duel

import (
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/poker"
)

// CurrentAIRev is the revision of the computer's play new sessions get
// (Session.AIRev).
const CurrentAIRev = 1

// LevelStrategy returns the computer's strategy for a level (Easy for an
// unknown name) at revision rev of its play (Session.AIRev).
func LevelStrategy(level string, rev int) Strategy {
	if level == Hard {
		return HardStrategy{}
	}
	return EasyStrategy{Rev: rev}
}

// EasyStrategy plays by hand category alone: it draws as the rule book asks
// of the computer (games.md §5: keeps pairs and better, four to a flush or
// to an open straight, else its two highest cards), bets the minimum with
// good hands, calls too often and ignores the opponent's draw. Rev is the
// revision of its play (Session.AIRev): at 0, the first, it threw away every
// card but the two highest of a worthless hand, draws to flushes and
// straights included; kept so that deals recorded then replay as played.
type EasyStrategy struct{ Rev int }

// Decide implements Strategy.
func (e EasyStrategy) Decide(v View) Decision {
	short := v.Deck == 32
	if v.Phase == PhaseDraw {
		if e.Rev == 0 && poker.Eval(v.Hand, short).Category() == poker.HighCard {
			return Decision{Kind: game.Draw, Discard: keepHighest(v.Hand, 2)}
		}
		return Decision{Kind: game.Draw, Discard: StandardDiscard(v.Hand, short, 2)}
	}
	val := poker.Eval(v.Hand, short)
	cat := val.Category()
	strong := cat >= poker.TwoPairs || cat == poker.OnePair && val.Ranks()[0] >= card.Jack
	if v.Phase == PhaseBet2 {
		strong = cat >= poker.TwoPairs
	}
	bluff := int(v.Rand%1000) < v.BluffPerMille
	switch {
	case v.ToCall == 0 && (strong || bluff) && has(v, game.Open):
		return Decision{Kind: game.Open, Amount: v.MinBet}
	case v.ToCall == 0:
		return check(v)
	case cat >= poker.ThreeOfAKind && has(v, game.Raise):
		return Decision{Kind: game.Raise, Amount: v.MinBet}
	case cat >= poker.OnePair || v.Rand>>20%1000 < 250:
		return call(v)
	}
	return Decision{Kind: game.Pass}
}

// HardStrategy estimates its winning chances by sampling the hands the
// opponent can hold given the number of cards it drew, bets for value by
// strength, calls by pot odds, reads the opponent's aggression and bluffs
// at the configured rate when the opponent's draw looks weak.
type HardStrategy struct{}

// Samples per decision of the hard level's estimate.
const hardSamples = 160

// Decide implements Strategy.
func (HardStrategy) Decide(v View) Decision {
	short := v.Deck == 32
	if v.Phase == PhaseDraw {
		return Decision{Kind: game.Draw, Discard: StandardDiscard(v.Hand, short, 1)}
	}
	var discard []int
	if v.Phase == PhaseBet1 {
		discard = StandardDiscard(v.Hand, short, 1)
	}
	eq := equity(&v, discard, hardSamples)
	// The opponent's bets in this round narrow its range: discount.
	round := 1
	if v.Phase == PhaseBet2 {
		round = 2
	}
	aggr := 0
	for _, m := range v.Moves {
		if !m.Mine && m.Round == round && (m.Kind == game.Open || m.Kind == game.Raise) {
			aggr++
		}
	}
	eq -= 90 * aggr
	roll := int(v.Rand >> 16 % 1000)
	size := func(e int) int64 {
		span := v.MaxBet - v.MinBet
		switch {
		case e >= 850:
			return v.MaxBet
		case e >= 750:
			return v.MinBet + span*3/4
		}
		return v.MinBet + span/3
	}
	if v.ToCall == 0 {
		value := 620
		if round == 1 {
			value = 600
		}
		switch {
		case eq >= value && has(v, game.Open):
			return Decision{Kind: game.Open, Amount: size(eq)}
		case round == 2 && eq < 300 && v.OpponentDrew >= 3 && roll < v.BluffPerMille && has(v, game.Open):
			return Decision{Kind: game.Open, Amount: size(900)}
		}
		return check(v)
	}
	// Facing a bet: raise for value, call by pot odds, else fold.
	if eq >= 780 && has(v, game.Raise) {
		return Decision{Kind: game.Raise, Amount: size(eq)}
	}
	need := int(v.ToCall * 1000 / (v.Pot + v.ToCall))
	if eq >= need {
		return call(v)
	}
	return Decision{Kind: game.Pass}
}

func has(v View, k game.ActionKind) bool { return slices.Contains(v.Legal, k) }

// check continues without betting: Wait, Change or See, whichever is legal.
func check(v View) Decision {
	for _, k := range []game.ActionKind{game.Wait, game.Change, game.See} {
		if has(v, k) {
			return Decision{Kind: k}
		}
	}
	return Decision{Kind: game.Pass}
}

// call matches the bet: Change in the first round, See in the second.
func call(v View) Decision {
	if has(v, game.Change) {
		return Decision{Kind: game.Change}
	}
	return Decision{Kind: game.See}
}
