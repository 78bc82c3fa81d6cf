package controller

import (
	"testing"

	"pgregory.net/rapid"

	"cabinet/internal/game"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// TestPoolConservation: over random sequences of Royal Poker steps (side-bet
// stakes, straight-flush and royal-flush wins, some at or over the handpay
// limit), the progressive's accounts balance exactly, in pool units:
//
//	contributions = pool growth + jackpots paid − resets funded
//
// and the credit meter stays consistent with the money meters.
func TestPoolConservation(t *testing.T) {
	r := newRig(t, 1)
	c := r.c
	rapid.Check(t, func(t *rapid.T) {
		start := rapid.Int64Range(0, 5_000_000).Draw(t, "pool cents")*PoolUnitsPerCent + rapid.Int64Range(0, PoolUnitsPerCent-1).Draw(t, "pool units")
		m := recovery.Machine{Credits: 1_000_000, PoolUnits: start}
		m.Meters.BillsIn = m.Credits
		var resets int64
		for range rapid.IntRange(1, 40).Draw(t, "steps") {
			var evs []game.Event
			for range rapid.IntRange(0, 4).Draw(t, "stakes") {
				a := money.Cents(rapid.Int64Range(0, 500).Draw(t, "stake"))
				if a > m.Credits {
					break
				}
				evs = append(evs, game.Event{Kind: game.Stake, Bet: game.RoyalSide, Amount: a})
			}
			switch rapid.IntRange(0, 5).Draw(t, "win") {
			case 0:
				evs = append(evs, game.Event{Kind: game.JackpotWin, Percent: 10})
			case 1:
				evs = append(evs, game.Event{Kind: game.JackpotWin, Percent: 100})
				resets++
			}
			if _, err := c.set.money(&m, game.Royal, evs); err != nil {
				t.Fatalf("money(%v) = %v", evs, err)
			}
			if m.PoolUnits < 0 {
				t.Fatalf("pool went negative: %d units", m.PoolUnits)
			}
			contrib := m.Meters.ProgressiveContrib
			growth := m.PoolUnits - start
			paid := int64(m.Meters.ProgressivePaid) * PoolUnitsPerCent
			funded := resets * int64(c.set.JackpotReset) * PoolUnitsPerCent
			if contrib != growth+paid-funded {
				t.Fatalf("contributions %d ≠ pool growth %d + paid %d − resets funded %d (diff %d units)",
					contrib, growth, paid, funded, contrib-(growth+paid-funded))
			}
			if err := m.Meters.Check(m.Credits); err != nil {
				t.Fatalf("meters after %v: %v", evs, err)
			}
		}
	})
}
