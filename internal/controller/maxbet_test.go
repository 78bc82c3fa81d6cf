package controller

import (
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/hw"
)

// TestMaxBetAndClearAll: YES bets the most the position and the credits
// allow, NO takes every bet back; each is lit exactly when it does
// something, and a refused press says why.
func TestMaxBetAndClearAll(t *testing.T) {
	r := newRig(t, 4)
	r.bill(5000)
	r.toTable(game.Classic)
	if r.c.Snapshot().Lamps.Has(hw.No) {
		t.Error("NO (clear all) lit with no bet")
	}
	if err := r.press(hw.No); err == nil || r.c.Snapshot().Message != NoticeNoBet {
		t.Errorf("NO with no bet: %v, message %q", err, r.c.Snapshot().Message)
	}
	r.mustPress(hw.Yes) // max bet: the credits (50.00) are below Classic's maximum
	bets := r.c.Snapshot().Bets
	if len(bets) != 1 || bets[0].Amount != 5000 || bets[0].Kind != game.Main {
		t.Fatalf("after max bet: %+v, want 50.00 on the main bet", bets)
	}
	if r.c.Snapshot().Lamps.Has(hw.Yes) {
		t.Error("YES lit with every credit bet")
	}
	if err := r.press(hw.Yes); err == nil || r.c.Snapshot().Message != NoticeFunds {
		t.Errorf("a second max bet: %v, message %q, want %q", err, r.c.Snapshot().Message, NoticeFunds)
	}
	r.mustPress(hw.No)
	if b := r.c.Snapshot().Bets; len(b) != 0 {
		t.Fatalf("after clear all: %+v", b)
	}
	if r.c.Credits() != 5000 {
		t.Errorf("credits %v moved by betting", r.c.Credits())
	}
	// With credits above the table maximum, max bet stops at the maximum.
	for range 10 {
		r.bill(10000)
	}
	r.mustPress(hw.Yes)
	if b := r.c.Snapshot().Bets; len(b) != 1 || b[0].Amount != r.c.set.Rules[game.Classic].MaxBet {
		t.Fatalf("max bet with %v of credit: %+v, want the table maximum %v", r.c.Credits(), b, r.c.set.Rules[game.Classic].MaxBet)
	}
	if err := r.press(hw.Yes); err == nil || r.c.Snapshot().Message != NoticeMaxBet {
		t.Errorf("max bet at the maximum: %v, message %q", err, r.c.Snapshot().Message)
	}
	r.mustPress(hw.Deal) // the maximum is a valid bet
	if r.c.Round() == nil && r.c.Machine().Meters.Played != 1 {
		t.Error("the max bet did not deal")
	}
}
