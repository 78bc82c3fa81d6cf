package blackjack

import (
	"bytes"
	"errors"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

func TestDealBets(t *testing.T) {
	fb := FreeBet()
	tests := []struct {
		name  string
		rules Rules
		bets  []game.Bet
		funds money.Cents
		want  error // nil: accepted
	}{
		{"no bet", Classic(), nil, plenty, game.ErrBet},
		{"main below the minimum", Classic(), []game.Bet{main(0, 99)}, plenty, game.ErrBet},
		{"main above the maximum", Classic(), []game.Bet{main(0, 100001)}, plenty, game.ErrBet},
		{"main at the limits", Classic(), []game.Bet{main(0, 100), main(2, 100000)}, plenty, nil},
		{"spot out of range", Classic(), []game.Bet{main(3, 1000)}, plenty, game.ErrBet},
		{"negative spot", Classic(), []game.Bet{main(-1, 1000)}, plenty, game.ErrBet},
		{"two mains on a spot", Classic(), []game.Bet{main(0, 1000), main(0, 1000)}, plenty, game.ErrBet},
		{"not a bet kind for the deal", Classic(), []game.Bet{main(0, 1000), side(0, game.DoubleBet, 1000)}, plenty, game.ErrBet},
		{"side bet not offered", Classic(), []game.Bet{main(0, 1000), side(0, game.AnyPair, 100)}, plenty, game.ErrBet},
		{"side bet without a main bet on its spot", with(fb, func(r *Rules) { r.MaxSpots = 2 }),
			[]game.Bet{main(0, 1000), side(1, game.AnyPair, 100)}, plenty, game.ErrBet},
		{"side bet below its minimum", fb, []game.Bet{main(0, 1000), side(0, game.Hot3, 99)}, plenty, game.ErrBet},
		{"side bet above its maximum", fb, []game.Bet{main(0, 1000), side(0, game.BustIt, 10001)}, plenty, game.ErrBet},
		{"all four side bets", fb, []game.Bet{main(0, 1000), side(0, game.AnyPair, 100), side(0, game.TwentyOne, 100),
			side(0, game.Hot3, 100), side(0, game.BustIt, 100)}, plenty, nil},
		{"Royal bet with one spot", Royal(), []game.Bet{main(0, 1000), side(0, game.RoyalSide, 100)}, plenty, game.ErrBet},
		{"Royal bet off the fixed stake", Royal(), append(two(1000, 1000), side(0, game.RoyalSide, 200)), plenty, game.ErrBet},
		{"two Royal bets", Royal(), append(two(1000, 1000), side(0, game.RoyalSide, 100), side(1, game.RoyalSide, 100)), plenty, game.ErrBet},
		{"Royal bet on both spots", Royal(), royalBets(), plenty, nil},
		{"Zappit: three hands", Zappit(), []game.Bet{main(0, 100), main(1, 100), main(2, 100)}, plenty, nil},
		{"Zappit: no fourth hand", Zappit(), []game.Bet{main(3, 100)}, plenty, game.ErrBet},
		{"stakes above the funds", Classic(), []game.Bet{main(0, 1000), main(1, 1000)}, 1999, game.ErrFunds},
		{"stakes equal to the funds", Classic(), []game.Bet{main(0, 1000), main(1, 1000)}, 2000, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(tt.rules, 1)
			if err != nil {
				t.Fatal(err)
			}
			before := encode(t, r)
			_, err = r.Apply(game.Action{Kind: game.Deal, Bets: tt.bets, Funds: tt.funds}, card.NewShoe(tt.rules.Decks))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Apply(deal %v) = %v, want success", tt.bets, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Apply(deal %v) = %v, want %v", tt.bets, err, tt.want)
			}
			if after := encode(t, r); !bytes.Equal(before, after) {
				t.Errorf("refused deal changed the round:\n%s\n%s", before, after)
			}
		})
	}
}

