package recovery

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
)

func TestRoundTrip(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	m := Machine{Credits: 2500, PoolUnits: 123456789, NextRound: 7, Handpay: 0, HandpayKind: "cashout"}
	m.Meters.BillsIn = 5000
	m.Meters.Bills = map[string]int64{"500": 6, "2000": 1}
	m.Meters.RoundStarted(game.Royal)
	m.Meters.Step(game.Royal, []game.Event{
		{Kind: game.Stake, Bet: game.Main, Amount: 3000},
		{Kind: game.Stake, Bet: game.RoyalSide, Amount: 100},
		{Kind: game.Payout, Bet: game.Main, Amount: 600},
	})
	m.Meters.RoundOver(game.Royal, 3100, 600)
	m.Credits = m.Meters.Expected()
	shoe := card.NewShoe(1)
	shoe.Pos = 4
	open := &OpenRound{Game: game.FreeBet, Round: 6, Start: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC),
		Rules: json.RawMessage(`{"decks":6}`), State: json.RawMessage(`{"x":1}`), Shoe: shoe,
		Steps: []meters.Step{{N: 0, At: time.Date(2026, 3, 4, 5, 6, 8, 0, time.UTC), Action: game.Action{Kind: game.Deal},
			Events: []game.Event{{Kind: game.CardDealt, Card: card.MustParse("AS")[0]}}}},
		CreditsBefore: 3100}
	rec := sampleRecall(5)
	err := s.Update(func(tx *Tx) error {
		if err := tx.PutMachine(m); err != nil {
			return err
		}
		if err := tx.CloseRound(rec); err != nil {
			return err
		}
		if err := tx.PutOpenRound(open); err != nil {
			return err
		}
		if err := tx.PutCarry(game.Duel, []byte(`{"chips":10}`)); err != nil {
			return err
		}
		if err := tx.PutOverride("language", "fr"); err != nil {
			return err
		}
		return tx.Log(meters.KindPowerUp, "power up")
	})
	if err != nil {
		t.Fatalf("Update = %v", err)
	}
	err = s.View(func(tx *Tx) error {
		gotM, err := tx.Machine()
		if err != nil {
			return err
		}
		if d := cmp.Diff(m, gotM); d != "" {
			t.Errorf("Machine() mismatch (-want +got):\n%s", d)
		}
		gotO, err := tx.OpenRound()
		if err != nil {
			return err
		}
		if d := cmp.Diff(open, gotO, cmp.AllowUnexported(card.Card{})); d != "" {
			t.Errorf("OpenRound() mismatch (-want +got):\n%s", d)
		}
		c, err := tx.Carry(game.Duel)
		if err != nil || string(c) != `{"chips":10}` {
			t.Errorf("Carry(duel) = %q, %v", c, err)
		}
		if c, err := tx.Carry(game.Classic); c != nil || err != nil {
			t.Errorf("Carry(classic) = %q, %v, want nil, nil", c, err)
		}
		o, err := tx.Overrides()
		if err != nil || o["language"] != "fr" || len(o) != 1 {
			t.Errorf("Overrides() = %v, %v", o, err)
		}
		rs, err := tx.Recall(0)
		if err != nil {
			return err
		}
		if d := cmp.Diff([]meters.Recall{rec}, rs, cmp.AllowUnexported(card.Card{})); d != "" {
			t.Errorf("Recall() mismatch (-want +got):\n%s", d)
		}
		evs, err := tx.Events(0)
		if err != nil {
			return err
		}
		// seq 1 is the initialisation (Options.Init logs it).
		if len(evs) != 2 || evs[0].Seq != 2 || evs[0].Kind != meters.KindPowerUp || evs[0].At.IsZero() || evs[1].Kind != meters.KindMemoryClear {
			t.Errorf("Events() = %+v, want power_up seq 2 after the initialisation", evs)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("View = %v", err)
	}
	// Closing the round removes the open round.
	if err := s.Update(func(tx *Tx) error { return tx.CloseRound(sampleRecall(6)) }); err != nil {
		t.Fatalf("CloseRound = %v", err)
	}
	_ = s.View(func(tx *Tx) error {
		if o, err := tx.OpenRound(); o != nil || err != nil {
			t.Errorf("OpenRound() after CloseRound = %v, %v, want nil, nil", o, err)
		}
		return nil
	})
}

func TestFreshStoreHasZeroMachine(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	if m := machine(t, s); m.Credits != 0 || m.NextRound != 0 {
		t.Errorf("Machine() on a new store = %+v, want zero", m)
	}
}

func TestInvariantViolationWritesNothing(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	credit(t, s, 1000)
	err := s.Update(func(tx *Tx) error {
		if err := tx.Log(meters.KindBillAccepted, "should vanish"); err != nil {
			return err
		}
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		m.Credits += 500 // no meter: money from nowhere
		return tx.PutMachine(m)
	})
	if !errors.Is(err, ErrInvariant) || !errors.Is(err, meters.ErrInvariant) {
		t.Fatalf("Update(credits without meter) = %v, want ErrInvariant", err)
	}
	if m := machine(t, s); m.Credits != 1000 {
		t.Errorf("credits after rejected commit = %v, want 10.00", m.Credits)
	}
	_ = s.View(func(tx *Tx) error {
		evs, err := tx.Events(0)
		if err != nil || len(evs) != 1 {
			t.Errorf("Events() after rejected commit = %v, %v, want only the initialisation", evs, err)
		}
		return nil
	})
	// The store is not failed: a correct commit goes through.
	credit(t, s, 200)
}

func TestFnErrorWritesNothing(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	boom := errors.New("boom")
	err := s.Update(func(tx *Tx) error {
		_ = tx.Log(meters.KindDoor, "x")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want boom", err)
	}
	_ = s.View(func(tx *Tx) error {
		if evs, _ := tx.Events(0); len(evs) != 1 {
			t.Errorf("Events() = %v, want only the initialisation", evs)
		}
		return nil
	})
}

func TestRingsTrimmed(t *testing.T) {
	s, _ := openTest(t, Options{Init: true, RecallDepth: 10, EventDepth: 1000})
	for i := range 25 {
		if err := s.Update(func(tx *Tx) error { return tx.CloseRound(sampleRecall(uint64(i + 1))) }); err != nil {
			t.Fatalf("CloseRound %d = %v", i, err)
		}
	}
	err := s.Update(func(tx *Tx) error {
		for i := range 1234 {
			if err := tx.Log(meters.KindDoor, "door "+strings.Repeat("x", i%7)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Log = %v", err)
	}
	_ = s.View(func(tx *Tx) error {
		rs, err := tx.Recall(0)
		if err != nil || len(rs) != 10 || rs[0].Round != 25 || rs[9].Round != 16 {
			t.Errorf("Recall(0) = %d rounds (newest %v), %v; want 10, rounds 25..16", len(rs), rs[0].Round, err)
		}
		rs, _ = tx.Recall(3)
		if len(rs) != 3 || rs[0].Round != 25 {
			t.Errorf("Recall(3) = %d rounds, want 3 newest", len(rs))
		}
		evs, err := tx.Events(0)
		if err != nil || len(evs) != 1000 || evs[0].Seq != 1235 || evs[999].Seq != 236 {
			t.Errorf("Events(0) = %d events (newest seq %d), %v; want 1000, seq 1235..236 (1 is the initialisation)", len(evs), evs[0].Seq, err)
		}
		return nil
	})
}

func TestDepthMinimums(t *testing.T) {
	o := Options{RecallDepth: 3, EventDepth: 50}.withDefaults()
	if o.RecallDepth != MinRecallDepth || o.EventDepth != MinEventDepth {
		t.Errorf("withDefaults(3, 50) = %d, %d, want %d, %d", o.RecallDepth, o.EventDepth, MinRecallDepth, MinEventDepth)
	}
	o = Options{}.withDefaults()
	if o.RecallDepth != DefaultRecallDepth || o.EventDepth != DefaultEventDepth || o.Now == nil {
		t.Errorf("withDefaults() = %+v", o)
	}
}
