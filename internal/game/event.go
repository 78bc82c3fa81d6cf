package game

import (
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// EventKind says what an Event records. Strings are stable.
type EventKind string

// The event kinds.
const (
	// Card: a card was drawn from the source to Hand (Dealer for the dealer),
	// FaceDown if dealt as a hole/hidden card. Every drawn card has one, in
	// draw order: this is what a replay feeds back.
	CardDealt EventKind = "card"
	// Reveal: a face-down card (Hand, Index) is turned face up.
	Reveal EventKind = "reveal"
	// Discard: Zappit exchange or duel draw removes the cards of Hand.
	Discarded EventKind = "discard"
	// Stake: Amount leaves the credit meter on Bet for Hand/Spot (counts as wagered).
	Stake EventKind = "stake"
	// Payout: Amount enters the credit meter for Bet (counts as won; a returned
	// stake included).
	Payout EventKind = "payout"
	// Token: a Free Bet token of Amount backs Hand (not money: no meter moves).
	Token EventKind = "token"
	// JackpotWin: the progressive pays Percent of the pool for Spot. The
	// controller resolves the amount from the pool in the step's transaction,
	// sets Amount, and adds a Payout of Bet Jackpot.
	JackpotWin EventKind = "jackpot"
	// Result: the outcome of Hand (or of the side bet Bet) is decided.
	Result EventKind = "result"
	// Over: the round is settled.
	Over EventKind = "over"
	// Chips: Poker Duel play-chip movement (never money), Amount chips for Who.
	Chips EventKind = "chips"
	// Note: anything else worth showing or recalling (Text is a message key).
	Note EventKind = "note"
)

// Dealer is the Hand index of the dealer (and of the computer in Poker Duel).
const Dealer = -1

// Outcome of a hand or a side bet.
type Outcome string

// The outcomes.
const (
	Win         Outcome = "win"
	Lose        Outcome = "lose"
	Push        Outcome = "push"
	Blackjack   Outcome = "blackjack"
	Surrendered Outcome = "surrender"
	Bust        Outcome = "bust"
	Charlie     Outcome = "charlie"
)

// Event is one fact of a step. Only the fields its Kind uses are set.
type Event struct {
	Kind     EventKind   `json:"k"`
	Hand     int         `json:"h"`
	Spot     int         `json:"s,omitempty"`
	Card     card.Card   `json:"c,omitzero"`
	Index    int         `json:"i,omitempty"`
	FaceDown bool        `json:"down,omitempty"`
	Bet      BetKind     `json:"b,omitempty"`
	Amount   money.Cents `json:"a,omitempty"`
	Percent  int         `json:"pct,omitempty"`
	Outcome  Outcome     `json:"o,omitempty"`
	Who      string      `json:"who,omitempty"`
	// Handpay marks a Payout at or above the handpay limit: paid by the
	// attendant, not credited (set by the controller, never by an engine).
	Handpay bool   `json:"hp,omitempty"`
	Text    string `json:"t,omitempty"`
}

// Drawn returns the cards drawn in events, in order: the Stack a replay uses.
func Drawn(evs []Event) []card.Card {
	var out []card.Card
	for _, e := range evs {
		if e.Kind == CardDealt {
			out = append(out, e.Card)
		}
	}
	return out
}

// Money sums the stakes and payouts in events (payouts include resolved jackpots).
func Money(evs []Event) (staked, paid money.Cents) {
	for _, e := range evs {
		switch e.Kind {
		case Stake:
			staked += e.Amount
		case Payout:
			paid += e.Amount // handpays included: the player was paid
		}
	}
	return staked, paid
}
