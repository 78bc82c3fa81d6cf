package blackjack

import (
	"fmt"
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// Version is the encoding version of Round (Round.V).
const Version = 1

// Phase is where a round stands. Strings are stable (they are stored).
type Phase string

// The phases of a round.
const (
	PhaseBet       Phase = "bet"       // waiting for the Deal action
	PhaseInsurance Phase = "insurance" // the active hand decides insurance / even money
	PhasePlay      Phase = "play"      // the active hand plays
	PhaseDone      Phase = "done"      // settled
)

// Hand is one player hand. A spot's first hand carries the Main bet; a hand
// made by a split carries a SplitBet stake, or a Free Bet token instead.
type Hand struct {
	Spot  int         `json:"spot"`
	Cards []card.Card `json:"cards"`
	// Stake is the money on the hand's base bet (Main, or SplitBet when
	// FromSplit); Token is a free-split token backing it instead (not money).
	Stake money.Cents `json:"stake"`
	Token money.Cents `json:"token,omitempty"`
	// Double is the money of a paid double, DoubleToken the token of a free one.
	Double      money.Cents `json:"double,omitempty"`
	DoubleToken money.Cents `json:"double_token,omitempty"`
	Doubled     bool        `json:"doubled,omitempty"`
	// Insured is the insurance stake; InsAsked says the decision was made,
	// InsSettled that the insurance was paid or lost.
	Insured    money.Cents `json:"insured,omitempty"`
	InsAsked   bool        `json:"ins_asked,omitempty"`
	InsSettled bool        `json:"ins_settled,omitempty"`
	InsWin     money.Cents `json:"ins_win,omitempty"`

	// FromSplit: the hand is one of a split's hands; SplitHand: it was made
	// by the split, so its base is a SplitBet stake (or a token).
	FromSplit bool `json:"split,omitempty"`
	SplitHand bool `json:"split_hand,omitempty"`
	SplitAces bool `json:"split_aces,omitempty"`
	// SurrenderHeld: the hand surrendered under European dealing (no hole
	// card); it is settled once the dealer's hand is complete (games.md §4):
	// half returned, or the whole bet lost to a dealer blackjack.
	SurrenderHeld bool `json:"surrender_held,omitempty"`
	// Zapped holds the two cards a Zappit exchange discarded.
	Zapped []card.Card `json:"zapped,omitempty"`
	// Hidden: the last card is face down (Classic American double) until the
	// dealer's hand is revealed.
	Hidden bool `json:"hidden,omitempty"`

	// Done: no more decisions; Settled: the outcome is decided and paid.
	Done    bool         `json:"done,omitempty"`
	Settled bool         `json:"settled,omitempty"`
	Outcome game.Outcome `json:"outcome,omitempty"`
	// Win is the money paid for the hand's main, split and double bets
	// (returned stakes included).
	Win  money.Cents `json:"win,omitempty"`
	Note string      `json:"note,omitempty"`
}

// Side is one side bet of the round.
type Side struct {
	Spot    int          `json:"spot"`
	Kind    game.BetKind `json:"kind"`
	Amount  money.Cents  `json:"amount"`
	Settled bool         `json:"settled,omitempty"`
	Outcome game.Outcome `json:"outcome,omitempty"`
	Hand    string       `json:"hand,omitempty"` // paying hand name of the evaluator
	Win     money.Cents  `json:"win,omitempty"`
	Jackpot int          `json:"jackpot,omitempty"` // percent of the progressive won
}

// Pay is a payout decided but held back until the round ends, so the win cap
// (Rules.WinCap) can be applied to the round as a whole.
type Pay struct {
	Bet    game.BetKind `json:"bet"`
	Spot   int          `json:"spot"`
	Hand   int          `json:"hand"`
	Amount money.Cents  `json:"amount"`
	Text   string       `json:"text,omitempty"`
}

// Round is one blackjack round of any variant; its Rules decide the variant.
// It is a plain value: its exported fields are its whole state (the
// unexported mem is reusable storage of AppendApply, never state), and it
// round-trips through encoding/json exactly (the rules it started with
// included, so a resumed round keeps them).
type Round struct {
	V      int    `json:"v"`
	Rules  Rules  `json:"rules"`
	Number uint64 `json:"number"`
	Phase  Phase  `json:"phase"`
	// Dealer's cards: up card first, then the hole card (HoleDown while it is
	// face down), then the cards drawn.
	Dealer   []card.Card `json:"dealer"`
	HoleDown bool        `json:"hole_down,omitempty"`
	// Hands in play order: spot order, split hands after their parent. Event
	// Hand fields index this list as it is at the time of the event.
	Hands  []Hand `json:"hands"`
	Active int    `json:"active"`
	Sides  []Side `json:"sides,omitempty"`
	// Pending payouts of a capped round (WinCap > 0), paid at the end.
	Pending []Pay `json:"pending,omitempty"`
	// Staked and Paid: money taken and returned so far this round.
	Staked money.Cents `json:"staked"`
	Paid   money.Cents `json:"paid"`

	// mem: storage reused by AppendApply and Renew (never encoded).
	mem *mem
}

var _ game.Round = (*Round)(nil)

// New returns round number round of the variant r, waiting for the Deal.
func New(r Rules, round uint64) (*Round, error) {
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("blackjack: new round %d: %w: %w", round, ErrRules, err)
	}
	return &Round{V: Version, Rules: r, Number: round, Phase: PhaseBet, Active: -1}, nil
}

// Done reports whether the round is settled.
func (r *Round) Done() bool { return r.Phase == PhaseDone }

// clone is a deep copy (Rules are never mutated, so they are shared).
func (r *Round) clone() *Round {
	c := *r
	c.Dealer = slices.Clone(r.Dealer)
	c.Hands = slices.Clone(r.Hands)
	for i := range c.Hands {
		c.Hands[i].Cards = slices.Clone(r.Hands[i].Cards)
		c.Hands[i].Zapped = slices.Clone(r.Hands[i].Zapped)
	}
	c.Sides = slices.Clone(r.Sides)
	c.Pending = slices.Clone(r.Pending)
	return &c
}

// ActiveHand returns the cards of the hand deciding now (play or insurance)
// and its index, or ok false. The slice is the round's own: read it, do not
// modify it.
func (r *Round) ActiveHand() (cards []card.Card, index int, ok bool) {
	if r.Active < 0 || r.Active >= len(r.Hands) || (r.Phase != PhasePlay && r.Phase != PhaseInsurance) {
		return nil, -1, false
	}
	return r.Hands[r.Active].Cards, r.Active, true
}

// DealerUp returns the dealer's up card, or ok false before the deal.
func (r *Round) DealerUp() (card.Card, bool) {
	if len(r.Dealer) == 0 {
		return card.Card{}, false
	}
	return r.Dealer[0], true
}

// natural: an original hand's first two cards total 21.
func (h *Hand) natural() bool {
	if h.FromSplit || h.Zapped != nil || len(h.Cards) != 2 {
		return false
	}
	t, _ := card.BlackjackTotal(h.Cards)
	return t == 21
}

func (h *Hand) busted() bool {
	t, _ := card.BlackjackTotal(h.Cards)
	return t > 21
}

func (h *Hand) base() money.Cents { return h.Stake + h.Token }

func (h *Hand) stakeKind() game.BetKind {
	if h.SplitHand {
		return game.SplitBet
	}
	return game.Main
}

func isAce(c card.Card) bool { return c.Rank == card.Ace }
