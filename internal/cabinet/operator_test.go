package cabinet

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

func configRig(t *testing.T) (*rig, *config.Config) {
	t.Helper()
	cfg, err := config.Load("../../configs/cabinet.toml")
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, 11)
	set, err := SettingsFrom(cfg)
	if err != nil {
		t.Fatal(err)
	}
	reboot := func() {
		r.st.Close()
		st, err := recovery.Open(r.path, recovery.Options{Init: true})
		if err != nil {
			t.Fatal(err)
		}
		r.st, r.be = st, sim.New()
		r.c, err = New(Options{Store: st, HW: r.be, RNG: SeededRNG{Seed: 11}, Settings: set,
			Overrides: OverridesFrom(cfg), Operator: cfg})
		if err != nil {
			t.Fatal(err)
		}
	}
	reboot()
	return r, cfg
}

// TestOperatorMenu: the operator key opens the menu only between rounds; a
// change is a draft until YES, is stored as an override, logged old → new,
// and survives a reboot.
func TestOperatorMenu(t *testing.T) {
	r, cfg := configRig(t)
	r.set(hw.OperatorKey, true)
	s := r.c.Snapshot()
	if s.Mode != view.Operator || s.Operator == nil || len(s.Operator.Items) == 0 {
		t.Fatalf("operator key: mode %s view %+v", s.Mode, s.Operator)
	}
	// Find the Zappit cap setting.
	idx := -1
	for i, it := range s.Operator.Items {
		if strings.Contains(it.Key, "zappit") && strings.Contains(it.Key, "cap") {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatalf("no zappit cap in %+v", s.Operator.Items)
	}
	for r.c.Snapshot().Operator.Cursor != idx {
		r.mustPress(hw.Stand)
	}
	old := r.c.Snapshot().Operator.Items[idx].Value
	oldCap := r.c.set.Rules[game.Zappit].WinCap
	r.mustPress(hw.BetPlus)
	draft := r.c.Snapshot().Operator.Items[idx].Value
	if draft == old || r.c.set.Rules[game.Zappit].WinCap != oldCap {
		t.Fatalf("draft %q (old %q) or the cap already changed", draft, old)
	}
	r.mustPress(hw.Yes)
	newCap := r.c.set.Rules[game.Zappit].WinCap
	if newCap == oldCap {
		t.Fatalf("cap still %v after YES", newCap)
	}
	r.set(hw.OperatorKey, false)
	var evs []string
	_ = r.st.View(func(tx *recovery.Tx) error {
		e, err := tx.Events(10)
		for _, x := range e {
			evs = append(evs, x.Kind+" "+x.Text)
		}
		return err
	})
	found := false
	for _, e := range evs {
		if strings.Contains(e, old) && strings.Contains(e, draft) {
			found = true
		}
	}
	if !found {
		t.Fatalf("no config change %s → %s in the event log: %v", old, draft, evs)
	}
	// A reboot keeps the override.
	set, _ := SettingsFrom(cfg)
	r.st.Close()
	st, err := recovery.Open(r.path, recovery.Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	r.st = st
	c, err := New(Options{Store: st, HW: sim.New(), Settings: set, Overrides: OverridesFrom(cfg), Operator: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.set.Rules[game.Zappit].WinCap; got != newCap {
		t.Fatalf("after reboot cap = %v, want %v", got, newCap)
	}
}

// TestOperatorKeyRefusedDuringRound: no operator menu while a round is open.
func TestOperatorKeyRefusedDuringRound(t *testing.T) {
	r, _ := configRig(t)
	for r.c.Round() == nil {
		if err := r.c.AutoStep(game.Classic, nil); err != nil {
			t.Fatal(err)
		}
	}
	r.set(hw.OperatorKey, true)
	if m := r.c.Snapshot().Mode; m == view.Operator {
		t.Fatal("operator menu opened during a round")
	}
}

// TestMemoryError: a damaged critical record tilts the cabinet at boot;
// play and bills are refused, nothing is written, the audit screens work,
// and only audit key + reset key + YES clears the memory.
func TestMemoryError(t *testing.T) {
	r := newRig(t, 2)
	r.bill(5000)
	r.st.Close()
	data, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, pat := range [][]byte{[]byte(`"credits":5000`)} {
		for i := bytes.Index(data, pat); i >= 0; i = bytes.Index(data, pat) {
			data[i+len(pat)-4] = '9' // 5000 → 9000 without fixing the checksum
			n++
		}
	}
	if n == 0 {
		t.Fatal("machine record not found in the file")
	}
	if err := os.WriteFile(r.path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := recovery.Open(r.path, recovery.Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	r.st = st
	r.be = sim.New()
	c, err := New(Options{Store: st, HW: r.be, Settings: testSettings()})
	if err != nil {
		t.Fatal(err)
	}
	r.c = c
	if !errors.Is(c.Err(), ErrMemory) {
		t.Fatalf("Err() = %v, want ErrMemory", c.Err())
	}
	if s := c.Snapshot(); s.Mode != view.Tilt || s.Tilts[0] != "memory_error" || r.be.Acceptance() != 0 {
		t.Fatalf("memory error: mode %s tilts %v acceptance %v", s.Mode, s.Tilts, r.be.Acceptance())
	}
	before, _ := os.ReadFile(r.path)
	if err := c.Play(game.Action{Kind: game.Deal}); !errors.Is(err, ErrNotNow) {
		t.Fatalf("Play during memory error = %v", err)
	}
	if err := c.Handle(hw.Input{Kind: hw.BillStacked, Value: 500}); err == nil {
		t.Fatal("bill credited during memory error")
	}
	r.set(hw.MainDoor, true)
	r.set(hw.MainDoor, false)
	after, _ := os.ReadFile(r.path)
	if !bytes.Equal(before, after) {
		t.Fatal("store written during a memory error")
	}
	r.set(hw.AuditKey, true)
	if s := c.Snapshot(); s.Mode != view.Audit || s.Audit == nil || len(s.Audit.Checks) == 0 {
		t.Fatalf("audit during memory error: %+v", s.Audit)
	}
	if err := r.press(hw.Yes); err == nil {
		t.Fatal("memory clear without the reset key")
	}
	r.set(hw.ResetKey, true)
	r.mustPress(hw.Yes)
	r.set(hw.ResetKey, false)
	r.set(hw.AuditKey, false)
	if c.Err() != nil || c.Credits() != 0 {
		t.Fatalf("after memory clear: err %v credits %v", c.Err(), c.Credits())
	}
	r.bill(1000)
	if c.Credits() != 1000 {
		t.Fatal("play not re-enabled after the memory clear")
	}
}
