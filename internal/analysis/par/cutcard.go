package par

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"

	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// Free Bet deals from a shoe with a cut card (games.md §2): rounds go on
// while the cut card has not come out. Every round's expectation, wherever it
// starts, is the full shoe's (the cards after any point a round may start at
// are, given what came before, a random order of the rest); the return per
// round still differs, because how many rounds a shoe gives depends on its
// cards (the cut-card effect). It is measured by simulation on the engine,
// paired so that the round's own spread mostly cancels:
//
// every shoe is dealt twice over the same cards, once by the cut card (A: R
// rounds) and once for a fixed number m of rounds (B). B's rounds are rounds
// at points decided by the cards before them, so their sum has exactly m
// times the full shoe's expectation, EV and Staked known exactly. A and B
// share their first min(R, m) rounds; only the few rounds between m and R
// differ. Hence, per shoe, with a = A − B (net), s = S_A − S_B (money staked)
// and d = R − m:
//
//	return per money staked  = 1 + (m·EV + E[a]) / (m·Staked + E[s])
//	return per initial bet   = 1 + (m·EV + E[a]) / (m + E[d])
//
// with a 95 % interval from the shoes' spread (delta method). m is the median
// of R over a pilot of shoes drawn with another seed (any fixed m gives the
// same expectation; the median makes the spread smallest); a shoe too short
// for m rounds is an error, never a silent truncation. The player is the
// analyser's (Values.Choose), one spot, as the figures assume. Deterministic
// like the cap's simulation (blocks of shoes seeded from (CutSeed, block)).

// CutShoes and CutSeed are the simulation's size and seed.
const (
	CutShoes = 620_000
	CutSeed  = 20261125
	cutBlock = 2_000
	cutPilot = 2_000
)

// CutEstimate is the simulated cut-card effect.
type CutEstimate struct {
	Shoes int    `json:"shoes"`
	Seed  uint64 `json:"seed"`
	// M is the reference's rounds per shoe, Rounds the mean rounds a shoe
	// gives by the cut card.
	M      int     `json:"m"`
	Rounds float64 `json:"rounds"`
	// RTP and RTPBet are the returns by the cut card, HalfWidth and
	// HalfWidthBet their 95 % half-widths.
	RTP          float64 `json:"rtp"`
	RTPBet       float64 `json:"rtp_initial"`
	HalfWidth    float64 `json:"half_width"`
	HalfWidthBet float64 `json:"half_width_initial"`
}

var errShoeShort = errors.New("shoe exhausted before the reference's rounds")

// cutShoe is one shoe's sums: a, s, d as above.
type cutShoe struct{ a, s, d float64 }

// playShoe deals one shoe (both ways) with player ch.
func playShoe(r blackjack.Rules, rd *blackjack.Round, ch *roundChooser, rnd io.Reader, m int, buf *simBuf) (cutShoe, error) {
	shoe, _, err := blackjack.NextShoe(r, nil, func() io.Reader { return rnd })
	if err != nil {
		return cutShoe{}, err
	}
	var out cutShoe
	inA := true
	for j := 0; ; j++ {
		// blackjack.NextShoe's rule: the shoe goes on while its cut card
		// has not come out.
		inA = inA && !shoe.CutReached()
		inB := j < m
		if !inA && !inB {
			return out, nil
		}
		x, st, err := buf.round(r, rd, ch, shoe, uint64(j+1))
		if errors.Is(err, card.ErrEmpty) {
			return cutShoe{}, fmt.Errorf("%w (%d rounds, m = %d)", errShoeShort, j, m)
		}
		if err != nil {
			return cutShoe{}, err
		}
		switch {
		case inA && !inB:
			out.a, out.s, out.d = out.a+x, out.s+st, out.d+1
		case inB && !inA:
			out.a, out.s, out.d = out.a-x, out.s-st, out.d-1
		}
	}
}

// simulateCut estimates r's return by the cut card over shoes shoes, given
// the full shoe's exact EV and Staked per round.
func simulateCut(ctxt context.Context, r blackjack.Rules, ev, staked float64, shoes int, seed uint64) (CutEstimate, error) {
	est := CutEstimate{Shoes: shoes, Seed: seed}
	// Pilot: m is the median of R (m = 0 makes B empty: a shoe is A alone).
	pilot := make([]float64, cutPilot)
	if err := simWorkers(ctxt, r, 1, func(_ int, rd *blackjack.Round, ch *roundChooser, buf *simBuf) error {
		rnd := blockSeed(seed+1, 0)
		for i := range pilot {
			sh, err := playShoe(r, rd, ch, rnd, 0, buf)
			if err != nil {
				return err
			}
			pilot[i] = sh.d
		}
		return nil
	}); err != nil {
		return est, fmt.Errorf("par: cut-card simulation (pilot): %w", err)
	}
	sort.Float64s(pilot)
	m := int(pilot[len(pilot)/2])
	est.M = m

	nb := (shoes + cutBlock - 1) / cutBlock
	type sums struct{ a, s, d, aa, ss, dd, as, ad float64 }
	blocks := make([]sums, nb)
	err := simWorkers(ctxt, r, nb, func(b int, rd *blackjack.Round, ch *roundChooser, buf *simBuf) error {
		rnd := blockSeed(seed, b)
		var t sums
		for range min(cutBlock, shoes-b*cutBlock) {
			sh, err := playShoe(r, rd, ch, rnd, m, buf)
			if err != nil {
				return err
			}
			t.a += sh.a
			t.s += sh.s
			t.d += sh.d
			t.aa += sh.a * sh.a
			t.ss += sh.s * sh.s
			t.dd += sh.d * sh.d
			t.as += sh.a * sh.s
			t.ad += sh.a * sh.d
		}
		blocks[b] = t
		return nil
	})
	if err != nil {
		return est, fmt.Errorf("par: cut-card simulation: %w", err)
	}
	var t sums
	for _, s := range blocks {
		t.a, t.s, t.d = t.a+s.a, t.s+s.s, t.d+s.d
		t.aa, t.ss, t.dd, t.as, t.ad = t.aa+s.aa, t.ss+s.ss, t.dd+s.dd, t.as+s.as, t.ad+s.ad
	}
	n := float64(shoes)
	ma, ms, md := t.a/n, t.s/n, t.d/n
	vaa, vss, vdd := t.aa/n-ma*ma, t.ss/n-ms*ms, t.dd/n-md*md
	cas, cad := t.as/n-ma*ms, t.ad/n-ma*md
	fm := float64(m)
	num := fm*ev + ma
	est.Rounds = fm + md
	// Per money staked: f = num / den, den = m·Staked + E[s].
	den := fm*staked + ms
	est.RTP = 1 + num/den
	ga, gs := 1/den, -num/(den*den)
	est.HalfWidth = 1.96 * math.Sqrt(max(0, ga*ga*vaa+gs*gs*vss+2*ga*gs*cas)/n)
	// Per initial bet: num / (m + E[d]).
	gb, gd := 1/est.Rounds, -num/(est.Rounds*est.Rounds)
	est.RTPBet = 1 + num/est.Rounds
	est.HalfWidthBet = 1.96 * math.Sqrt(max(0, gb*gb*vaa+gd*gd*vdd+2*gb*gd*cad)/n)
	return est, nil
}
