package controller

import (
	"slices"
	"strings"
	"testing"

	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// TestBillJamTilt: a jam reported by the acceptor tilts the cabinet from the
// middle of a round (frozen, acceptor inhibited, play refused, reason shown),
// and its clearing puts the round back where it was; both are logged.
func TestBillJamTilt(t *testing.T) {
	r := newRig(t, 1)
	r.bill(5000)
	r.mustPress(hw.Deal) // the menu's selected game: its table
	r.mustPress(hw.BetPlus)
	r.mustPress(hw.Deal)
	if r.c.Round() == nil {
		t.Fatal("the deal ended the round at once: pick a seed that leaves a decision")
	}
	before := string(mustJSON(r.c.Round().Table()))
	credits, accept := r.c.Credits(), r.be.Acceptance()

	if !r.be.SetJam(true) {
		t.Fatal("SetJam(true) not queued")
	}
	if err := r.c.Handle(HW(<-r.be.Inputs())); err != nil {
		t.Fatal(err)
	}
	s := r.c.Snapshot()
	if s.Mode != view.Tilt || !slices.Contains(s.Tilts, "bill_jam") {
		t.Fatalf("after a jam: mode %s tilts %v, want tilt with bill_jam", s.Mode, s.Tilts)
	}
	if got := r.be.Acceptance(); got != 0 {
		t.Errorf("acceptance during a jam = %v, want 0 (inhibited)", got)
	}
	if r.be.Lamps() != 0 {
		t.Errorf("lamps during a jam = %b, want none", r.be.Lamps())
	}
	if err := r.press(hw.Hit); err == nil {
		t.Fatal("HIT accepted during a bill-jam tilt")
	}
	if got := string(mustJSON(r.c.Round().Table())); got != before || r.c.Credits() != credits {
		t.Fatal("the round or the credits changed during the tilt")
	}

	r.be.SetJam(false)
	if err := r.c.Handle(HW(<-r.be.Inputs())); err != nil {
		t.Fatal(err)
	}
	s = r.c.Snapshot()
	if s.Mode != view.Table || len(s.Tilts) != 0 {
		t.Fatalf("after the jam cleared: mode %s tilts %v, want the table", s.Mode, s.Tilts)
	}
	if got := string(mustJSON(r.c.Round().Table())); got != before {
		t.Fatal("the round changed across the tilt")
	}
	if got := r.be.Acceptance(); got != accept {
		t.Errorf("acceptance after the jam cleared = %v, want %v as before it", got, accept)
	}
	if err := r.press(hw.Stand); err != nil {
		t.Fatalf("STAND after the tilt: %v", err)
	}

	var evs []meters.Event
	if err := r.st.View(func(tx *recovery.Tx) (err error) { evs, err = tx.Events(10); return err }); err != nil {
		t.Fatal(err)
	}
	var tilt, clear bool
	for _, e := range evs {
		tilt = tilt || e.Kind == meters.KindTilt && strings.Contains(e.Text, "bill_jam")
		clear = clear || e.Kind == meters.KindTiltClear && strings.Contains(e.Text, "bill jam")
	}
	if !tilt || !clear {
		t.Errorf("event log lacks the jam tilt (%v) or its clearing (%v): %v", tilt, clear, evs)
	}
}
