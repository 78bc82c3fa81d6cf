package player

import (
	"syscall"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// benchBets are the bets of every benchmark round: one main bet of 10.00;
// Royal adds the second spot and the Royal Poker bet, Free Bet Any Pair and
// Bust It.
func benchBets(name string) []game.Bet {
	main := func(spot int, a money.Cents) game.Bet { return game.Bet{Spot: spot, Kind: game.Main, Amount: a} }
	side := func(spot int, k game.BetKind, a money.Cents) game.Bet {
		return game.Bet{Spot: spot, Kind: k, Amount: a}
	}
	switch name {
	case "royal":
		return []game.Bet{main(0, 1000), main(1, 1000), side(0, game.RoyalSide, 100)}
	case "freebet":
		return []game.Bet{main(0, 1000), side(0, game.AnyPair, 100), side(0, game.BustIt, 100)}
	}
	return []game.Bet{main(0, 1000)}
}

// benchRounds plays b.N whole rounds of the variant under the basic strategy
// (Basic) on a freshly shuffled, lazily drawn shoe, as the simulator does:
// one Round renewed for every round, AppendApply and AppendLegal into reused
// buffers (the events and rounds are those Apply records; see
// TestAppendApplyMatchesApply). It reports rounds/s; allocs/op is per round.
func benchRounds(b *testing.B, name string) {
	rules := benchVariants()[name]
	bets := benchBets(name)
	shoe := card.NewShoe(rules.Decks)
	shoe.Rand = card.NewSeeded(1)
	funds := money.Cents(1 << 40)
	r, err := blackjack.New(rules, 0)
	if err != nil {
		b.Fatal(err)
	}
	var evs []game.Event
	var legal []game.ActionKind
	n := uint64(0)
	b.ReportAllocs()
	cpu0 := cpuSeconds(b)
	for b.Loop() {
		n++
		shoe.Pos = 0
		r.Renew(n)
		a := game.Action{Kind: game.Deal, Bets: bets, Funds: funds}
		for {
			if evs, err = r.AppendApply(evs[:0], a, shoe); err != nil {
				b.Fatal(err)
			}
			if r.Done() {
				break
			}
			legal = r.AppendLegal(legal[:0], funds)
			a = game.Action{Kind: Basic(r, legal), Funds: funds}
		}
	}
	report(b, cpu0)
}

// report gives rounds/s (wall clock) and rounds/cpu-s (per second of the
// process's CPU time: steadier on a shared machine; with -cpu 1 and no
// allocation it is the loop's own time).
func report(b *testing.B, cpu0 float64) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
	if cpu := cpuSeconds(b) - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu, "rounds/cpu-s")
	}
}

func cpuSeconds(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Sec) + float64(ru.Utime.Usec)/1e6 + float64(ru.Stime.Sec) + float64(ru.Stime.Usec)/1e6
}

func BenchmarkClassicRound(b *testing.B)         { benchRounds(b, "classic") }
func BenchmarkClassicEuropeanRound(b *testing.B) { benchRounds(b, "classic-european") }
func BenchmarkRoyalRound(b *testing.B)           { benchRounds(b, "royal") }
func BenchmarkFreeBetRound(b *testing.B)         { benchRounds(b, "freebet") }
func BenchmarkZappitRound(b *testing.B)          { benchRounds(b, "zappit") }

// BenchmarkApplyRound plays the same rounds the way the controller does: New for
// every round, Apply (a fresh copy per step) and Legal. ns/op is one round.
func BenchmarkApplyRound(b *testing.B) {
	for _, name := range []string{"classic", "classic-european", "royal", "freebet", "zappit"} {
		rules := benchVariants()[name]
		b.Run(name, func(b *testing.B) {
			bets := benchBets(name)
			shoe := card.NewShoe(rules.Decks)
			shoe.Rand = card.NewSeeded(1)
			funds := money.Cents(1 << 40)
			n := uint64(0)
			b.ReportAllocs()
			cpu0 := cpuSeconds(b)
			for b.Loop() {
				n++
				shoe.Pos = 0
				r, err := blackjack.New(rules, n)
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
			report(b, cpu0)
		})
	}
}

// benchVariants are the rules of the engine benchmarks: each preset, and
// Classic with European dealing.
func benchVariants() map[string]blackjack.Rules {
	eu := blackjack.Classic()
	eu.Peek = blackjack.NoHole
	return map[string]blackjack.Rules{"classic": blackjack.Classic(), "classic-european": eu,
		"royal": blackjack.Royal(), "freebet": blackjack.FreeBet(), "zappit": blackjack.Zappit()}
}
