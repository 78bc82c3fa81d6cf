package duel

import (
	"fmt"
	"slices"

	"cabinet/internal/money"
)

// Level names the computer opponent's difficulty levels, easiest first.
const (
	Easy = "easy"
	Hard = "hard"
)

// Levels lists every level the engine knows, easiest first.
func Levels() []string { return []string{Easy, Hard} }

// Config is the operator's configuration of Poker Duel (games.md §5). Chip
// amounts are play chips (int64), never money; only Price is money.
type Config struct {
	// Enabled: the operator offers the game.
	Enabled bool `json:"enabled" toml:"enabled"`
	// Price of one session in credits (default 1.00).
	Price money.Cents `json:"price" toml:"price"`
	// Decks the player may choose from: 32 (7 to ace) and/or 52.
	Decks []int `json:"decks" toml:"decks"`
	// Stack: chips each side starts a session with (default 500).
	Stack int64 `json:"stack" toml:"stack"`
	// Ante each side pays into the pot at every deal (default 5).
	Ante int64 `json:"ante" toml:"ante"`
	// RaiseCap: raises allowed per betting round (default 3).
	RaiseCap int `json:"raise_cap" toml:"raise_cap"`
	// MinBet and MaxBet bound an open and a raise (the increment), in chips.
	// A bet is further capped at what the opponent can match; when that cap
	// is below MinBet the smaller amount is the only one allowed.
	MinBet int64 `json:"min_bet" toml:"min_bet"`
	MaxBet int64 `json:"max_bet" toml:"max_bet"`
	// Items of the computer's outfit, in the order they are pawned.
	Items []string `json:"items" toml:"items"`
	// PawnValue: chips the computer receives for pawning one item, and what
	// it pays to buy one back (default 100).
	PawnValue int64 `json:"pawn_value" toml:"pawn_value"`
	// BuyBack: after a deal, when the computer's stack exceeds this many
	// chips it buys back one item (default 600).
	BuyBack int64 `json:"buy_back" toml:"buy_back"`
	// BluffPerMille: how often (per 1000 decisions where a bluff is
	// possible) the computer bets or raises a weak hand (default 80).
	BluffPerMille int `json:"bluff_per_mille" toml:"bluff_per_mille"`
	// Levels offered to the player, among Levels().
	Levels []string `json:"levels" toml:"levels"`
}

// DefaultConfig returns the rule book's defaults: 1.00 a session, both decks,
// 500 chips, ante 5, three raises, bets 5 to 100, six items pawned for 100
// chips, buy back above 600, bluffs 8 % of the time, levels easy and hard.
func DefaultConfig() Config {
	return Config{
		Enabled:       true,
		Price:         100,
		Decks:         []int{32, 52},
		Stack:         500,
		Ante:          5,
		RaiseCap:      3,
		MinBet:        5,
		MaxBet:        100,
		Items:         []string{"hat", "glasses", "scarf", "jacket", "gloves", "shoes"},
		PawnValue:     100,
		BuyBack:       600,
		BluffPerMille: 80,
		Levels:        []string{Easy, Hard},
	}
}

// maxChips bounds every chip amount of the configuration so that no sum of
// stacks, pots and pawns can overflow int64.
const maxChips = 1_000_000_000

// Validate checks every field; the error names the field's key and value
// and wraps ErrConfig.
func (c Config) Validate() error {
	bad := func(key string, v any, want string) error {
		return fmt.Errorf("%w: %s = %v: want %s", ErrConfig, key, v, want)
	}
	switch {
	case c.Price <= 0:
		return bad("price", c.Price, "a positive amount")
	case len(c.Decks) == 0:
		return bad("decks", c.Decks, "at least one of 32 and 52")
	}
	for i, d := range c.Decks {
		if d != 32 && d != 52 {
			return bad("decks", c.Decks, "only 32 and 52")
		}
		if slices.Contains(c.Decks[:i], d) {
			return bad("decks", c.Decks, "each deck once")
		}
	}
	switch {
	case c.Stack <= 0 || c.Stack > maxChips:
		return bad("stack", c.Stack, fmt.Sprintf("1 to %d chips", maxChips))
	case c.Ante <= 0 || c.Ante > c.Stack:
		return bad("ante", c.Ante, fmt.Sprintf("1 to stack (%d) chips", c.Stack))
	case c.RaiseCap < 0 || c.RaiseCap > 100:
		return bad("raise_cap", c.RaiseCap, "0 to 100")
	case c.MinBet <= 0 || c.MinBet > maxChips:
		return bad("min_bet", c.MinBet, fmt.Sprintf("1 to %d chips", maxChips))
	case c.MaxBet < c.MinBet || c.MaxBet > maxChips:
		return bad("max_bet", c.MaxBet, fmt.Sprintf("min_bet (%d) to %d chips", c.MinBet, maxChips))
	case len(c.Items) == 0 || len(c.Items) > 32:
		return bad("items", c.Items, "1 to 32 item names")
	}
	for i, it := range c.Items {
		if it == "" {
			return bad("items", c.Items, "non-empty names")
		}
		if slices.Contains(c.Items[:i], it) {
			return bad("items", c.Items, "distinct names")
		}
	}
	switch {
	case c.PawnValue < c.Ante || c.PawnValue > maxChips:
		return bad("pawn_value", c.PawnValue, fmt.Sprintf("ante (%d) to %d chips", c.Ante, maxChips))
	case c.BuyBack <= c.PawnValue || c.BuyBack > maxChips:
		return bad("buy_back", c.BuyBack, fmt.Sprintf("more than pawn_value (%d), at most %d chips", c.PawnValue, maxChips))
	case c.BluffPerMille < 0 || c.BluffPerMille > 1000:
		return bad("bluff_per_mille", c.BluffPerMille, "0 to 1000")
	case len(c.Levels) == 0:
		return bad("levels", c.Levels, fmt.Sprintf("at least one of %q", Levels()))
	}
	for i, l := range c.Levels {
		if !slices.Contains(Levels(), l) {
			return bad("levels", c.Levels, fmt.Sprintf("only %q", Levels()))
		}
		if slices.Contains(c.Levels[:i], l) {
			return bad("levels", c.Levels, "each level once")
		}
	}
	return nil
}
