package blackjack

import (
	"errors"
	"io"
	"testing"

	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

func TestPoolContribution(t *testing.T) {
	tests := []struct {
		stake  money.Cents
		rateE7 int64
		want   int64
	}{
		{100, 500_000, 50_000_000},    // 5 % of 1.00 = 5 cents
		{100, 1, 100},                 // a tiny rate is kept in units, not rounded away
		{0, 500_000, 0},               // no stake, nothing
		{333, 1_234_567, 411_110_811}, // 12.34567 % of 3.33
	}
	for _, tc := range tests {
		if got := PoolContribution(tc.stake, tc.rateE7); got != tc.want {
			t.Errorf("PoolContribution(%v, %d) = %d, want %d", tc.stake, tc.rateE7, got, tc.want)
		}
	}
}

func TestPoolWin(t *testing.T) {
	const u = PoolUnitsPerCent
	tests := []struct {
		name      string
		pool      int64
		percent   int
		reset     money.Cents
		won       money.Cents
		poolAfter int64
	}{
		{"royal flush takes all, pool reseeded", 2041237 * u, 100, 100000, 2041237, 100000 * u},
		{"royal flush leaves the sub-cent fraction", 2041237*u + 9_999_999, 100, 100000, 2041237, 100000*u + 9_999_999},
		{"straight flush: 10 % rounded down to the cent", 2041237 * u, 10, 100000, 204123, 2041237*u - 204123*u},
		{"straight flush does not reseed", 1000 * u, 10, 100000, 100, 900 * u},
		{"empty pool pays nothing", 0, 100, 5000, 0, 5000 * u},
		{"pool below a cent", u - 1, 100, 0, 0, u - 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			won, after := PoolWin(tc.pool, tc.percent, tc.reset)
			if won != tc.won || after != tc.poolAfter {
				t.Errorf("PoolWin(%d, %d, %v) = %v, %d; want %v, %d", tc.pool, tc.percent, tc.reset, won, after, tc.won, tc.poolAfter)
			}
			if tc.percent < 100 && tc.pool-after != int64(won)*u {
				t.Errorf("pool lost %d units for a win of %v", tc.pool-after, won)
			}
		})
	}
}

func TestPoolWinRefusesBadPercent(t *testing.T) {
	for _, p := range []int{0, -10, 101} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("PoolWin(_, %d, _) did not panic", p)
				}
			}()
			PoolWin(100*PoolUnitsPerCent, p, 0)
		}()
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestNextShoe(t *testing.T) {
	fb := FreeBet() // 8 decks, 75 % penetration
	called := 0
	rnd := func() io.Reader { called++; return card.NewSeeded(9) }
	whole := func(pos int) *card.Shoe {
		s := card.NewShoe(8)
		s.Cut, s.Pos = 312, pos
		return s
	}
	tests := []struct {
		name     string
		rules    Rules
		carry    *card.Shoe
		same     bool // the carried shoe continues
		shuffled bool
	}{
		{name: "fresh shuffle: new lazy shoe", rules: Classic(), carry: whole(10)},
		{name: "Free Bet continues before the cut card", rules: fb, carry: whole(311), same: true},
		{name: "Free Bet reshuffles once the cut card is out", rules: fb, carry: whole(312), shuffled: true},
		{name: "Free Bet shuffles a first shoe", rules: fb, shuffled: true},
		{name: "Free Bet drops a shoe of another size", rules: with(fb, func(r *Rules) { r.Decks = 6 }), carry: whole(0), shuffled: true},
		{name: "penetration from the rules", rules: with(fb, func(r *Rules) { r.Penetration = 50 }), shuffled: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			called = 0
			s, shuffled, err := NextShoe(tc.rules, tc.carry, rnd)
			if err != nil {
				t.Fatalf("NextShoe = %v", err)
			}
			if shuffled != tc.shuffled || (s == tc.carry) != tc.same {
				t.Fatalf("NextShoe: shuffled %v, carried %v; want %v, %v", shuffled, s == tc.carry, tc.shuffled, tc.same)
			}
			if len(s.Cards) != 52*tc.rules.Decks {
				t.Errorf("%d cards, want %d", len(s.Cards), 52*tc.rules.Decks)
			}
			switch {
			case tc.same:
				if called != 0 {
					t.Error("continued shoe read randomness")
				}
			case tc.shuffled:
				if called != 1 || s.Pos != 0 || s.Cut != len(s.Cards)*tc.rules.Penetration/100 {
					t.Errorf("shuffled shoe: rnd called %d, pos %d, cut %d; want 1, 0, %d", called, s.Pos, s.Cut, len(s.Cards)*tc.rules.Penetration/100)
				}
				if card.Format(s.Cards[:8]) == card.Format(card.NewShoe(1).Cards[:8]) {
					t.Error("shuffled shoe is in deck order")
				}
			default:
				if called != 0 || s.Pos != 0 || s.Cut != 0 || card.Format(s.Cards[:8]) != card.Format(card.NewShoe(1).Cards[:8]) {
					t.Errorf("fresh lazy shoe: rnd called %d, pos %d, cut %d, first cards %s", called, s.Pos, s.Cut, card.Format(s.Cards[:8]))
				}
			}
		})
	}
	if _, _, err := NextShoe(fb, nil, func() io.Reader { return errReader{} }); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("NextShoe with a failing source = %v, want io.ErrUnexpectedEOF", err)
	}
}
