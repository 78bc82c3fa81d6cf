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
// falling factorial, whatever order the engine deals them in (where the
// engine leaves the dealer's hand undrawn, every hand being settled, S does
// not depend on it, and the cards drawn have the law of a round in which
// the dealer draws on: the bound is for that round). Let Q be the
// law under which each block draws alone from its own copy of R, the
// blocks independent: Q(x) = Π_b Π_v (R_v)_{n_bv} / (N)_{n_b}. Then
//
//	P(x)/Q(x) = B · Π_v A_v,  B = Π_b (N)_{n_b}/(N)_n,  A_v = (R_v)_{n_v}/Π_b (R_v)_{n_bv}
//
// and A_v ≤ exp(−Σ_{b<b'} n_bv n_b'v / R_v). A₁₀ (the ten-values) is kept
// exactly; for the other values X = Σ_{b<b'} Σ_{v≤9} n_bv n_b'v / R_v ≥ 0
// and, pointwise,
//
//	P(x) ≤ B · A₁₀ · e^{−X} · Q(x),  e^{−X} ≤ 1 − X + X²/2,
//	e^{−X} ≤ 1 − X·(1 − e^{−M})/M  (X ≤ M = s(s−1)/(2·R_min), s non-ten cards)
//
// B and A₁₀ depending on the blocks' card and ten counts only, X bilinear
// in their count vectors. For f = (S − C)⁺ ≥ 0, E_P[f] is at most the
// Q-expectation of B·A₁₀·(either bound)·f: under Q the blocks are
// independent, so it is a convolution over spots on the state (S, n, t)
// that carries the first and second moments of the non-ten counts and of
// X (exact: X is a sum of products of independent blocks' counts), and
// takes the smaller bound per state. A round the dealer's blackjack
// ends has S ≤ 0 (insurance is never taken by this player) and costs
// nothing, so only dealer hands without a blackjack enter. Within a spot,
// the two hands of a split are bounded the same way (each drawn from R
// less the pair; B and A₁₀ between them, the other values' factor by 1);
// everything else in a spot is its exact law from R. Outcomes of a block
// below capDrop are left out and charged apart (CapLaw.Tail).
//
// The floor EV − bound/k is a lower bound of the capped value, for any
// number of spots. The factors average to 1 and each block takes a few
// cards of hundreds, so the floor is close to the capped return; capLaw
// gives the bounding measure of S for every k up to the spots analysed, so
// the floor for any cap and bet is a sum.

// capHalf is the largest |net| of one spot in half units of its bet: a
// split of two doubled hands (Zappit splits once).
const capHalf = 8

// CapLaw is the bounding measure of the round's net result S for 1 to
// len(Mu) spots at one bet (the analyser's player): Mu[k-1][i] is the mass
// at S = (i − k·capHalf)/2 units of the bet, of the derivation's bound.
// It depends on the play rules only (not on the bet, the cap or the spots
// in force), so a floor for any cap and bet is a sum over it.
type CapLaw struct {
	Mu [][]float64 `json:"mu"`
	// Tail[k-1] bounds the probability of the outcomes left out of Mu (each
	// below capDrop): they cost at most their probability times the
	// largest excess.
	Tail []float64 `json:"tail"`
}

