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
// tie-break, laid out per category so that plain integer order is the rule
// book's order. A set of distinct ranks is kept as a rank mask (bit r-2 for
// rank r): between sets of the same size, the larger mask is the one with
// the higher top rank, then the higher next one, and so on. A single rank is
// a 4-bit digit.
//
//	high card, flush   mask of the five ranks
//	one pair           pair rank <<16 | mask of the three kickers
//	two pairs          mask of the two pair ranks <<4 | kicker
//	three of a kind    trips rank <<16 | mask of the two kickers
//	full house, four   rank of the triple (quad) <<4 | the other rank
//	straight (flush)   height (top card; 5 or 10 for the ace-low one)
//
// Compare Values with < and ==.
type Value uint32

// Category is the hand's class.
func (v Value) Category() Category { return Category(v >> 20) }

// Ranks returns the tie-break ranks in significance order (e.g. a full
// house's triple then its pair; a straight's height alone).
func (v Value) Ranks() []card.Rank {
	t := uint32(v & 0xFFFFF)
	switch v.Category() {
	case HighCard, Flush:
		return maskRanks(t)
	case OnePair, ThreeOfAKind:
		return append([]card.Rank{card.Rank(t >> 16)}, maskRanks(t&0x1FFF)...)
	case TwoPairs:
		return append(maskRanks(t>>4), card.Rank(t&0xF))
	case FullHouse, FourOfAKind:
		return []card.Rank{card.Rank(t >> 4), card.Rank(t & 0xF)}
	}
	return []card.Rank{card.Rank(t)}
}

// maskRanks lists the ranks of a tie-break mask from the highest down.
func maskRanks(m uint32) []card.Rank {
	var out []card.Rank
	for m != 0 {
		b := bits.Len32(m) - 1
		out = append(out, card.Rank(b)+card.Two)
		m &^= 1 << b
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
