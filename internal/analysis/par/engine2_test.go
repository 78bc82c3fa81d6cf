package par

import (
	"fmt"
	"testing"

	"cabinet/internal/analysis/par/partest"
	"cabinet/internal/analysis/rngtest"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// TestDealerDistributionAgainstEngine compares the dealer's final hand
// (17–21, blackjack, 22, over 22) over rounds of the real engine where the
// player always stands, with the analyser's recursion for the same
// condition (player hand not a blackjack): S17 (Classic) and H17 (Zappit).
func TestDealerDistributionAgainstEngine(t *testing.T) {
	rounds := partest.Rounds(40000, 1000000)
	for i, id := range []game.ID{game.Classic, game.Zappit} {
		t.Run(string(id), func(t *testing.T) {
			r, _ := blackjack.Preset(id)
			b := newBJ(r)
			// Analyser: average the dealer distribution over the player's
			// non-blackjack first two cards and the up card.
			var want [nOutcomes]float64
			var mass float64
			for up := 1; up <= 10; up++ {
				u := b.upEval(up)
				pu := float64(b.full[up]) / float64(b.n)
				var h0 hand
				for a := 1; a <= 10; a++ {
					for c := 1; c <= 10; c++ {
						if (a == 1 && c == 10) || (a == 10 && c == 1) {
							continue
						}
						w := pu * u.main.p(h0, a) * u.main.p(h0.add(a), c)
						d := u.main.dist(handOf(a, c))
						for o := range d {
							want[o] += w * d[o]
						}
						mass += w
					}
				}
			}
			for o := range want {
				want[o] /= mass
			}
			seed := uint64(77 + i)
			src := partest.NewStackedShoe(r.Decks, card.NewSeeded(seed))
			var got [nOutcomes]float64
			n := 0
			st := standOnly{}
			for k := range rounds {
				src.Reset(nil)
				rd, err := blackjack.New(r, uint64(k+1))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := rd.Apply(game.Action{Kind: game.Deal, Funds: partest.Rich, Bets: []game.Bet{{Kind: game.Main, Amount: partest.Unit}}}, src); err != nil {
					t.Fatal(err)
				}
				for !rd.Done() {
					if _, err := rd.Apply(game.Action{Kind: st.choose(rd.Legal(partest.Rich)), Funds: partest.Rich}, src); err != nil {
						t.Fatal(err)
					}
				}
				if tot, _ := card.BlackjackTotal(rd.Hands[0].Cards); tot == 21 && len(rd.Hands[0].Cards) == 2 {
					continue
				}
				got[dealerOutcome(rd.Dealer)]++
				n++
			}
			var chi float64
			for o := range want {
				e := want[o] * float64(n)
				chi += (got[o] - e) * (got[o] - e) / e
				t.Logf("%-5s analyser %.5f engine %.5f", outcomeName(o), want[o], got[o]/float64(n))
			}
			p := rngtest.ChiSquareSF(chi, nOutcomes-1)
			t.Logf("seed %d: %d rounds, chi-square %.2f df %d p = %.4f", seed, n, chi, nOutcomes-1, p)
			if p < 1e-4 {
				t.Errorf("seed %d: dealer distribution of the engine differs from the analyser: chi-square %.2f, p = %.2g", seed, chi, p)
			}
		})
	}
}

type standOnly struct{}

func (standOnly) choose(legal []game.ActionKind) game.ActionKind {
	for _, k := range legal {
		if k == game.Stand || k == game.NoInsure {
			return k
		}
	}
	return legal[0]
}

func dealerOutcome(cs []card.Card) int {
	t, _ := card.BlackjackTotal(cs)
	switch {
	case len(cs) == 2 && t == 21:
		return oBJ
	case t == 22:
		return o22
	case t > 22:
		return oBust
	case t < 17:
		panic(fmt.Sprintf("dealer stood on %d: %v", t, cs))
	}
	return o17 + t - 17
}

func outcomeName(o int) string {
	return [...]string{"17", "18", "19", "20", "21", "BJ", "22", "bust"}[o]
}
