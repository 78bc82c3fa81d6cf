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
	const m2 = card.Two // masks below are shifted so rank 2 is bit 0
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
			return Value(StraightFlush)<<20 | Value(top)
		case flush:
			return Value(Flush)<<20 | Value(mask>>m2)
		case straight:
			return Value(Straight)<<20 | Value(top)
		}
		return Value(HighCard)<<20 | Value(mask>>m2)
	case 4:
		return Value(OnePair)<<20 | rank(twice)<<16 | Value(once>>m2)
	case 3:
		if thrice != 0 {
			return Value(ThreeOfAKind)<<20 | rank(thrice)<<16 | Value(once>>m2)
		}
		return Value(TwoPairs)<<20 | Value(twice>>m2)<<4 | rank(once)
	}
	// Two distinct ranks: a full house or four of a kind.
	if thrice != 0 {
		return Value(FullHouse)<<20 | rank(thrice)<<4 | rank(twice)
	}
	return Value(FourOfAKind)<<20 | rank(quads)<<4 | rank(once)
}

// rank is the rank of a one-bit mask.
func rank(m uint32) Value { return Value(bits.TrailingZeros32(m)) }

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
