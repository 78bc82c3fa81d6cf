package blackjack

import (
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// Table is the public picture of the round: the hole card and face-down
// doubled cards are counted in Hidden, never shown.
func (r *Round) Table() game.Table {
	t := game.Table{
		Game: r.Rules.Game, Round: r.Number, Active: r.Active,
		Staked: r.Staked, Paid: r.Paid, Done: r.Phase == PhaseDone,
	}
	if r.Phase == PhaseInsurance {
		t.Prompt, t.Offer = "insurance", r.Hands[r.Active].Stake.Mul(1, 2)
		if r.evenMoneyOffered(&r.Hands[r.Active]) {
			t.Prompt, t.Offer = "evenmoney", 0
		}
	}
	dealer := r.Dealer
	if r.HoleDown {
		dealer = dealer[:1]
		t.Dealer.Hidden = 1
	}
	t.Dealer = view(game.Dealer, dealer, t.Dealer.Hidden)
	if t.Done && !r.HoleDown {
		switch {
		case r.dealerNatural():
			t.Dealer.Outcome = game.Blackjack
		case t.Dealer.Total == 22 && r.Rules.Dealer22Push:
			t.Dealer.Note = "dealer22"
		case t.Dealer.Total > 21:
			t.Dealer.Outcome = game.Bust
		}
	}
	for i := range r.Hands {
		h := &r.Hands[i]
		cards, hidden := h.Cards, 0
		if h.Hidden {
			cards, hidden = cards[:len(cards)-1], 1
		}
		v := view(h.Spot, cards, hidden)
		v.Bet = h.Stake + h.Double
		v.Token = h.Token + h.DoubleToken
		v.Insured = h.Insured
		v.Doubled = h.Doubled
		v.Outcome = h.Outcome
		v.Win = h.Win + h.InsWin
		v.InsuranceWin = h.InsWin
		if h.Insured > 0 && h.InsSettled {
			v.Insurance = game.Lose
			if h.InsWin > 0 {
				v.Insurance = game.Win
			}
		}
		v.Note = h.Note
		if v.Note == "" && h.FromSplit {
			v.Note = "split"
		}
		if h.SurrenderHeld && !h.Settled {
			v.Note = "surrender" // European: settled when the dealer's hand is complete
		}
		t.Hands = append(t.Hands, v)
	}
	for _, sd := range r.Sides {
		t.Side = append(t.Side, game.SideView{
			Spot: sd.Spot, Kind: sd.Kind, Amount: sd.Amount,
			Outcome: sd.Outcome, Hand: sd.Hand, Win: sd.Win,
		})
	}
	return t
}

func view(spot int, cards []card.Card, hidden int) game.HandView {
	total, soft := card.BlackjackTotal(cards)
	return game.HandView{Spot: spot, Cards: slices.Clone(cards), Hidden: hidden, Total: total, Soft: soft}
}
