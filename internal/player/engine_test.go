package player

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"

	"cabinet/internal/analysis/par"
	"cabinet/internal/analysis/par/partest"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// strategies shares one Optimal per game between the tests (building the
// Zappit zap values is the expensive part, especially under -race).
var strategies sync.Map

type analysed struct {
	s   *Optimal
	res par.MainResult
}

func strategyFor(t testing.TB, r blackjack.Rules) (*Optimal, par.MainResult) {
	t.Helper()
	key := string(r.Game) + "/" + string(r.Peek)
	if a, ok := strategies.Load(key); ok {
		return a.(analysed).s, a.(analysed).res
	}
	v, res, err := par.AnalysedValues(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := strategies.LoadOrStore(key, analysed{OptimalFor(v), res})
	return a.(analysed).s, a.(analysed).res
}

func cardOfValue(v int, suit card.Suit) card.Card {
	switch v {
	case 1:
		return card.Card{Rank: card.Ace, Suit: suit}
	case 10:
		return card.Card{Rank: card.King, Suit: suit}
	}
	return card.Card{Rank: card.Rank(v), Suit: suit}
}

type situation struct {
	a, b, up int
	action   string // "" = the strategy's choice all through
}

func (s situation) String() string {
	act := s.action
	if act == "" {
		act = "best"
	}
	return fmt.Sprintf("%d,%d_vs_%d_%s", s.a, s.b, s.up, act)
}

// analyserEV is the analyser's expected value of situation s (per initial bet).
func analyserEV(st *Optimal, s situation) (float64, error) {
	return st.v.SituationEV(s.up, s.a, s.b, game.ActionKind(s.action))
}

// TestSituationsAgainstEngine plays the real engine with the analyser's
// strategy from fixed first cards and compares the mean result with the
// analyser's expected value of that situation (and of a forced first action).
func TestSituationsAgainstEngine(t *testing.T) {
	rounds := partest.Rounds(6000, 200000)
	cases := map[game.ID][]situation{
		game.Classic: {{10, 6, 10, "stand"}, {10, 6, 10, "hit"}, {10, 6, 10, ""}, {8, 8, 10, "split"}, {6, 5, 6, "double"}, {1, 7, 9, ""}, {1, 10, 1, ""}},
		game.Royal:   {{5, 6, 10, "double"}, {1, 1, 6, "split"}, {10, 2, 4, ""}, {1, 10, 1, ""}, {9, 9, 9, "split"}},
		game.FreeBet: {{5, 4, 6, "double"}, {8, 8, 10, "split"}, {10, 10, 6, "split"}, {10, 6, 10, ""}, {1, 10, 10, ""}, {2, 2, 2, ""},
			{1, 7, 10, "double"}, {10, 10, 10, "split"}, {6, 5, 10, "double"}}, // ten up: late blackjack costs the original bet only
		game.Zappit: {{10, 6, 10, "zap"}, {10, 8, 9, ""}, {9, 7, 7, "zap"}, {5, 6, 10, "double"}, {10, 10, 1, ""}},
	}
	european := blackjack.Classic()
	european.Peek = blackjack.NoHole
	const eu = game.ID("classic-european") // test label only
	cases[eu] = []situation{{10, 6, 10, "hit"}, {6, 5, 10, "double"}, {8, 8, 1, "split"}, {10, 6, 1, "surrender"}}
	seed := uint64(20261122)
	for _, id := range []game.ID{game.Classic, game.Royal, game.FreeBet, game.Zappit, eu} {
		r, err := blackjack.Preset(id)
		if id == eu {
			r, err = european, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		st, _ := strategyFor(t, r)
		for i, sit := range cases[id] {
			t.Run(fmt.Sprintf("%s/%v", id, sit), func(t *testing.T) {
				want, err := analyserEV(st, sit)
				if err != nil {
					t.Fatal(err)
				}
				sd := seed + uint64(i)*7919 + uint64(len(id))
				src := partest.NewStackedShoe(r.Decks, card.NewSeeded(sd))
				pre := []card.Card{cardOfValue(sit.a, card.Spades), cardOfValue(sit.up, card.Diamonds), cardOfValue(sit.b, card.Hearts)}
				var a partest.Acc
				for n := range rounds {
					src.Reset(pre)
					_, evs := partest.Play(t, r, uint64(n+1), st, src, []game.Bet{{Spot: 0, Kind: game.Main, Amount: partest.Unit}}, game.ActionKind(sit.action))
					m, _ := partest.Net(evs)
					a.Add(m)
				}
				tol := 4*a.SE() + 1e-9
				t.Logf("seed %d: engine %.4f ± %.4f over %d rounds, analyser %.4f", sd, a.Mean(), a.SE(), a.N, want)
				if d := math.Abs(a.Mean() - want); d > tol {
					t.Errorf("seed %d: engine mean %.4f, analyser EV %.4f: differ by %.4f > 4 SE = %.4f", sd, a.Mean(), want, d, tol)
				}
			})
		}
	}
}

// TestGameRTPAgainstEngine plays whole random rounds of each game with the
// analyser's strategy on the real engine (one spot, fresh full shoe every
// round as analysed) and compares the mean net result per initial bet with
// the analyser's expected value. Classic with European dealing and
// surrender checks games.md §4's ruling: the surrender is settled when the
// dealer's hand is complete and loses the whole bet to a dealer blackjack.
func TestGameRTPAgainstEngine(t *testing.T) {
	rounds := partest.Rounds(30000, 2000000)
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
			src := partest.NewStackedShoe(r.Decks, card.NewSeeded(seed))
			var a, staked partest.Acc
			for n := range rounds {
				src.Reset(nil)
				_, evs := partest.Play(t, r, uint64(n+1), st, src, []game.Bet{{Spot: 0, Kind: game.Main, Amount: partest.Unit}}, "")
				m, _ := partest.Net(evs)
				a.Add(m)
				var s float64
				for _, e := range evs {
					if e.Kind == game.Stake && (e.Bet == game.Main || e.Bet == game.DoubleBet || e.Bet == game.SplitBet) {
						s += float64(e.Amount) / float64(partest.Unit)
					}
				}
				staked.Add(s)
			}
			simRTP := (staked.Mean() + a.Mean()) / staked.Mean()
			t.Logf("seed %d: %d rounds: engine EV %.5f ± %.5f (RTP %.4f %% of money staked), analyser EV %.5f (RTP %.4f %%)",
				seed, a.N, a.Mean(), a.SE(), 100*simRTP, res.EV, 100*res.RTP)
			if d := math.Abs(a.Mean() - res.EV); d > 4*a.SE() {
				t.Errorf("seed %d: engine EV %.5f, analyser %.5f: differ by %.5f > 4 SE %.5f", seed, a.Mean(), res.EV, d, 4*a.SE())
			}
		})
	}
}

