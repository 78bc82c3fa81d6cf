package blackjack

import (
	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// Zappit blackjack, games.md §3: the preset, the zap (exchange of a hard 15
// to 18 for two new cards) and the round's win cap. Its dealer-22 push and
// card cap are Rules fields settled by the shared core (settleHands,
// autoStand).

// Zappit is games.md §3.
func Zappit() Rules {
	return Rules{
		Game: game.Zappit, Decks: 6, FreshShuffle: true,
		HitSoft17: true, Peek: PeekAceTen,
		MaxSpots: 3, MinBet: 100, MaxBet: 100000,
		Double: DoubleAny, DoubleAfterSplit: true, MaxHands: 2,
		Insurance: true, Zap: true, MaxCards: 13, Dealer22Push: true,
		WinCap: 10000,
	}
}

// checkZap: a Zappit exchange is the first action on an original two-card
// hard 15 to 18.
func (r *Round) checkZap(k game.ActionKind, i int, explain bool) error {
	h := &r.Hands[i]
	two := len(h.Cards) == 2
	t, soft := card.BlackjackTotal(h.Cards)
	switch {
	case !r.Rules.Zap:
		return refuse(explain, PlayNoZap, func() error {
			return game.Illegal(k, "zap is not offered")
		})
	case !two || h.FromSplit || h.Zapped != nil:
		return refuse(explain, PlayZapFirst, func() error {
			return game.Illegal(k, "hand %d: zap only as the first action on an original two-card hand", i)
		})
	case soft || t < 15 || t > 18:
		return refuse(explain, PlayZapTotal, func() error {
			return game.Illegal(k, "hand %d: zap needs a hard 15 to 18, not %s%d", i, softWord(soft), t)
		})
	}
	return nil
}

// zap exchanges the active hand's two cards for two new ones (games.md §3).
func (s *step) zap() error {
	r := s.r
	i := r.Active
	h := &r.Hands[i]
	var spare []card.Card
	if s.mem != nil {
		spare = s.mem.cards.get()
	}
	h.Zapped, h.Cards, h.Note = h.Cards, spare[:0], "zapped" // spare[:0] of nil is nil
	s.evs = append(s.evs, game.Event{Kind: game.Discarded, Hand: i, Spot: h.Spot})
	for range 2 {
		if err := s.draw(i, false); err != nil {
			return err
		}
	}
	s.autoStand(i)
	return nil
}

// payCapped applies the win cap (Zappit, Rules.WinCap > 0) and pays: the round's net win is the money paid
// back minus the money staked over the whole round (main, split, double and
// insurance stakes and their payouts; a returned stake is not a win). If it
// exceeds WinCap, the payouts are reduced by the excess so that the net win
// equals WinCap exactly: the reduction takes the payouts from the last one
// decided backwards, each down to zero if needed, and a Note event "wincap"
// carries the amount withheld. To apply the cap to the round as a whole,
// every payout of a capped round is held (Round.Pending) and paid here; the
// outcomes (a zap 21 winning at once, insurance) are still decided and shown
// when they happen.
func (s *step) payCapped() {
	r := s.r
	var total = r.Paid
	for _, p := range r.Pending {
		total += p.Amount
	}
	if excess := total - r.Staked - r.Rules.WinCap; excess > 0 {
		s.evs = append(s.evs, game.Event{Kind: game.Note, Hand: game.Dealer, Text: "wincap", Amount: excess})
		for k := len(r.Pending) - 1; k >= 0 && excess > 0; k-- {
			cut := min(excess, r.Pending[k].Amount)
			r.Pending[k].Amount -= cut
			excess -= cut
		}
	}
	for _, p := range r.Pending {
		if p.Amount > 0 {
			s.emitPay(p)
		}
	}
	r.Pending = r.Pending[:0] // empty: encoded as absent, as nil is
}
