package duel

import (
	"fmt"
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// Phase is where a round stands. The strings are stable (stored, and used
// as the display's message keys with the prefix "duel.").
type Phase string

// The phases of a round.
const (
	PhaseBuy  Phase = "buy"  // no live session: buy one
	PhaseAnte Phase = "ante" // a deal is ready: Deal pays the antes and deals
	PhaseBet1 Phase = "bet1" // first betting round
	PhaseDraw Phase = "draw" // the player marks cards to exchange
	PhaseBet2 Phase = "bet2" // second betting round
	PhaseOver Phase = "over" // the round is settled
)

// Sides, used as indexes of the per-side arrays.
const (
	playerSide   = 0
	computerSide = 1
)

// Who values of events and moves.
const (
	WhoPlayer   = "player"
	WhoComputer = "computer"
)

var whoNames = [2]string{WhoPlayer, WhoComputer}

// Move is one betting action of the deal, as both sides saw it.
type Move struct {
	Round  int             `json:"round"` // betting round, 1 or 2
	Who    string          `json:"who"`   // WhoPlayer or WhoComputer
	Kind   game.ActionKind `json:"kind"`
	Amount int64           `json:"amount,omitempty"` // chips put in by this move
}

// Round is one Poker Duel round: a session purchase or one deal. Its
// exported fields are its stable JSON encoding; a decoded Round continues
// exactly as the original would.
type Round struct {
	// V is the encoding version (Version); records written before the field
	// existed read as version 0 (see Decode).
	V      int      `json:"v"`
	Config Config   `json:"config"`
	No     uint64   `json:"no"`
	Sess   *Session `json:"session"` // nil before a purchase
	Phase  Phase    `json:"phase"`
	// Hands: the player's (0) and the computer's (1) five cards.
	Hands [2][]card.Card `json:"hands"`
	// Discards: the cards each side exchanged (its own knowledge).
	Discards [2][]card.Card `json:"discards"`
	// Drew: how many cards each side exchanged, -1 before its draw.
	Drew [2]int `json:"drew"`
	// Pot in the middle (carried pot, antes and bets of both rounds).
	Pot int64 `json:"pot"`
	// In: chips each side put in during the current betting round.
	In [2]int64 `json:"in"`
	// Raises made in the current betting round.
	Raises int `json:"raises"`
	// Acted: actions taken in the current betting round.
	Acted int `json:"acted"`
	// Turn: the side to act (0 player, 1 computer).
	Turn int `json:"turn"`
	// First: the side that speaks first in this deal.
	First int `json:"first"`
	// Moves: the betting history of the deal.
	Moves []Move `json:"moves"`
	// Decisions: the computer's decisions so far this deal (bluff randomness).
	Decisions uint64 `json:"decisions"`
	// Outcome for the player once settled; Values the hands' names at showdown.
	Outcome  game.Outcome `json:"outcome,omitempty"`
	Values   [2]string    `json:"values"`
	Showdown bool         `json:"showdown"`
	Message  string       `json:"message,omitempty"`
	Staked   money.Cents  `json:"staked"`

	// computer overrides the level's strategy (tests and evaluation only;
	// not persisted).
	computer Strategy
}

// SetComputer makes s decide for the computer instead of the session's level.
// It is for tests and the evaluation: it is not persisted, so a decoded
// round plays the level again.
func (r *Round) SetComputer(s Strategy) { r.computer = s }

var _ game.Round = (*Round)(nil)

// New returns the next round. With no session, or one that is over or can
// no longer be played, the round sells a new session (game.Buy); otherwise it
// is one deal of sess. sess is not modified; Session returns the session
// after the round.
func New(cfg Config, sess *Session, round uint64) (*Round, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("duel: new round %d: %w", round, err)
	}
	r := &Round{V: Version, Config: cfg, No: round, Drew: [2]int{-1, -1}, Moves: []Move{}}
	if sess == nil || !sess.playable(cfg) {
		r.Phase = PhaseBuy
		r.Sess = sess.clone()
		return r, nil
	}
	if err := sess.check(); err != nil {
		return nil, fmt.Errorf("duel: new round %d: %w", round, err)
	}
	r.Sess = sess.clone()
	r.Phase = PhaseAnte
	r.First = computerSide
	if sess.PlayerFirst {
		r.First = playerSide
	}
	r.Turn = r.First
	return r, nil
}

// Session returns a copy of the session after this round (the session the
// controller keeps when the round is over). Nil only for an unbought round.
func (r *Round) Session() *Session { return r.Sess.clone() }

// DeckSize is 32 or 52: the deck the controller shuffles for this deal.
func (r *Round) DeckSize() int {
	if r.Sess != nil && r.Sess.Deck == 32 {
		return 32
	}
	return 52
}

