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
}

// DetailOf implements game.Detail.
func (*Picture) DetailOf() game.ID { return game.Duel }

// PictureOf is the Poker Duel part of t, nil when t is not a Poker Duel
// picture.
func PictureOf(t game.Table) *Picture {
	p, _ := t.Detail.(*Picture)
	return p
}
