package blackjack

import (
	"fmt"
	"io"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// Free Bet blackjack, games.md §2: the preset, the free doubles and free
// splits (tokens, not money), the dealer blackjack found at the end with a
// ten up (only the original bet lost), and the persisted cut-card shoe
// (NextShoe). Its dealer-22 push, six-card Charlie and side bets are
// Rules fields settled by the shared core.

// FreeBet is games.md §2.
func FreeBet() Rules {
	return Rules{
		Game: game.FreeBet, Decks: 8, Penetration: 75,
		HitSoft17: false, Peek: PeekAceOnly,
		MaxSpots: 1, MinBet: 100, MaxBet: 100000,
		Double: DoubleAny, DoubleAfterSplit: false, MaxHands: 2,
		Insurance: true, FreeBets: true, CharlieCards: 6, Dealer22Push: true,
		Side: []SideRule{
			{Kind: game.AnyPair, Min: 100, Max: 10000, Pays: map[string]int64{"suited pair": 25, "pair": 8}},
			{Kind: game.TwentyOne, Min: 100, Max: 10000, Pays: map[string]int64{
				"suited trips": 100, "straight flush": 40, "trips": 30, "straight": 10, "flush": 5}},
			{Kind: game.Hot3, Min: 100, Max: 10000, Pays: map[string]int64{
				"777": 100, "suited 21": 20, "21": 4, "20": 2, "19": 1}},
			{Kind: game.BustIt, Min: 100, Max: 10000, Pays: map[string]int64{
				"3": 1, "4": 2, "5": 9, "6": 50, "7": 100, "8+": 250}},
		},
	}
}

// DoubleIsFree reports whether a Double now would be a Free Bet free double.
func (r *Round) DoubleIsFree() bool {
	if r.Phase != PhasePlay || r.Active < 0 {
		return false
	}
	return r.freeDouble(&r.Hands[r.Active])
}

// SplitIsFree reports whether a Split now would be a Free Bet free split.
func (r *Round) SplitIsFree() bool {
	if r.Phase != PhasePlay || r.Active < 0 {
		return false
	}
	return r.freeSplit(&r.Hands[r.Active])
}

// freeDouble: Free Bet doubles a two-card hard 9, 10 or 11 for free.
func (r *Round) freeDouble(h *Hand) bool {
	if !r.Rules.FreeBets || len(h.Cards) != 2 {
		return false
	}
	t, soft := card.BlackjackTotal(h.Cards)
	return !soft && t >= 9 && t <= 11
}

// freeSplit: Free Bet splits every pair but ten-values for free.
func (r *Round) freeSplit(h *Hand) bool {
	return r.Rules.FreeBets && len(h.Cards) == 2 && !isTen(h.Cards[0])
}

// token records a Free Bet token of amount backing hand i (not money).
func (s *step) token(bet game.BetKind, i int, amount money.Cents) {
	h := &s.r.Hands[i]
	s.evs = append(s.evs, game.Event{Kind: game.Token, Bet: bet, Spot: h.Spot, Hand: i, Amount: amount})
}

// returnAddedMoney: against a dealer blackjack found at the end with a ten
// up (PeekAceOnly), a hand loses its original main bet only: the money a
// paid split or a paid double added comes back (games.md §2).
func (s *step) returnAddedMoney(i int) {
	h := &s.r.Hands[i]
	if h.SplitHand {
		s.pay(game.SplitBet, i, h.Stake, "")
	}
	s.pay(game.DoubleBet, i, h.Double, "")
}

// NextShoe returns the shoe the next round of rules deals from and whether
// it was shuffled just now. The analysis' simulations use it; the cabinet
// itself deals every round from a shoe shuffled whole and committed before
// the bet (internal/controller/rng.go, docs/verify.md).
//
//   - A game shuffled before every round (Rules.FreshShuffle) gets a new,
//     unshuffled shoe drawn lazily: one Fisher–Yates step per card, inside
//     the committed steps (rnd is not called).
//   - Free Bet (games.md §2) continues carry, its persisted cut-card shoe,
//     while the cut card has not come out and carry is a whole shoe of
//     Rules.Decks (an operator change of decks discards it); otherwise a new
//     shoe is shuffled up front from rnd() and the cut card placed after
//     Penetration percent of its cards.
func NextShoe(rules Rules, carry *card.Shoe, rnd func() io.Reader) (shoe *card.Shoe, shuffled bool, err error) {
	if rules.FreshShuffle {
		return card.NewShoe(rules.Decks), false, nil
	}
	if carry != nil && len(carry.Cards) == 52*rules.Decks && !carry.CutReached() {
		return carry, false, nil
	}
	s := card.NewShoe(rules.Decks)
	if err := s.Shuffle(rnd()); err != nil {
		return nil, false, fmt.Errorf("blackjack: next shoe: %w", err)
	}
	s.Cut = len(s.Cards) * rules.Penetration / 100
	return s, true, nil
}
