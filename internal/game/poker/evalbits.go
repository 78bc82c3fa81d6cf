package poker

import (
	"math/bits"

	"cabinet/internal/game/card"
)

// Ace-low straights as rank masks (bit r set for rank r).
const (
	wheel52 = 1<<card.Ace | 1<<card.Two | 1<<card.Three | 1<<card.Four | 1<<card.Five
	wheel32 = 1<<card.Ace | 1<<card.Seven | 1<<card.Eight | 1<<card.Nine | 1<<card.Ten
)

// evalBits is the evaluator the cabinet shipped first: it counts ranks with
// bit masks and decides the category by branches. It is slower than the
// table lookup of Eval, and kept for two uses: it fills Eval's tables
// (tables.go), and the tests compare Eval with it over every hand of both
// decks, so the tables cannot drift from these rules.
func evalBits(hand [5]card.Card, short bool) Value {
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