// Done reports whether the round is settled.
func (r *Round) Done() bool { return r.Phase == PhaseOver }

// Legal lists the player's actions now. funds matters only for Buy.
func (r *Round) Legal(funds money.Cents) []game.ActionKind {
	switch r.Phase {
	case PhaseBuy:
		if r.Config.Enabled && funds >= r.Config.Price {
			return []game.ActionKind{game.Buy}
		}
		return nil
	case PhaseAnte:
		return []game.ActionKind{game.Deal}
	case PhaseDraw:
		return []game.ActionKind{game.Draw}
	case PhaseBet1, PhaseBet2:
		if r.Turn == playerSide {
			return r.options(playerSide)
		}
	}
	return nil
}

// options lists the betting actions of side (it is side's turn).
func (r *Round) options(side int) []game.ActionKind {
	owed := r.In[1-side] - r.In[side]
	var out []game.ActionKind
	switch {
	case owed > 0:
		if lo, _ := r.betRange(side, true); lo > 0 {
			out = append(out, game.Raise)
		}
		if r.Phase == PhaseBet1 {
			out = append(out, game.Change)
		} else {
			out = append(out, game.See)
		}
	case r.Phase == PhaseBet1 && r.Acted == 0:
		if lo, _ := r.betRange(side, false); lo > 0 {
			out = append(out, game.Open)
		}
		out = append(out, game.Wait)
	case r.Phase == PhaseBet1:
		if lo, _ := r.betRange(side, false); lo > 0 {
			out = append(out, game.Open)
		}
		out = append(out, game.Change)
	default: // second round, first to speak
		if lo, _ := r.betRange(side, false); lo > 0 {
			out = append(out, game.Open)
		}
		out = append(out, game.See)
	}
	return append(out, game.Pass)
}

// betRange is the allowed size of an open (raise false) or of the raise
// increment (raise true) for side: from MinBet to MaxBet, capped at what side
// can pay after matching and at what the opponent can match. When the cap is
// below MinBet the cap is the only size. (0, 0) means no bet is possible.
func (r *Round) betRange(side int, raise bool) (lo, hi int64) {
	if raise && r.Raises >= r.Config.RaiseCap {
		return 0, 0
	}
	owed := r.In[1-side] - r.In[side]
	hi = min(r.Config.MaxBet,
		r.Sess.capacity(r.Config, side)-owed,
		r.Sess.capacity(r.Config, 1-side))
	if hi <= 0 {
		return 0, 0
	}
	return min(r.Config.MinBet, hi), hi
}

// BetRange is the player's allowed open or raise size now ((0, 0) when none).
func (r *Round) BetRange() (lo, hi int64) {
	if r.Phase != PhaseBet1 && r.Phase != PhaseBet2 || r.Turn != playerSide {
		return 0, 0
	}
	return r.betRange(playerSide, r.In[computerSide] > r.In[playerSide])
}

// Check verifies the encoding version and the chips in play: stacks, carried pot and pot add up to
// the session's count and none is negative.
func (r *Round) Check() error {
	if r.V != Version {
		return fmt.Errorf("duel: round %d: encoding version %d, want %d: %w", r.No, r.V, Version, ErrCorrupt)
	}
	s := r.Sess
	if s == nil {
		return nil
	}
	if s.PlayerStack < 0 || s.ComputerStack < 0 || r.Pot < 0 || s.Carry < 0 {
		return fmt.Errorf("duel: round %d: negative chips (player %d, computer %d, pot %d, carry %d): %w", r.No, s.PlayerStack, s.ComputerStack, r.Pot, s.Carry, ErrCorrupt)
	}
	if got := s.PlayerStack + s.ComputerStack + r.Pot + s.Carry; got != s.Chips {
		return fmt.Errorf("duel: round %d: stacks %d + %d + pot %d + carry %d = %d, want %d chips in play: %w", r.No, s.PlayerStack, s.ComputerStack, r.Pot, s.Carry, got, s.Chips, ErrCorrupt)
	}
	return nil
}

func (r *Round) clone() *Round {
	c := *r
	c.Config.Decks = slices.Clone(r.Config.Decks)
	c.Config.Items = slices.Clone(r.Config.Items)
	c.Config.Levels = slices.Clone(r.Config.Levels)
	c.Sess = r.Sess.clone()
	for i := range 2 {
		c.Hands[i] = slices.Clone(r.Hands[i])
		c.Discards[i] = slices.Clone(r.Discards[i])
	}
	c.Moves = slices.Clone(r.Moves)
	return &c
}

// short reports whether this deal uses the 32-card deck.
func (r *Round) short() bool { return r.Sess != nil && r.Sess.Deck == 32 }
