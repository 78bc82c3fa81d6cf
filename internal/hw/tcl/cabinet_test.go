package tcl

import (
	"testing"

	"cabinet/internal/hw"
)

// TestCondition: what a status request between tickets means: no
// answer, paper out (before any other fault: it has its own SAS
// exception), a fault with its flags, paper low, or ready; a power-up
// reset, lost template data or journal mode are not faults (the next
// print reloads the template).
func TestCondition(t *testing.T) {
	for _, tc := range []struct {
		flags  Flags
		err    error
		cond   hw.PrinterCondition
		flags2 string
	}{
		{0, nil, hw.PrinterReady, ""},
		{Busy | TopOfForm, nil, hw.PrinterReady, ""},
		{PowerUpReset | RegionDataError | JournalMode, nil, hw.PrinterReady, ""},
		{PaperLow, nil, hw.PrinterPaperLow, ""},
		{PaperOut | PaperLow, nil, hw.PrinterPaperOut, ""},
		{PaperOut | PaperJam, nil, hw.PrinterPaperOut, ""},
		{HeadUp | PaperLow, nil, hw.PrinterFault, "head up"},
		{PaperJam | Offline, nil, hw.PrinterFault, "offline, paper jam"},
		{PaperOut, ErrNoAnswer, hw.PrinterNoAnswer, ""},
	} {
		s := Condition(Status{Flags: tc.flags}, tc.err)
		if s.Cond != tc.cond || s.Faults != tc.flags2 {
			t.Errorf("Condition(%s, %v) = %d %q, want %d %q", tc.flags, tc.err, s.Cond, s.Faults, tc.cond, tc.flags2)
		}
	}
}
