package par

import (
	"context"
	"fmt"
	"math"
	"sync"

	"cabinet/internal/game/blackjack"
)

// The win cap's floor (docs/par.md, "Zappit's win cap: the floor").
//
// The engine caps the round's net result: S = money paid back − money
// staked over every hand of every spot, insurance included (payCapped,
// internal/game/blackjack/zappit.go); above the cap C the payouts are cut
// so that the net is exactly C. The capped round pays min(S, C), so the
// cap costs E[(S − C)⁺] and, per spot of k at the same bet,
//
//	EV_capped = EV − E[(S − C)⁺] / k      (S and C in units of the bet)
//
// EV is the analyser's exact value for its own player (the one the PAR
// sheet, the simulation and autoplay use: decisions by the uncapped
// values). Only E[(S − C)⁺] needs the joint law of the spots, which share
// the dealer and the shoe. It is bounded above, for that same player, by a
// change of measure.
//
// Condition on the up card u; R is the shoe less u (N cards, R_v of value
// v). The round's draws form blocks: the dealer's (hole card and hits) and
// each spot's (its two cards, a zap's two new ones, hits, doubles, split
// hands). Every block draws by a rule that looks only at its own cards and
// u (the player decides on its own hand, its pair or discarded cards and
// the up card; the dealer by its total), so, the shoe being exchangeable,
// a realised round x has probability
//
//	P(x) = Π_v (R_v)_{n_v} / (N)_n
//
// with n_v the cards of value v drawn by all blocks, n = Σ n_v and (a)_m the
// falling factorial, whatever order the engine deals them in. Let Q be the
// law under which each block draws alone from its own copy of R, the blocks
// independent: Q(x) = Π_b Π_v (R_v)_{n_bv} / (N)_{n_b}. Since
// (R_v)_{a+b} = (R_v)_a (R_v − a)_b ≤ (R_v)_a (R_v)_b,
//
//	P(x) ≤ Λ(n_0, …, n_k) · Q(x),   Λ = Π_b (N)_{n_b} / (N)_n
//
// which depends only on the blocks' card counts. For f = (S − C)⁺ ≥ 0,
// E_P[f] ≤ E_Q[Λ f]: under Q the blocks are independent, so E_Q[Λ f] is a
// convolution over spots that carries the total card count n. A round the
// dealer's blackjack ends has S ≤ 0 (insurance is never taken by this
// player) and costs nothing, so only dealer hands without a blackjack
// enter. Within a spot, the two hands of a split are themselves bounded the
// same way (each hand drawn from R less the pair, the factor
// (N−2)_{n₂}/(N−2−n₁)_{n₂}); everything else in a spot is its exact law
// from R.
//
// The bound is E_Q[Λ f] ≥ E_P[f]: the floor EV − E_Q[Λ f]/k is a lower
// bound of the capped value, for any number of spots. Λ is close to 1
// (each block takes a few cards of a shoe of hundreds), so the floor is
// close to the capped return; capLaw gives the measure Λ·Q of S for every
// k up to the spots analysed, so the floor for any cap and bet is a sum.

// capHalf is the largest |net| of one spot in half units of its bet: a
// split of two doubled hands (Zappit splits once).
const capHalf = 8

// CapLaw is the bounding measure of the round's net result S for 1 to
// len(Mu) spots at one bet (the analyser's player): Mu[k-1][i] is the mass
// at S = (i − k·capHalf)/2 units of the bet, Λ·Q of the derivation above.
// It depends on the play rules only (not on the bet, the cap or the spots
// in force), so a floor for any cap and bet is a sum over it.
type CapLaw struct {
	Mu [][]float64 `json:"mu"`
}

// Excess is the bound of E[(S − c)⁺] for k spots, c the round's cap in
// units of one spot's bet: the expected money the cap withholds, per round.
func (l *CapLaw) Excess(k int, c float64) float64 {
	if l == nil || k < 1 || k > len(l.Mu) {
		return math.NaN()
	}
	var x float64
	for i, m := range l.Mu[k-1] {
		s := float64(i-k*capHalf) / 2
		if s > c {
			x += m * (s - c)
		}
	}
	return x
}

// capLawSupported says whether the bound models r: the hands and payouts
// of Zappit-like rules (peek or no blackjack to peek for, at most two hands
// a spot, no free bets, Charlie or even money). Another game with a cap
// has no floor (an error, never a figure).
func capLawSupported(r blackjack.Rules) error {
	switch {
	case r.FreeBets, r.CharlieCards > 0, r.MaxHands > 2, r.EvenMoney, r.Peek == blackjack.NoHole, r.Peek == blackjack.PeekAceOnly:
		return fmt.Errorf("analysis: %s: a win cap under these rules (free bets, Charlie, resplits, even money or late blackjack) has no floor", r.Game)
	}
	return nil
}

