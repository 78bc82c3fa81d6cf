package blackjack_test

import (
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

func Example() {
	r, err := blackjack.New(blackjack.Classic(), 1)
	if err != nil {
		panic(err)
	}
	// A stacked shoe: player 10S, dealer up 7H, player 8D, hole card 10C.
	shoe := card.NewStack(card.MustParse("10S 7H 8D 10C")...)
	deal := game.Action{Kind: game.Deal, Funds: 5000, Bets: []game.Bet{{Spot: 0, Kind: game.Main, Amount: 1000}}}
	if _, err := r.Apply(deal, shoe); err != nil {
		panic(err)
	}
	fmt.Println("legal:", r.Legal(4000))
	evs, err := r.Apply(game.Action{Kind: game.Stand, Funds: 4000}, shoe)
	if err != nil {
		panic(err)
	}
	for _, e := range evs {
		switch e.Kind {
		case game.Reveal:
			fmt.Println("dealer turns", e.Card)
		case game.Payout:
			fmt.Println("paid", e.Amount, "on", e.Bet)
		case game.Result:
			fmt.Println("hand", e.Hand, e.Outcome)
		}
	}
	fmt.Println("done:", r.Done())
	// Output:
	// legal: [hit stand double surrender]
	// dealer turns 10C
	// paid 20.00 on main
	// hand 0 win
	// done: true
}
