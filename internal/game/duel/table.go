package duel

import (
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// Table is the public picture of the round. The computer's cards appear
// only after a showdown (before that, only how many it holds).
func (r *Round) Table() game.Table {
	t := game.Table{Game: game.Duel, Round: r.No, Active: -1, Staked: r.Staked, Done: r.Done()}
	d := &Picture{
		Deck:         r.DeckSize(),
		Phase:        "duel." + string(r.Phase),
		Player:       slices.Clone(r.Hands[playerSide]),
		PlayerDrew:   max(r.Drew[playerSide], 0),
		ComputerDrew: max(r.Drew[computerSide], 0),
		Pot:          r.Pot,
		Message:      r.Message,
		Outfit:       []string{},
		Pawned:       []string{},
		Lost:         []string{},
	}
	if d.Player == nil {
		d.Player = []card.Card{}
	}
	d.ComputerCards = len(r.Hands[computerSide])
	d.ComputerDrawn = r.Drew[computerSide] >= 0
	for _, m := range r.Moves {
		d.Moves = append(d.Moves, PictureMove{Round: m.Round, Baron: m.Who == whoNames[computerSide], Kind: m.Kind, Amount: m.Amount})
	}
	if r.Showdown {
		d.Computer = slices.Clone(r.Hands[computerSide])
		d.PlayerHand, d.ComputerHand = r.Values[playerSide], r.Values[computerSide]
	}
	if s := r.Sess; s != nil {
		d.Level = s.Level
		d.PlayerStack, d.ComputerStack = s.PlayerStack, s.ComputerStack
		d.Pot += s.Carry // a carried pot waits on the table
		d.Outfit = slices.Clone(s.Worn)
		if s.Pawned != "" {
			d.Pawned = []string{s.Pawned}
		}
		d.Lost = slices.Clone(s.Lost)
		d.SessionOver, d.PlayerWon = s.Over, s.PlayerWon
	}
	if (r.Phase == PhaseBet1 || r.Phase == PhaseBet2) && r.Turn == playerSide {
		d.ToCall = r.In[computerSide] - r.In[playerSide]
	}
	if (r.Phase == PhaseBet1 || r.Phase == PhaseBet2 || r.Phase == PhaseDraw) && r.Turn == playerSide {
		t.Active = 0
	}
	hv := game.HandView{Cards: d.Player, Outcome: r.Outcome}
	if r.Phase != PhaseBuy && r.Phase != PhaseAnte {
		t.Hands = []game.HandView{hv}
		t.Dealer = game.HandView{Spot: -1, Cards: d.Computer, Hidden: d.ComputerCards - len(d.Computer)}
	}
	t.Detail = d
	return t
}
