package controller

import (
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/duel"
)

// DuelChooser is autoplay's Poker Duel player. In a deal it plays the
// engine's hard strategy from the player's View (what the player can see,
// nothing more); otherwise (buying a session, dealing) it takes the first
// of Buy, Deal, Ante, Wait, Change, See, Draw, Pass that is legal.
func DuelChooser(r game.Round, legal []game.ActionKind) game.Action {
	if dr, ok := r.(*duel.Round); ok {
		if v, ok := dr.PlayerView(); ok {
			a := duel.HardStrategy{}.Decide(v).Action()
			if slices.Contains(legal, a.Kind) {
				return a
			}
		}
	}
	for _, k := range []game.ActionKind{game.Buy, game.Deal, game.Ante, game.Wait, game.Change, game.See, game.Draw, game.Pass} {
		if slices.Contains(legal, k) {
			return game.Action{Kind: k}
		}
	}
	return game.Action{Kind: legal[0]}
}
