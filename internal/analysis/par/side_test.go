package par

import (
	"context"
	"math"
	"testing"

	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/sidebet"
)

// TestSideBetsClosedForm checks the enumerations against hand-worked
// combinatorial formulas for a shoe of d decks, N = 52d cards.
func TestSideBetsClosedForm(t *testing.T) {
	for _, d := range []int{1, 6, 8} {
		D, N := float64(d), 52*float64(d)
		// Any Pair: the second card is the same card (d−1 left) or the same
		// rank in another suit (3d).
		ap := anyPair(d)
		wantSP, wantP := (D-1)/(N-1), 3*D/(N-1)
		// 21+3 over ordered triples: N(N−1)(N−2) in all.
		all := N * (N - 1) * (N - 2)
		sTrips := 52 * D * (D - 1) * (D - 2) / all
		trips := 13*(4*D)*(4*D-1)*(4*D-2)/all - sTrips
		sf := 12 * 4 * 6 * D * D * D / all // 12 sequences × 4 suits × 3! orders
		straight := 12*6*(4*D)*(4*D)*(4*D)/all - sf
		flush := 4*(13*D)*(13*D-1)*(13*D-2)/all - sf - sTrips
		tp := threeCard(d, sidebet.TwentyOnePlus3)
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"any pair suited", ap[sidebet.SuitedPair], wantSP},
			{"any pair", ap[sidebet.Pair], wantP},
			{"21+3 suited trips", tp[sidebet.SuitedTrips], sTrips},
			{"21+3 trips", tp[sidebet.Trips], trips},
			{"21+3 straight flush", tp[sidebet.StraightFlush], sf},
			{"21+3 straight", tp[sidebet.Straight], straight},
			{"21+3 flush", tp[sidebet.Flush], flush},
		} {
			if math.Abs(c.got-c.want) > 1e-12 {
				t.Errorf("%d decks: %s = %.12f, want %.12f", d, c.name, c.got, c.want)
			}
		}
	}
}

// TestRoyalFromPublishedCounts recomputes the Royal Poker return from the
// published five-card frequency table (not from the enumeration).
func TestRoyalFromPublishedCounts(t *testing.T) {
	r := blackjack.Royal()
	pr := DefaultProgressive()
	res, err := royal(r, pr)
	if err != nil {
		t.Fatal(err)
	}
	const total = 2598960.0
	fixed := (624*500 + 3744*100 + 5108*50 + 10200*25 + 54912*5) / total
	want := fixed + 0.2030843 + 4/total*2000000/100
	if math.Abs(res.RTP-want) > 1e-12 || math.Abs(res.Fixed-fixed) > 1e-12 {
		t.Errorf("royal RTP = %.10f (fixed %.10f), want %.10f (fixed %.10f)", res.RTP, res.Fixed, want, fixed)
	}
	// Steady state: the mean pool balances contributions, resets and wins.
	pR, pSF := 4/total, 36/total
	c := 0.2030843 * 100 // cents per stake
	m := res.MeanPool * 100
	if bal := c + pR*(2000000-m) - 0.1*pSF*m; math.Abs(bal) > 1e-6 {
		t.Errorf("mean pool %.2f does not balance: drift %.3g cents per round", res.MeanPool, bal)
	}
	if _, err := royal(blackjack.Classic(), pr); err == nil {
		t.Errorf("royal(Classic) succeeded, want ErrNoSideBet")
	}
}

// TestAnalyseAll runs the whole PAR of every game once (as `cabinet par
// --game all`) and checks its invariants.
func TestAnalyseAll(t *testing.T) {
	for _, id := range blackjackGames {
		r, _ := blackjack.Preset(id)
		rep, err := analyseSides(context.Background(), r, DefaultProgressive())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Side {
			var sum float64
			for _, o := range s.Outcomes {
				sum += o.P
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("%s %s: outcome probabilities sum to %.12f, want 1", id, s.Kind, sum)
			}
		}
	}
}
