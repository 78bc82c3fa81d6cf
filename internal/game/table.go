package game

import (
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// Table is the public picture of a round: what the display draws and what
// the recall redraws step by step. It never holds a hidden card's face.
type Table struct {
	Game  ID     `json:"game"`
	Round uint64 `json:"round"`
	// Dealer's hand; Hidden counts face-down cards not shown.
	Dealer HandView `json:"dealer"`
	// Hands in play order (spot order, split hands after their parent).
	Hands []HandView `json:"hands"`
	// Active is the index in Hands of the hand being played, -1 if none.
	Active int `json:"active"`
	// Prompt is a message key for the decision asked now ("insurance",
	// "evenmoney", "" when plain play), translated by the display.
	Prompt string `json:"prompt,omitempty"`
	// Offer is what the prompt's decision costs: the insurance of the
	// hand asked (0 for none, even money).
	Offer money.Cents `json:"offer,omitempty"`
	// Side bets placed this round and their results.
	Side []SideView `json:"side,omitempty"`
	// Staked and Paid this round so far (money).
	Staked money.Cents `json:"staked"`
	Paid   money.Cents `json:"paid"`
	Done   bool        `json:"done"`
	// Detail is the game's own part of the picture, beyond the hands every
	// game shows (Poker Duel's stacks, pot and outfit); nil for the blackjack
	// games. Its type belongs to the game's package (duel.Picture); the
	// generic contract knows only the game it is for.
	Detail Detail `json:"detail,omitempty"`
}

// HandView is one hand as shown.
type HandView struct {
	Spot    int         `json:"spot"`
	Cards   []card.Card `json:"cards"`
	Hidden  int         `json:"hidden,omitempty"` // face-down cards (not in Cards)
	Total   int         `json:"total"`            // best total of the shown cards
	Soft    bool        `json:"soft,omitempty"`
	Bet     money.Cents `json:"bet"`             // money on the hand (main + double/split stake)
	Token   money.Cents `json:"token,omitempty"` // Free Bet tokens backing the hand
	Insured money.Cents `json:"insured,omitempty"`
	// InsuranceWin is what the insurance paid (stake returned with it), 0
	// while unsettled or lost.
	InsuranceWin money.Cents `json:"insurance_win,omitempty"`
	Doubled      bool        `json:"doubled,omitempty"`
	Outcome      Outcome     `json:"outcome,omitempty"`
	Win          money.Cents `json:"win,omitempty"`
	Note         string      `json:"note,omitempty"` // message key: "zapped", "split", ...
	// The dealer's hand, once the round is over, names its own outcome:
	// Outcome Blackjack (a natural) or Bust, or Note "dealer22" (a 22 that
	// pushes, Free Bet).

	// Insurance is the insurance's result once the dealer has peeked (or
	// played): Win (paid 2:1) or Lose; "" while undecided or not insured.
	Insurance Outcome `json:"insurance,omitempty"`
}

// SideView is one side bet as shown.
type SideView struct {
	Spot    int         `json:"spot"`
	Kind    BetKind     `json:"kind"`
	Amount  money.Cents `json:"amount"`
	Outcome Outcome     `json:"outcome,omitempty"`
	Hand    string      `json:"hand,omitempty"` // e.g. "flush", "suited trips" (message key)
	Win     money.Cents `json:"win,omitempty"`
}

// Detail is a game's own part of a Table. Implementations live in the
// game's package and are plain data.
type Detail interface {
	// DetailOf is the game the detail belongs to.
	DetailOf() ID
}
