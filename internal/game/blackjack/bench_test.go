package blackjack

import (
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// BenchmarkRound plays whole rounds of each variant with the Basic strategy
// on a freshly shuffled (lazily drawn) shoe: ns/op is the time of one round.
func BenchmarkRound(b *testing.B) {
	for _, name := range []string{"classic", "classic-european", "royal", "freebet", "zappit"} {
		rules := variants()[name]
		b.Run(name, func(b *testing.B) {
			bets := []game.Bet{{Spot: 0, Kind: game.Main, Amount: 1000}}
			if name == "royal" {
				bets = royalBets()
			}
			if name == "freebet" {
				bets = append(bets, side(0, game.AnyPair, 100), side(0, game.BustIt, 100))
			}
			rnd := card.NewSeeded(1)
			shoe := card.NewShoe(rules.Decks)
			shoe.Rand = rnd
			funds := money.Cents(1 << 40)
			n := uint64(0)
			for b.Loop() {
				n++
				shoe.Pos = 0
				r, err := New(rules, n)
				if err != nil {
					b.Fatal(err)
				}
				a := game.Action{Kind: game.Deal, Bets: bets, Funds: funds}
				for {
					if _, err := r.Apply(a, shoe); err != nil {
						b.Fatal(err)
					}
					if r.Done() {
						break
					}
					a = game.Action{Kind: Basic(r, r.Legal(funds)), Funds: funds}
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
		})
	}
}
