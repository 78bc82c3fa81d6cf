package serial

import (
	"fmt"
	"strconv"
)

// DefaultQuiet is the number of clean exchanges in a row that ends a line
// fault when LineFault.Quiet is zero: 2 to 10 s of a clean line at the
// poll rates of ID-003 (every 100–200 ms) and SAS (every 40–200 ms). The
// printer, asked every 5 s, sets its own (tcl.Options.LineQuiet).
const DefaultQuiet = 50

// FaultPhase says which moment of a line fault a FaultReport is.
type FaultPhase uint8

const (
	// FaultBegan: the first error after a clean line (First: its text,
	// with the bytes seen).
	FaultBegan FaultPhase = iota + 1
	// FaultLasts: the fault goes on; Count reached 10, 100, 1000, … (a
	// count while it lasts, in a number of reports that grows with the
	// logarithm of the errors, never with the errors).
	FaultLasts
	// FaultCleared: Quiet clean exchanges in a row ended the fault; Count
	// is its total.
	FaultCleared
)

// FaultReport is what a device's driver reports of its line: one report
// when a fault begins, a few while it lasts, one when it clears, never
// one per damaged frame.
type FaultReport struct {
	Phase FaultPhase
	// First is the first error of the fault (what was wrong and the
	// bytes seen); Last the latest (FaultLasts, FaultCleared).
	First, Last string
	// Count is the number of errors so far (1 when the fault begins).
	Count int64
}

func (r FaultReport) String() string {
	switch r.Phase {
	case FaultBegan:
		return "line fault began: " + r.First
	case FaultLasts:
		return fmt.Sprintf("line fault goes on: %d errors since it began (first: %s; latest: %s)", r.Count, r.First, r.Last)
	case FaultCleared:
		return fmt.Sprintf("line fault cleared after %d errors (first: %s; latest: %s)", r.Count, r.First, r.Last)
	}
	return fmt.Sprintf("line fault phase %d", r.Phase)
}

// CountText is Count in decimal (an event-log argument).
func (r FaultReport) CountText() string { return strconv.FormatInt(r.Count, 10) }

// LineFault coalesces the repeated errors of one serial line (frames with
// a bad checksum or length, bytes skipped while resynchronising, answers
// cut short, the device's own report of garbled input) into a fault with
// a beginning, a count and an end, so that a bad cable or a hostile device
// makes a handful of reports instead of one per damaged frame. The driver
// that reads the line owns it (no locking): it calls Error for every error
// and Clean for every exchange that went through without one, and hands
// each report it gets to the cabinet.
//
// A fault that comes back soon after it cleared (within as many clean
// exchanges as its clearing took) needs twice as many clean exchanges to
// clear the next time, up to MaxQuietFactor times Quiet; a line clean for
// that long resets it. A device that garbles in bursts with clean
// stretches between (or a hostile one that times them) therefore makes a
// number of faults that grows with the logarithm of the time, never with
// the bursts, and a driver that waits for a clean line before it calls a
// silent device back (id003) makes as few timeouts.
type LineFault struct {
	// Quiet is the number of clean exchanges in a row that ends a fault
	// (0: DefaultQuiet). A line that garbles one frame in Quiet stays in
	// one fault; the device's own state (answering or not) is the
	// driver's business.
	Quiet int

	active      bool
	first, last string
	count       int64
	next        int64 // the count of the next FaultLasts report
	clean       int   // clean exchanges in a row (since the last error)
	need        int   // clean exchanges that end the fault (Quiet, doubled on a quick return)
}

// MaxQuietFactor bounds the doubling of the clean exchanges a fault that
// keeps coming back needs to clear: 1024 × Quiet (about 1.5 hours of a
// clean line at the 100 ms ID-003 poll with the default Quiet).
const MaxQuietFactor = 1024

// quiet is Quiet or its default.
func (f *LineFault) quiet() int {
	if f.Quiet <= 0 {
		return DefaultQuiet
	}
	return f.Quiet
}

// Active reports whether a fault is in progress.
func (f *LineFault) Active() bool { return f.active }

// Count is the number of errors of the fault in progress (0: none).
func (f *LineFault) Count() int64 {
	if !f.active {
		return 0
	}
	return f.count
}

// Error counts one error (what: its text with the bytes seen) and returns
// the report to make, if any: FaultBegan for the first, FaultLasts when
// the count reaches a power of ten.
func (f *LineFault) Error(what string) (FaultReport, bool) {
	f.last = what
	if !f.active {
		switch {
		case f.need == 0 || f.clean >= f.need:
			f.need = f.quiet() // the first fault, or one after a clean stretch
		case f.need < MaxQuietFactor*f.quiet():
			f.need *= 2 // back soon after it cleared
		}
		f.clean = 0
		f.active, f.first, f.count, f.next = true, what, 1, 10
		return FaultReport{Phase: FaultBegan, First: what, Last: what, Count: 1}, true
	}
	f.clean = 0
	f.count++
	if f.count == f.next {
		f.next *= 10
		return FaultReport{Phase: FaultLasts, First: f.first, Last: what, Count: f.count}, true
	}
	return FaultReport{}, false
}

// Clean counts one exchange without error and returns FaultCleared when
// it ends a fault in progress (the Quiet-th in a row, or more for a fault
// that keeps coming back).
func (f *LineFault) Clean() (FaultReport, bool) {
	f.clean++
	if !f.active || f.clean < f.need {
		return FaultReport{}, false
	}
	r := FaultReport{Phase: FaultCleared, First: f.first, Last: f.last, Count: f.count}
	f.active, f.first, f.last, f.count, f.next, f.clean = false, "", "", 0, 0, 0
	return r, true
}

// Need is the number of clean exchanges in a row that end the fault in
// progress, or ended the last one.
func (f *LineFault) Need() int {
	if f.need == 0 {
		return f.quiet()
	}
	return f.need
}

// maxHex bounds the bytes Hex shows.
const maxHex = 16

// Hex formats the first bytes of b as an error text shows them ("FC 05
// 11", then "…" when more than 16).
func Hex(b []byte) string {
	if len(b) > maxHex {
		return fmt.Sprintf("% X …", b[:maxHex])
	}
	return fmt.Sprintf("% X", b)
}
