package par

import (
	"fmt"
	"sort"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/game/sidebet"
	"cabinet/internal/money"
)

// Outcome is one paying (or losing) result of a bet and its probability.
type Outcome struct {
	Name string  `json:"name"` // the paytable key; "" = lost, "push" = stake returned
	Pays string  `json:"pays"` // the payout as written in the paytable
	P    float64 `json:"p"`
}

// SideResult is the exact return of one side bet.
type SideResult struct {
	Kind     game.BetKind `json:"kind"`
	RTP      float64      `json:"rtp"` // expected amount returned per unit staked (stake included)
	Method   string       `json:"method"`
	Outcomes []Outcome    `json:"outcomes"`
	Notes    []string     `json:"notes,omitempty"`
}

// toOne turns outcome probabilities into a "to one" side bet's result
// (stake returned on top of the win).
func toOne(kind game.BetKind, method string, sr blackjack.SideRule, probs map[string]float64) SideResult {
	res := SideResult{Kind: kind, Method: method}
	var lost float64 = 1
	for name, p := range probs {
		if name == "" {
			continue
		}
		pays, ok := sr.Pays[name]
		if !ok {
			continue // a hand the operator does not pay loses
		}
		res.RTP += p * float64(pays+1)
		res.Outcomes = append(res.Outcomes, Outcome{Name: name, Pays: fmt.Sprintf("%d to 1", pays), P: p})
		lost -= p
	}
	if p, ok := probs["push"]; ok {
		res.RTP += p
		res.Outcomes = append(res.Outcomes, Outcome{Name: "push", Pays: "stake returned", P: p})
		lost -= p
	}
	sortOutcomes(res.Outcomes)
	res.Outcomes = append(res.Outcomes, Outcome{Name: "", Pays: "lost", P: lost})
	return res
}

func sortOutcomes(os []Outcome) {
	sort.Slice(os, func(i, j int) bool { return os[i].P < os[j].P })
}

// shoeCards is the 52 distinct cards, each present `decks` times.
func shoeCards() []card.Card { return card.Deck() }

// anyPair enumerates the ordered first two cards of the shoe.
func anyPair(decks int) map[string]float64 {
	cs := shoeCards()
	d := float64(decks)
	n := 52 * d
	probs := map[string]float64{}
	for i, a := range cs {
		for j, b := range cs {
			if w := firstTwo(i, j, d, n); w > 0 {
				probs[sidebet.AnyPair(a, b)] += w
			}
		}
	}
	return probs
}

// firstTwo is the probability that the first two cards dealt from a shoe of
// n cards holding d copies of each of the 52 are the distinct cards i then j
// (the same card twice when i == j: two of its copies).
func firstTwo(i, j int, d, n float64) float64 {
	if i == j {
		return d / n * (d - 1) / (n - 1)
	}
	return d / n * d / (n - 1)
}

// threeCard enumerates the ordered triples (two player cards, up card) of
// the shoe and classifies them with eval.
func threeCard(decks int, eval func(a, b, up card.Card) string) map[string]float64 {
	cs := shoeCards()
	d := float64(decks)
	n := 52 * d
	probs := map[string]float64{}
	for i, a := range cs {
		for j, b := range cs {
			w2 := firstTwo(i, j, d, n)
			if w2 == 0 {
				continue
			}
			for k, up := range cs {
				left := d
				if k == i {
					left--
				}
				if k == j {
					left--
				}
				if left <= 0 {
					continue
				}
				probs[eval(a, b, up)] += w2 * left / (n - 2)
			}
		}
	}
	return probs
}

