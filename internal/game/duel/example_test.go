package duel_test

import (
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/duel"
)

func ExampleNew() {
	cfg := duel.DefaultConfig()
	// No session yet: the round sells one.
	buy, _ := duel.New(cfg, nil, 1)
	a := duel.Act(game.Buy, duel.Params{Deck: 32, Level: duel.Hard, Seed: 42})
	a.Funds = 500
	evs, _ := buy.Apply(a, nil)
	fmt.Println(buy.Legal(500), evs[0].Kind, evs[0].Bet, evs[0].Amount)

	// The next round is a deal of that session, from a freshly shuffled 32-card shoe.
	deal, _ := duel.New(cfg, buy.Session(), 2)
	shoe := &card.Shoe{Cards: card.ShortDeck(), Rand: card.NewSeeded(7)}
	if _, err := deal.Apply(game.Action{Kind: game.Deal}, shoe); err != nil {
		fmt.Println(err)
	}
	fmt.Println(deal.DeckSize(), deal.Legal(0), len(duel.PictureOf(deal.Table()).Player), duel.PictureOf(deal.Table()).Computer == nil)
	// Output:
	// [] stake session 1.00
	// 32 [open wait pass] 5 true
}