// Hand result classes: how a finished hand is paid against the dealer.
const (
	clsLow   = 0 // standing on 16 or less
	cls17    = 1 // standing on 17 … 21: cls17 + total − 17 (1 … 5)
	clsBust  = 6 // over 21
	clsBJ    = 7 // a natural blackjack: 3:2
	clsZap21 = 8 // two new cards making 21 after a zap: 1:1 at once
	clsSurr  = 9 // surrendered: half the bet
	nCls     = 10
)

// capMaxCards bounds the cards one spot can take (two split hands of
// MaxCards each; a zapped hand's two discarded cards and 13 more).
const capMaxCards = 30

// hdist is a hand's result distribution: [class][stake 1 or 2][cards drawn].
type hdist [nCls][2][capMaxCards + 1]float64

// dealerClasses are the dealer outcomes with no blackjack, in order.
var dealerClasses = [...]int{o17, o18, o19, o20, o21, o22, oBust}

// netHalf is the net of a hand of class cls and stake m (1 or 2) against
// the dealer's outcome o, in half units.
func netHalf(r *blackjack.Rules, cls, m, o int) int {
	switch cls {
	case clsBust:
		return -2 * m
	case clsBJ:
		return 3
	case clsZap21:
		return 2
	case clsSurr:
		return -1
	}
	switch {
	case o == oBust:
		return 2 * m
	case o == o22:
		if r.Dealer22Push {
			return 0
		}
		return 2 * m
	}
	t := 16
	if cls != clsLow {
		t = 17 + cls - cls17
	}
	switch dt := 17 + o - o17; {
	case t > dt:
		return 2 * m
	case t < dt:
		return -2 * m
	}
	return 0
}

// capLaw computes the bounding measure for 1 to maxSpots spots under the
// analyser's player evals (computed uncapped; created where nil).
func (b *bj) capLaw(ctxt context.Context, evals *[11]*upEval, maxSpots int) (*CapLaw, error) {
	if err := capLawSupported(b.r); err != nil {
		return nil, err
	}
	maxSpots = max(1, maxSpots)
	law := &CapLaw{Mu: make([][]float64, maxSpots)}
	for k := range law.Mu {
		law.Mu[k] = make([]float64, 2*(k+1)*capHalf+1)
	}
	parts := make([][][]float64, 11)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for up := 1; up <= 10; up++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctxt.Err() != nil {
				return
			}
			if evals[up] == nil {
				evals[up] = b.upEval(up)
			}
			parts[up] = b.capLawUp(evals[up], maxSpots)
		}()
	}
	wg.Wait()
	if err := ctxt.Err(); err != nil {
		return nil, fmt.Errorf("analysis: %s win cap floor: %w", b.r.Game, err)
	}
	for up := 1; up <= 10; up++ {
		for k := range law.Mu {
			for i, m := range parts[up][k] {
				law.Mu[k][i] += m
			}
		}
	}
	return law, nil
}

// capLawUp is the measure for one up card, weighted by its probability.
func (b *bj) capLawUp(u *upEval, maxSpots int) [][]float64 {
	N := b.n - 1
	pu := float64(b.full[u.up]) / float64(b.n)
	nmax := 16 + maxSpots*capMaxCards
	// g[n] = (N)_n / N^n: Λ = Π_b g(n_b) / g(n), all in ratios near 1.
	g := make([]float64, nmax+1)
	g[0] = 1
	for i := 1; i <= nmax; i++ {
		g[i] = g[i-1] * float64(N-i+1) / float64(N)
	}
	dealer := b.dealerLaw(u)
	spot := b.spotLaw(u)
	out := make([][]float64, maxSpots)
	for k := range out {
		out[k] = make([]float64, 2*(k+1)*capHalf+1)
	}
	width := 2*maxSpots*capHalf + 1
	for oi := range dealerClasses {
		// cur[S][n]: S offset by maxSpots·capHalf.
		cur := make([]float64, width*(nmax+1))
		for n0, w := range dealer[oi] {
			if w > 0 {
				cur[maxSpots*capHalf*(nmax+1)+n0] = w * g[n0]
			}
		}
		type entry struct {
			s, n int
			w    float64
		}
		var sp []entry
		for s := range 2*capHalf + 1 {
			for n, w := range spot[oi][s] {
				if w > 0 {
					sp = append(sp, entry{s - capHalf, n, w * g[n]})
				}
			}
		}
		for k := 1; k <= maxSpots; k++ {
			next := make([]float64, len(cur))
			for i, w := range cur {
				if w == 0 {
					continue
				}
				S, n := i/(nmax+1), i%(nmax+1)
				for _, e := range sp {
					if n+e.n > nmax {
						panic("BUG: win cap floor: card count beyond its bound")
					}
					next[(S+e.s)*(nmax+1)+n+e.n] += w * e.w
				}
			}
			cur = next
			for i, w := range cur {
				if w == 0 {
					continue
				}
				S, n := i/(nmax+1)-maxSpots*capHalf, i%(nmax+1)
				out[k-1][S+k*capHalf] += pu * w / g[n]
			}
		}
	}
	return out
}

