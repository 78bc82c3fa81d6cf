package blackjack

import (
	"slices"

	"cabinet/internal/game/card"
)

// mem is the storage a Round reuses from step to step and, through Renew,
// from round to round, so that a round played in a loop (the simulator, the
// engine benchmarks) allocates nothing once warm (issue 17). It is never
// encoded: a Round decoded from the store starts without one and makes it on
// its first Apply. What is recorded (events, the encoded round) is the same
// with or without it.
type mem struct {
	// work is the copy a step is played on; it replaces the round on success
	// (Apply is all or nothing) and the round's old storage becomes the next
	// work copy.
	work Round
	// Spare storage for the slices that are nil before the deal (nil and
	// empty encode differently: the spare is taken by the deal).
	dealer []card.Card
	hands  []Hand // Cards buffers kept in the slots up to cap
	sides  []Side
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
	w.Dealer = m.keepCards(dealer, r.Dealer)
	w.Sides = copyOrKeep(&m.sides, sides, r.Sides)
	w.Pending = copyOrKeep(nil, pending, r.Pending)
	w.Hands = m.copyHands(hands, r.Hands)
	return w
}

// commit makes the work copy the round; the round's old storage becomes the
// next work copy.
func (r *Round) commit() {
	m := r.mem
	old := *r
	*r = m.work
	r.mem = m
	old.mem = nil
	m.work = old
}

// keepCards copies src into buf's storage; a nil src stays nil (buf is kept
// as the spare dealer storage).
func (m *mem) keepCards(buf, src []card.Card) []card.Card {
	if src == nil {
		if cap(buf) > cap(m.dealer) {
			m.dealer = buf[:0]
		}
		return nil
	}
	return append(buf[:0], src...)
}

func copyOrKeep[T any](spare *[]T, buf, src []T) []T {
	if src == nil {
		if spare != nil && cap(buf) > cap(*spare) {
			*spare = buf[:0]
		}
		return nil
	}
	return append(buf[:0], src...)
}

// copyHands deep-copies src into buf's slots, each slot's Cards buffer reused.
func (m *mem) copyHands(buf, src []Hand) []Hand {
	if src == nil {
		if cap(buf) > cap(m.hands) {
			m.hands = buf[:0]
		}
		return nil
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

// takeSpare gives the work copy w the spare storage for the slices the deal
// fills (they are nil before it).
func (m *mem) takeSpare(w *Round) {
	if m == nil {
		return
	}
	if w.Dealer == nil && m.dealer != nil {
		w.Dealer, m.dealer = m.dealer[:0], nil
	}
	if w.Hands == nil && m.hands != nil {
		w.Hands, m.hands = m.hands[:0], nil
	}
	if w.Sides == nil && m.sides != nil {
		w.Sides, m.sides = m.sides[:0], nil
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
	if cap(r.Dealer) > cap(m.dealer) {
		m.dealer = r.Dealer[:0]
	}
	if cap(r.Hands) > cap(m.hands) {
		m.hands = r.Hands[:0]
	}
	if cap(r.Sides) > cap(m.sides) {
		m.sides = r.Sides[:0]
	}
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
