package blackjack

import "cabinet/internal/game/card"

// Value is the blackjack value of a card: 2–9 face value, ten-values 10, an
// ace 11 (Total counts it 1 when 11 would bust the hand).
func Value(c card.Card) int {
	switch {
	case c.Rank == card.Ace:
		return 11
	case c.Rank >= card.Ten:
		return 10
	}
	return int(c.Rank)
}

// IsTen reports whether c is a ten-value card (10, J, Q, K).
func IsTen(c card.Card) bool { return c.Rank >= card.Ten && c.Rank <= card.King }

// Total is the best total of cards (games.md §0): every ace counts 1, and one
// ace counts 11 when that does not take the hand over 21; soft reports that an
// ace currently counts 11.
func Total(cards []card.Card) (total int, soft bool) {
	aces := false
	for _, c := range cards {
		if c.Rank == card.Ace {
			total++
			aces = true
			continue
		}
		total += Value(c)
	}
	if aces && total+10 <= 21 {
		return total + 10, true
	}
	return total, false
}
