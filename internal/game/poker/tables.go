package poker

import "cabinet/internal/game/card"

// Eval's lookup tables. Each card adds one 64-bit code (cardCode) to a sum
// that holds three fields at once:
//
//	bits  0–18  the rank key: the sum of the five ranks' weights
//	bits 20–35  four 4-bit suit counters (a flush makes one of them 5)
//	bits 36–48  one bit per rank, 2 at bit 36 (meaningful only for a flush,
//	            whose ranks are distinct, so the sum does not carry)
//
// The rank weights make the rank key unique for every multiset of five ranks
// (at most four of a rank): the key identifies a hand's ranks up to suits,
// and so, when the hand is not a flush, its Value. classOf maps a rank key to
// a class (one of the 6,175 rank multisets), and each deck's values array
// maps the class to the Value; a flush is looked up by its rank bits instead.
// The two decks share the key and the classes and differ only in their
// values (the ace-low straight), so a 32-card hand costs the same as a
// 52-card one.
//
// The tables are filled once when the program starts, by evaluating one hand
// of each class with evalBits, the bit-counting evaluator the cabinet
// shipped first: about 7,500 evaluations (BenchmarkBuildTables measures the
// whole build). They are never written again.

// rankWeights[r-2] is the weight of rank r. Found by a greedy search (each
// weight the smallest one above the last that keeps all five-rank multisets'
// sums distinct); TestRankKeysUnique proves the property, so the numbers
// need no trust.
var rankWeights = [13]uint64{0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415}

const (
	keyBits    = 19 // 4*79415 + 43258 = 360918 < 1<<19
	keyMask    = 1<<keyBits - 1
	suitShift  = 20
	rankShift  = 36
	classCount = 6175 // rank multisets of a five-card hand
	// flushProbe adds 3 to each suit counter: a counter of 5 (a flush) is
	// the only one that reaches 8, bit 3 of its field.
	flushProbe = 0x3333 << suitShift
	flushBits  = 0x8888 << suitShift
)

// deckTables are one deck's Values.
type deckTables struct {
	values [1 << 13]Value // by rank class (classOf), 1–6175
	flush  [1 << 13]Value // by the mask of the five ranks (bit r-2 for rank r)
}

var (
	cardCode [16][4]uint64        // by rank (2–14) and suit; other ranks are 0
	classOf  [1 << keyBits]uint16 // rank key to rank class
	decks    [2]deckTables        // 0: 52 cards, 1: 32 cards (short)
)

func init() { buildTables() }

// buildTables fills cardCode, classOf and decks. Deterministic: the same
// tables every run.
func buildTables() {
	for r := card.Two; r <= card.Ace; r++ {
		for s := range 4 {
			cardCode[r][s] = rankWeights[r-card.Two] | 1<<(suitShift+4*s) | 1<<(rankShift+int(r-card.Two))
		}
	}
	// Every multiset of five ranks, at most four of each, gets the next
	// class; its representative hand spreads the copies over the suits so
	// that it is never a flush.
	var counts [13]int
	classOf = [1 << keyBits]uint16{}
	class := uint16(0) // the last class given; classes start at 1, 0 marks a free key
	var walk func(r, left int)
	walk = func(r, left int) {
		if r == 13 {
			if left != 0 {
				return
			}
			var h [5]card.Card
			var key uint64
			n := 0
			for i, c := range counts {
				for k := range c {
					h[n] = card.Card{Rank: card.Two + card.Rank(i), Suit: card.Suit((n + k) % 4)}
					n++
				}
				key += uint64(c) * rankWeights[i]
			}
			if n == 5 && h[4].Suit == h[0].Suit { // five distinct ranks: suits 0,1,2,3,0
				h[4].Suit = card.Suit(1)
			}
			if classOf[key] != 0 || class == classCount {
				panic("BUG: poker: rank weights do not give a unique key per rank multiset")
			}
			class++
			classOf[key] = class
			decks[0].values[class] = evalBits(h, false)
			decks[1].values[class] = evalBits(h, true)
			return
		}
		for c := 0; c <= 4 && c <= left; c++ {
			counts[r] = c
			walk(r+1, left-c)
		}
		counts[r] = 0
	}
	walk(0, 5)
	if class != classCount {
		panic("BUG: poker: rank multiset count is not 6175")
	}
	// Every flush: five distinct ranks of one suit.
	for m := uint32(0); m < 1<<13; m++ {
		if popcount13(m) != 5 {
			continue
		}
		var h [5]card.Card
		n := 0
		for i := range 13 {
			if m&(1<<i) != 0 {
				h[n] = card.Card{Rank: card.Two + card.Rank(i), Suit: card.Spades}
				n++
			}
		}
		decks[0].flush[m] = evalBits(h, false)
		decks[1].flush[m] = evalBits(h, true)
	}
}

func popcount13(m uint32) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// Eval ranks a hand of five distinct cards; short selects the 32-card deck's
// ace-low straight (A-7-8-9-10) instead of A-2-3-4-5. Eval does not check
// the cards (it is the inner loop of simulations and of the analyser): the
// engine deals only valid distinct cards, and a card outside the deck makes a
// meaningless Value, never a panic. Eval allocates nothing; it adds five
// table codes and makes one lookup (two for a non-flush).
func Eval(hand [5]card.Card, short bool) Value {
	s := cardCode[hand[0].Rank&15][hand[0].Suit&3] +
		cardCode[hand[1].Rank&15][hand[1].Suit&3] +
		cardCode[hand[2].Rank&15][hand[2].Suit&3] +
		cardCode[hand[3].Rank&15][hand[3].Suit&3] +
		cardCode[hand[4].Rank&15][hand[4].Suit&3]
	d := &decks[0]
	if short {
		d = &decks[1]
	}
	if (s+flushProbe)&flushBits != 0 {
		return d.flush[s>>rankShift&(1<<13-1)]
	}
	return d.values[classOf[s&keyMask]&(1<<13-1)]
}
