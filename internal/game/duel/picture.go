package duel

import (
	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// Picture is Poker Duel's part of the public picture (game.Table.Detail):
// chips are play chips, never money.
type Picture struct {
	Deck          int         `json:"deck"`
	Level         string      `json:"level"`
	Player        []card.Card `json:"player"`
	Computer      []card.Card `json:"computer,omitempty"` // shown only at showdown
	ComputerCards int         `json:"computer_cards"`
	PlayerStack   int64       `json:"player_stack"`
	ComputerStack int64       `json:"computer_stack"`
	Pot           int64       `json:"pot"`
	ToCall        int64       `json:"to_call"`
	Phase         string      `json:"phase"` // message key
	PlayerDrew    int         `json:"player_drew"`
	ComputerDrew  int         `json:"computer_drew"`
	Outfit        []string    `json:"outfit"` // items still worn, in order
	Pawned        []string    `json:"pawned"` // items pawned, not yet lost
	Lost          []string    `json:"lost"`   // items taken off
	Message       string      `json:"message,omitempty"`
	SessionOver   bool        `json:"session_over"`
	PlayerWon     bool        `json:"player_won"`
	// Moves is the betting of this deal so far, oldest first (the screen
	// narrates the Baron's), ComputerDrawn whether the Baron has drawn
	// (ComputerDrew cards; 0 = he stood pat).
	Moves         []PictureMove `json:"moves,omitempty"`
	ComputerDrawn bool          `json:"computer_drawn,omitempty"`
	// PlayerHand and ComputerHand name both hands at the showdown
	// (poker.Category names, message keys "hand."+name).
	PlayerHand   string `json:"player_hand,omitempty"`
	ComputerHand string `json:"computer_hand,omitempty"`
}

// PictureMove is one move of the deal's betting: who made it, what, and
// the chips it put in.
type PictureMove struct {
	Round  int             `json:"round"` // betting round, 1 (before the draw) or 2
	Baron  bool            `json:"baron,omitempty"`
	Kind   game.ActionKind `json:"kind"`
	Amount int64           `json:"amount,omitempty"`
}

// DetailOf implements game.Detail.
func (*Picture) DetailOf() game.ID { return game.Duel }

// PictureOf is the Poker Duel part of t, nil when t is not a Poker Duel
// picture.
func PictureOf(t game.Table) *Picture {
	p, _ := t.Detail.(*Picture)
	return p
}
