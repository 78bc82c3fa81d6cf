package par

import (
	"cabinet/internal/game/blackjack"
)

// ctx evaluates player hands against one dealer up card with a fixed set of
// cards already out of the shoe (the up card and, for split and zapped
// hands, the cards that left the hand). Values are "unnormalised" where the
// dealer peeks: E[payoff · 1{no dealer blackjack}] with the hole card treated
// as a future draw. Cards are exchangeable, so this equals the value
// conditioned on the peek times P(no blackjack), and every decision compared
// at the same cards shares that factor: maximising it is maximising the
// conditional value. A dealer blackjack found by the peek is added back by
// the caller (it costs the original bet).
type ctx struct {
	r    *blackjack.Rules
	up   int
	shoe [11]int
	n    int
	g    *dealerGraph
	excl bool // the dealer peeks for blackjack with this up card
	late bool // a dealer blackjack is found only after play

	scratch []float64
	// dcache holds dealer distributions by the key of every card out
	// besides the up card (base + hand), shared by the contexts of one up card.
	dcache map[uint64][nOutcomes]float64
	base   uint64
	hs     map[hsKey]val
	kinds  []kind
}

type hsKey struct {
	h   uint64
	kid int
}

func newCtx(r *blackjack.Rules, g *dealerGraph, full [11]int, dcache map[uint64][nOutcomes]float64, up int, out ...int) *ctx {
	c := &ctx{r: r, up: up, g: g, shoe: full, dcache: dcache, hs: map[hsKey]val{}}
	c.shoe[up]--
	for _, v := range out {
		c.shoe[v]--
		c.base += handOf(v).key
	}
	for v := 1; v <= 10; v++ {
		c.n += c.shoe[v]
	}
	c.scratch = make([]float64, len(g.states))
	bjPossible := up == 1 || up == 10
	switch r.Peek {
	case blackjack.PeekAceTen:
		c.excl = bjPossible
	case blackjack.PeekAceOnly:
		c.excl = up == 1
		c.late = up == 10
	case blackjack.NoHole:
		c.late = bjPossible
	}
	return c
}

// kindID interns k for the memo key.
func (c *ctx) kindID(k kind) int {
	for i, x := range c.kinds {
		if x == k {
			return i
		}
	}
	c.kinds = append(c.kinds, k)
	return len(c.kinds) - 1
}

// p is the probability that the next card has value v given hand h is out.
func (c *ctx) p(h hand, v int) float64 {
	k := c.shoe[v] - int(h.cnt[v])
	if k <= 0 {
		return 0
	}
	return float64(k) / float64(c.n-h.n)
}

// pBJ is the probability that the hole card completes a dealer blackjack.
func (c *ctx) pBJ(h hand) float64 {
	switch c.up {
	case 1:
		return c.p(h, 10)
	case 10:
		return c.p(h, 1)
	}
	return 0
}

// noBJ is the weight of a result settled regardless of the dealer's hand.
func (c *ctx) noBJ(h hand) float64 {
	if c.excl {
		return 1 - c.pBJ(h)
	}
	return 1
}

func (c *ctx) dist(h hand) [nOutcomes]float64 {
	key := c.base + h.key
	if d, ok := c.dcache[key]; ok {
		return d
	}
	s := c.shoe
	for v := 1; v <= 10; v++ {
		s[v] -= int(h.cnt[v])
	}
	d := c.g.dist(&s, c.n-h.n, c.scratch, nil)
	c.dcache[key] = d
	return d
}

// stand is the value of standing on h (not busted, not a blackjack).
func (c *ctx) stand(h hand, k kind) float64 {
	d := c.dist(h)
	t, _ := h.total()
	var ev float64
	for o := o17; o <= o21; o++ {
		switch dt := 17 + o; {
		case t > dt:
			ev += k.pay() * d[o]
		case t < dt:
			ev -= k.loss * d[o]
		}
	}
	if c.late {
		ev -= k.late * d[oBJ]
	}
	if !c.r.Dealer22Push {
		ev += k.pay() * d[o22]
	}
	ev += k.pay() * d[oBust]
	return ev
}

// settled handles a hand that needs no decision: busted, a Charlie. ok is
// false if the hand still plays.
func (c *ctx) settled(h hand, k kind) (float64, bool) {
	if h.hard > 21 {
		return -k.loss * c.noBJ(h), true
	}
	if c.r.CharlieCards > 0 && h.n >= c.r.CharlieCards {
		return k.pay() * c.noBJ(h), true
	}
	return 0, false
}

// hitStand is the best value of h when only hitting and standing remain.
func (c *ctx) hitStand(h hand, k kind) val {
	if v, ok := c.settled(h, k); ok {
		return val{ev: v}
	}
	key := hsKey{h.key, c.kindID(k)}
	if v, ok := c.hs[key]; ok {
		return v
	}
	t, _ := h.total()
	best := val{ev: c.stand(h, k)}
	if t < 21 && (c.r.MaxCards == 0 || h.n < c.r.MaxCards) {
		var hit val
		for v := 1; v <= 10; v++ {
			if p := c.p(h, v); p > 0 {
				hit = hit.add(c.hitStand(h.add(v), k).scale(p))
			}
		}
		best = maxVal(best, hit)
	}
	c.hs[key] = best
	return best
}

// hitHand is hitting once, then playing on (the value of the Hit action).
func (c *ctx) hitHand(h hand, k kind) val {
	var hit val
	for v := 1; v <= 10; v++ {
		if p := c.p(h, v); p > 0 {
			hit = hit.add(c.hitStand(h.add(v), k).scale(p))
		}
	}
	return hit
}

// doubled returns the kind of a hand after doubling (free or paid).
func (c *ctx) doubled(h hand, k kind) kind {
	if c.freeDouble(h) {
		return kind{win: 2 * k.win, loss: k.loss, late: k.late, stake: k.stake}
	}
	late := k.late
	if c.r.Peek == blackjack.NoHole {
		late *= 2
	}
	return kind{win: 2 * k.win, loss: 2 * k.loss, late: late, stake: 2 * k.stake}
}

func (c *ctx) freeDouble(h hand) bool {
	return c.r.FreeBets && h.n == 2 && h.cnt[1] == 0 && h.hard >= 9 && h.hard <= 11
}

// canDouble says whether two-card h may be doubled under the rules' total rule.
func (c *ctx) canDouble(h hand) bool {
	if h.n != 2 {
		return false
	}
	t, _ := h.total()
	if t == 21 {
		return false
	}
	if c.r.Double == blackjack.Double10or11 {
		return t == 10 || t == 11
	}
	return true
}

// double is the value of doubling h: one card, then stand.
func (c *ctx) double(h hand, k kind) val {
	dk := c.doubled(h, k)
	var out val
	for v := 1; v <= 10; v++ {
		p := c.p(h, v)
		if p == 0 {
			continue
		}
		h2 := h.add(v)
		var ev float64
		if x, ok := c.settled(h2, dk); ok {
			ev = x
		} else {
			ev = c.stand(h2, dk)
		}
		out.ev += p * ev
	}
	out.stake = (dk.stake - k.stake) * c.noBJ(h)
	return out
}
