package blackjack

import "cabinet/internal/game/card"

// isTen reports whether c is a ten-value card (10, J, Q, K). Card values and
// hand totals are card.HardValue and card.BlackjackTotal (one of each).
func isTen(c card.Card) bool { return c.Rank >= card.Ten && c.Rank <= card.King }
