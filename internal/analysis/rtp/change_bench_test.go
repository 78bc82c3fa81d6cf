package rtp

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
)

// singleChanges are single operator changes of the shipped configuration,
// one of each kind the operator menu or the file can make to a game's
// rules (limits, spots, the win cap, decks, soft 17, dealing, surrender,
// resplits, penetration, side bets, the Royal Poker stake), and min_rtp.
func singleChanges(in Input) []func(Input) Input {
	with := func(id game.ID, f func(*blackjack.Rules)) func(Input) Input {
		return func(in Input) Input {
			out := in
			out.Rules = map[game.ID]blackjack.Rules{}
			for k, v := range in.Rules {
				out.Rules[k] = v
			}
			r := out.Rules[id]
			f(&r)
			out.Rules[id] = r
			return out
		}
	}
	return []func(Input) Input{
		with(game.Zappit, func(r *blackjack.Rules) { r.MaxBet = 10000 }),
		with(game.Zappit, func(r *blackjack.Rules) { r.MaxSpots = 1 }),
		with(game.Zappit, func(r *blackjack.Rules) { r.WinCap = 5000 }),
		with(game.Zappit, func(r *blackjack.Rules) { r.MinBet = 200 }),
		with(game.Classic, func(r *blackjack.Rules) { r.Decks = 1 }),
		with(game.Classic, func(r *blackjack.Rules) { r.Decks = 8 }),
		with(game.Classic, func(r *blackjack.Rules) { r.HitSoft17 = true }),
		with(game.Classic, func(r *blackjack.Rules) { r.Peek = blackjack.NoHole }),
		with(game.Classic, func(r *blackjack.Rules) { r.Surrender = false }),
		with(game.Classic, func(r *blackjack.Rules) { r.MaxHands = 2 }),
		with(game.Classic, func(r *blackjack.Rules) { r.MaxBet = 50000 }),
		with(game.FreeBet, func(r *blackjack.Rules) { r.Penetration = 50 }),
		with(game.FreeBet, func(r *blackjack.Rules) { r.MaxSpots = 3 }),
		with(game.FreeBet, func(r *blackjack.Rules) { r.Side = r.Side[:1] }),
		with(game.Royal, func(r *blackjack.Rules) { r.RoyalStake = 500 }),
		with(game.Royal, func(r *blackjack.Rules) { r.Side = nil }),
		func(in Input) Input { in.MinRTP = 8000; return in },
	}
}

// BenchmarkGuardChange is what the operator waits for: the return check of
// the shipped configuration with one change, on a fresh Guard (start-up
// with that configuration; a running cabinet's Guard knows at least as
// much); a refusal is an answer too. Iterations cycle through singleChanges; max-ms is the slowest
// change measured (wall clock), max-cpu-ms the same in the process's CPU
// time (with -cpu 1, the time on one core whatever else the machine
// runs: the figure the goal of 0.5 s is about), ns/op their mean.
func BenchmarkGuardChange(b *testing.B) {
	base, err := FromConfig(shipped(b))
	if err != nil {
		b.Fatal(err)
	}
	changes := singleChanges(base)
	inputs := make([]Input, len(changes))
	for i, c := range changes {
		inputs[i] = c(base)
	}
	var worst, worstCPU time.Duration
	i := 0
	for b.Loop() {
		in := inputs[i%len(inputs)]
		t0, c0 := time.Now(), cpuTime()
		if _, err := NewGuard().Check(context.Background(), in); err != nil && !errors.Is(err, ErrRefused) {
			b.Fatalf("change %d: %v", i%len(inputs), err)
		}
		worst, worstCPU = max(worst, time.Since(t0)), max(worstCPU, cpuTime()-c0)
		i++
	}
	if i >= len(inputs) {
		b.ReportMetric(float64(worst)/1e6, "max-ms")
		b.ReportMetric(float64(worstCPU)/1e6, "max-cpu-ms")
	}
}

// cpuTime is the process's CPU time so far (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
