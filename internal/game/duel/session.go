package duel

import (
	"fmt"
	"slices"
)

// Session is what lasts between deals: stacks, the outfit, the carried pot,
// who speaks first, the deck, the level and the bluff seed. The controller
// stores it (JSON) after each round and hands it to New for the next one.
type Session struct {
	Deck  int    `json:"deck"`  // 32 or 52
	Level string `json:"level"` // computer level
	// AIRev is the revision of the computer's play the session was bought
	// under, kept so that a recorded deal replays as it was played: 0 the
	// first (the Easy level threw away every card but the two highest of a
	// worthless hand, four to a flush or an open straight included), 1 the
	// Easy level draws as games.md §5 says (keeps four to a flush or to an
	// open straight). New sessions get CurrentAIRev.
	AIRev int `json:"ai_rev,omitempty"`
	// Seed is the session's bluff seed (drawn by the controller at Buy);
	// the computer's randomness is a pure function of Seed, Deals and the
	// decision counter of the deal.
	Seed  uint64 `json:"seed"`
	Deals uint64 `json:"deals"` // deals completed
	// Stacks in chips.
	PlayerStack   int64 `json:"player_stack"`
	ComputerStack int64 `json:"computer_stack"`
	// Carry: a pot left on the table by identical hands, added to the next deal's pot.
	Carry int64 `json:"carry"`
	// PlayerFirst: the player speaks first in the next deal.
	PlayerFirst bool `json:"player_first"`
	// Outfit: Worn items in pawning order; Pawned the item pawned whose chips
	// are not yet lost ("" if none) and PawnFloor the computer's stack just
	// before it was pawned; Lost the items taken off, in the order they came off.
	Worn      []string `json:"worn"`
	Pawned    string   `json:"pawned"`
	PawnFloor int64    `json:"pawn_floor"`
	Lost      []string `json:"lost"`
	// Chips is the number of chips in play (stacks + carried pot + pot):
	// twice the starting stack, plus every pawn, minus every buy-back.
	Chips int64 `json:"chips"`
	// Over: the session has ended; PlayerWon says who won it.
	Over      bool `json:"over"`
	PlayerWon bool `json:"player_won"`
}

// NewSession starts a session: both stacks at cfg.Stack, the whole outfit
// worn, the player speaking first.
func NewSession(cfg Config, deck int, level string, seed uint64) *Session {
	return &Session{
		Deck: deck, Level: level, Seed: seed, AIRev: CurrentAIRev,
		PlayerStack: cfg.Stack, ComputerStack: cfg.Stack,
		PlayerFirst: true,
		Worn:        slices.Clone(cfg.Items),
		Lost:        []string{},
		Chips:       2 * cfg.Stack,
	}
}

func (s *Session) clone() *Session {
	if s == nil {
		return nil
	}
	c := *s
	c.Worn = slices.Clone(s.Worn)
	c.Lost = slices.Clone(s.Lost)
	return &c
}

// check verifies the session's own consistency (used by New on a stored session).
func (s *Session) check() error {
	switch {
	case s.Deck != 32 && s.Deck != 52:
		return fmt.Errorf("%w: deck %d", ErrSession, s.Deck)
	case !slices.Contains(Levels(), s.Level):
		return fmt.Errorf("%w: level %q", ErrSession, s.Level)
	case s.PlayerStack < 0 || s.ComputerStack < 0 || s.Carry < 0:
		return fmt.Errorf("%w: negative chips (player %d, computer %d, carry %d)", ErrSession, s.PlayerStack, s.ComputerStack, s.Carry)
	case s.PlayerStack+s.ComputerStack+s.Carry != s.Chips:
		return fmt.Errorf("%w: stacks %d + %d + carry %d != chips in play %d", ErrSession, s.PlayerStack, s.ComputerStack, s.Carry, s.Chips)
	}
	seen := map[string]bool{}
	for _, it := range append(append(slices.Clone(s.Worn), s.Lost...), s.Pawned) {
		if it != "" && seen[it] {
			return fmt.Errorf("%w: item %q twice in the outfit", ErrSession, it)
		}
		seen[it] = true
	}
	return nil
}

// playable reports whether a deal can start: the player can pay the ante and
// the computer can pay it or pawn.
func (s *Session) playable(cfg Config) bool {
	return !s.Over && s.PlayerStack >= cfg.Ante && (s.ComputerStack >= cfg.Ante || len(s.Worn) > 0)
}

// capacity is what side can pay now: the player its stack; the computer its
// stack plus what pawning every worn item would bring.
func (s *Session) capacity(cfg Config, side int) int64 {
	if side == playerSide {
		return s.PlayerStack
	}
	return s.ComputerStack + cfg.PawnValue*int64(len(s.Worn))
}

func (s *Session) stack(side int) *int64 {
	if side == playerSide {
		return &s.PlayerStack
	}
	return &s.ComputerStack
}
