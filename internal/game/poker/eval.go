package poker

import (
	"fmt"
	"math/bits"

	"cabinet/internal/game/card"
)

// Category is the class of a hand, lowest first.
type Category uint8

// The categories in the rule book's order (games.md §5), lowest first.
const (
	HighCard Category = iota
	OnePair
	TwoPairs
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
)

var categoryNames = [...]string{
	HighCard: "high card", OnePair: "one pair", TwoPairs: "two pairs",
	ThreeOfAKind: "three of a kind", Straight: "straight", Flush: "flush",
	FullHouse: "full house", FourOfAKind: "four of a kind", StraightFlush: "straight flush",
}

// String is the category's stable name, also its message key.
func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return fmt.Sprintf("category(%d)", uint8(c))
}

// Value ranks a five-card hand: bits 20–23 hold the Category, bits 0–19 the
// tie-break as up to five 4-bit ranks, most significant first (the rank
// cards by group size, then the kickers, each from the highest down; a
// straight holds only its height). Compare Values with < and ==.
type Value uint32

// Category is the hand's class.
func (v Value) Category() Category { return Category(v >> 20) }

// Ranks returns the tie-break ranks in significance order (e.g. a full
// house's triple then its pair; a straight's height alone).
func (v Value) Ranks() []card.Rank {
	var out []card.Rank
	for shift := 16; shift >= 0; shift -= 4 {
		if r := card.Rank(v >> shift & 0xF); r != 0 {
			out = append(out, r)
		}
	}
	return out
}

// String is the category name and the tie-break ranks, e.g. "two pairs K 9 4".
func (v Value) String() string {
	s := v.Category().String()
	for _, r := range v.Ranks() {
		s += " " + r.String()
	}
	return s
}

// Ace-low straights as rank masks (bit r set for rank r).
const (
	wheel52 = 1<<card.Ace | 1<<card.Two | 1<<card.Three | 1<<card.Four | 1<<card.Five
	wheel32 = 1<<card.Ace | 1<<card.Seven | 1<<card.Eight | 1<<card.Nine | 1<<card.Ten
)

// Eval ranks a hand of five distinct cards; short selects the 32-card deck's
// ace-low straight (A-7-8-9-10) instead of A-2-3-4-5. With short set every
// card must be a 7 or higher; Eval does not check the cards (it is the inner
// loop of simulations), the engine deals only valid distinct cards.
func Eval(hand [5]card.Card, short bool) Value {
	var mask, once, twice, thrice, quads uint32
	suits := uint8(0)
	for _, c := range hand {
		b := uint32(1) << c.Rank
		// Each rank sits in the mask of how often it has been seen so far.
		quads |= thrice & b
		thrice = thrice&^b | twice&b
		twice = twice&^b | once&b
		once = once&^b | b&^mask
		mask |= b
		suits |= 1 << c.Suit
	}
	flush := suits&(suits-1) == 0
	switch bits.OnesCount32(mask) {
	case 5:
		top := uint32(bits.Len32(mask) - 1)
		straight := mask>>(top-4) == 0x1F
		if !straight {
			if short && mask == wheel32 {
				straight, top = true, uint32(card.Ten)
			} else if !short && mask == wheel52 {
				straight, top = true, uint32(card.Five)
			}
		}
		switch {
		case straight && flush:
			return Value(StraightFlush)<<20 | Value(top)<<16
		case flush:
			return Value(Flush)<<20 | desc(mask, 16)
		case straight:
			return Value(Straight)<<20 | Value(top)<<16
		}
		return Value(HighCard)<<20 | desc(mask, 16)
	case 4:
		return Value(OnePair)<<20 | desc(twice, 16) | desc(once, 12)
	case 3:
		if thrice != 0 {
			return Value(ThreeOfAKind)<<20 | desc(thrice, 16) | desc(once, 12)
		}
		return Value(TwoPairs)<<20 | desc(twice, 16) | desc(once, 8)
	}
	// Two distinct ranks: a full house or four of a kind.
	if thrice != 0 {
		return Value(FullHouse)<<20 | desc(thrice, 16) | desc(twice, 12)
	}
	return Value(FourOfAKind)<<20 | desc(quads, 16) | desc(once, 12)
}

// desc packs the ranks of mask from the highest down as 4-bit digits, the
// first at bit shift.
func desc(mask uint32, shift int) Value {
	var v Value
	for mask != 0 {
		r := uint32(bits.Len32(mask) - 1)
		v |= Value(r) << shift
		shift -= 4
		mask &^= 1 << r
	}
	return v
}

// Compare returns -1, 0 or +1 as a is worse than, identical to or better than b.
func Compare(a, b [5]card.Card, short bool) int {
	va, vb := Eval(a, short), Eval(b, short)
	switch {
	case va < vb:
		return -1
	case va > vb:
		return 1
	}
	return 0
}