// Excess is the bound of E[(S − c)⁺] for k spots, c the round's cap in
// units of one spot's bet: the expected money the cap withholds, per round.
func (l *CapLaw) Excess(k int, c float64) float64 {
	if l == nil || k < 1 || k > len(l.Mu) {
		return math.NaN()
	}
	x := l.Tail[k-1] * max(0, float64(k*capHalf)/2-c)
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

// capDrop is the probability below which a block's outcome is left out of
// the convolution; what is left out is bounded apart (CapLaw.Tail).
const capDrop = 1e-10

// res is a key of a block's result: its class (or net), stake, the cards it
// took and how many of them are ten-values.
type res struct{ cls, m, n, t uint8 }

// mom is the probability of a result and its first and second moments of
// the non-ten cards: c[v−1] = Σ p·n_v, C[sym(u, v)] = Σ p·n_u·n_v for the
// counts n_v of value v = 1 … 9.
type mom struct {
	p float64
	c [nonTen]float64
	C [nSym]float64
}

// nSym is the number of entries of a symmetric 9 × 9 matrix.
const nSym = nonTen * (nonTen + 1) / 2

// sym is the index of (u, v) in a symmetric matrix, 0-based values.
func sym(u, v int) int {
	if u > v {
		u, v = v, u
	}
	return u*nonTen - u*(u-1)/2 + v - u
}

// add adds f·x, the cards of cv more on every path: n → n + cv.
func (m *mom) add(f float64, x mom, cv *[nonTen]float64) {
	m.p += f * x.p
	for v := range nonTen {
		m.c[v] += f * (x.c[v] + x.p*cv[v])
	}
	for u := range nonTen {
		for v := u; v < nonTen; v++ {
			i := sym(u, v)
			m.C[i] += f * (x.C[i] + x.c[u]*cv[v] + cv[u]*x.c[v] + x.p*cv[u]*cv[v])
		}
	}
}

// hdist is a hand's (or a block's) result distribution.
type hdist map[res]mom

// cardVec is the non-ten count vector of values vs.
func cardVec(vs ...int) *[nonTen]float64 {
	var c [nonTen]float64
	for _, v := range vs {
		if v < 10 {
			c[v-1]++
		}
	}
	return &c
}

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

// falling holds (a)_m / a^m for m = 0 … n: the ratios that make B and A₁₀.
func falling(a, n int) []float64 {
	f := make([]float64, n+1)
	f[0] = 1
	for i := 1; i <= n; i++ {
		if a-i+1 <= 0 {
			break // zero from here: more cards than there are
		}
		f[i] = f[i-1] * float64(a-i+1) / float64(a)
	}
	return f
}

// capLaw computes the bounding measure for 1 to maxSpots spots under the
// analyser's player evals (computed uncapped; created where nil).
func (b *bj) capLaw(ctxt context.Context, evals *[11]*upEval, maxSpots int) (*CapLaw, error) {
	if err := capLawSupported(b.r); err != nil {
		return nil, err
	}
	maxSpots = max(1, maxSpots)
	law := &CapLaw{Mu: make([][]float64, maxSpots), Tail: make([]float64, maxSpots)}
	for k := range law.Mu {
		law.Mu[k] = make([]float64, 2*(k+1)*capHalf+1)
	}
	type part struct {
		mu   [][]float64
		tail float64
	}
	parts := make([]part, 11)
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
			mu, tail := b.capLawUp(ctxt, evals[up], maxSpots)
			parts[up] = part{mu, tail}
		}()
	}
	wg.Wait()
	if err := ctxt.Err(); err != nil {
		return nil, fmt.Errorf("analysis: %s win cap floor: %w", b.r.Game, err)
	}
	for up := 1; up <= 10; up++ {
		for k := range law.Mu {
			for i, m := range parts[up].mu[k] {
				law.Mu[k][i] += m
			}
			// A left-out outcome of the dealer or of one of k+1 spots:
			// its probability is at most (k+2)·tail.
			law.Tail[k] += float64(k+2) * parts[up].tail
		}
	}
	return law, nil
}

// entry is one outcome of a block under Q: net (half units; the dealer's
// 0), cards, tens, its weight and non-ten moment with the block's B·A₁₀
// factors folded in.
type entry struct {
	s, n, t int
	m       mom
}

// The convolution's state, per (S, n, t): the weight w and, weighted by it,
// the first and second moments of the non-ten counts m_v drawn so far (W,
// MM), of the collisions X (WX, WX2) and E[X·m_v] (WXm): all exact under Q,
// whose blocks are independent.
const (
	stW    = 0
	stWv   = 1
	stMM   = stWv + nonTen
	stWX   = stMM + nSym
	stWXm  = stWX + 1
	stWX2  = stWXm + nonTen
	capSt  = stWX2 + 1
	nonTen = 9
)

