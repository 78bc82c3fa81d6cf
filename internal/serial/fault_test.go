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
