package poker

import (
	"math/rand/v2"
	"syscall"
	"testing"

	"cabinet/internal/game/card"
)

// The benchmarks measure Eval (the table evaluator) and evalBits (the
// bit-counting evaluator it replaced) side by side, so one run of
//
//	go test -run '^$' -bench . -benchmem ./internal/game/poker
//
// shows both on the same machine under the same load. Every benchmark
// reports evals/s (wall clock, one goroutine: evaluations per second per
// core) and evals/cpu-s (per second of process CPU time, steadier on a
// loaded machine). scripts/bench reads BenchmarkEval's evals/s.

// randomHands deals 4096 random hands of deck (fixed seed).
func randomHands(deck []card.Card) [][5]card.Card {
	rng := rand.New(rand.NewPCG(1, 2))
	hands := make([][5]card.Card, 4096)
	for i := range hands {
		rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		hands[i] = [5]card.Card(deck[:5])
	}
	return hands
}

func benchRandom(b *testing.B, deck []card.Card, short bool, eval func([5]card.Card, bool) Value) {
	hands := randomHands(deck)
	var sink Value
	n := 0
	cpu0 := cpuSeconds(b)
	for b.Loop() {
		sink ^= eval(hands[n&4095], short)
		n++
	}
	report(b, n, cpu0)
	_ = sink
}

func BenchmarkEval(b *testing.B)           { benchRandom(b, card.Deck(), false, Eval) }
func BenchmarkEval32(b *testing.B)         { benchRandom(b, card.ShortDeck(), true, Eval) }
func BenchmarkEvalBitsOld(b *testing.B)    { benchRandom(b, card.Deck(), false, evalBits) }
func BenchmarkEvalBitsOld32(b *testing.B)  { benchRandom(b, card.ShortDeck(), true, evalBits) }
func BenchmarkEnumerate52(b *testing.B)    { benchEnumerate(b, card.Deck(), false, allHands) }
func BenchmarkEnumerate32(b *testing.B)    { benchEnumerate(b, card.ShortDeck(), true, allHands) }
func BenchmarkEnumerate52Old(b *testing.B) { benchEnumerate(b, card.Deck(), false, allHandsOld) }
func BenchmarkEnumerate32Old(b *testing.B) { benchEnumerate(b, card.ShortDeck(), true, allHandsOld) }

// benchEnumerate evaluates every hand of deck once per iteration: ns/op is
// the time of an exhaustive enumeration (the goal: C(52,5) under 40 ms).
func benchEnumerate(b *testing.B, deck []card.Card, short bool, all func([]card.Card, bool) (Value, int)) {
	var sink Value
	n := 0
	cpu0 := cpuSeconds(b)
	for b.Loop() {
		v, k := all(deck, short)
		sink ^= v
		n += k
	}
	report(b, n, cpu0)
	_ = sink
}

// allHands evaluates every hand of deck with Eval, called directly in the loops
// (as a simulation or the analyser would, not through a closure).
func allHands(deck []card.Card, short bool) (sink Value, n int) {
	var h [5]card.Card
	for a := 0; a < len(deck); a++ {
		h[0] = deck[a]
		for b := a + 1; b < len(deck); b++ {
			h[1] = deck[b]
			for c := b + 1; c < len(deck); c++ {
				h[2] = deck[c]
				for d := c + 1; d < len(deck); d++ {
					h[3] = deck[d]
					for e := d + 1; e < len(deck); e++ {
						h[4] = deck[e]
						sink ^= Eval(h, short)
						n++
					}
				}
			}
		}
	}
	return sink, n
}

// allHandsOld evaluates every hand of deck with evalBits, called directly in the loops
// (as a simulation or the analyser would, not through a closure).
func allHandsOld(deck []card.Card, short bool) (sink Value, n int) {
	var h [5]card.Card
	for a := 0; a < len(deck); a++ {
		h[0] = deck[a]
		for b := a + 1; b < len(deck); b++ {
			h[1] = deck[b]
			for c := b + 1; c < len(deck); c++ {
				h[2] = deck[c]
				for d := c + 1; d < len(deck); d++ {
					h[3] = deck[d]
					for e := d + 1; e < len(deck); e++ {
						h[4] = deck[e]
						sink ^= evalBits(h, short)
						n++
					}
				}
			}
		}
	}
	return sink, n
}

// BenchmarkBuildTables measures what the tables cost the program at start.
func BenchmarkBuildTables(b *testing.B) {
	for b.Loop() {
		buildTables()
	}
}

func report(b *testing.B, n int, cpu0 float64) {
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "evals/s")
	if cpu := cpuSeconds(b) - cpu0; cpu > 0 {
		b.ReportMetric(float64(n)/cpu, "evals/cpu-s")
	}
}

func cpuSeconds(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Sec) + float64(ru.Utime.Usec)/1e6
}
