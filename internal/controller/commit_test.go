package controller

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

var errInjected = errors.New("injected commit failure")

// failingStore is the real bbolt store with commits that fail on demand:
// when fail is set, the transaction runs for real (every write inside it)
// and then aborts, so bbolt rolls it back, as a write error at commit would.
// commits counts the transactions that did commit.
type failingStore struct {
	*recovery.Store
	fail    bool
	commits int
}

func (f *failingStore) Update(fn func(tx *recovery.Tx) error) error {
	if !f.fail {
		err := f.Store.Update(fn)
		if err == nil {
			f.commits++
		}
		return err
	}
	return f.Store.Update(func(tx *recovery.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return errInjected
	})
}

func newFailingRig(t *testing.T) (*failingStore, *sim.Backend, *Controller, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cabinet.db")
	var fs *failingStore
	be := sim.New()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	c, _ := testCabinet(t, Options{HW: be, RNG: SeededRNG{Seed: 7}, InForce: testSettings(), Now: func() time.Time { return now }},
		kitStore{path: path, wrap: func(st *recovery.Store) Store { fs = &failingStore{Store: st}; return fs }})
	return fs, be, c, path
}

// TestFailedCommitChangesNothingSeen: a commit that fails leaves credits,
// the table, the bets and the meters as they were on screen and in the store;
// the only visible change is the memory-error tilt that reports it (every
// lamp off, the acceptor inhibited).
func TestFailedCommitChangesNothingSeen(t *testing.T) {
	cases := []struct {
		name  string
		setup []hw.Input
		input hw.Input
	}{
		{"deal", []hw.Input{inBill(2000), inPress(hw.Deal), inPress(hw.BetPlus)}, inPress(hw.Deal)},
		{"bill", []hw.Input{inBill(2000)}, inBill(1000)},
		{"cash out", []hw.Input{inBill(2000)}, inPress(hw.CashOut)},
		{"main door", []hw.Input{inBill(2000)}, inSwitch(hw.MainDoor, true)},
		{"bill jam", []hw.Input{inBill(2000)}, hw.Input{Kind: hw.BillJam, On: true, Err: "jam"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs, be, c, _ := newFailingRig(t)
			for _, in := range tc.setup {
				if err := c.Handle(HW(in)); err != nil {
					t.Fatalf("setup %v: %v", in, err)
				}
			}
			before := *c.Snapshot()
			m := c.Machine()
			var stored recovery.Machine
			fs.fail = true
			err := c.Handle(HW(tc.input))
			if !errors.Is(err, ErrMemory) || !errors.Is(err, errInjected) {
				t.Fatalf("failed commit returned %v, want a memory error naming the failure", err)
			}
			after := c.Snapshot()
			if after.Mode != view.Tilt || !slices.Equal(after.Tilts, []string{"memory_error"}) || after.Under != before.Mode {
				t.Errorf("after a failed commit: mode %s under %s tilts %v, want the memory-error tilt over %s", after.Mode, after.Under, after.Tilts, before.Mode)
			}
			if after.Credits != before.Credits || after.Win != before.Win || !slices.Equal(after.Bets, before.Bets) ||
				(after.Round == nil) != (before.Round == nil) {
				t.Errorf("a failed commit changed what is seen: credits %v→%v win %v→%v bets %v→%v round %v→%v",
					before.Credits, after.Credits, before.Win, after.Win, before.Bets, after.Bets, before.Round != nil, after.Round != nil)
			}
			if after.Lamps != 0 || be.Lamps() != 0 || be.Acceptance() != 0 {
				t.Errorf("tilted: lamps %v / %v, acceptance %v, want all off", after.Lamps, be.Lamps(), be.Acceptance())
			}
			if got := c.Machine(); got.Credits != m.Credits || !reflect.DeepEqual(got.Meters, m.Meters) {
				t.Errorf("controller machine moved: %+v → %+v", m, got)
			}
			if err := fs.View(func(tx *recovery.Tx) error {
				var err error
				stored, err = tx.Machine()
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if stored.Credits != m.Credits || !reflect.DeepEqual(stored.Meters, m.Meters) {
				t.Errorf("store moved on a failed commit: credits %v→%v", m.Credits, stored.Credits)
			}
			// Play stays refused, and nothing more is written.
			fs.fail = false
			n := fs.commits
			if err := c.Handle(HW(inPress(hw.Deal))); err == nil {
				t.Error("DEAL accepted after a memory error")
			}
			_ = c.Handle(HW(inBill(500)))
			if fs.commits != n {
				t.Errorf("%d commits after the memory error, want none (the store is evidence)", fs.commits-n)
			}
		})
	}
}

func inPress(b hw.Button) hw.Input  { return hw.Input{Kind: hw.ButtonPressed, Button: b} }
func inBill(v money.Cents) hw.Input { return hw.Input{Kind: hw.BillStacked, Value: v} }
func inSwitch(s hw.Switch, on bool) hw.Input {
	return hw.Input{Kind: hw.SwitchChanged, Switch: s, On: on}
}

// TestDamagedStoreTilts: a store file whose structure is damaged does not
// stop the program: the cabinet boots in a memory-error tilt, refuses play
// and bills, and the audit screens open and report the error.
func TestDamagedStoreTilts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cabinet.db")
	st, err := recovery.Open(path, recovery.Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, 8192) // both meta pages
	for i := range junk {
		junk[i] = 0xA5
	}
	if _, err := f.WriteAt(junk, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// recovery.Open either refuses the file (ErrCorrupt: Options.StoreErr)
	// or opens it failed (Store.Err): both must boot a tilted cabinet
	// (testCabinet: New fails the test if it fails, as the program would
	// exit).
	be := sim.New()
	c, _ := testCabinet(t, Options{HW: be, InForce: testSettings()}, kitStore{path: path, damaged: true})
	if !errors.Is(c.Err(), recovery.ErrCorrupt) {
		t.Fatalf("Err = %v, want a memory error wrapping the store's", c.Err())
	}
	s := c.Snapshot()
	if s.Mode != view.Tilt || !slices.Contains(s.Tilts, "memory_error") || s.Lamps != 0 {
		t.Fatalf("boot on a damaged store: mode %s tilts %v lamps %v", s.Mode, s.Tilts, s.Lamps)
	}
	if err := c.Handle(HW(inBill(2000))); !errors.Is(err, ErrMemory) {
		t.Errorf("bill on a damaged store: %v", err)
	}
	if c.Credits() != 0 || be.Acceptance() != 0 {
		t.Errorf("credits %v acceptance %v, want 0 and inhibited", c.Credits(), be.Acceptance())
	}
	if err := c.Handle(HW(inSwitch(hw.AuditKey, true))); err != nil {
		t.Fatalf("audit key: %v", err)
	}
	s = c.Snapshot()
	if s.Mode != view.Audit || s.Audit == nil || len(s.Audit.Checks) == 0 || s.Audit.Checks[0].Key != "memory_error" {
		t.Fatalf("audit on a damaged store: mode %s audit %+v", s.Mode, s.Audit)
	}
	if err := c.Handle(HW(inPress(hw.Spot))); err != nil {
		t.Errorf("audit navigation on a damaged store: %v", err)
	}
	if b, _ := os.ReadFile(path); len(b) < 8192 || b[0] != 0xA5 {
		t.Error("the damaged file was overwritten")
	}
}

// TestDoorTiltShownAfterItsLog: a door's tilt is shown only once its
// event-log entry is committed (the write-ahead rule for doors).
func TestDoorTiltShownAfterItsLog(t *testing.T) {
	fs, _, c, _ := newFailingRig(t)
	n := fs.commits
	if err := c.Handle(HW(inSwitch(hw.MainDoor, true))); err != nil {
		t.Fatal(err)
	}
	if fs.commits != n+1 {
		t.Fatalf("door opening: %d commits, want 1", fs.commits-n)
	}
	var evs []string
	if err := fs.View(func(tx *recovery.Tx) error {
		es, err := tx.Events(2)
		for _, e := range es {
			evs = append(evs, e.Kind+": "+e.Text)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if s := c.Snapshot(); !slices.Contains(s.Tilts, "main_door") || len(evs) < 2 {
		t.Fatalf("tilts %v, events %v", s.Tilts, evs)
	}
}
