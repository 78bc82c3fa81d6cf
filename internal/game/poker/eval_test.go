package poker

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"cabinet/internal/game/card"
)

func hand(t testing.TB, s string) [5]card.Card {
	t.Helper()
	cs := card.MustParse(s)
	if len(cs) != 5 {
		t.Fatalf("fixture %q has %d cards, want 5", s, len(cs))
	}
	return [5]card.Card(cs)
}

// forEachHand calls f with every five-card hand of deck.
func forEachHand(deck []card.Card, f func([5]card.Card)) {
	n := len(deck)
	var h [5]card.Card
	for a := 0; a < n; a++ {
		h[0] = deck[a]
		for b := a + 1; b < n; b++ {
			h[1] = deck[b]
			for c := b + 1; c < n; c++ {
				h[2] = deck[c]
				for d := c + 1; d < n; d++ {
					h[3] = deck[d]
					for e := d + 1; e < n; e++ {
						h[4] = deck[e]
						f(h)
					}
				}
			}
		}
	}
}

func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// formulaCounts derives the category counts of a deck of `ranks` ranks in
// four suits with `straights` distinct straights (rank sequences), by
// counting: an independent method from the enumeration.
func formulaCounts(ranks, straights int) [9]int {
	suitings := 4 * 4 * 4 * 4 * 4 // suit choices of five distinct ranks
	var c [9]int
	c[StraightFlush] = straights * 4
	c[FourOfAKind] = ranks * (4*ranks - 4)
	c[FullHouse] = ranks * binom(4, 3) * (ranks - 1) * binom(4, 2)
	c[Flush] = 4 * (binom(ranks, 5) - straights)
	c[Straight] = straights * (suitings - 4)
	c[ThreeOfAKind] = ranks * binom(4, 3) * binom(ranks-1, 2) * 16
	c[TwoPairs] = binom(ranks, 2) * 36 * (ranks - 2) * 4
	c[OnePair] = ranks * binom(4, 2) * binom(ranks-1, 3) * 64
	c[HighCard] = (binom(ranks, 5) - straights) * (suitings - 4)
	return c
}

// formulaClasses derives how many distinct Values each category has.
func formulaClasses(ranks, straights int) [9]int {
	var c [9]int
	c[StraightFlush] = straights
	c[FourOfAKind] = ranks * (ranks - 1)
	c[FullHouse] = ranks * (ranks - 1)
	c[Flush] = binom(ranks, 5) - straights
	c[Straight] = straights
	c[ThreeOfAKind] = ranks * binom(ranks-1, 2)
	c[TwoPairs] = binom(ranks, 2) * (ranks - 2)
	c[OnePair] = ranks * binom(ranks-1, 3)
	c[HighCard] = binom(ranks, 5) - straights
	return c
}

func TestEnumerate52(t *testing.T) {
	// The published table (e.g. Wikipedia "Poker probability").
	published := [9]int{
		HighCard: 1302540, OnePair: 1098240, TwoPairs: 123552, ThreeOfAKind: 54912,
		Straight: 10200, Flush: 5108, FullHouse: 3744, FourOfAKind: 624, StraightFlush: 40,
	}
	enumerate(t, card.Deck(), false, published, formulaCounts(13, 10), formulaClasses(13, 10), 2598960, 7462)
}

func TestEnumerate32(t *testing.T) {
	// 32 cards: 8 ranks, straights 7-J, 8-Q, 9-K, 10-A and the ace-low A-7-8-9-10.
	want := [9]int{
		HighCard: 52020, OnePair: 107520, TwoPairs: 24192, ThreeOfAKind: 10752,
		Straight: 5100, Flush: 204, FullHouse: 1344, FourOfAKind: 224, StraightFlush: 20,
	}
	enumerate(t, card.ShortDeck(), true, want, formulaCounts(8, 5), formulaClasses(8, 5), 201376, 840)
}

func enumerate(t *testing.T, deck []card.Card, short bool, table, formula, classes [9]int, total, distinct int) {
	t.Helper()
	if table != formula {
		t.Fatalf("table %v and formula %v disagree", table, formula)
	}
	var got [9]int
	values := map[Value]Category{}
	n := 0
	forEachHand(deck, func(h [5]card.Card) {
		v := Eval(h, short)
		got[v.Category()]++
		values[v] = v.Category()
		n++
	})
	if n != total {
		t.Errorf("enumerated %d hands, want %d", n, total)
	}
	for c := HighCard; c <= StraightFlush; c++ {
		if got[c] != table[c] {
			t.Errorf("%v: %d hands, want %d", c, got[c], table[c])
		}
	}
	var gotClasses [9]int
	for _, c := range values {
		gotClasses[c]++
	}
	if gotClasses != classes {
		t.Errorf("distinct values per category = %v, want %v", gotClasses, classes)
	}
	if len(values) != distinct {
		t.Errorf("%d distinct values, want %d", len(values), distinct)
	}
}

