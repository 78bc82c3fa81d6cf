package sidebet

import (
	"testing"

	"cabinet/internal/game/card"
)

func two(t *testing.T, s string) (card.Card, card.Card) {
	t.Helper()
	cs := card.MustParse(s)
	if len(cs) != 2 {
		t.Fatalf("fixture %q: want 2 cards", s)
	}
	return cs[0], cs[1]
}

func three(t *testing.T, s string) (card.Card, card.Card, card.Card) {
	t.Helper()
	cs := card.MustParse(s)
	if len(cs) != 3 {
		t.Fatalf("fixture %q: want 3 cards", s)
	}
	return cs[0], cs[1], cs[2]
}

func TestAnyPair(t *testing.T) {
	for _, tc := range []struct{ cards, want string }{
		{"QH QH", SuitedPair},
		{"2C 2C", SuitedPair},
		{"QH QS", Pair},
		{"AS AD", Pair},
		{"QH KH", ""}, // same value, different rank: no pair
		{"10S JS", ""},
		{"2C 3C", ""},
	} {
		t.Run(tc.cards, func(t *testing.T) {
			a, b := two(t, tc.cards)
			if got := AnyPair(a, b); got != tc.want {
				t.Errorf("AnyPair(%s) = %q, want %q", tc.cards, got, tc.want)
			}
		})
	}
}

func TestTwentyOnePlus3(t *testing.T) {
	for _, tc := range []struct{ cards, want string }{
		{"7H 7H 7H", SuitedTrips},
		{"7H 7S 7H", Trips},
		{"7H 7S 7D", Trips},
		{"AS 2S 3S", StraightFlush},
		{"QD AD KD", StraightFlush},
		{"9C 10C JC", StraightFlush},
		{"AS 2H 3S", Straight},
		{"KH QS AD", Straight},
		{"4H 6D 5S", Straight},
		{"KS AS 2S", Flush}, // K-A-2 is no straight
		{"KS AH 2D", ""},
		{"2S 9S JS", Flush},
		{"2S 9S JH", ""},
		{"7H 7S 8D", ""}, // a pair pays nothing
		{"10H JH QS", Straight},
		{"JH QH 10H", StraightFlush},
		{"10H KH QH", Flush}, // gap
	} {
		t.Run(tc.cards, func(t *testing.T) {
			a, b, up := three(t, tc.cards)
			if got := TwentyOnePlus3(a, b, up); got != tc.want {
				t.Errorf("TwentyOnePlus3(%s) = %q, want %q", tc.cards, got, tc.want)
			}
		})
	}
}

func TestHot3(t *testing.T) {
	for _, tc := range []struct{ cards, want string }{
		{"7H 7S 7D", Sevens},
		{"7H 7H 7H", Sevens}, // 777 beats suited 21
		{"AH 9H AH", Suited21},
		{"AS KS QS", Suited21}, // A+K+Q = 21 hard
		{"AS KS QH", Total21},
		{"AH AD 9C", Total21}, // 11+1+9
		{"AH AD AC", ""},      // 13
		{"AH AD 8C", Total20}, // 11+1+8
		{"10H QD 9C", ""},     // 29: bust
		{"5H 5D 10S", Total20},
		{"9H 9D AS", Total19}, // 9+9+1 = 19 (11 would bust)
		{"8S AH 10D", Total19},
		{"6S 6H 6D", ""}, // 18
		{"7S 7H 6D", Total20},
		{"7S 7H 5D", Total19},
		{"AS AH 7D", Total19}, // 11+1+7
		{"2S 3S 4S", ""},
	} {
		t.Run(tc.cards, func(t *testing.T) {
			a, b, up := three(t, tc.cards)
			if got := Hot3(a, b, up); got != tc.want {
				t.Errorf("Hot3(%s) = %q, want %q", tc.cards, got, tc.want)
			}
		})
	}
}

func TestBustIt(t *testing.T) {
	for _, tc := range []struct{ cards, want string }{
		{"10S 6H KD", "3"},
		{"10S 6H 6D", "3"}, // 22 is a bust for Bust It (the dealer-22 push is the main game's rule)
		{"10S 7H", ""},
		{"AS 6H", ""},
		{"AS 6H 5D 10C", "4"},  // soft 17, then 12 hard, then 22: bust
		{"2S 3H 4D 5C 6S", ""}, // 20
		{"2S 2H 4D 4C 10S", "5"},
		{"2S 2H 2D 2C 3S 10S", ""}, // 21
		{"2S 2H 2D 2C 4S 10S", "6"},
		{"2S 2H 2D 2C 3S 3H 10S", "7"},
		{"AS AH AD AC 2S 2H 3S 10S", ""}, // 21
		{"AS AH AD AC 2S 2H 4S 10S", "8+"},
		{"AS AH AD AC AS AH 2S 3S 2H 10S", "8+"}, // 23,
		{"5S 6H 10D", ""},                        // 21
	} {
		t.Run(tc.cards, func(t *testing.T) {
			cs := card.MustParse(tc.cards)
			if got := BustIt(cs); got != tc.want {
				t.Errorf("BustIt(%s) = %q, want %q", tc.cards, got, tc.want)
			}
		})
	}
}

func five(t *testing.T, s string) [5]card.Card {
	t.Helper()
	cs := card.MustParse(s)
	if len(cs) != 5 {
		t.Fatalf("fixture %q: want 5 cards", s)
	}
	return [5]card.Card(cs)
}

