package blackjack

import "cabinet/internal/game"

// Classic blackjack, games.md §4: the preset, American or European dealing
// (Rules.Peek), the face-down card of an American double, and surrender.

// Classic is games.md §4 with its defaults: American dealing.
func Classic() Rules {
	return Rules{
		Game: game.Classic, Decks: 6, FreshShuffle: true,
		HitSoft17: false, Peek: PeekAceTen,
		MaxSpots: 3, MinBet: 100, MaxBet: 100000,
		Double: DoubleAny, DoubleAfterSplit: true, MaxHands: 3,
		Insurance: true, Surrender: true,
	}
}

// doubleFaceDown: Classic with American dealing deals a doubled hand's card
// face down until the dealer's hand is revealed (games.md §4).
func (r *Round) doubleFaceDown() bool { return r.Rules.Game == game.Classic && r.Rules.Peek != NoHole }

// surrender gives up hand i (games.md §4). With a hole card (American) the
// dealer has already peeked, so half the bet comes back at once. With
// European dealing the hand is held (SurrenderHeld) and settled by
// settleSurrender once the dealer's hand is complete.
func (s *step) surrender(i int) {
	h := &s.r.Hands[i]
	h.Done = true
	if s.r.Rules.Peek == NoHole {
		h.SurrenderHeld = true
		return
	}
	h.Settled, h.Outcome = true, game.Surrendered
	s.pay(game.Main, i, h.Stake.Mul(1, 2), "")
	s.result(i, game.Surrendered)
}

// settleSurrender settles a held European surrender against the dealer's
// complete hand: a dealer blackjack takes the whole bet like every other
// non-blackjack hand (decided, games.md §4); otherwise half the bet comes
// back, rounded down to the cent.
func (s *step) settleSurrender(i int, dealerBJ bool) {
	h := &s.r.Hands[i]
	if dealerBJ {
		s.result(i, game.Lose)
		return
	}
	s.pay(game.Main, i, h.Stake.Mul(1, 2), "")
	s.result(i, game.Surrendered)
}

// checkSurrender: surrender is the first decision on the original two cards.
func (r *Round) checkSurrender(k game.ActionKind, i int, explain bool) error {
	h := &r.Hands[i]
	two := len(h.Cards) == 2
	switch {
	case !r.Rules.Surrender:
		return refuse(explain, PlayNoSurrender, func() error {
			return game.Illegal(k, "surrender is not offered")
		})
	case !two || h.FromSplit || h.Zapped != nil:
		return refuse(explain, PlaySurrenderFirst, func() error {
			return game.Illegal(k, "hand %d: surrender only as the first decision on the original two cards", i)
		})
	}
	return nil
}
