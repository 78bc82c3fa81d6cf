package blackjack

import (
	"fmt"
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/money"
)

// PeekMode says how the dealer's second card is dealt and checked.
type PeekMode string

const (
	// PeekAceTen: hole card; the dealer checks it with an ace up (after
	// insurance) or a ten-value up (at once). Royal, Zappit, Classic American.
	PeekAceTen PeekMode = "ace-ten"
	// PeekAceOnly: hole card; checked only with an ace up. With a ten up a
	// dealer blackjack found at the end costs each hand its original bet only
	// (Free Bet, games.md §2).
	PeekAceOnly PeekMode = "ace-only"
	// NoHole: European dealing: the second dealer card comes after the players
	// have played; a dealer blackjack then takes everything staked (decided).
	NoHole PeekMode = "no-hole"
)

// DoubleRule says which two-card totals may be doubled.
type DoubleRule string

const (
	DoubleAny    DoubleRule = "any"   // any first two cards
	Double10or11 DoubleRule = "10-11" // Royal Poker: total 10 or 11 only
)

// Rules is every parameter of a blackjack variant. It is the one source of
// truth shared by the engine and the PAR analyser; the presets below are the
// rule book's defaults, configuration overrides the operator's fields.
type Rules struct {
	Game game.ID `json:"game"`

	Decks        int  `json:"decks"`
	FreshShuffle bool `json:"fresh_shuffle"` // shuffled before every round
	// Penetration: for a persisted shoe, percent of the cards dealt before the
	// cut card comes out (Free Bet, default 75).
	Penetration int `json:"penetration,omitempty"`

	HitSoft17 bool     `json:"hit_soft17"`
	Peek      PeekMode `json:"peek"`

	MaxSpots int         `json:"max_spots"`
	MinBet   money.Cents `json:"min_bet"`
	MaxBet   money.Cents `json:"max_bet"`

	Double           DoubleRule `json:"double"`
	DoubleAfterSplit bool       `json:"double_after_split"`
	// MaxHands per spot: 2 = split once, 3 = resplit up to three hands.
	MaxHands int `json:"max_hands"`
	// SplitAces: split aces receive one card each and stand (all variants).
	// AutoStandHardOnly: only a hard 21 stands automatically (Royal Poker);
	// otherwise any 21 stands.
	AutoStandHardOnly bool `json:"auto_stand_hard_only,omitempty"`
	// SplitTwentyOneHard: a split hand's two-card 21 (an ace and a
	// ten-value) is a hard 21, so it stands automatically where only a hard
	// 21 does (games.md §1: "Ace + ten-value after a split is a hard 21"; the
	// sentence sits under split aces, which stand anyway, so its "hard" has
	// effect only on a split ten-value that draws an ace: the reading taken).
	// Rounds recorded before the field existed lack it and replay as played.
	SplitTwentyOneHard bool `json:"split_21_hard,omitempty"`

	Insurance bool `json:"insurance"`
	EvenMoney bool `json:"even_money,omitempty"` // Royal Poker
	Surrender bool `json:"surrender,omitempty"`  // Classic (late, after the peek)

	// Free Bet: free doubles on hard 9–11, free splits of non-ten pairs.
	FreeBets     bool `json:"free_bets,omitempty"`
	CharlieCards int  `json:"charlie_cards,omitempty"` // 6 in Free Bet, 0 = none
	Dealer22Push bool `json:"dealer22_push,omitempty"`

	// Zappit.
	Zap      bool        `json:"zap,omitempty"`
	MaxCards int         `json:"max_cards,omitempty"` // 13 in Zappit, 0 = no cap
	WinCap   money.Cents `json:"win_cap,omitempty"`   // round's total win cap, 0 = none

	// Side bets offered, with limits and paytables.
	Side []SideRule `json:"side,omitempty"`

	// Royal Poker progressive (the pool itself lives in the store).
	RoyalStake money.Cents `json:"royal_stake,omitempty"`
}

// SideRule is one side bet on offer. Pays maps the paying hand names of the
// sidebet evaluators to the payout: "to one" (stake returned on top) for the
// Free Bet side bets, "for one" for Royal Poker (games.md §1).
type SideRule struct {
	Kind game.BetKind     `json:"kind"`
	Min  money.Cents      `json:"min"`
	Max  money.Cents      `json:"max"`
	Pays map[string]int64 `json:"pays"`
}

