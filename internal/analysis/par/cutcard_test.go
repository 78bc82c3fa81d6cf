package par

import (
	"context"
	"errors"
	"io"
	"math"
	"runtime"
	"testing"

	"cabinet/internal/analysis/par/partest"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

func freeBetValues(t *testing.T) (blackjack.Rules, *Values, MainResult) {
	t.Helper()
	r := blackjack.FreeBet()
	v, res, err := AnalysedValues(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return r, v, res
}

// TestFixedRoundsAreFullShoe checks the premise of the paired estimator:
// rounds dealt one after another from a shoe, a fixed number of them, return
// what a full shoe's round does (each starts at a point the cards before it
// decide; the cards after it are a random order of the rest).
func TestFixedRoundsAreFullShoe(t *testing.T) {
	if partest.RaceEnabled() {
		t.Skip("pure computation, run without -race by scripts/test")
	}
	r, v, res := freeBetValues(t)
	rd, err := blackjack.New(r, 1)
	if err != nil {
		t.Fatal(err)
	}
	ch, buf := newRoundChooser(v), &simBuf{}
	rnd := card.NewSeeded(41)
	var net, staked partest.Acc
	for range partest.Rounds(6_000, 60_000) {
		shoe, _, err := blackjack.NextShoe(r, nil, func() io.Reader { return rnd })
		if err != nil {
			t.Fatal(err)
		}
		for j := range 60 { // 60 rounds: past the cut card, never past the shoe
			x, st, err := buf.round(r, rd, ch, shoe, uint64(j+1))
			if err != nil {
				t.Fatal(err)
			}
			net.Add(x)
			staked.Add(st)
		}
	}
	t.Logf("%d rounds: net %.5f ± %.5f, staked %.5f ± %.5f; exact full shoe %.5f, %.5f", net.N, net.Mean(), net.SE(), staked.Mean(), staked.SE(), res.EV, res.Staked)
	if d := math.Abs(net.Mean() - res.EV); d > 4*net.SE() {
		t.Errorf("net per round %.5f, full shoe %.5f: differ by %.5f > 4 SE", net.Mean(), res.EV, d)
	}
	if d := math.Abs(staked.Mean() - res.Staked); d > 4*staked.SE() {
		t.Errorf("staked per round %.5f, full shoe %.5f: differ by %.5f > 4 SE", staked.Mean(), res.Staked, d)
	}
}

// TestCutSimulation: the paired estimate agrees with the plain mean of the
// same kind of shoes dealt by the cut card (far wider interval), lies within
// a few tenths of a percent of the full shoe, and is deterministic on any
// number of cores.
func TestCutSimulation(t *testing.T) {
	if partest.RaceEnabled() {
		t.Skip("pure computation, run without -race by scripts/test")
	}
	r, v, res := freeBetValues(t)
	shoes := partest.Rounds(20_000, 200_000)
	old := runtime.GOMAXPROCS(1)
	one, err := simulateCut(context.Background(), r, res.EV, res.Staked, shoes, 5)
	runtime.GOMAXPROCS(max(2, old))
	if err != nil {
		t.Fatal(err)
	}
	many, err := simulateCut(context.Background(), r, res.EV, res.Staked, shoes, 5)
	runtime.GOMAXPROCS(old)
	if err != nil {
		t.Fatal(err)
	}
	if one != many {
		t.Errorf("one core %+v, several %+v", one, many)
	}
	t.Logf("paired: %d shoes, m %d, %.2f rounds a shoe: RTP %.4f %% ± %.4f (full shoe %.4f %%)", one.Shoes, one.M, one.Rounds, 100*one.RTP, 100*one.HalfWidth, 100*res.RTP)
	if math.Abs(one.RTP-res.RTP) > 0.002 || one.HalfWidth <= 0 || one.HalfWidth > 0.0005 {
		t.Errorf("estimate %+v against the full shoe %.5f: implausible", one, res.RTP)
	}

	// Plain: the shoes dealt by the cut card alone, money in over money staked.
	rd, err := blackjack.New(r, 1)
	if err != nil {
		t.Fatal(err)
	}
	ch, buf := newRoundChooser(v), &simBuf{}
	rnd := card.NewSeeded(77)
	var net, staked, cross float64
	var perShoe []([2]float64)
	for range shoes {
		sh, err := playShoe(r, rd, ch, rnd, 0, buf) // m = 0: the shoe by the cut card alone
		if err != nil {
			t.Fatal(err)
		}
		perShoe = append(perShoe, [2]float64{sh.a, sh.s})
		net += sh.a
		staked += sh.s
	}
	n := float64(shoes)
	ratio := net / staked
	for _, p := range perShoe {
		d := p[0] - ratio*p[1]
		cross += d * d
	}
	se := math.Sqrt(cross/n) / (staked / n) / math.Sqrt(n)
	plain := 1 + ratio
	t.Logf("plain: RTP %.4f %% ± %.4f", 100*plain, 100*1.96*se)
	if d := math.Abs(plain - one.RTP); d > 4*math.Hypot(se, one.HalfWidth/1.96) {
		t.Errorf("plain %.5f, paired %.5f: differ by %.5f", plain, one.RTP, d)
	}
}

// TestShoeTooShort: a reference longer than the shoe can deal is an error
// naming it, never a truncated sum.
func TestShoeTooShort(t *testing.T) {
	r, v, _ := freeBetValues(t)
	rd, err := blackjack.New(r, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = playShoe(r, rd, newRoundChooser(v), card.NewSeeded(1), 1000, &simBuf{})
	if !errors.Is(err, errShoeShort) {
		t.Fatalf("playShoe with m = 1000: %v, want errShoeShort", err)
	}
}