// refKey is the slow, obviously correct reference: category by direct
// tests on sorted ranks, tie-break ranks sorted by (count, rank) descending.
func refKey(h [5]card.Card, short bool) (Category, []int) {
	count := map[int]int{}
	var ranks []int
	flush := true
	for _, c := range h {
		count[int(c.Rank)]++
		ranks = append(ranks, int(c.Rank))
		if c.Suit != h[0].Suit {
			flush = false
		}
	}
	var distinct []int
	for r := range count {
		distinct = append(distinct, r)
	}
	sort.Slice(distinct, func(i, j int) bool {
		if count[distinct[i]] != count[distinct[j]] {
			return count[distinct[i]] > count[distinct[j]]
		}
		return distinct[i] > distinct[j]
	})
	sort.Sort(sort.Reverse(sort.IntSlice(ranks)))
	straight, height := false, 0
	if len(distinct) == 5 {
		if ranks[0]-ranks[4] == 4 {
			straight, height = true, ranks[0]
		}
		low := []int{14, 5, 4, 3, 2}
		if short {
			low = []int{14, 10, 9, 8, 7}
		}
		if slices.Equal(ranks, low) {
			straight, height = true, low[1]
		}
	}
	var shape []int
	for _, r := range distinct {
		shape = append(shape, count[r])
	}
	switch {
	case straight && flush:
		return StraightFlush, []int{height}
	case shape[0] == 4:
		return FourOfAKind, distinct
	case shape[0] == 3 && shape[1] == 2:
		return FullHouse, distinct
	case flush:
		return Flush, distinct
	case straight:
		return Straight, []int{height}
	case shape[0] == 3:
		return ThreeOfAKind, distinct
	case shape[0] == 2 && shape[1] == 2:
		return TwoPairs, distinct
	case shape[0] == 2:
		return OnePair, distinct
	}
	return HighCard, distinct
}

func refCompare(a, b [5]card.Card, short bool) int {
	ca, ra := refKey(a, short)
	cb, rb := refKey(b, short)
	if ca != cb {
		if ca < cb {
			return -1
		}
		return 1
	}
	return slices.Compare(ra, rb)
}

func TestAgainstReference(t *testing.T) {
	seed := uint64(20261122)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, short := range []bool{false, true} {
		deck := card.Deck()
		if short {
			deck = card.ShortDeck()
		}
		deal := func() [5]card.Card {
			rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
			return [5]card.Card(deck[:5])
		}
		for i := range 50000 {
			a, b := deal(), deal()
			if i%4 == 0 { // same ranks, other suits: ties and near ties
				b = a
				for k := range b {
				again:
					b[k].Suit = card.Suit(rng.IntN(4))
					if slices.Contains(b[:k], b[k]) {
						goto again
					}
				}
			}
			got, want := Compare(a, b, short), refCompare(a, b, short)
			if got != want {
				t.Fatalf("short=%v Compare(%v, %v) = %d, want %d (values %v, %v)", short,
					card.Format(a[:]), card.Format(b[:]), got, want, Eval(a, short), Eval(b, short))
			}
			if ca, _ := refKey(a, short); Eval(a, short).Category() != ca {
				t.Fatalf("short=%v Eval(%v).Category() = %v, want %v", short, card.Format(a[:]), Eval(a, short).Category(), ca)
			}
		}
	}
}

func TestEvalFixtures(t *testing.T) {
	tests := []struct {
		hand  string
		short bool
		want  string
	}{
		{"AS KS QS JS 10S", false, "straight flush A"},
		{"AS 2D 3C 4H 5S", false, "straight 5"},
		{"AS 2D 3C 4H 5S", true, "high card A 5 4 3 2"}, // not a straight with 32 cards (never dealt)
		{"AS 7D 8C 9H 10S", true, "straight 10"},
		{"AS 7D 8C 9H 10S", false, "high card A 10 9 8 7"},
		{"AH 7H 8H 9H 10H", true, "straight flush 10"},
		{"KS KD KC 2H 2S", false, "full house K 2"},
		{"9S 9D 9C 9H 2S", false, "four of a kind 9 2"},
		{"9S 9D 4C 4H AS", false, "two pairs 9 4 A"},
		{"9S 9D 4C 3H AS", false, "one pair 9 A 4 3"},
		{"9S 9D 9C 3H AS", false, "three of a kind 9 A 3"},
		{"2S 9S 4S 3S AS", false, "flush A 9 4 3 2"},
		{"QS KD AC 2H 3S", false, "high card A K Q 3 2"}, // no wrap-around straight
	}
	for _, tt := range tests {
		if got := Eval(hand(t, tt.hand), tt.short).String(); got != tt.want {
			t.Errorf("Eval(%s, short=%v) = %q, want %q", tt.hand, tt.short, got, tt.want)
		}
	}
}

func TestOrderProperties(t *testing.T) {
	tests := []struct {
		lo, hi string
		short  bool
	}{
		{"AS 2D 3C 4H 5S", "2S 3D 4C 5H 6S", false},  // the wheel is the lowest straight
		{"AS 7D 8C 9H 10S", "7S 8D 9C 10H JS", true}, // A-7-8-9-10 is the lowest 32-card straight
		{"KS KD KC QH QS", "7S 7D 7C 7H 8S", true},   // four of a kind above full house with 32 cards too
		{"AS KS QS JS 9S", "7S 7D 7C 8H 8S", true},   // decided: full house above flush with 32 cards
		{"9S 9D 4C 4H KS", "9H 9C 4S 4D AS", false},  // two pairs: the kicker decides
		{"9S 9D 4C 4H AS", "9H 9C 5S 5D 2S", false},  // two pairs: the lower pair before the kicker
	}
	for _, tt := range tests {
		lo, hi := Eval(hand(t, tt.lo), tt.short), Eval(hand(t, tt.hi), tt.short)
		if lo >= hi {
			t.Errorf("Eval(%s) = %v not below Eval(%s) = %v", tt.lo, lo, tt.hi, hi)
		}
	}
	if a, b := Eval(hand(t, "KS KD 7C 8H 9S"), false), Eval(hand(t, "KH KC 7D 8S 9C"), false); a != b {
		t.Errorf("identical ranks in other suits: %v != %v", a, b)
	}
}
