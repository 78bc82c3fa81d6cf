package blackjack

import (
	"slices"

	"cabinet/internal/game/card"
)

// mem is the storage a Round reuses from step to step and, through Renew,
// from round to round, so that a round played in a loop (the simulator, the
// engine benchmarks) allocates nothing once warm (README, Performance). It is never
// encoded: a Round decoded from the store starts without one and makes it on
// its first Apply. What is recorded (events, the encoded round) is the same
// with or without it.
type mem struct {
	// work is the copy a step is played on; it replaces the round on success
	// (Apply is all or nothing) and the round's old storage becomes the next
	// work copy.
	work Round
	// Storage of slices that are nil in the round being copied (nil and
	// empty encode differently, so a nil slice stays nil and its storage
	// waits here for the deal).
	cards   pool[card.Card] // dealer hands, zapped cards
	hands   pool[Hand]      // each array keeps its slots' Cards buffers
	sides   pool[Side]
	pending pool[Pay]
}

// pool is a short free list of slice storage.
type pool[T any] struct{ free [][]T }

func (p *pool[T]) put(s []T) {
	if cap(s) > 0 && len(p.free) < 4 {
		p.free = append(p.free, s[:0])
	}
}

func (p *pool[T]) get() []T {
	n := len(p.free)
	if n == 0 {
		return nil
	}
	s := p.free[n-1]
	p.free[n-1] = nil
	p.free = p.free[:n-1]
	return s
}

// copyInto copies src into buf's storage (or pooled storage); a nil src
// stays nil and buf's storage goes to the pool.
func copyInto[T any](p *pool[T], buf, src []T) []T {
	if src == nil {
		p.put(buf)
		return nil
	}
	if cap(buf) < len(src) {
		p.put(buf)
		buf = p.get()
	}
	return append(buf[:0], src...)
}

// working returns the work copy of r: a deep copy that reuses the storage of
// the previous work copy.
func (r *Round) working() *Round {
	if r.mem == nil {
		r.mem = new(mem)
	}
	m := r.mem
	w := &m.work
	dealer, hands, sides, pending := w.Dealer, w.Hands, w.Sides, w.Pending
	*w = *r
	w.mem = nil
	w.Dealer = copyInto(&m.cards, dealer, r.Dealer)
	w.Sides = copyInto(&m.sides, sides, r.Sides)
	w.Pending = copyInto(&m.pending, pending, r.Pending)
	w.Hands = m.copyHands(hands, r.Hands)
	return w
}

// commit makes the work copy the round; the round's old storage becomes the
// next work copy.
//
// Only the fields a step can change are swapped: V, Rules and Number are the
// same in both (working copied them), and copying Rules twice more per step
// was a tenth of a round's time.
func (r *Round) commit() {
	w := &r.mem.work
	r.Phase, w.Phase = w.Phase, r.Phase
	r.Dealer, w.Dealer = w.Dealer, r.Dealer
	r.HoleDown, w.HoleDown = w.HoleDown, r.HoleDown
	r.Hands, w.Hands = w.Hands, r.Hands
	r.Active, w.Active = w.Active, r.Active
	r.Sides, w.Sides = w.Sides, r.Sides
	r.Pending, w.Pending = w.Pending, r.Pending
	r.Staked, w.Staked = w.Staked, r.Staked
	r.Paid, w.Paid = w.Paid, r.Paid
}

// copyHands deep-copies src into buf's slots, each slot's Cards buffer reused.
func (m *mem) copyHands(buf, src []Hand) []Hand {
	if src == nil {
		m.hands.put(buf)
		return nil
	}
	if cap(buf) < len(src) {
		m.hands.put(buf)
		buf = m.hands.get()
	}
	if cap(buf) < len(src) {
		nb := make([]Hand, len(src), max(len(src), 2*cap(buf), 4))
		for i := range buf[:cap(buf)] {
			nb[i].Cards = buf[:cap(buf)][i].Cards
		}
		buf = nb
	}
	buf = buf[:len(src)]
	for i := range src {
		cards, zapped := buf[i].Cards, buf[i].Zapped
		if src[i].Zapped == nil {
			m.cards.put(zapped)
			zapped = nil
		}
		buf[i] = src[i]
		buf[i].Cards = cloneInto(cards, src[i].Cards)
		buf[i].Zapped = cloneInto(zapped, src[i].Zapped)
	}
	return buf
}

// cloneInto copies src into buf's storage, keeping nil nil. buf must not
// share storage with src.
func cloneInto(buf, src []card.Card) []card.Card {
	if src == nil {
		return nil
	}
	return append(buf[:0], src...)
}

// takeSpare gives the work copy w pooled storage for the slices the deal
// fills (they are nil before it).
func (m *mem) takeSpare(w *Round) {
	if m == nil {
		return
	}
	if w.Dealer == nil {
		w.Dealer = m.cards.get()
	}
	if w.Hands == nil {
		w.Hands = m.hands.get()
	}
	if w.Sides == nil {
		w.Sides = m.sides.get()
	}
}

// newHand appends a hand to r.Hands, reusing the Cards buffer left in the
// slot by an earlier round or step.
func (r *Round) newHand(h Hand) {
	n := len(r.Hands)
	if n < cap(r.Hands) {
		buf := r.Hands[:n+1][n].Cards
		r.Hands = r.Hands[:n+1]
		h.Cards = cloneInto(buf, h.Cards)
		if h.Cards == nil {
			h.Cards = buf[:0]
		}
		r.Hands[n] = h
		return
	}
	r.Hands = append(r.Hands, h)
}

// Renew makes r round number n of the same rules, waiting for the Deal, as
// New would, but keeps r's storage for reuse: the simulator and the
// benchmarks play round after round on one Round without allocating. The
// encoding of the renewed round is the one New gives.
func (r *Round) Renew(n uint64) {
	m := r.mem
	if m == nil {
		m = new(mem)
	}
	m.cards.put(r.Dealer)
	m.hands.put(r.Hands)
	m.sides.put(r.Sides)
	m.pending.put(r.Pending)
	*r = Round{V: Version, Rules: r.Rules, Number: n, Phase: PhaseBet, Active: -1, mem: m}
}

// insertHand inserts h at index i of r.Hands (a split), reusing the Cards
// buffer of the slot past the end. h.Cards is copied, never kept.
func (r *Round) insertHand(i int, h Hand) {
	n := len(r.Hands)
	var spare []card.Card
	if n < cap(r.Hands) {
		spare = r.Hands[:n+1][n].Cards
		r.Hands = r.Hands[:n+1]
		copy(r.Hands[i+1:], r.Hands[i:n])
	} else {
		r.Hands = slices.Insert(r.Hands, i, Hand{})
	}
	h.Cards = cloneInto(spare, h.Cards)
	r.Hands[i] = h
}
