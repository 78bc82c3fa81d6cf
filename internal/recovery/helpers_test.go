package recovery

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/meters"
	"cabinet/internal/money"
)

// openTest opens a store in a temporary directory and, like bbolt's test
// helper, runs the full integrity check when the test ends (unless the test
// failed already).
func openTest(t *testing.T, opt Options) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.db")
	if opt.Now == nil {
		opt.Now = fixedClock()
	}
	s, err := Open(path, opt)
	if err != nil {
		t.Fatalf("Open(%s) = %v", path, err)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			if err := s.Check(); err != nil {
				t.Errorf("Check after test = %v", err)
			}
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close = %v", err)
		}
	})
	return s, path
}

func fixedClock() func() time.Time {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	n := 0
	return func() time.Time { n++; return t0.Add(time.Duration(n) * time.Second) }
}

// credit adds a bill to the machine record (keeps the invariant).
func credit(t *testing.T, s *Store, v money.Cents) {
	t.Helper()
	err := s.Update(func(tx *Tx) error {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		m.Credits += v
		m.Meters.BillsIn += v
		return tx.PutMachine(m)
	})
	if err != nil {
		t.Fatalf("credit %v: %v", v, err)
	}
}

func machine(t *testing.T, s *Store) Machine {
	t.Helper()
	var m Machine
	if err := s.View(func(tx *Tx) error {
		var err error
		m, err = tx.Machine()
		return err
	}); err != nil {
		t.Fatalf("Machine() = %v", err)
	}
	return m
}

// sampleRecall is a realistic completed round.
func sampleRecall(round uint64) meters.Recall {
	return meters.Recall{Round: round, Game: game.Classic,
		Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC),
		Rules: []byte(`{"decks":6}`),
		Steps: []meters.Step{{N: 0, Action: game.Action{Kind: game.Deal, Bets: []game.Bet{{Kind: game.Main, Amount: 100}}},
			Events: []game.Event{{Kind: game.Stake, Bet: game.Main, Amount: 100}}}},
		CreditsBefore: 1000, CreditsAfter: 900}
}

func sameJSONTest(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