// dealerLaw is the dealer's block under Q: for each outcome without a
// blackjack (dealerClasses), by the cards it draws (hole card and hits),
// its probability drawing alone from the shoe less the up card.
func (b *bj) dealerLaw(u *upEval) [len(dealerClasses)][16]float64 {
	gr := b.graphs[u.up]
	shoe := b.full
	shoe[u.up]--
	n := b.n - 1
	p := make([]float64, len(gr.states))
	p[0] = 1
	var idx [nOutcomes]int
	for i := range idx {
		idx[i] = -1
	}
	for i, o := range dealerClasses {
		idx[o] = i
	}
	var out [len(dealerClasses)][16]float64
	for i := range gr.states {
		pi := p[i]
		if pi == 0 {
			continue
		}
		s := &gr.states[i]
		rem := n - int(s.n)
		f := pi / float64(rem)
		for v := 1; v <= 10; v++ {
			c := shoe[v] - int(s.cnt[v])
			if c <= 0 {
				continue
			}
			q := f * float64(c)
			if j := s.next[v]; j >= 0 {
				p[j] += q
			} else if o := int(-j - 1); idx[o] >= 0 {
				out[idx[o]][int(s.n)+1] += q
			}
		}
	}
	return out
}

// spotLaw is one spot's block under Q: for each dealer outcome, by net (half
// units, offset capHalf) and by the cards the spot takes, its probability
// (within a split, the bounding measure of the two hands).
func (b *bj) spotLaw(u *upEval) [len(dealerClasses)][2*capHalf + 1][capMaxCards + 1]float64 {
	var out [len(dealerClasses)][2*capHalf + 1][capMaxCards + 1]float64
	add := func(d *hdist, w float64, extra int) {
		for cls := range nCls {
			for m := range 2 {
				for n, x := range d[cls][m] {
					if x == 0 {
						continue
					}
					for oi, o := range dealerClasses {
						out[oi][netHalf(&b.r, cls, m+1, o)+capHalf][n+extra] += w * x
					}
				}
			}
		}
	}
	c := u.main
	mainW := newHandWalker(u, c, func(h hand) []option {
		t, _ := h.total()
		k := u.base()
		if t == 21 || (b.r.MaxCards > 0 && h.n >= b.r.MaxCards) {
			return []option{{aStand, val{}}}
		}
		return []option{{aStand, val{ev: c.stand(h, k)}}, {aHit, c.hitHand(h, k)}}
	})
	var h0 hand
	for a := 1; a <= 10; a++ {
		pa := c.p(h0, a)
		for c2 := a; c2 <= 10; c2++ {
			pr := pa * c.p(h0.add(a), c2)
			if a != c2 {
				pr *= 2
			}
			if pr == 0 {
				continue
			}
			h := handOf(a, c2)
			var d hdist
			if a == 1 && c2 == 10 {
				d[clsBJ][0][0] = 1
				add(&d, pr, 2)
				continue
			}
			switch best := bestOf(u.originalOptions(a, c2)); best.name {
			case aStand:
				d[finalCls(h)][0][0] = 1
			case aHit:
				mainW.hit(h, &d, 1)
			case aDouble:
				mainW.double(h, &d, 1)
			case aSurrender:
				d[clsSurr][0][0] = 1
			case aZap:
				b.zapLaw(u, a, c2, &d)
			case aSplit:
				b.splitLaw(u, a, pr, &out)
				continue
			default:
				panic("BUG: win cap floor: action " + best.name)
			}
			add(&d, pr, 2)
		}
	}
	return out
}

// finalCls is the class of standing on h (two or more cards, not a natural).
func finalCls(h hand) int {
	if h.hard > 21 {
		return clsBust
	}
	t, _ := h.total()
	if t < 17 {
		return clsLow
	}
	return cls17 + t - 17
}

// handWalker follows the analyser's player on one hand in context c: opts
// lists the actions on a hand that still plays (the analyser's own lists).
type handWalker struct {
	u    *upEval
	c    *ctx
	opts func(h hand) []option
	memo map[uint64]*hdist
}

func newHandWalker(u *upEval, c *ctx, opts func(h hand) []option) *handWalker {
	return &handWalker{u: u, c: c, opts: opts, memo: map[uint64]*hdist{}}
}