// bustIt computes Bust It by dealer recursion over the full shoe: the
// dealer's cards are a predictable sample of the shoe, so their law does not
// depend on how the player plays. A player blackjack pushes the bet; its
// joint probability with each dealer result uses the shoe less A and a ten.
func bustIt(r blackjack.Rules) map[string]float64 {
	b := newBJ(r)
	var all, givenBJ [maxDealerCards + 1]float64
	for up := 1; up <= 10; up++ {
		g := b.graphs[up]
		scratch := make([]float64, len(g.states))
		s := b.full
		s[up]--
		var bc [maxDealerCards + 1]float64
		g.dist(&s, b.n-1, scratch, &bc)
		pu := float64(b.full[up]) / float64(b.n)
		for k := range bc {
			all[k] += pu * bc[k]
		}
		// Given the player holds A and a ten-value card.
		s2 := b.full
		s2[1]--
		s2[10]--
		if s2[up] == 0 {
			continue
		}
		pu2 := float64(s2[up]) / float64(b.n-2)
		s2[up]--
		var bc2 [maxDealerCards + 1]float64
		g.dist(&s2, b.n-3, scratch, &bc2)
		for k := range bc2 {
			givenBJ[k] += pu2 * bc2[k]
		}
	}
	pBJ := 2 * float64(b.full[1]) / float64(b.n) * float64(b.full[10]) / float64(b.n-1)
	probs := map[string]float64{"push": pBJ}
	for k := 3; k <= maxDealerCards; k++ {
		name := sidebet.BustIt(bustedHand(k))
		probs[name] += all[k] - pBJ*givenBJ[k]
	}
	return probs
}

// bustedHand is a k-card busted hand (10, 10, then twos) for classifying
// a card count with the engine's own evaluator.
func bustedHand(k int) []card.Card {
	cs := []card.Card{{Rank: card.Ten, Suit: card.Spades}, {Rank: card.Ten, Suit: card.Hearts}}
	for len(cs) < k {
		cs = append(cs, card.Card{Rank: card.Two, Suit: card.Clubs})
	}
	return cs
}

// insurance returns the insurance bet's result: it wins 2:1 when the hole
// card is a ten-value card; averaged over the player's cards this is the
// shoe's ten density less the up ace.
func insurance(r blackjack.Rules) SideResult {
	tens := 16 * r.Decks
	p := float64(tens) / float64(52*r.Decks-1)
	return SideResult{Kind: game.Insurance, RTP: 3 * p, Method: "exact (ten density of the shoe less the up ace)",
		Outcomes: []Outcome{{Name: "dealer blackjack", Pays: "2 to 1", P: p}, {Name: "", Pays: "lost", P: 1 - p}},
		Notes:    []string{"return per unit of insurance staked when it is always taken"}}
}

// Progressive is the Royal Poker jackpot's configuration.
type Progressive struct {
	Reset  money.Cents // pool value at start and after each royal flush
	RateE7 int64       // contribution per stake in parts per 10^7 (20.30843 % = 2030843)
}

// DefaultProgressive is games.md §1's default progressive.
func DefaultProgressive() Progressive { return Progressive{Reset: 2000000, RateE7: 2030843} }

// RoyalCounts classifies all C(52,5) five-card hands of one deck with
// sidebet.RoyalPoker (spot 1's two cards, spot 2's two cards and the up card
// are five distinct cards, every 5-subset equally likely).
func RoyalCounts() map[string]int64 {
	deck := card.Deck()
	counts := map[string]int64{}
	var local [8]int64
	names := []string{"", sidebet.ThreeOfAKind, sidebet.Straight, sidebet.Flush, sidebet.FullHouse,
		sidebet.FourOfAKind, sidebet.StraightFlush, sidebet.RoyalFlush}
	idx := map[string]int{}
	for i, n := range names {
		idx[n] = i
	}
	var h [5]card.Card
	for a := 0; a < 52; a++ {
		h[0] = deck[a]
		for b := a + 1; b < 52; b++ {
			h[1] = deck[b]
			for c := b + 1; c < 52; c++ {
				h[2] = deck[c]
				for d := c + 1; d < 52; d++ {
					h[3] = deck[d]
					for e := d + 1; e < 52; e++ {
						h[4] = deck[e]
						local[idx[sidebet.RoyalPoker(h)]]++
					}
				}
			}
		}
	}
	for i, n := range names {
		counts[n] = local[i]
	}
	return counts
}

