package par

import (
	"context"
	"math"
	"runtime"
	"testing"

	"cabinet/internal/analysis/par/partest"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// zappitAtWorst is Zappit as shipped: three spots at 25.00 under a 100.00 cap.
func zappitAtWorst() blackjack.Rules {
	r := blackjack.Zappit()
	r.MaxBet, r.MaxSpots, r.WinCap = 2500, 3, 10000
	return r
}

// TestCapSimulation: the simulated capped return lies below the exact
// uncapped return, and the floor the guard uses (capbound.go) is not above
// it beyond its interval (a lower bound may lie within it); and it agrees
// with the mean net
// result of the same rounds played whole (the capped engine's own money),
// which checks the formula RTP = 1 + EV/Staked − Excess/(Spots·Staked).
func TestCapSimulation(t *testing.T) {
	if partest.RaceEnabled() {
		t.Skip("pure computation, run without -race by scripts/test")
	}
	r := zappitAtWorst()
	rounds := partest.Rounds(200_000, 3_000_000)
	res, err := analyseMain(context.Background(), r, Sim{CapRounds: rounds}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cap
	if c == nil {
		t.Fatal("no cap simulated for a cap that binds")
	}
	t.Logf("%d rounds: capped %.4f %% ± %.4f, floor %.4f %%, uncapped %.4f %%; cap bound in %.3f %% of rounds",
		c.Rounds, 100*res.RTP, 100*c.HalfWidth, 100*c.Floor, 100*c.Uncapped, 100*c.Capped)
	if c.Floor > res.RTP+c.HalfWidth || res.RTP+c.HalfWidth >= c.Uncapped {
		t.Errorf("capped %.5f ± %.5f: the floor %.5f above it, or the uncapped %.5f not above it", res.RTP, c.HalfWidth, c.Floor, c.Uncapped)
	}
	if c.Capped <= 0 || c.Excess <= 0 || c.HalfWidth <= 0 {
		t.Errorf("estimate %+v: the cap never bound", c.CapEstimate)
	}

	// The same game played whole: the net per round over the spots.
	v, err := NewValues(r)
	if err != nil {
		t.Fatal(err)
	}
	src := partest.NewStackedShoe(r.Decks, card.NewSeeded(99))
	bets := []game.Bet{{Spot: 0, Kind: game.Main, Amount: r.MaxBet}, {Spot: 1, Kind: game.Main, Amount: r.MaxBet}, {Spot: 2, Kind: game.Main, Amount: r.MaxBet}}
	var net partest.Acc
	for n := range partest.Rounds(100_000, 1_000_000) {
		src.Reset(nil)
		_, evs := partest.Play(t, r, uint64(n+1), v, src, bets, "")
		var x float64
		for _, e := range evs {
			switch e.Kind {
			case game.Stake:
				x -= float64(e.Amount) / float64(r.MaxBet)
			case game.Payout:
				x += float64(e.Amount) / float64(r.MaxBet)
			}
		}
		net.Add(x / 3)
	}
	se := math.Hypot(net.SE(), c.HalfWidthBet/1.96)
	t.Logf("played whole: net %.5f ± %.5f per spot; simulated cap: EV %.5f", net.Mean(), net.SE(), res.EV)
	if d := math.Abs(net.Mean() - res.EV); d > 4*se {
		t.Errorf("net per spot %.5f, the capped figure's EV %.5f: differ by %.5f > 4 SE %.5f", net.Mean(), res.EV, d, 4*se)
	}
}

// TestCapSimulationDeterministic: the figure depends on the seed and the
// rounds, not on the number of cores.
func TestCapSimulationDeterministic(t *testing.T) {
	if partest.RaceEnabled() {
		t.Skip("pure computation, run without -race by scripts/test")
	}
	r := zappitAtWorst()
	rounds := partest.Rounds(60_000, 60_000)
	old := runtime.GOMAXPROCS(1)
	one, err := simulateCap(context.Background(), r, rounds, 7)
	runtime.GOMAXPROCS(max(2, old))
	if err != nil {
		t.Fatal(err)
	}
	many, err := simulateCap(context.Background(), r, rounds, 7)
	runtime.GOMAXPROCS(old)
	if err != nil {
		t.Fatal(err)
	}
	if one != many {
		t.Errorf("one core %+v, several %+v", one, many)
	}
	other, _ := simulateCap(context.Background(), r, rounds, 8)
	if other == one {
		t.Errorf("seeds 7 and 8 gave the same estimate %+v", one)
	}
}

// TestRoundChooserIsChoose: the simulations' chooser decides as Choose at
// every decision of rounds of every game (three spots where allowed).
func TestRoundChooserIsChoose(t *testing.T) {
	for _, id := range blackjackGames {
		r, _ := blackjack.Preset(id)
		t.Run(string(id), func(t *testing.T) {
			v, err := NewValues(r)
			if err != nil {
				t.Fatal(err)
			}
			ch := newRoundChooser(v)
			var bets []game.Bet
			for s := range max(1, r.MaxSpots) {
				bets = append(bets, game.Bet{Spot: s, Kind: game.Main, Amount: r.MinBet})
			}
			shoe := card.NewShoe(r.Decks)
			shoe.Rand = card.NewSeeded(3)
			decisions, zapped := 0, 0
			for n := range partest.Rounds(3000, 30000) {
				shoe.Pos = 0
				rd, err := blackjack.New(r, uint64(n+1))
				if err != nil {
					t.Fatal(err)
				}
				a := game.Action{Kind: game.Deal, Bets: bets, Funds: partest.Rich}
				for {
					if _, err := rd.Apply(a, shoe); err != nil {
						t.Fatal(err)
					}
					if rd.Done() {
						break
					}
					legal := rd.Legal(partest.Rich)
					want := v.Choose(rd.Table(), legal)
					if h := rd.Hands[max(0, rd.Active)]; rd.Phase == blackjack.PhasePlay && h.Note == "zapped" {
						// Choose sees the table only; the simulations' player
						// knows the discarded cards, as the analyser does.
						tb := rd.Table()
						hv := tb.Hands[rd.Active]
						pos, n := place(tb)
						want = v.decide(Decision{Up: value(tb.Dealer.Cards[0]), Cards: values(hv.Cards), Split: n > 1, Second: pos > 0,
							Hands: n, Zapped: true, Discarded: values(h.Zapped)}, legal)
						zapped++
					}
					if got := ch.choose(rd, legal); got != want {
						t.Fatalf("round %d: roundChooser %s, Choose %s (legal %v, table %+v)", n+1, got, want, legal, rd.Table())
					}
					decisions++
					a = game.Action{Kind: want, Funds: partest.Rich}
				}
			}
			t.Logf("%d decisions compared (%d on zapped hands, with their discarded cards)", decisions, zapped)
		})
	}
}