// SideRule returns the rule for kind, or false if it is not offered.
func (r Rules) SideRule(kind game.BetKind) (SideRule, bool) {
	for _, s := range r.Side {
		if s.Kind == kind {
			return s, true
		}
	}
	return SideRule{}, false
}

// Preset returns the default rules of a blackjack game.
func Preset(id game.ID) (Rules, error) {
	switch id {
	case game.Classic:
		return Classic(), nil
	case game.Royal:
		return Royal(), nil
	case game.FreeBet:
		return FreeBet(), nil
	case game.Zappit:
		return Zappit(), nil
	}
	return Rules{}, fmt.Errorf("blackjack: %q is not a blackjack game", id)
}

// Validate checks the rules an operator may change; the error names the field.
func (r Rules) Validate() error {
	switch {
	case r.Decks < 1 || r.Decks > 8:
		return fmt.Errorf("decks = %d, want 1 to 8", r.Decks)
	case r.MinBet <= 0:
		return fmt.Errorf("min_bet = %v, want more than 0", r.MinBet)
	case r.MaxBet < r.MinBet:
		return fmt.Errorf("max_bet = %v is below min_bet = %v", r.MaxBet, r.MinBet)
	case r.MaxSpots < 1 || r.MaxSpots > 3:
		return fmt.Errorf("max_spots = %d, want 1 to 3", r.MaxSpots)
	case r.MaxHands < 1 || r.MaxHands > 3:
		return fmt.Errorf("max_hands = %d, want 1 to 3", r.MaxHands)
	case !r.FreshShuffle && (r.Penetration < 10 || r.Penetration > 90):
		return fmt.Errorf("penetration = %d, want 10 to 90 (percent)", r.Penetration)
	case r.WinCap < 0:
		return fmt.Errorf("win_cap = %v, want 0 (none) or more", r.WinCap)
	}
	switch {
	case r.Game != game.Classic && r.Game != game.Royal && r.Game != game.FreeBet && r.Game != game.Zappit:
		return fmt.Errorf("game = %q, want classic, royal, freebet or zappit", r.Game)
	case r.Peek != PeekAceTen && r.Peek != PeekAceOnly && r.Peek != NoHole:
		return fmt.Errorf("peek = %q, want %q, %q or %q", r.Peek, PeekAceTen, PeekAceOnly, NoHole)
	case r.Double != DoubleAny && r.Double != Double10or11:
		return fmt.Errorf("double = %q, want %q or %q", r.Double, DoubleAny, Double10or11)
	case r.CharlieCards != 0 && (r.CharlieCards < 3 || r.CharlieCards > 13):
		return fmt.Errorf("charlie_cards = %d, want 0 (none) or 3 to 13", r.CharlieCards)
	case r.MaxCards != 0 && (r.MaxCards < 3 || r.MaxCards > 52):
		return fmt.Errorf("max_cards = %d, want 0 (no cap) or 3 to 52", r.MaxCards)
	}
	for i, s := range r.Side {
		switch {
		case !s.Kind.IsSide():
			return fmt.Errorf("side bet %q: not a side bet kind", s.Kind)
		case slices.ContainsFunc(r.Side[:i], func(o SideRule) bool { return o.Kind == s.Kind }):
			return fmt.Errorf("side bet %s: listed twice", s.Kind)
		case s.Kind == game.RoyalSide && r.RoyalStake <= 0:
			return fmt.Errorf("royal_stake = %v, want more than 0 when the Royal Poker bet is offered", r.RoyalStake)
		case s.Kind == game.RoyalSide && r.MaxSpots < 2:
			return fmt.Errorf("max_spots = %d, the Royal Poker bet needs 2 spots", r.MaxSpots)
		}
		if s.Min <= 0 || s.Max < s.Min {
			return fmt.Errorf("side bet %s: limits %v–%v, want 0 < min <= max", s.Kind, s.Min, s.Max)
		}
		for k, v := range s.Pays {
			if v < 0 {
				return fmt.Errorf("side bet %s: pays[%q] = %d, want 0 or more", s.Kind, k, v)
			}
		}
	}
	return nil
}
