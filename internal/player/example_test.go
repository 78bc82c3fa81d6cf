package player_test

import (
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/player"
)

// The analyser's player at a hard 16 against a ten: Classic surrenders,
// Zappit zaps.
func ExampleOptimal() {
	for _, r := range []blackjack.Rules{blackjack.Classic(), blackjack.Zappit()} {
		p, err := player.NewOptimal(r)
		if err != nil {
			fmt.Println(err)
			return
		}
		t := game.Table{
			Game:   r.Game,
			Dealer: game.HandView{Cards: card.MustParse("KD"), Hidden: 1},
			Hands:  []game.HandView{{Cards: card.MustParse("10S 6H")}},
			Active: 0,
		}
		legal := []game.ActionKind{game.Hit, game.Stand, game.Double, game.Surrender, game.Zap}
		fmt.Println(r.Game, p.Choose(t, legal))
	}
	// Output:
	// classic surrender
	// zappit zap
}
