package game

import (
	"encoding/json"

	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// ID names a game. The strings are stable: configuration, store and recall use them.
type ID string

// The five games of games.md.
const (
	Classic ID = "classic"
	Royal   ID = "royal"
	FreeBet ID = "freebet"
	Zappit  ID = "zappit"
	Duel    ID = "duel"
)

// IDs lists every game in menu order.
var IDs = []ID{Royal, FreeBet, Zappit, Classic, Duel}

// Valid reports whether id is one of the five games.
func (id ID) Valid() bool {
	for _, g := range IDs {
		if g == id {
			return true
		}
	}
	return false
}

// Round is one round (or, for Poker Duel, one session) of a game. A Round is
// a plain value that encodes to JSON with its exported fields; that encoding
// is what the store keeps.
type Round interface {
	// Legal lists the actions accepted now, given the money the player has
	// available (the credit meter). The display lights exactly these.
	Legal(funds money.Cents) []ActionKind
	// Apply performs one step. On error nothing is changed and no card is
	// consumed from src that matters: the controller discards the step.
	Apply(a Action, src card.Source) ([]Event, error)
	// Done reports whether the round is settled: no action is legal any more.
	Done() bool
	// Table is the public picture of the round (what may be shown now).
	Table() Table
}

// ActionKind is what the player (or autoplay) asks for. Strings are stable.
type ActionKind string

// The actions of every game. Not every game accepts every action.
const (
	Deal      ActionKind = "deal"      // place Action.Bets and deal
	Hit       ActionKind = "hit"       // blackjack: one more card
	Stand     ActionKind = "stand"     // blackjack: end the active hand
	Double    ActionKind = "double"    // blackjack: double (paid or free, per rules)
	Split     ActionKind = "split"     // blackjack: split a pair (paid or free)
	Insure    ActionKind = "insure"    // take insurance on the active hand (YES)
	NoInsure  ActionKind = "decline"   // refuse insurance / even money (NO)
	EvenMoney ActionKind = "evenmoney" // Royal Poker: take even money on a blackjack (YES)
	Surrender ActionKind = "surrender" // Classic: give up half (SPECIAL)
	Zap       ActionKind = "zap"       // Zappit: exchange a hard 15–18 (SPECIAL)

	// Void is not a player action and no engine accepts it: the controller
	// records it as the last step of an abandoned round that it voided and
	// refunded on resume (platform.md), so recall and replay can tell it apart.
	Void ActionKind = "void"

	// Poker Duel (amounts in chips in Action.Amount).
	Buy    ActionKind = "buy"    // buy a session (credits), Action.Deck and Action.Level
	Ante   ActionKind = "ante"   // start the next deal
	Open   ActionKind = "open"   // bet Action.Amount
	Wait   ActionKind = "wait"   // check in the first round
	Pass   ActionKind = "pass"   // fold
	Raise  ActionKind = "raise"  // match and raise by Action.Amount
	Change ActionKind = "change" // match / check and go to the draw
	See    ActionKind = "see"    // second round: check or call
	Draw   ActionKind = "draw"   // exchange the cards at Action.Discard
)

// BetKind names where money sits. Strings are stable (meters, recall, CSV).
type BetKind string

// The bet kinds. Meters keep wagered and won per game and per side bet.
const (
	Main      BetKind = "main"
	DoubleBet BetKind = "double"
	SplitBet  BetKind = "split"
	Insurance BetKind = "insurance"
	RoyalSide BetKind = "royalpoker" // Royal Poker progressive side bet
	Jackpot   BetKind = "jackpot"    // progressive prize paid out of the pool
	AnyPair   BetKind = "anypair"
	TwentyOne BetKind = "21+3"
	Hot3      BetKind = "hot3"
	BustIt    BetKind = "bustit"
	Session   BetKind = "session" // Poker Duel session purchase
)

// IsSide reports whether k is a side bet (kept separately in the meters).
func (k BetKind) IsSide() bool {
	switch k {
	case RoyalSide, AnyPair, TwentyOne, Hot3, BustIt:
		return true
	}
	return false
}

// Bet is one stake placed with a Deal action: spot 0.. and kind (Main or a side bet).
type Bet struct {
	Spot   int         `json:"spot"`
	Kind   BetKind     `json:"kind"`
	Amount money.Cents `json:"amount"`
}

// Action is one request to an engine. Only the fields its Kind uses are set.
// Kind, Funds and Bets are every game's; what only one game's actions carry
// (Poker Duel's open size, discards and session choices) is that game's
// Params, encoded and read by its engine alone (duel.Params).
type Action struct {
	Kind ActionKind `json:"kind"`
	// Funds is the credit meter when the action is made; an action whose
	// stake exceeds it is refused with ErrFunds. Set by the controller.
	Funds money.Cents `json:"funds"`
	// Bets: the stakes of a Deal.
	Bets []Bet `json:"bets,omitempty"`
	// Params is the game's own payload (JSON), nil for an action without one.
	Params json.RawMessage `json:"params,omitempty"`
}

// legacyParams are the names under which the first stored format (steps
// recorded before Params existed) kept Poker Duel's payload at the top
// level of the action. UnmarshalJSON moves them into Params unchanged, so
// a recorded round replays; nothing is written in that form any more.
var legacyParams = []string{"amount", "discard", "deck", "level", "seed"}

// UnmarshalJSON reads both stored forms of an action (TestActionEncoding).
func (a *Action) UnmarshalJSON(b []byte) error {
	type plain Action
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	if p.Params == nil {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(b, &top); err != nil {
			return err
		}
		legacy := map[string]json.RawMessage{}
		for _, k := range legacyParams {
			if v, ok := top[k]; ok {
				legacy[k] = v
			}
		}
		if len(legacy) > 0 {
			raw, err := json.Marshal(legacy)
			if err != nil {
				return err
			}
			p.Params = raw
		}
	}
	*a = Action(p)
	return nil
}

// Total is the sum of the Deal's stakes.
func (a Action) Total() money.Cents {
	var t money.Cents
	for _, b := range a.Bets {
		t += b.Amount
	}
	return t
}