func TestRoyalPoker(t *testing.T) {
	for _, tc := range []struct{ cards, want string }{
		{"AS KS QS JS 10S", RoyalFlush},
		{"10H AH JH KH QH", RoyalFlush},
		{"9S KS QS JS 10S", StraightFlush},
		{"AD 2D 3D 4D 5D", StraightFlush}, // wheel
		{"AD 2D 3D 4D 5C", Straight},
		{"AS KH QS JS 10S", Straight},
		{"6C 2D 3H 4S 5S", Straight},
		{"QS KS AS 2S 3S", Flush}, // no wrap-around straight
		{"QS KH AS 2S 3S", ""},
		{"9S 9H 9D 9C 2S", FourOfAKind},
		{"9S 9H 9D 2C 2S", FullHouse},
		{"9S 9H 9D 2C 3S", ThreeOfAKind},
		{"9S 9H 2D 2C 3S", ""}, // two pairs lose
		{"9S 9H 2D 4C 3S", ""},
		{"2H 7H 9H JH KH", Flush},
		{"AS AH AD KS KH", FullHouse},
		{"2S 3S 4S 5S 7S", Flush},
	} {
		t.Run(tc.cards, func(t *testing.T) {
			h := five(t, tc.cards)
			if got := RoyalPoker(h); got != tc.want {
				t.Errorf("RoyalPoker(%s) = %q, want %q", tc.cards, got, tc.want)
			}
		})
	}
}

// TestRoyalPokerAllHands classifies all C(52,5) hands and compares with the
// published table of five-card poker hand frequencies.
func TestRoyalPokerAllHands(t *testing.T) {
	want := map[string]int{
		RoyalFlush: 4, StraightFlush: 36, FourOfAKind: 624, FullHouse: 3744,
		Flush: 5108, Straight: 10200, ThreeOfAKind: 54912,
		"": 2598960 - 4 - 36 - 624 - 3744 - 5108 - 10200 - 54912,
	}
	deck := card.Deck()
	got := map[string]int{}
	var h [5]card.Card
	for a := 0; a < 52; a++ {
		h[0] = deck[a]
		for b := a + 1; b < 52; b++ {
			h[1] = deck[b]
			for c := b + 1; c < 52; c++ {
				h[2] = deck[c]
				for d := c + 1; d < 52; d++ {
					h[3] = deck[d]
					for e := d + 1; e < 52; e++ {
						h[4] = deck[e]
						got[RoyalPoker(h)]++
					}
				}
			}
		}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("RoyalPoker over all hands: %q counted %d, want %d", k, got[k], w)
		}
	}
}

// Test21Plus3OneDeck compares with counts derived by hand for the C(52,3)
// three-card hands of one deck: 12 rank sequences (A-2-3 … Q-K-A).
func Test21Plus3OneDeck(t *testing.T) {
	const seqs = 12
	want := map[string]int{
		SuitedTrips:   0,
		StraightFlush: seqs * 4,
		Trips:         13 * 4,              // C(4,3) per rank
		Straight:      seqs*4*4*4 - seqs*4, // any suits minus one-suit
		Flush:         4*286 - seqs*4,      // C(13,3) = 286 per suit minus straight flushes
	}
	want[""] = 22100 - want[StraightFlush] - want[Trips] - want[Straight] - want[Flush]
	got := map[string]int{}
	deck := card.Deck()
	for a := 0; a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				got[TwentyOnePlus3(deck[a], deck[b], deck[c])]++
			}
		}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("TwentyOnePlus3 over one deck: %q counted %d, want %d", k, got[k], w)
		}
	}
}

// TestAnyPairEightDecks counts the unordered two-card draws of an eight-deck
// shoe: suited pairs 52·C(8,2), other pairs 13·(C(32,2) − 4·C(8,2)).
func TestAnyPairEightDecks(t *testing.T) {
	shoe := card.NewShoe(8).Cards
	got := map[string]int{}
	for i := range shoe {
		for j := i + 1; j < len(shoe); j++ {
			got[AnyPair(shoe[i], shoe[j])]++
		}
	}
	want := map[string]int{SuitedPair: 52 * 28, Pair: 13 * (496 - 4*28)}
	want[""] = 416*415/2 - want[SuitedPair] - want[Pair]
	for k, w := range want {
		if got[k] != w {
			t.Errorf("AnyPair over 8 decks: %q counted %d, want %d", k, got[k], w)
		}
	}
}

// TestHot3OneDeck checks Hot3 against an independent best-total rule: try
// every 1/11 assignment of the aces and keep the largest total ≤ 21.
func TestHot3OneDeck(t *testing.T) {
	best := func(cs ...card.Card) int {
		totals := []int{0}
		for _, c := range cs {
			var next []int
			for _, s := range totals {
				switch {
				case c.Rank == card.Ace:
					next = append(next, s+1, s+11)
				case c.Rank >= card.Ten:
					next = append(next, s+10)
				default:
					next = append(next, s+int(c.Rank))
				}
			}
			totals = next
		}
		b := -1
		for _, s := range totals {
			if s <= 21 && s > b {
				b = s
			}
		}
		return b
	}
	deck := card.Deck()
	for a := 0; a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				x, y, z := deck[a], deck[b], deck[c]
				want := ""
				switch tot := best(x, y, z); {
				case x.Rank == card.Seven && y.Rank == card.Seven && z.Rank == card.Seven:
					want = Sevens
				case tot == 21 && x.Suit == y.Suit && y.Suit == z.Suit:
					want = Suited21
				case tot >= 19:
					want = []string{Total19, Total20, Total21}[tot-19]
				}
				if got := Hot3(x, y, z); got != want {
					t.Fatalf("Hot3(%v %v %v) = %q, want %q", x, y, z, got, want)
				}
			}
		}
	}
}
