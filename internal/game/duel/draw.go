package duel

import (
	"math/bits"

	"cabinet/internal/game/card"
	"cabinet/internal/game/poker"
)

// StandardDiscard is the sound five-card-draw exchange: stand pat on a
// straight or better, keep trips, two pairs or a pair, draw one to four
// cards of a flush or of an open-ended straight, otherwise keep the highest
// card (keepHigh = 1) or the two highest (keepHigh = 2) and draw the rest.
// It returns the positions to exchange.
func StandardDiscard(h [5]card.Card, short bool, keepHigh int) []int {
	v := poker.Eval(h, short)
	switch v.Category() {
	case poker.ThreeOfAKind, poker.TwoPairs, poker.OnePair:
		// Keep every card of a rank that appears more than once.
		var count [15]int
		for _, c := range h {
			count[c.Rank]++
		}
		var out []int
		for i, c := range h {
			if count[c.Rank] == 1 {
				out = append(out, i)
			}
		}
		return out
	case poker.HighCard:
	default:
		return nil // pat
	}
	if i := flushDraw(h); i >= 0 {
		return []int{i}
	}
	if i := openStraightDraw(h, short); i >= 0 {
		return []int{i}
	}
	return keepHighest(h, keepHigh)
}

// keepHighest returns the positions of every card but the n highest.
func keepHighest(h [5]card.Card, n int) []int {
	order := [5]int{0, 1, 2, 3, 4}
	for i := 1; i < 5; i++ {
		for j := i; j > 0 && h[order[j]].Rank > h[order[j-1]].Rank; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	var keep [5]bool
	for _, i := range order[:n] {
		keep[i] = true
	}
	var out []int
	for i := range 5 {
		if !keep[i] {
			out = append(out, i)
		}
	}
	return out
}

// flushDraw returns the position of the odd card of four to a flush, or -1.
func flushDraw(h [5]card.Card) int {
	var n [4]int
	for _, c := range h {
		n[c.Suit]++
	}
	for s, k := range n {
		if k == 4 {
			for i, c := range h {
				if int(c.Suit) != s {
					return i
				}
			}
		}
	}
	return -1
}

// openStraightDraw returns the position of the card to exchange when the
// other four make a straight with two or more ranks (an open-ended draw),
// or -1.
func openStraightDraw(h [5]card.Card, short bool) int {
	lowest := card.Two
	if short {
		lowest = card.Seven
	}
	for i := range 5 {
		var mask uint32
		for j, c := range h {
			if j != i {
				mask |= 1 << c.Rank
			}
		}
		if bits.OnesCount32(mask) != 4 {
			continue
		}
		outs := 0
		for r := lowest; r <= card.Ace; r++ {
			if mask&(1<<r) == 0 && isStraightMask(mask|1<<r, short) {
				outs++
			}
		}
		if outs >= 2 {
			return i
		}
	}
	return -1
}

func isStraightMask(mask uint32, short bool) bool {
	if bits.OnesCount32(mask) != 5 {
		return false
	}
	top := bits.Len32(mask) - 1
	if mask>>(top-4) == 0x1F {
		return true
	}
	if short {
		return mask == 1<<card.Ace|1<<card.Seven|1<<card.Eight|1<<card.Nine|1<<card.Ten
	}
	return mask == 1<<card.Ace|1<<card.Two|1<<card.Three|1<<card.Four|1<<card.Five
}
