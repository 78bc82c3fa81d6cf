package par_test

import (
	"fmt"

	"cabinet/internal/analysis/par"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// The analyser's strategy at a hard 16 against a ten: Classic surrenders,
// Zappit zaps.
func ExampleNewStrategy() {
	for _, r := range []blackjack.Rules{blackjack.Classic(), blackjack.Zappit()} {
		s, err := par.NewStrategy(r)
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
		fmt.Println(r.Game, s.Choose(t, legal))
	}
	// Output:
	// classic surrender
	// zappit zap
}
