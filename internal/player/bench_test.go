package player

import (
	"testing"

	"cabinet/internal/analysis/par/partest"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// BenchmarkRounds measures simulated rounds per second on one core for each
// game: the real engine, one spot (Royal: two spots and the side bet; Free
// Bet: every side bet), cards from the seeded source, with the analyser's
// strategy ("analyser") or the engine's chart ("basic").
//
//	go test ./internal/player -run '^$' -bench Rounds -cpu 1
func BenchmarkRounds(b *testing.B) {
	for _, id := range []game.ID{game.Royal, game.FreeBet, game.Zappit, game.Classic} {
		r, _ := blackjack.Preset(id)
		bets := []game.Bet{{Spot: 0, Kind: game.Main, Amount: partest.Unit}}
		switch id {
		case game.Royal:
			bets = append(bets, game.Bet{Spot: 1, Kind: game.Main, Amount: partest.Unit}, game.Bet{Spot: 0, Kind: game.RoyalSide, Amount: r.RoyalStake})
		case game.FreeBet:
			for _, s := range r.Side {
				bets = append(bets, game.Bet{Kind: s.Kind, Amount: partest.Unit})
			}
		}
		st, _ := strategyFor(b, r)
		for _, mode := range []string{"analyser", "basic"} {
			b.Run(string(id)+"/"+mode, func(b *testing.B) {
				src := partest.NewStackedShoe(r.Decks, card.NewSeeded(1))
				n := uint64(0)
				for b.Loop() {
					n++
					src.Reset(nil)
					rd, err := blackjack.New(r, n)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := rd.Apply(game.Action{Kind: game.Deal, Funds: partest.Rich, Bets: bets}, src); err != nil {
						b.Fatal(err)
					}
					for !rd.Done() {
						legal := rd.Legal(partest.Rich)
						var a game.ActionKind
						if mode == "analyser" {
							a = st.Choose(rd.Table(), legal)
						} else {
							a = Basic(rd, legal)
						}
						if _, err := rd.Apply(game.Action{Kind: a, Funds: partest.Rich}, src); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
			})
		}
	}
}
