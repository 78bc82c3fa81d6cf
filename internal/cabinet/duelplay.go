package cabinet

import "cabinet/internal/game"

// DuelChooser is autoplay's Poker Duel player: it buys a session, deals, and
// goes on without betting (wait, change, see), keeping all five cards. A
// plain reference player: the duel's own analysis measures better ones.
func DuelChooser(_ game.Round, legal []game.ActionKind) game.Action {
	for _, k := range []game.ActionKind{game.Buy, game.Deal, game.Ante, game.Wait, game.Change, game.See, game.Draw, game.Pass} {
		for _, l := range legal {
			if l == k {
				return game.Action{Kind: k}
			}
		}
	}
	return game.Action{Kind: legal[0]}
}