// capLawUp is the measure for one up card, weighted by its probability,
// and the mass of the outcomes left out, summed over the dealer's outcomes
// and over the dealer's block and one spot's (each spot's law, and the
// dealer's, being its marginal under the real deal).
func (b *bj) capLawUp(ctxt context.Context, u *upEval, maxSpots int) ([][]float64, float64) {
	N := b.n - 1
	var R [11]int
	for v := 1; v <= 10; v++ {
		R[v] = b.full[v]
	}
	R[u.up]--
	rmin := R[1]
	for v := 2; v <= 9; v++ {
		rmin = min(rmin, R[v])
	}
	pu := float64(b.full[u.up]) / float64(b.n)
	dealer := b.dealerLaw(u)
	spot := b.spotLaw(u)
	out := make([][]float64, maxSpots)
	for k := range out {
		out[k] = make([]float64, 2*(k+1)*capHalf+1)
	}
	var tail float64
	width := 2*maxSpots*capHalf + 1
	for oi := range dealerClasses {
		if ctxt.Err() != nil {
			return out, 0
		}
		// The blocks' outcomes kept, and the largest card count.
		var dropped float64
		var de, sp []entry
		dn, sn := 0, 0
		for k, m := range dealer[oi] {
			if m.p < capDrop {
				dropped += m.p
				continue
			}
			de = append(de, entry{0, int(k.n), int(k.t), m})
			dn = max(dn, int(k.n))
		}
		for k, m := range spot[oi] {
			if m.p < capDrop {
				dropped += m.p
				continue
			}
			sp = append(sp, entry{int(k.cls) - capHalf, int(k.n), int(k.t), m})
			sn = max(sn, int(k.n))
		}
		tail += dropped
		nmax := dn + maxSpots*sn
		// B·A₁₀ = Π_b g(n_b)/h(t_b) · h(t)/g(n), g(n) = (N)_n/N^n, h(t) =
		// (R₁₀)_t/R₁₀^t (the powers cancel between blocks and totals).
		g, h := falling(N, nmax), falling(R[10], nmax)
		scale := func(es []entry) {
			for i := range es {
				f := g[es[i].n] / h[es[i].t]
				es[i].m.p *= f
				for v := range es[i].m.c {
					es[i].m.c[v] *= f
				}
				for v := range es[i].m.C {
					es[i].m.C[v] *= f
				}
			}
		}
		scale(de)
		scale(sp)
		dim := (nmax + 1) * (nmax + 1)
		at := func(S, n, t int) int { return ((S*(nmax+1)+n)*(nmax+1) + t) * capSt }
		cur := make([]float64, width*dim*capSt)
		var invR [nonTen]float64
		for v := range nonTen {
			invR[v] = 1 / float64(R[v+1])
		}
		for _, e := range de {
			i := at(maxSpots*capHalf, e.n, e.t)
			cur[i+stW] += e.m.p
			for v, c := range e.m.c {
				cur[i+stWv+v] += c
			}
			for v, c := range e.m.C {
				cur[i+stMM+v] += c
			}
		}
		// Per entry, C_uv/R_u R_v and c_u/R_u, for the collisions.
		type pre struct {
			cr  [nonTen]float64 // c_u / R_u
			Cr  [nonTen][nonTen]float64
			Crr [nSym]float64 // C_uv / (R_u R_v), ×2 off the diagonal
		}
		pres := make([]pre, len(sp))
		for i, e := range sp {
			for u := range nonTen {
				pres[i].cr[u] = e.m.c[u] * invR[u]
				for v := range nonTen {
					pres[i].Cr[u][v] = e.m.C[sym(u, v)] * invR[u]
				}
				for v := u; v < nonTen; v++ {
					x := e.m.C[sym(u, v)] * invR[u] * invR[v]
					if u != v {
						x *= 2
					}
					pres[i].Crr[sym(u, v)] = x
				}
			}
		}
		next := make([]float64, len(cur))
		for k := 1; k <= maxSpots; k++ {
			clear(next)
			for i := 0; i < len(cur); i += capSt {
				w := cur[i+stW]
				if w == 0 {
					continue
				}
				st := cur[i : i+capSt]
				j := i / capSt
				S, n, t := j/dim, (j%dim)/(nmax+1), j%(nmax+1)
				var mm [nonTen][nonTen]float64
				for u := range nonTen {
					for v := u; v < nonTen; v++ {
						mm[u][v] = st[stMM+sym(u, v)]
						mm[v][u] = mm[u][v]
					}
				}
				for ei, e := range sp {
					pr := &pres[ei]
					o := at(S+e.s, n+e.n, t+e.t)
					nx := next[o : o+capSt]
					q, c := e.m.p, &e.m.c
					// Y = Σ_u m_u n_u / R_u, the collisions the block adds.
					var ey, exy, ey2 float64
					for u := range nonTen {
						ey += st[stWv+u] * pr.cr[u]
						exy += st[stWXm+u] * pr.cr[u]
						for v := u; v < nonTen; v++ {
							ey2 += mm[u][v] * pr.Crr[sym(u, v)]
						}
					}
					nx[stW] += w * q
					nx[stWX] += st[stWX]*q + ey
					nx[stWX2] += st[stWX2]*q + 2*exy + ey2
					for v := range nonTen {
						nx[stWv+v] += st[stWv+v]*q + w*c[v]
						// E[Y·m_v] = Σ_u E[m_u m_v] c_u/R_u; E[Y·n_v] = Σ_u E[m_u] C_uv/R_u.
						var ym, yn float64
						for u := range nonTen {
							ym += mm[u][v] * pr.cr[u]
							yn += st[stWv+u] * pr.Cr[u][v]
						}
						nx[stWXm+v] += st[stWXm+v]*q + st[stWX]*c[v] + ym + yn
						for u := 0; u <= v; u++ {
							si := sym(u, v)
							nx[stMM+si] += st[stMM+si]*q + st[stWv+u]*c[v] + c[u]*st[stWv+v] + w*e.m.C[si]
						}
					}
				}
			}
			cur, next = next, cur
			for i := 0; i < len(cur); i += capSt {
				w := cur[i+stW]
				if w == 0 {
					continue
				}
				j := i / capSt
				S, n, t := j/dim-maxSpots*capHalf, (j%dim)/(nmax+1), j%(nmax+1)
				// e^{−X} ≤ 1 − X·(1 − e^{−M})/M on [0, M], M = s(s−1)/(2·R_min)
				// bounding X for s non-ten cards in all; and e^{−X} ≤ 1 − X +
				// X²/2 for X ≥ 0. Either bounds the state's E[w·e^{−X}]; the
				// second is nearly exact where X is small.
				slope := 1.0
				if nt := n - t; nt > 1 {
					M := float64(nt*(nt-1)) / (2 * float64(rmin))
					slope = -math.Expm1(-M) / M
				}
				wx := cur[i+stWX]
				bound := min(w-slope*wx, w-wx+cur[i+stWX2]/2)
				out[k-1][S+k*capHalf] += pu * h[t] / g[n] * bound
			}
		}
	}
	return out, pu * tail
}

