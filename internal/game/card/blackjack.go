package card

// The one blackjack card value and total (games.md §0), shared by the
// blackjack engine, its side bets, the PAR analyser and the players. They
// live here, below both the engine and the side-bet evaluators, so that
// neither keeps its own.

// HardValue is c's blackjack value with the ace counted 1 (the hard
// convention): 2–9 their face value, 10, J, Q, K 10, ace 1. Whether an ace
// counts 11 is a property of the hand, not of the card: see BlackjackTotal.
func (c Card) HardValue() int {
	switch {
	case c.Rank == Ace:
		return 1
	case c.Rank >= Ten:
		return 10
	}
	return int(c.Rank)
}

// BlackjackTotal is the best blackjack total of cs (games.md §0): every ace
// counts 1, and one ace counts 11 when that does not take the hand over 21;
// soft reports that an ace currently counts 11.
func BlackjackTotal(cs []Card) (total int, soft bool) {
	ace := false
	for _, c := range cs {
		total += c.HardValue()
		ace = ace || c.Rank == Ace
	}
	if ace && total+10 <= 21 {
		return total + 10, true
	}
	return total, false
}
