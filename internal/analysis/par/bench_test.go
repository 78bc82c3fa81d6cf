package par

import (
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// BenchmarkRounds measures simulated rounds per second on one core for each
// game: the real engine, one spot (Royal: two spots and the side bet; Free
// Bet: every side bet), cards from the seeded source, with the analyser's
// strategy ("analyser") or the engine's chart ("basic").
//
//	go test ./internal/analysis -run '^$' -bench Rounds -cpu 1
func BenchmarkRounds(b *testing.B) {
	for _, id := range blackjackGames {
		r, _ := blackjack.Preset(id)
		bets := []game.Bet{{Spot: 0, Kind: game.Main, Amount: unit}}
		switch id {
		case game.Royal:
			bets = append(bets, game.Bet{Spot: 1, Kind: game.Main, Amount: unit}, game.Bet{Spot: 0, Kind: game.RoyalSide, Amount: r.RoyalStake})
		case game.FreeBet:
			for _, s := range r.Side {
				bets = append(bets, game.Bet{Kind: s.Kind, Amount: unit})
			}
		}
		st, _ := strategyFor(b, r)
		for _, mode := range []string{"analyser", "basic"} {
			b.Run(string(id)+"/"+mode, func(b *testing.B) {
				src := newStackedShoe(r.Decks, card.NewSeeded(1))
				n := uint64(0)
				for b.Loop() {
					n++
					src.reset(nil)
					rd, err := blackjack.New(r, n)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := rd.Apply(game.Action{Kind: game.Deal, Funds: rich, Bets: bets}, src); err != nil {
						b.Fatal(err)
					}
					for !rd.Done() {
						legal := rd.Legal(rich)
						var a game.ActionKind
						if mode == "analyser" {
							a = st.Choose(rd.Table(), legal)
						} else {
							a = blackjack.Basic(rd, legal)
						}
						if _, err := rd.Apply(game.Action{Kind: a, Funds: rich}, src); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
			})
		}
	}
}