// RoyalResult is the Royal Poker side bet's analysis.
type RoyalResult struct {
	SideResult
	Fixed        float64 `json:"fixed"`        // return of the fixed prizes per stake
	Contribution float64 `json:"contribution"` // contribution rate (returned in the long run)
	ResetMoney   float64 `json:"reset_money"`  // reset money put back per stake: P(royal) × reset / stake
	MeanPool     float64 `json:"mean_pool"`    // steady-state mean pool, in money units (e.g. 79980.00)
}

// royal computes the side bet's return. Prizes are "for one" per stake
// (games.md §1). The progressive's long-run return per stake: every
// contribution is eventually paid out by a royal or straight flush, and the
// house adds the reset value after each royal, so the pool pays on average
// rate + P(royal) × reset / stake per stake, whatever the split between
// royal (100 %) and straight flush (10 %). The mean pool in steady state
// solves E[P] = E[P] + c − 0.1·P(sf)·E[P] − P(royal)·(E[P] − reset).
func royal(r blackjack.Rules, pr Progressive) (RoyalResult, error) {
	sr, ok := r.SideRule(game.RoyalSide)
	if !ok {
		return RoyalResult{}, fmt.Errorf("analysis: royal: %w", ErrNoSideBet)
	}
	if r.RoyalStake <= 0 {
		return RoyalResult{}, fmt.Errorf("analysis: royal: royal_stake %v: %w", r.RoyalStake, ErrRules)
	}
	counts := RoyalCounts()
	const total = 2598960.0
	res := RoyalResult{SideResult: SideResult{Kind: game.RoyalSide,
		Method: "exact: all C(52,5) hands of one deck; progressive in steady state"}}
	lost := 1.0
	for _, name := range []string{sidebet.ThreeOfAKind, sidebet.Straight, sidebet.Flush, sidebet.FullHouse, sidebet.FourOfAKind} {
		p := float64(counts[name]) / total
		pays, ok := sr.Pays[name]
		if !ok {
			continue
		}
		// "for one": prize per 1.00 stake, scaled linearly with the stake.
		res.Fixed += p * float64(pays) // Pays × stake, the stake not returned
		res.Outcomes = append(res.Outcomes, Outcome{Name: name, Pays: fmt.Sprintf("%d for 1", pays), P: p})
		lost -= p
	}
	pRoyal := float64(counts[sidebet.RoyalFlush]) / total
	pSF := float64(counts[sidebet.StraightFlush]) / total
	stake := float64(r.RoyalStake)
	res.Contribution = float64(pr.RateE7) / 1e7
	res.ResetMoney = pRoyal * float64(pr.Reset) / stake
	res.RTP = res.Fixed + res.Contribution + res.ResetMoney
	meanUnits := (res.Contribution*stake + pRoyal*float64(pr.Reset)) / (0.1*pSF + pRoyal) // cents
	res.MeanPool = meanUnits / 100
	res.Outcomes = append(res.Outcomes,
		Outcome{Name: sidebet.StraightFlush, Pays: "10 % of the pool", P: pSF},
		Outcome{Name: sidebet.RoyalFlush, Pays: "100 % of the pool", P: pRoyal})
	lost -= pSF + pRoyal
	sortOutcomes(res.Outcomes)
	res.Outcomes = append(res.Outcomes, Outcome{Name: "", Pays: "lost", P: lost})
	res.Notes = []string{
		fmt.Sprintf("fixed prizes %.5f + contribution %.5f + reset money %.5f per stake", res.Fixed, res.Contribution, res.ResetMoney),
		fmt.Sprintf("steady-state mean pool %.2f (reset %v, rate %.5f %%)", res.MeanPool, pr.Reset, float64(pr.RateE7)/1e5),
	}
	return res, nil
}
