package serial

import (
	"fmt"
	"testing"
)

// TestLineFaultCoalesces: a fault of many errors is a few reports: its
// beginning with the first error, its count at each power of ten, its end
// after Quiet clean exchanges with the total; an error among fewer clean
// exchanges keeps the fault open.
func TestLineFaultCoalesces(t *testing.T) {
	f := LineFault{Quiet: 3}
	var got []FaultReport
	note := func(r FaultReport, ok bool) {
		if ok {
			got = append(got, r)
		}
	}
	note(f.Clean()) // nothing to clear
	for i := range 1500 {
		note(f.Error(fmt.Sprintf("bad frame %d", i)))
		if i%100 == 0 {
			note(f.Clean())
			note(f.Clean()) // two clean in a row: not enough
		}
	}
	if !f.Active() || f.Count() != 1500 {
		t.Fatalf("Active, Count = %v, %d, want true, 1500", f.Active(), f.Count())
	}
	for range 3 {
		note(f.Clean())
	}
	want := []FaultReport{
		{Phase: FaultBegan, First: "bad frame 0", Last: "bad frame 0", Count: 1},
		{Phase: FaultLasts, First: "bad frame 0", Last: "bad frame 9", Count: 10},
		{Phase: FaultLasts, First: "bad frame 0", Last: "bad frame 99", Count: 100},
		{Phase: FaultLasts, First: "bad frame 0", Last: "bad frame 999", Count: 1000},
		{Phase: FaultCleared, First: "bad frame 0", Last: "bad frame 1499", Count: 1500},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reports = %v, want %v", got, want)
	}
	if f.Active() || f.Count() != 0 {
		t.Errorf("after the clear: Active, Count = %v, %d", f.Active(), f.Count())
	}
	if r, ok := f.Error("again"); !ok || r.Phase != FaultBegan || r.Count != 1 {
		t.Errorf("Error after a clear = %v, %v, want a new fault", r, ok)
	}
}

// TestLineFaultBacksOff: a fault that comes back as soon as it cleared
// needs twice the clean exchanges the next time, so bursts timed to the
// clearing make two faults, not one per burst; a line clean for as long
// as the last clearing took starts again from Quiet.
func TestLineFaultBacksOff(t *testing.T) {
	f := LineFault{Quiet: 3}
	phases := map[FaultPhase]int{}
	for range 1000 {
		if r, ok := f.Error("burst"); ok {
			phases[r.Phase]++
		}
		for range 3 {
			if r, ok := f.Clean(); ok {
				phases[r.Phase]++
			}
		}
	}
	if phases[FaultBegan] != 2 || phases[FaultCleared] != 1 || f.Need() != 6 || !f.Active() {
		t.Fatalf("after 1000 bursts 3 clean apart: %v, need %d, active %v; want 2 began, 1 cleared, need 6, active", phases, f.Need(), f.Active())
	}
	for range 6 {
		f.Clean()
	}
	if f.Active() {
		t.Fatal("still active after 6 clean exchanges")
	}
	for range 6 {
		f.Clean() // a clean stretch as long as the clearing took
	}
	f.Error("again")
	if f.Need() != 3 {
		t.Errorf("Need after a clean stretch = %d, want Quiet (3)", f.Need())
	}
	g := LineFault{Quiet: 1}
	for range 40 {
		g.Error("x")
		for range g.Need() {
			g.Clean()
		}
	}
	if g.Need() != MaxQuietFactor {
		t.Errorf("Need after 40 quick returns = %d, want the bound %d", g.Need(), MaxQuietFactor)
	}
}
