package sidebet

import "cabinet/internal/game/card"

// The paying hand names (keys of blackjack.SideRule.Pays).
const (
	SuitedPair = "suited pair"
	Pair       = "pair"

	SuitedTrips   = "suited trips"
	StraightFlush = "straight flush"
	Trips         = "trips"
	Straight      = "straight"
	Flush         = "flush"

	Sevens   = "777"
	Suited21 = "suited 21"
	Total21  = "21"
	Total20  = "20"
	Total19  = "19"

	RoyalFlush   = "royal flush"
	FourOfAKind  = "four of a kind"
	FullHouse    = "full house"
	ThreeOfAKind = "three of a kind"
)

// BustItNames are Bust It's paying hands in order of the dealer's card count:
// 3, 4, 5, 6, 7 and 8 or more cards.
var BustItNames = [...]string{"3", "4", "5", "6", "7", "8+"}

// AnyPair classifies the player's first two cards: same rank and suit is a
// "suited pair", same rank a "pair". Ranks, not values: Q + K is no pair.
func AnyPair(a, b card.Card) string {
	switch {
	case a.Rank != b.Rank:
		return ""
	case a.Suit == b.Suit:
		return SuitedPair
	}
	return Pair
}

// TwentyOnePlus3 classifies the player's first two cards and the dealer's
// up card as a three-card poker hand. The ace is high or low in a straight
// (A-2-3 and Q-K-A), never in the middle (K-A-2 is no straight). Identical
// cards (possible with several decks) are "suited trips".
func TwentyOnePlus3(a, b, up card.Card) string {
	trips := a.Rank == b.Rank && b.Rank == up.Rank
	flush := a.Suit == b.Suit && b.Suit == up.Suit
	straight := isStraight3(a.Rank, b.Rank, up.Rank)
	switch {
	case trips && flush:
		return SuitedTrips
	case straight && flush:
		return StraightFlush
	case trips:
		return Trips
	case straight:
		return Straight
	case flush:
		return Flush
	}
	return ""
}

// isStraight3 reports whether three ranks are consecutive, the ace high or low.
func isStraight3(x, y, z card.Rank) bool {
	lo, mid, hi := sort3(x, y, z)
	if lo+1 == mid && mid+1 == hi {
		return true
	}
	return lo == card.Two && mid == card.Three && hi == card.Ace // A-2-3
}

func sort3(x, y, z card.Rank) (card.Rank, card.Rank, card.Rank) {
	if x > y {
		x, y = y, x
	}
	if y > z {
		y, z = z, y
	}
	if x > y {
		x, y = y, x
	}
	return x, y, z
}

// Hot3 classifies the player's first two cards and the dealer's up card by
// their best blackjack total: three sevens "777", 21 in one suit "suited 21",
// then "21", "20", "19". Only the best applies.
func Hot3(a, b, up card.Card) string {
	if a.Rank == card.Seven && b.Rank == card.Seven && up.Rank == card.Seven {
		return Sevens
	}
	t, _ := card.BlackjackTotal([]card.Card{a, b, up})
	switch t {
	case 21:
		if a.Suit == b.Suit && b.Suit == up.Suit {
			return Suited21
		}
		return Total21
	case 20:
		return Total20
	case 19:
		return Total19
	}
	return ""
}

// BustIt classifies the dealer's final hand: if it busted, the number of its
// cards ("3" … "7", "8+"); "" if it did not bust. A blackjack-push of the bet
// is the engine's business.
func BustIt(dealer []card.Card) string {
	if t, _ := card.BlackjackTotal(dealer); t <= 21 {
		return ""
	}
	n := len(dealer)
	switch {
	case n < 3:
		panic("BUG: sidebet.BustIt: a busted hand of fewer than three cards")
	case n >= 8:
		return BustItNames[5]
	}
	return BustItNames[n-3]
}

// RoyalPoker classifies the Royal Poker five-card hand (one deck: the cards
// are distinct). A straight is ace high or low (A-2-3-4-5 and 10-J-Q-K-A);
// a royal flush is 10-J-Q-K-A of one suit. Two pairs and less lose.
func RoyalPoker(hand [5]card.Card) string {
	var counts [card.Ace + 1]int
	var mask uint16
	flush := true
	for i, c := range hand {
		counts[c.Rank]++
		mask |= 1 << c.Rank
		if i > 0 && c.Suit != hand[0].Suit {
			flush = false
		}
	}
	maxN, pairs := 0, 0
	for r := card.Two; r <= card.Ace; r++ {
		maxN = max(maxN, counts[r])
		if counts[r] == 2 {
			pairs++
		}
	}
	straight, royal := false, false
	if maxN == 1 {
		const broadway = 1<<card.Ten | 1<<card.Jack | 1<<card.Queen | 1<<card.King | 1<<card.Ace
		const wheel = 1<<card.Ace | 1<<card.Two | 1<<card.Three | 1<<card.Four | 1<<card.Five
		low := card.Two
		for mask&(1<<low) == 0 {
			low++
		}
		run := uint16(0x1f) << low
		straight = mask == run || mask == wheel
		royal = mask == broadway
	}
	switch {
	case royal && flush:
		return RoyalFlush
	case straight && flush:
		return StraightFlush
	case maxN == 4:
		return FourOfAKind
	case maxN == 3 && pairs == 1:
		return FullHouse
	case flush:
		return Flush
	case straight:
		return Straight
	case maxN == 3:
		return ThreeOfAKind
	}
	return ""
}