// play is the result of hand h as the player plays it on (stake 1, cards
// drawn from here).
func (w *handWalker) play(h hand) *hdist {
	if d, ok := w.memo[h.key]; ok {
		return d
	}
	d := new(hdist)
	if h.hard > 21 {
		d[clsBust][0][0] = 1
	} else {
		switch best := bestOf(w.opts(h)); best.name {
		case aStand:
			d[finalCls(h)][0][0] = 1
		case aHit:
			w.hit(h, d, 1)
		case aDouble:
			w.double(h, d, 1)
		default:
			panic("BUG: win cap floor: action " + best.name + " on a hand in play")
		}
	}
	w.memo[h.key] = d
	return d
}

// hit adds to d, with weight f, hitting h once and playing on.
func (w *handWalker) hit(h hand, d *hdist, f float64) {
	for v := 1; v <= 10; v++ {
		p := w.c.p(h, v)
		if p == 0 {
			continue
		}
		sub := w.play(h.add(v))
		for cls := range nCls {
			for m := range 2 {
				for n := 0; n < capMaxCards; n++ {
					if x := sub[cls][m][n]; x != 0 {
						d[cls][m][n+1] += f * p * x
					}
				}
			}
		}
	}
}

// double adds to d, with weight f, doubling h: one card at stake 2.
func (w *handWalker) double(h hand, d *hdist, f float64) {
	for v := 1; v <= 10; v++ {
		if p := w.c.p(h, v); p > 0 {
			d[finalCls(h.add(v))][1][1] += f * p
		}
	}
}

// zapLaw adds to d the result of zapping a, b: two new cards from the shoe
// less a, b, then the zapped hand as the player plays it (n counts the two
// new cards and what follows; the caller adds the two first).
func (b *bj) zapLaw(u *upEval, a, c2 int, d *hdist) {
	zc := u.zapCtx(a, c2)
	w := newHandWalker(u, zc, func(h hand) []option { return u.zappedOptions(a, c2, h) })
	var h0 hand
	for v1 := 1; v1 <= 10; v1++ {
		p1 := zc.p(h0, v1)
		if p1 == 0 {
			continue
		}
		for v2 := 1; v2 <= 10; v2++ {
			p2 := zc.p(h0.add(v1), v2)
			if p2 == 0 {
				continue
			}
			h := handOf(v1, v2)
			if t, _ := h.total(); t == 21 {
				d[clsZap21][0][2] += p1 * p2
				continue
			}
			sub := w.play(h)
			for cls := range nCls {
				for m := range 2 {
					for n := 0; n+2 <= capMaxCards; n++ {
						if x := sub[cls][m][n]; x != 0 {
							d[cls][m][n+2] += p1 * p2 * x
						}
					}
				}
			}
		}
	}
}

// splitLaw adds to out, with weight pr, splitting the pair p: each hand
// holds one pair card and draws from the shoe less the pair (as the
// analyser values it), the two hands bounded as independent blocks with
// the factor (N−2)_{n₂}/(N−2−n₁)_{n₂} (see the derivation).
func (b *bj) splitLaw(u *upEval, p int, pr float64, out *[len(dealerClasses)][2*capHalf + 1][capMaxCards + 1]float64) {
	hands := [2]kind{u.splitKind(), u.secondSplitKind(p)}
	var hd [2]hdist
	sc := u.splitCtx(p, 2)
	h0 := handOf(p)
	for i, k := range hands {
		w := newHandWalker(u, sc, func(h hand) []option { return u.splitHandOptions(p, 2, h, k) })
		for v := 1; v <= 10; v++ {
			pv := sc.p(h0, v)
			if pv == 0 {
				continue
			}
			sub := w.play(h0.add(v))
			for cls := range nCls {
				for m := range 2 {
					for n := 0; n < capMaxCards; n++ {
						if x := sub[cls][m][n]; x != 0 {
							hd[i][cls][m][n+1] += pv * x
						}
					}
				}
			}
		}
	}
	N2 := b.n - 1 - 2
	for c1 := range nCls {
		for m1 := range 2 {
			for n1, x1 := range hd[0][c1][m1] {
				if x1 == 0 {
					continue
				}
				for c2 := range nCls {
					for m2 := range 2 {
						for n2, x2 := range hd[1][c2][m2] {
							if x2 == 0 {
								continue
							}
							if n1+n2+2 > capMaxCards {
								panic("BUG: win cap floor: a split beyond the card bound")
							}
							lam := 1.0 // (N−2)_{n₂} / (N−2−n₁)_{n₂}
							for i := range n2 {
								lam *= float64(N2-i) / float64(N2-n1-i)
							}
							for oi, o := range dealerClasses {
								s := netHalf(&b.r, c1, m1+1, o) + netHalf(&b.r, c2, m2+1, o)
								out[oi][s+capHalf][n1+n2+2] += pr * x1 * x2 * lam
							}
						}
					}
				}
			}
		}
	}
}
