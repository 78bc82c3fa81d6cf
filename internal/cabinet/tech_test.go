package cabinet

import (
	"strconv"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/hw"
)

// TestTechnicianScreens: the event log pages reach the oldest event of the
// ring, every configured bill denomination has a meter line (at zero too),
// a round resumed after a power cut is marked recovered in the recall, the
// program page carries the version, and the meters shown balance.
func TestTechnicianScreens(t *testing.T) {
	r := newRig(t, 5)
	r.bill(5000)
	// A round cut by a power loss, then finished.
	for r.c.Round() == nil {
		if err := r.c.AutoStep(game.Classic, nil); err != nil {
			t.Fatal(err)
		}
	}
	r.boot()
	if !r.c.Snapshot().Recovered {
		t.Fatal("resumed round not marked recovered")
	}
	r.playOut()
	// Enough events for several pages: doors opened and shut.
	for range 30 {
		r.set(hw.MainDoor, true)
		r.set(hw.MainDoor, false)
	}
	r.c.opt.Version = "1.2.3"
	r.set(hw.AuditKey, true)
	a := r.c.Snapshot().Audit
	if a.Page != "meters" || a.Version != "1.2.3" {
		t.Fatalf("audit page %q version %q", a.Page, a.Version)
	}
	got := map[string]string{}
	for _, kv := range a.Meters {
		got[kv.Key] = kv.Value
	}
	for _, b := range r.c.set.Bills {
		want := "0"
		if b == 5000 {
			want = "1"
		}
		if v, ok := got["bills."+strconv.FormatInt(int64(b), 10)]; !ok || v != want {
			t.Errorf("bills.%d = %q (present %v), want %q", b, v, ok, want)
		}
	}
	m := r.c.Machine()
	if err := m.Meters.Check(m.Credits); err != nil {
		t.Errorf("meters shown do not balance: %v", err)
	}
	// Recall: the newest round is the recovered one.
	r.mustPress(hw.Spot)
	if rv := r.c.Snapshot().Audit.Recall; rv == nil || !rv.Recovered {
		t.Fatalf("recall of the recovered round: %+v", rv)
	}
	// Events: page back to the oldest (the store's initialisation).
	r.mustPress(hw.Spot)
	a = r.c.Snapshot().Audit
	if a.Page != "events" || a.EventPages < 4 || a.EventPage != 0 || len(a.Events) != eventPageSize {
		t.Fatalf("events page %q %d/%d with %d events", a.Page, a.EventPage, a.EventPages, len(a.Events))
	}
	newest := a.Events[0].Seq
	for range a.EventPages - 1 {
		r.mustPress(hw.Hit)
	}
	a = r.c.Snapshot().Audit
	last := a.Events[len(a.Events)-1]
	if a.EventPage != a.EventPages-1 || last.Kind != "memory_clear" || last.Seq >= newest {
		t.Fatalf("last page %d/%d ends with %+v, want the store's initialisation", a.EventPage, a.EventPages, last)
	}
	if r.be.Lamps().Has(hw.Hit) {
		t.Fatal("HIT lit on the oldest page")
	}
	r.mustPress(hw.Stand)
	if p := r.c.Snapshot().Audit.EventPage; p != a.EventPages-2 {
		t.Fatalf("STAND: page %d, want %d", p, a.EventPages-2)
	}
}
