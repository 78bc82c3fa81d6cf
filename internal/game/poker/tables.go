package poker

import (
	"slices"

	"cabinet/internal/game/card"
)

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
// and so, when the hand is not a flush, its Value. The 6,175 keys are spread
// over 0–360,918; a perfect hash packs them into 16,384 slots: the key's
// bucket (key >> hashShift) gives a displacement, and the slot is key plus
// displacement, modulo the slot count. Each deck has its own Values by slot
// and by flush rank mask; the decks share the keys and the hash and differ
// only in the ace-low straight, so a 32-card hand costs what a 52-card one
// does. A deck's tables take 104 KB (8 KB of displacements shared, 64 KB of
// Values by slot, 32 KB of flushes), small enough to stay in a core's L2
// cache on this machine and on the Pi (a direct table by key would be
// 720 KB, and was slower under load).
//
// The tables are filled once when the program starts, by evaluating one hand
// of each rank multiset and each flush with evalBits, the bit-counting
// evaluator the cabinet shipped first (BenchmarkBuildTables measures the
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
	hashShift  = 7  // keys per bucket: 128
	slotBits   = 14 // 16,384 slots for 6,175 keys
	slotMask   = 1<<slotBits - 1
)

// deckTables are one deck's Values.
type deckTables struct {
	values [1 << slotBits]Value // by hash slot of the rank key
	flush  [1 << 13]Value       // by the mask of the five ranks (bit r-2 for rank r)
}

var (
	cardCode [16][4]uint64                      // by rank (2–14) and suit; other ranks are 0
	disp     [1 << (keyBits - hashShift)]uint16 // displacement by bucket
	decks    [2]deckTables                      // 0: 52 cards, 1: 32 cards (short)
)

func init() { buildTables() }

// rankClass is one multiset of five ranks: its key and a hand that has it.
type rankClass struct {
	key  uint64
	hand [5]card.Card
}

// rankClasses lists every multiset of five ranks, at most four of each, in
// a fixed order. Each representative hand spreads the copies of a rank over
// the suits and is never a flush.
func rankClasses() []rankClass {
	out := make([]rankClass, 0, classCount)
	var counts [13]int
	var walk func(r, left int)
	walk = func(r, left int) {
		if r == 13 {
			if left != 0 {
				return
			}
			var c rankClass
			n := 0
			for i, k := range counts {
				for j := range k {
					c.hand[n] = card.Card{Rank: card.Two + card.Rank(i), Suit: card.Suit((n + j) % 4)}
					n++
				}
				c.key += uint64(k) * rankWeights[i]
			}
			if c.hand[4].Suit == c.hand[0].Suit { // five distinct ranks: suits 0,1,2,3,0
				c.hand[4].Suit = card.Suit(1)
			}
			out = append(out, c)
			return
		}
		for k := 0; k <= 4 && k <= left; k++ {
			counts[r] = k
			walk(r+1, left-k)
		}
		counts[r] = 0
	}
	walk(0, 5)
	return out
}

// buildTables fills cardCode, disp and decks. Deterministic: the same tables
// every run.
func buildTables() {
	for r := card.Two; r <= card.Ace; r++ {
		for s := range 4 {
			cardCode[r][s] = rankWeights[r-card.Two] | 1<<(suitShift+4*s) | 1<<(rankShift+int(r-card.Two))
		}
	}
	classes := rankClasses()
	if len(classes) != classCount {
		panic("BUG: poker: rank multiset count is not 6175")
	}
	// The perfect hash: buckets in decreasing size (ties in bucket order),
	// each given the smallest displacement that puts all its keys in free
	// slots. Keys of one bucket differ by less than the slot count, so they
	// never collide with each other.
	// Class indexes grouped by bucket: bucket b's are members[start[b]:start[b+1]].
	var start [len(disp) + 1]int
	for _, c := range classes {
		start[c.key>>hashShift+1]++
	}
	for b := range len(disp) {
		start[b+1] += start[b]
	}
	members := make([]int, len(classes))
	fill := start
	for i, c := range classes {
		b := c.key >> hashShift
		members[fill[b]] = i
		fill[b]++
	}
	bucket := func(b int) []int { return members[start[b]:start[b+1]] }
	order := make([]int, len(disp))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(bucket(b)) - len(bucket(a)) })
	var used [1 << slotBits]bool
	for _, b := range order {
		if len(bucket(b)) == 0 {
			break
		}
		d := 0
	search:
		for ; d < 1<<16; d++ {
			for _, i := range bucket(b) {
				if used[(classes[i].key+uint64(d))&slotMask] {
					continue search
				}
			}
			break
		}
		if d == 1<<16 {
			panic("BUG: poker: no displacement places the bucket's rank keys")
		}
		disp[b] = uint16(d)
		for _, i := range bucket(b) {
			slot := (classes[i].key + uint64(d)) & slotMask
			if classes[i].key>>hashShift != uint64(b) || used[slot] {
				panic("BUG: poker: rank key placed twice")
			}
			used[slot] = true
			decks[0].values[slot] = evalBits(classes[i].hand, false)
			decks[1].values[slot] = evalBits(classes[i].hand, true)
		}
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
// meaningless Value, never a panic. Eval allocates nothing: it adds five
// card codes and makes one lookup for a flush, two otherwise.
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
	k := s & keyMask
	return d.values[(k+uint64(disp[k>>hashShift]))&slotMask]
}
