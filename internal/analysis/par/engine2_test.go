package par

import (
	"context"
	"fmt"
	"math"
	"testing"

	"cabinet/internal/analysis/rngtest"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// TestGameRTPAgainstEngine plays whole random rounds of each game with the
// analyser's strategy on the real engine (one spot, fresh full shoe every
// round as analysed) and compares the mean net result per initial bet with
// the analyser's expected value. Classic with European dealing and
// surrender checks games.md §4's ruling: the surrender is settled when the
// dealer's hand is complete and loses the whole bet to a dealer blackjack.
func TestGameRTPAgainstEngine(t *testing.T) {
	rounds := rounds(30000, 2000000)
	european := blackjack.Classic()
	european.Peek, european.Surrender = blackjack.NoHole, true
	for i, r := range []blackjack.Rules{blackjack.Classic(), blackjack.Royal(), blackjack.FreeBet(), blackjack.Zappit(), european} {
		name := string(r.Game)
		if r.Peek == blackjack.NoHole {
			name += "-european-surrender"
		}
		t.Run(name, func(t *testing.T) {
			st, res := strategyFor(t, r)
			seed := uint64(1000 + i)
			src := newStackedShoe(r.Decks, card.NewSeeded(seed))
			var a, staked acc
			for n := range rounds {
				src.reset(nil)
				_, evs := play(t, r, uint64(n+1), st, src, []game.Bet{{Spot: 0, Kind: game.Main, Amount: unit}}, "")
				m, _ := net(evs)
				a.add(m)
				var s float64
				for _, e := range evs {
					if e.Kind == game.Stake && (e.Bet == game.Main || e.Bet == game.DoubleBet || e.Bet == game.SplitBet) {
						s += float64(e.Amount) / float64(unit)
					}
				}
				staked.add(s)
			}
			simRTP := (staked.mean() + a.mean()) / staked.mean()
			t.Logf("seed %d: %d rounds: engine EV %.5f ± %.5f (RTP %.4f %% of money staked), analyser EV %.5f (RTP %.4f %%)",
				seed, a.n, a.mean(), a.se(), 100*simRTP, res.EV, 100*res.RTP)
			if d := math.Abs(a.mean() - res.EV); d > 4*a.se() {
				t.Errorf("seed %d: engine EV %.5f, analyser %.5f: differ by %.5f > 4 SE %.5f", seed, a.mean(), res.EV, d, 4*a.se())
			}
		})
	}
}

// TestDealerDistributionAgainstEngine compares the dealer's final hand
// (17–21, blackjack, 22, over 22) over rounds of the real engine where the
// player always stands, with the analyser's recursion for the same
// condition (player hand not a blackjack): S17 (Classic) and H17 (Zappit).
func TestDealerDistributionAgainstEngine(t *testing.T) {
	rounds := rounds(40000, 1000000)
	for i, id := range []game.ID{game.Classic, game.Zappit} {
		t.Run(string(id), func(t *testing.T) {
			r, _ := blackjack.Preset(id)
			b := newBJ(r, 0)
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
			src := newStackedShoe(r.Decks, card.NewSeeded(seed))
			var got [nOutcomes]float64
			n := 0
			st := standOnly{}
			for k := range rounds {
				src.reset(nil)
				rd, err := blackjack.New(r, uint64(k+1))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := rd.Apply(game.Action{Kind: game.Deal, Funds: rich, Bets: []game.Bet{{Kind: game.Main, Amount: unit}}}, src); err != nil {
					t.Fatal(err)
				}
				for !rd.Done() {
					if _, err := rd.Apply(game.Action{Kind: st.choose(rd.Legal(rich)), Funds: rich}, src); err != nil {
						t.Fatal(err)
					}
				}
				if tot, _ := blackjack.Total(rd.Hands[0].Cards); tot == 21 && len(rd.Hands[0].Cards) == 2 {
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
	t, _ := blackjack.Total(cs)
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

// TestFreeBetSideBetsAgainstEngine places every Free Bet side bet on real
// engine rounds and compares each bet's mean return with the exact figure.
func TestFreeBetSideBetsAgainstEngine(t *testing.T) {
	rounds := rounds(40000, 2000000)
	r := blackjack.FreeBet()
	rep, err := Analyse(context.Background(), r, DefaultProgressive(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := strategyFor(t, r)
	const seed = 4242
	src := newStackedShoe(r.Decks, card.NewSeeded(seed))
	bets := []game.Bet{{Kind: game.Main, Amount: unit}}
	for _, s := range r.Side {
		bets = append(bets, game.Bet{Kind: s.Kind, Amount: unit})
	}
	accs := map[game.BetKind]*acc{}
	for _, s := range r.Side {
		accs[s.Kind] = &acc{}
	}
	for n := range rounds {
		src.reset(nil)
		_, evs := play(t, r, uint64(n+1), st, src, bets, "")
		_, side := net(evs)
		for k, a := range accs {
			a.add(1 + side[k]) // amount returned per unit staked
		}
	}
	for _, s := range rep.Side {
		a := accs[s.Kind]
		t.Logf("seed %d: %s engine %.4f ± %.4f over %d rounds, exact %.4f", seed, s.Kind, a.mean(), a.se(), a.n, s.RTP)
		if d := math.Abs(a.mean() - s.RTP); d > 4*a.se() {
			t.Errorf("seed %d: %s: engine return %.4f, exact %.4f: differ by %.4f > 4 SE %.4f", seed, s.Kind, a.mean(), s.RTP, d, 4*a.se())
		}
	}
}
