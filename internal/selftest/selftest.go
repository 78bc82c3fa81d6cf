package selftest

import (
	"context"
	"fmt"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/money"
)

// Hardware is what the self-test drives: a backend's inputs and outputs.
type Hardware interface {
	hw.Inputs
	hw.Outputs
}

// DefaultLampInterval is how long each lamp stays lit.
const DefaultLampInterval = 700 * time.Millisecond

// Options configure Run.
type Options struct {
	// LampInterval is how long each lamp stays lit (DefaultLampInterval if
	// 0). Ignored when LampTicks is set.
	LampInterval time.Duration
	// LampTicks, if set, moves to the next lamp on each value instead of a
	// ticker (tests).
	LampTicks <-chan time.Time
	// Accept is the acceptance the acceptor gets during the test, so bills
	// can be read (0 keeps it inhibited). Bills read are never credited.
	Accept money.Cents
	// Now stamps the lines (time.Now if nil).
	Now func() time.Time
	// Validator, if set, reads a serial note validator's model, version
	// and status; Run reports it at the start and whenever it changes
	// (looked at with each lamp).
	Validator func() ValidatorState
	// Notes, if set, are the serial validator's inputs (notes read in
	// escrow and returned, rejects, faults), reported as inputs.
	Notes <-chan hw.Input
}

// ValidatorState is a serial note validator as the self-test shows it:
// the device's own words.
type ValidatorState struct {
	Model   string // the first word of its version answer ("" until read)
	Version string // the rest of it
	Status  string // its last status ("not answering" when it stopped)
}

// Kind says what a Line reports.
type Kind uint8

const (
	LampLit       Kind = iota + 1 // Lamp is lit now, every other lamp off
	InputSeen                     // Input arrived (a press, a switch change, a bill)
	Fault                         // an output failed: Err says which and why
	ValidatorSeen                 // the serial validator's model, version or status changed (Validator)
)

// Lamp names of the tower light in the lamp sequence; the button lamps are
// named by hw.Button.String().
const (
	TowerAttendantLamp = "tower_attendant"
	TowerTiltLamp      = "tower_tilt"
)

// Line is one thing the self-test saw or did.
type Line struct {
	At    time.Time
	Kind  Kind
	Lamp  string   // LampLit
	Input hw.Input // InputSeen
	Err   error    // Fault
	// Validator is the serial note validator (ValidatorSeen).
	Validator ValidatorState
}

// IsBill reports whether the line is about the bill acceptor.
func (l Line) IsBill() bool {
	if l.Kind != InputSeen {
		return false
	}
	switch l.Input.Kind {
	case hw.BillStacked, hw.BillRefused, hw.BillError, hw.BillJam:
		return true
	}
	return false
}

func (l Line) String() string {
	switch l.Kind {
	case LampLit:
		return "lamp " + l.Lamp + " lit"
	case InputSeen:
		if l.Input.Kind == hw.BillStacked {
			return l.Input.String() + " (not credited)"
		}
		return l.Input.String()
	case Fault:
		return "fault: " + l.Err.Error()
	case ValidatorSeen:
		return fmt.Sprintf("note validator %s, version %s: %s", l.Validator.Model, l.Validator.Version, l.Validator.Status)
	}
	return "line?"
}

// numLamps is the lamp sequence: the button lamps, then the tower's two.
const numLamps = int(hw.NumButtons) + 2

func lampName(i int) string {
	switch {
	case i < int(hw.NumButtons):
		return hw.Button(i).String()
	case i == int(hw.NumButtons):
		return TowerAttendantLamp
	}
	return TowerTiltLamp
}

// Run runs the self-test on h until ctx is done or h's input channel is
// closed, reporting each line to report (called from Run's goroutine only).
// It starts with the first lamp lit and the acceptor at opt.Accept, and
// leaves the outputs safe: lamps and tower off, acceptor inhibited. A
// failing output is reported as a Fault line; the test goes on.
func Run(ctx context.Context, h Hardware, opt Options, report func(Line)) error {
	if h == nil || report == nil {
		return fmt.Errorf("selftest: run: hardware and report are required")
	}
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	ticks := opt.LampTicks
	if ticks == nil {
		d := opt.LampInterval
		if d <= 0 {
			d = DefaultLampInterval
		}
		t := time.NewTicker(d)
		defer t.Stop()
		ticks = t.C
	}
	fault := func(err error) {
		if err != nil {
			report(Line{At: now(), Kind: Fault, Err: err})
		}
	}
	defer func() {
		fault(h.SetAcceptance(0))
		fault(h.SetLamps(0))
		fault(h.SetTower(hw.TowerOff))
	}()
	fault(h.SetAcceptance(opt.Accept))
	lamp := 0
	light := func() {
		var lit hw.ButtonSet
		tower := hw.TowerOff
		switch {
		case lamp < int(hw.NumButtons):
			lit = lit.With(hw.Button(lamp))
		case lamp == int(hw.NumButtons):
			tower = hw.TowerAttendant
		default:
			tower = hw.TowerTilt
		}
		fault(h.SetLamps(lit))
		fault(h.SetTower(tower))
		report(Line{At: now(), Kind: LampLit, Lamp: lampName(lamp)})
	}
	light()
	var seen ValidatorState
	validator := func() {
		if opt.Validator == nil {
			return
		}
		if v := opt.Validator(); v != seen {
			seen = v
			report(Line{At: now(), Kind: ValidatorSeen, Validator: v})
		}
	}
	validator()
	in := h.Inputs()
	for {
		select {
		case <-ctx.Done():
			return nil
		case n := <-opt.Notes:
			report(Line{At: now(), Kind: InputSeen, Input: n})
		case <-ticks:
			lamp = (lamp + 1) % numLamps
			light()
			validator()
		case ev, ok := <-in:
			if !ok {
				return nil
			}
			report(Line{At: now(), Kind: InputSeen, Input: ev})
		}
	}
}