// TestFreeBetSideBetsAgainstEngine places every Free Bet side bet on real
// engine rounds and compares each bet's mean return with the exact figure.
func TestFreeBetSideBetsAgainstEngine(t *testing.T) {
	rounds := partest.Rounds(40000, 2000000)
	r := blackjack.FreeBet()
	rep, err := par.Analyse(context.Background(), r, par.DefaultProgressive(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := strategyFor(t, r)
	const seed = 4242
	src := partest.NewStackedShoe(r.Decks, card.NewSeeded(seed))
	bets := []game.Bet{{Kind: game.Main, Amount: partest.Unit}}
	for _, s := range r.Side {
		bets = append(bets, game.Bet{Kind: s.Kind, Amount: partest.Unit})
	}
	accs := map[game.BetKind]*partest.Acc{}
	for _, s := range r.Side {
		accs[s.Kind] = &partest.Acc{}
	}
	for n := range rounds {
		src.Reset(nil)
		_, evs := partest.Play(t, r, uint64(n+1), st, src, bets, "")
		_, side := partest.Net(evs)
		for k, a := range accs {
			a.Add(1 + side[k]) // amount returned per partest.Unit staked
		}
	}
	for _, s := range rep.Side {
		a := accs[s.Kind]
		t.Logf("seed %d: %s engine %.4f ± %.4f over %d rounds, exact %.4f", seed, s.Kind, a.Mean(), a.SE(), a.N, s.RTP)
		if d := math.Abs(a.Mean() - s.RTP); d > 4*a.SE() {
			t.Errorf("seed %d: %s: engine return %.4f, exact %.4f: differ by %.4f > 4 SE %.4f", seed, s.Kind, a.Mean(), s.RTP, d, 4*a.SE())
		}
	}
}

// TestRoyalFixedPrizesAgainstEngine plays Royal Poker rounds with both spots
// and the side bet on the real engine and compares the fixed prizes' mean
// return (jackpot wins are resolved by the controller, counted apart).
func TestRoyalFixedPrizesAgainstEngine(t *testing.T) {
	n := partest.Rounds(30000, 1000000)
	r := blackjack.Royal()
	rep, err := par.Analyse(context.Background(), r, par.DefaultProgressive(), nil)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Royal
	st, _ := strategyFor(t, r)
	const seed = 99
	src := partest.NewStackedShoe(r.Decks, card.NewSeeded(seed))
	bets := []game.Bet{{Spot: 0, Kind: game.Main, Amount: partest.Unit}, {Spot: 1, Kind: game.Main, Amount: partest.Unit},
		{Spot: 0, Kind: game.RoyalSide, Amount: r.RoyalStake}}
	var a partest.Acc
	jackpots := 0
	for k := range n {
		src.Reset(nil)
		_, evs := partest.Play(t, r, uint64(k+1), st, src, bets, "")
		_, side := partest.Net(evs)
		a.Add(1 + side[game.RoyalSide]*float64(partest.Unit)/float64(r.RoyalStake))
		for _, e := range evs {
			if e.Kind == game.JackpotWin {
				jackpots++
			}
		}
	}
	t.Logf("seed %d: fixed prizes engine %.4f ± %.4f over %d rounds, exact %.4f; %d jackpot wins (expected %.2f)",
		seed, a.Mean(), a.SE(), a.N, res.Fixed, jackpots, float64(n)*40/2598960)
	if d := math.Abs(a.Mean() - res.Fixed); d > 4*a.SE() {
		t.Errorf("seed %d: fixed prizes: engine %.4f, exact %.4f: differ by %.4f > 4 SE %.4f", seed, a.Mean(), res.Fixed, d, 4*a.SE())
	}
}
