package player

import (
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// Basic is a plain autoplay strategy: a total/soft/pair chart for a
// multi-deck S17 game, adapted to each variant through the legal actions.
// Insurance and even money are declined; Free Bet free doubles and free
// splits are taken (but a pair of fives is doubled); Zappit zaps whenever it may
// (every hard 15 to 18: measured better than keeping them); Classic
// surrenders a hard 16 against 9, 10 or ace and a hard 15 against 10. When the
// chart's choice is not legal it falls back to hit (stand on a soft 18). The
// PAR analyser provides the computed strategy; this one is for autoplay and
// tests. It returns "" when legal is empty.
func Basic(r *blackjack.Round, legal []game.ActionKind) game.ActionKind {
	if len(legal) == 0 {
		return ""
	}
	can := func(k game.ActionKind) bool { return slices.Contains(legal, k) }
	switch {
	case can(game.Deal):
		return game.Deal
	case can(game.NoInsure):
		return game.NoInsure
	}
	cards, _, ok := r.ActiveHand()
	upc, okUp := r.DealerUp()
	if !ok || !okUp {
		return legal[0]
	}
	up := upc.HardValue() // ace = 1: treated as the strongest up card below
	t, soft := card.BlackjackTotal(cards)

	if can(game.Split) {
		free := r.SplitIsFree()
		v := cards[0].HardValue()
		if free && v != 5 && v != 10 || pairSplit(v, up) {
			return game.Split
		}
	}
	if can(game.Double) && r.DoubleIsFree() {
		return game.Double
	}
	if can(game.Zap) {
		return game.Zap
	}
	if can(game.Surrender) && !soft && ((t == 16 && (up >= 9 || up == 1)) || (t == 15 && up == 10)) {
		return game.Surrender
	}
	hitOr := func(d game.ActionKind) game.ActionKind {
		if can(d) {
			return d
		}
		return game.Hit
	}
	if soft {
		switch {
		case t >= 19:
			return game.Stand
		case t == 18:
			if up >= 3 && up <= 6 && can(game.Double) {
				return game.Double
			}
			if up == 9 || up == 10 || up == 1 {
				return game.Hit
			}
			return game.Stand
		case t == 17 && up >= 3 && up <= 6,
			(t == 15 || t == 16) && up >= 4 && up <= 6,
			(t == 13 || t == 14) && up >= 5 && up <= 6:
			return hitOr(game.Double)
		}
		return game.Hit
	}
	switch {
	case t >= 17:
		return game.Stand
	case t >= 13:
		if up >= 2 && up <= 6 {
			return game.Stand
		}
		return game.Hit
	case t == 12:
		if up >= 4 && up <= 6 {
			return game.Stand
		}
		return game.Hit
	case t == 11:
		return hitOr(game.Double)
	case t == 10 && up >= 2 && up <= 9,
		t == 9 && up >= 3 && up <= 6:
		return hitOr(game.Double)
	}
	return game.Hit
}

// pairSplit is the paid-split chart by card value and up card (card.HardValue:
// ace = 1).
func pairSplit(v, up int) bool {
	switch v {
	case 1, 8:
		return true
	case 9:
		return up >= 2 && up <= 9 && up != 7
	case 7, 3, 2:
		return up >= 2 && up <= 7
	case 6:
		return up >= 2 && up <= 6
	case 4:
		return up == 5 || up == 6
	}
	return false
}