// dealerLaw is the dealer's block under Q: for each outcome without a
// blackjack (dealerClasses), by the cards it draws (hole card and hits) and
// their ten-values, its probability drawing alone from the shoe less the
// up card.
func (b *bj) dealerLaw(u *upEval) [len(dealerClasses)]hdist {
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
	var out [len(dealerClasses)]hdist
	for i, o := range dealerClasses {
		idx[o] = i
		out[i] = hdist{}
	}
	one := mom{p: 1}
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
				cv := cardVec(v)
				for w := 1; w <= 9; w++ {
					cv[w-1] += float64(s.cnt[w])
				}
				k := res{n: s.n + 1, t: s.cnt[10] + uint8(b2i(v == 10))}
				m := out[idx[o]][k]
				m.add(q, one, cv)
				out[idx[o]][k] = m
			}
		}
	}
	return out
}

// spotLaw is one spot's block under Q: for each dealer outcome, by net
// (res.cls: half units offset by capHalf), cards and ten-values, its
// probability and non-ten moment (within a split, the bounding measure of
// its two hands).
func (b *bj) spotLaw(u *upEval) [len(dealerClasses)]hdist {
	var out [len(dealerClasses)]hdist
	for i := range out {
		out[i] = hdist{}
	}
	add := func(d hdist, w float64, init ...int) {
		h := handOf(init...)
		cv := cardVec(init...)
		for k, x := range d {
			for oi, o := range dealerClasses {
				key := res{cls: uint8(netHalf(&b.r, int(k.cls), int(k.m)+1, o) + capHalf), n: k.n + uint8(len(init)), t: k.t + h.cnt[10]}
				m := out[oi][key]
				m.add(w, x, cv)
				out[oi][key] = m
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
			d := hdist{}
			if a == 1 && c2 == 10 {
				d[res{cls: clsBJ}] = mom{p: 1}
				add(d, pr, a, c2)
				continue
			}
			switch best := bestOf(u.originalOptions(a, c2)); best.name {
			case aStand:
				d[res{cls: uint8(finalCls(h))}] = mom{p: 1}
			case aHit:
				mainW.hit(h, d, 1)
			case aDouble:
				mainW.double(h, d, 1)
			case aSurrender:
				d[res{cls: clsSurr}] = mom{p: 1}
			case aZap:
				b.zapLaw(u, a, c2, d)
			case aSplit:
				b.splitLaw(u, a, pr, &out)
				continue
			default:
				panic("BUG: win cap floor: action " + best.name)
			}
			add(d, pr, a, c2)
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
	memo map[uint64]hdist
}

func newHandWalker(u *upEval, c *ctx, opts func(h hand) []option) *handWalker {
	return &handWalker{u: u, c: c, opts: opts, memo: map[uint64]hdist{}}
}

// play is the result of hand h as the player plays it on (stake 1, cards
// drawn from here).
func (w *handWalker) play(h hand) hdist {
	if d, ok := w.memo[h.key]; ok {
		return d
	}
	d := hdist{}
	if h.hard > 21 {
		d[res{cls: clsBust}] = mom{p: 1}
	} else {
		switch best := bestOf(w.opts(h)); best.name {
		case aStand:
			d[res{cls: uint8(finalCls(h))}] = mom{p: 1}
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

// addShift adds sub to d with weight f, the cards vs more on every path.
func addShift(d, sub hdist, f float64, vs ...int) {
	h := handOf(vs...)
	cv := cardVec(vs...)
	for k, x := range sub {
		if int(k.n)+len(vs) > capMaxCards {
			panic("BUG: win cap floor: a hand beyond the card bound")
		}
		k.n += uint8(len(vs))
		k.t += h.cnt[10]
		m := d[k]
		m.add(f, x, cv)
		d[k] = m
	}
}

// hit adds to d, with weight f, hitting h once and playing on.
func (w *handWalker) hit(h hand, d hdist, f float64) {
	for v := 1; v <= 10; v++ {
		if p := w.c.p(h, v); p > 0 {
			addShift(d, w.play(h.add(v)), f*p, v)
		}
	}
}

// double adds to d, with weight f, doubling h: one card at stake 2.
func (w *handWalker) double(h hand, d hdist, f float64) {
	for v := 1; v <= 10; v++ {
		if p := w.c.p(h, v); p > 0 {
			addShift(d, hdist{res{cls: uint8(finalCls(h.add(v))), m: 1}: {p: 1}}, f*p, v)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// zapLaw adds to d the result of zapping a, b: two new cards from the shoe
// less a, b, then the zapped hand as the player plays it (the caller adds
// the two first cards).
func (b *bj) zapLaw(u *upEval, a, c2 int, d hdist) {
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
				addShift(d, hdist{res{cls: clsZap21}: {p: 1}}, p1*p2, v1, v2)
				continue
			}
			addShift(d, w.play(h), p1*p2, v1, v2)
		}
	}
}

// splitLaw adds to out, with weight pr, splitting the pair p: each hand
// holds one pair card and draws from the shoe less the pair (as the
// analyser values it), the two hands bounded as independent blocks by the
// same change of measure (shoe N−2 cards, R₁₀ less the pair's tens; the
// non-ten factor bounded by 1).
func (b *bj) splitLaw(u *upEval, p int, pr float64, out *[len(dealerClasses)]hdist) {
	hands := [2]kind{u.splitKind(), u.secondSplitKind(p)}
	var hd [2]hdist
	sc := u.splitCtx(p, 2)
	h0 := handOf(p)
	for i, k := range hands {
		w := newHandWalker(u, sc, func(h hand) []option { return u.splitHandOptions(p, 2, h, k) })
		hd[i] = hdist{}
		for v := 1; v <= 10; v++ {
			if pv := sc.p(h0, v); pv > 0 {
				addShift(hd[i], w.play(h0.add(v)), pv, v)
			}
		}
	}
	N2 := b.n - 1 - 2
	R2 := b.full[10] - b2i(u.up == 10) - 2*b2i(p == 10)
	g, h := falling(N2, capMaxCards), falling(R2, capMaxCards)
	pairT := uint8(2 * b2i(p == 10))
	pairV := cardVec(p, p)
	for k1, x1 := range hd[0] {
		for k2, x2 := range hd[1] {
			n, t := int(k1.n)+int(k2.n), int(k1.t)+int(k2.t)
			if n+2 > capMaxCards {
				panic("BUG: win cap floor: a split beyond the card bound")
			}
			// P(h₁, h₂ | pair) ≤ B·A₁₀ · q(h₁)·q(h₂), as between blocks.
			lam := g[k1.n] * g[k2.n] / g[n] * h[t] / (h[k1.t] * h[k2.t])
			// The two hands together (independent under the bound): n₁ + n₂.
			both := mom{p: x1.p * x2.p}
			for v := range both.c {
				both.c[v] = x1.c[v]*x2.p + x1.p*x2.c[v]
			}
			for u := range nonTen {
				for v := u; v < nonTen; v++ {
					i := sym(u, v)
					both.C[i] = x1.C[i]*x2.p + x1.p*x2.C[i] + x1.c[u]*x2.c[v] + x2.c[u]*x1.c[v]
				}
			}
			for oi, o := range dealerClasses {
				s := netHalf(&b.r, int(k1.cls), int(k1.m)+1, o) + netHalf(&b.r, int(k2.cls), int(k2.m)+1, o)
				key := res{cls: uint8(s + capHalf), n: uint8(n + 2), t: uint8(t) + pairT}
				m := out[oi][key]
				m.add(pr*lam, both, pairV)
				out[oi][key] = m
			}
		}
	}
}
