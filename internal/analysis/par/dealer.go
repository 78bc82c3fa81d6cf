package par

// Dealer outcomes, the index into a dealer distribution.
const (
	o17 = iota
	o18
	o19
	o20
	o21
	oBJ   // two-card 21 (up card + hole card)
	o22   // busted with exactly 22 (Free Bet and Zappit push on it)
	oBust // busted with 23 or more
	nOutcomes
)

// maxDealerCards bounds the card count tracked for Bust It (8 or more is one class).
const maxDealerCards = 24

// dstate is one dealer hand still drawing: the cards drawn after the up card
// (hole card included) by value 1..10. next[v] is the state reached by
// drawing a card of value v, or -(outcome+1) when the hand is finished.
type dstate struct {
	cnt  [11]uint8
	n    uint8
	next [11]int32
}

// dealerGraph is every drawing state of the dealer for one up card and one
// soft-17 rule, in an order where every parent precedes its children.
type dealerGraph struct {
	up     int
	states []dstate
}

func handTotal(hard int, ace bool) (int, bool) {
	if ace && hard+10 <= 21 {
		return hard + 10, true
	}
	return hard, false
}

func newDealerGraph(up int, hitSoft17 bool) *dealerGraph {
	g := &dealerGraph{up: up}
	index := map[[11]uint8]int32{}
	g.states = append(g.states, dstate{})
	index[[11]uint8{}] = 0
	for i := 0; i < len(g.states); i++ {
		s := g.states[i]
		hard := up
		for v := 1; v <= 10; v++ {
			hard += v * int(s.cnt[v])
		}
		ace := up == 1 || s.cnt[1] > 0
		for v := 1; v <= 10; v++ {
			h2 := hard + v
			t, soft := handTotal(h2, ace || v == 1)
			n2 := s.n + 1
			var code int32
			switch {
			case n2 == 1 && t == 21:
				code = -(oBJ + 1)
			case h2 > 22:
				code = -(oBust + 1)
			case h2 == 22:
				code = -(o22 + 1)
			case t >= 18 || (t == 17 && !(soft && hitSoft17)):
				code = -(int32(o17+t-17) + 1)
			default:
				c := s.cnt
				c[v]++
				j, ok := index[c]
				if !ok {
					j = int32(len(g.states))
					index[c] = j
					g.states = append(g.states, dstate{cnt: c, n: n2})
				}
				code = j
			}
			g.states[i].next[v] = code
		}
	}
	return g
}

// dist returns the distribution of the dealer's final hand when the cards
// after the up card are drawn from shoe (counts by value 1..10, total n).
// If bustCards is not nil it receives, per number of dealer cards (up card
// included), the probability that the dealer busts with that many cards.
// The hole card is the first draw, so a two-card 21 is oBJ.
func (g *dealerGraph) dist(shoe *[11]int, n int, p []float64, bustCards *[maxDealerCards + 1]float64) [nOutcomes]float64 {
	var out [nOutcomes]float64
	p = p[:len(g.states)]
	for i := range p {
		p[i] = 0
	}
	p[0] = 1
	for i := range g.states {
		pi := p[i]
		if pi == 0 {
			continue
		}
		s := &g.states[i]
		rem := n - int(s.n)
		if rem <= 0 {
			continue
		}
		f := pi / float64(rem)
		for v := 1; v <= 10; v++ {
			c := shoe[v] - int(s.cnt[v])
			if c <= 0 {
				continue
			}
			q := f * float64(c)
			if j := s.next[v]; j >= 0 {
				p[j] += q
			} else {
				o := -j - 1
				out[o] += q
				if bustCards != nil && (o == oBust || o == o22) {
					k := min(int(s.n)+2, maxDealerCards)
					bustCards[k] += q
				}
			}
		}
	}
	return out
}
