package blackjack_test

import (
	"errors"
	"fmt"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// TestCheckDealIsTheEngines: every refusal CheckDeal gives is the one
// Apply gives for the same deal (the engine runs CheckDeal itself), with
// its typed reason.
func TestCheckDealIsTheEngines(t *testing.T) {
	royal := blackjack.Royal()
	main := func(spot int, v money.Cents) game.Bet { return game.Bet{Spot: spot, Kind: game.Main, Amount: v} }
	rp := game.Bet{Spot: 0, Kind: game.RoyalSide, Amount: royal.RoyalStake}
	for _, tt := range []struct {
		name  string
		bets  []game.Bet
		funds money.Cents
		want  blackjack.DealReason
	}{
		{"no bet", nil, 10000, blackjack.DealNoBet},
		{"spot", []game.Bet{main(2, 100)}, 10000, blackjack.DealSpot},
		{"twice", []game.Bet{main(0, 100), main(0, 100)}, 10000, blackjack.DealTwice},
		{"below min", []game.Bet{main(0, royal.MinBet-1)}, 10000, blackjack.DealBelowMin},
		{"above max", []game.Bet{main(0, royal.MaxBet+1)}, 1 << 40, blackjack.DealAboveMax},
		{"royal needs both", []game.Bet{main(0, 100), rp}, 10000, blackjack.DealRoyalNeedsBoth},
		{"royal stake", []game.Bet{main(0, 100), main(1, 100), {Spot: 0, Kind: game.RoyalSide, Amount: 2 * royal.RoyalStake}}, 10000, blackjack.DealRoyalStake},
		{"funds", []game.Bet{main(0, 100), main(1, 100), rp}, 299, blackjack.DealFunds},
		{"good", []game.Bet{main(0, 100), main(1, 100), rp}, 300, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := blackjack.CheckDeal(royal, tt.bets, tt.funds)
			var de *blackjack.DealError
			switch {
			case tt.want == 0 && err != nil:
				t.Fatalf("CheckDeal = %v, want nil", err)
			case tt.want != 0 && (!errors.As(err, &de) || de.Reason != tt.want):
				t.Fatalf("CheckDeal = %v, want reason %d", err, tt.want)
			}
			r, nerr := blackjack.New(royal, 1)
			if nerr != nil {
				t.Fatal(nerr)
			}
			_, aerr := r.Apply(game.Action{Kind: game.Deal, Bets: tt.bets, Funds: tt.funds}, card.NewStack())
			if tt.want == 0 {
				if !errors.Is(aerr, card.ErrEmpty) {
					t.Fatalf("Apply = %v, want the empty source (the bets passed)", aerr)
				}
				return
			}
			var ade *blackjack.DealError
			if !errors.As(aerr, &ade) || ade.Reason != tt.want {
				t.Fatalf("Apply = %v, want CheckDeal's refusal %v", aerr, err)
			}
			wantErr := game.ErrBet
			if tt.want == blackjack.DealFunds {
				wantErr = game.ErrFunds
			}
			if !errors.Is(aerr, wantErr) {
				t.Errorf("Apply = %v, want it to wrap %v", aerr, wantErr)
			}
		})
	}
}

func ExampleCheckDeal() {
	rules := blackjack.Classic()
	bets := []game.Bet{{Spot: 0, Kind: game.Main, Amount: rules.MinBet}}
	fmt.Println(blackjack.CheckDeal(rules, bets, rules.MinBet))
	var de *blackjack.DealError
	if errors.As(blackjack.CheckDeal(rules, bets, rules.MinBet-1), &de) {
		fmt.Println(de.Reason == blackjack.DealFunds, errors.Is(de, game.ErrFunds))
	}
	// Output:
	// <nil>
	// true true
}