func TestIllegalChangesNothing(t *testing.T) {
	r, err := New(Classic(), 1)
	if err != nil {
		t.Fatal(err)
	}
	shoe := card.NewStack(card.MustParse("10S 7H 9D 10C")...)
	var ie *game.IllegalError
	if _, err := r.Apply(game.Action{Kind: game.Hit, Funds: plenty}, shoe); !errors.As(err, &ie) || !errors.Is(err, game.ErrIllegal) {
		t.Fatalf("Apply(hit) before the deal = %v, want an IllegalError", err)
	}
	if _, err := r.Apply(game.Action{Kind: game.Deal, Bets: []game.Bet{main(0, 1000)}, Funds: plenty}, shoe); err != nil {
		t.Fatalf("Apply(deal) = %v, want success", err)
	}
	before := encode(t, r)
	for _, k := range []game.ActionKind{game.Deal, game.Split, game.Zap, game.Insure, game.EvenMoney, game.NoInsure, game.Open, "bogus"} {
		_, err := r.Apply(game.Action{Kind: k, Funds: plenty, Bets: []game.Bet{main(0, 1000)}}, shoe)
		if !errors.As(err, &ie) || ie.Action != k {
			t.Errorf("Apply(%v) = %v, want an IllegalError for it", k, err)
		}
		if after := encode(t, r); !bytes.Equal(before, after) {
			t.Fatalf("illegal %v changed the round", k)
		}
	}
	if _, err := r.Apply(game.Action{Kind: game.Double, Funds: 999}, shoe); !errors.Is(err, game.ErrFunds) {
		t.Errorf("Apply(double) short of funds = %v, want ErrFunds", err)
	}
	// An exhausted source mid-step leaves the round as it was.
	if _, err := r.Apply(game.Action{Kind: game.Hit, Funds: plenty}, card.NewStack()); !errors.Is(err, card.ErrEmpty) {
		t.Errorf("Apply(hit) on an empty source = %v, want card.ErrEmpty", err)
	}
	if after := encode(t, r); !bytes.Equal(before, after) {
		t.Fatalf("failed hit changed the round:\n%s\n%s", before, after)
	}
	if _, err := r.Apply(game.Action{Kind: game.Stand, Funds: plenty}, shoe); err != nil || !r.Done() {
		t.Fatalf("Apply(stand) = %v, done %v; want the round settled", err, r.Done())
	}
	if _, err := r.Apply(game.Action{Kind: game.Hit, Funds: plenty}, shoe); !errors.Is(err, game.ErrRoundOver) {
		t.Errorf("Apply(hit) after the end = %v, want ErrRoundOver", err)
	}
}

func TestNewRejectsBadRules(t *testing.T) {
	tests := []struct {
		name string
		f    func(*Rules)
	}{
		{"decks", func(r *Rules) { r.Decks = 0 }},
		{"game", func(r *Rules) { r.Game = game.Duel }},
		{"peek", func(r *Rules) { r.Peek = "sometimes" }},
		{"double", func(r *Rules) { r.Double = "9-11" }},
		{"charlie", func(r *Rules) { r.CharlieCards = 2 }},
		{"max cards", func(r *Rules) { r.MaxCards = 2 }},
		{"max hands", func(r *Rules) { r.MaxHands = 4 }},
		{"side kind", func(r *Rules) { r.Side = append(r.Side, SideRule{Kind: game.Main, Min: 1, Max: 1}) }},
		{"side twice", func(r *Rules) { r.Side = append(r.Side, r.Side[0]) }},
		{"royal stake", func(r *Rules) { r.RoyalStake = 0 }},
		{"royal spots", func(r *Rules) { r.MaxSpots = 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(with(Royal(), tt.f), 1); !errors.Is(err, ErrRules) {
				t.Errorf("New(rules with bad %s) = %v, want ErrRules", tt.name, err)
			}
		})
	}
	for _, id := range []game.ID{game.Classic, game.Royal, game.FreeBet, game.Zappit} {
		r, err := Preset(id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := New(r, 1); err != nil {
			t.Errorf("New(Preset(%s)) = %v, want success", id, err)
		}
	}
}

func TestCheckFindsCorruption(t *testing.T) {
	r, err := New(FreeBet(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Apply(game.Action{Kind: game.Deal, Funds: plenty, Bets: []game.Bet{main(0, 1000), side(0, game.AnyPair, 100)}},
		card.NewStack(card.MustParse("8S 6H 8D 10C")...)); err != nil {
		t.Fatal(err)
	}
	if err := r.Check(); err != nil {
		t.Fatalf("Check() = %v, want nil", err)
	}
	tests := []struct {
		name string
		f    func(*Round)
	}{
		{"version", func(r *Round) { r.V = 99 }},
		{"rules", func(r *Round) { r.Rules.Decks = 0 }},
		{"staked", func(r *Round) { r.Staked++ }},
		{"stake", func(r *Round) { r.Hands[0].Stake = 1 }},
		{"card", func(r *Round) { r.Hands[0].Cards[0].Rank = 1 }},
		{"active", func(r *Round) { r.Active = 5 }},
		{"phase", func(r *Round) { r.Phase = "lunch" }},
		{"spot", func(r *Round) { r.Hands[0].Spot = 2 }},
		{"side", func(r *Round) { r.Sides[0].Kind = game.RoyalSide }},
		{"done with pending", func(r *Round) { r.Phase, r.Active, r.Pending = PhaseDone, -1, []Pay{{Amount: 1}} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := r.clone()
			tt.f(c)
			if err := c.Check(); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Check() with a bad %s = %v, want ErrCorrupt", tt.name, err)
			}
		})
	}
}
