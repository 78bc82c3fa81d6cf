// Package sim is the simulated hardware backend: the display's keyboard and
// mouse, tests and autoplay call Press, SetSwitch and InsertBill; outputs are
// recorded and can be read back (the screen draws the lamps from them).
package sim

import (
	"sync"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/money"
)

// Backend is the simulated cabinet hardware. Safe for concurrent use.
type Backend struct {
	ch chan hw.Input

	mu       sync.Mutex
	lamps    hw.ButtonSet
	tower    hw.Tower
	accept   money.Cents
	switches [hw.NumSwitches]bool
	jammed   bool
	closed   bool
}

var _ hw.Backend = (*Backend)(nil)

// New returns a simulated backend with an input queue of the given depth.
func New() *Backend { return &Backend{ch: make(chan hw.Input, 256)} }

// Inputs implements hw.Inputs.
func (b *Backend) Inputs() <-chan hw.Input { return b.ch }

func (b *Backend) send(in hw.Input) bool {
	in.At = time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	select {
	case b.ch <- in:
		return true
	default: // queue full: drop, as a real panel would miss a press
		return false
	}
}

// Press presses a button once.
func (b *Backend) Press(btn hw.Button) bool {
	return b.send(hw.Input{Kind: hw.ButtonPressed, Button: btn})
}

// SetSwitch sets a switch; a change is reported, a repeat is not.
func (b *Backend) SetSwitch(s hw.Switch, on bool) bool {
	b.mu.Lock()
	same := b.switches[s] == on
	b.switches[s] = on
	b.mu.Unlock()
	if same {
		return false
	}
	return b.send(hw.Input{Kind: hw.SwitchChanged, Switch: s, On: on})
}

// Toggle flips a switch.
func (b *Backend) Toggle(s hw.Switch) bool {
	b.mu.Lock()
	on := !b.switches[s]
	b.mu.Unlock()
	return b.SetSwitch(s, on)
}

// SetJam jams the acceptor (on) or frees it; a change is reported.
func (b *Backend) SetJam(on bool) bool {
	b.mu.Lock()
	same := b.jammed == on
	b.jammed = on
	b.mu.Unlock()
	if same {
		return false
	}
	in := hw.Input{Kind: hw.BillJam, On: on}
	if on {
		in.Err = "simulated jam"
	}
	return b.send(in)
}

// ToggleJam jams or frees the acceptor.
func (b *Backend) ToggleJam() bool {
	b.mu.Lock()
	on := !b.jammed
	b.mu.Unlock()
	return b.SetJam(on)
}

// Switch reports a switch's position.
func (b *Backend) Switch(s hw.Switch) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.switches[s]
}

// InsertBill simulates a bill: stacked if acceptance allows it, refused otherwise.
func (b *Backend) InsertBill(v money.Cents) bool {
	b.mu.Lock()
	max := b.accept
	b.mu.Unlock()
	if b.Jammed() {
		return b.send(hw.Input{Kind: hw.BillRefused, Value: v, Err: "acceptor jammed"})
	}
	if v <= 0 || v > max {
		return b.send(hw.Input{Kind: hw.BillRefused, Value: v, Err: "acceptor inhibited or bill above limit"})
	}
	return b.send(hw.Input{Kind: hw.BillStacked, Value: v})
}

// GarbleBill simulates a signal from the acceptor that is no bill (a
// malformed pulse train on the real acceptor): a BillError, never credited.
func (b *Backend) GarbleBill() bool {
	return b.send(hw.Input{Kind: hw.BillError, Err: "simulated: the acceptor's signal was no bill"})
}

// Jammed reports whether the simulated acceptor is jammed.
func (b *Backend) Jammed() bool { b.mu.Lock(); defer b.mu.Unlock(); return b.jammed }

// SetLamps implements hw.Outputs.
func (b *Backend) SetLamps(lit hw.ButtonSet) error {
	b.mu.Lock()
	b.lamps = lit
	b.mu.Unlock()
	return nil
}

// SetTower implements hw.Outputs.
func (b *Backend) SetTower(t hw.Tower) error {
	b.mu.Lock()
	b.tower = t
	b.mu.Unlock()
	return nil
}

// SetAcceptance implements hw.Outputs.
func (b *Backend) SetAcceptance(max money.Cents) error {
	b.mu.Lock()
	b.accept = max
	b.mu.Unlock()
	return nil
}

// Lamps returns the lit lamps.
func (b *Backend) Lamps() hw.ButtonSet { b.mu.Lock(); defer b.mu.Unlock(); return b.lamps }

// TowerLight returns the tower light state.
func (b *Backend) TowerLight() hw.Tower { b.mu.Lock(); defer b.mu.Unlock(); return b.tower }

// Acceptance returns the acceptor's current maximum bill (0 = inhibited).
func (b *Backend) Acceptance() money.Cents { b.mu.Lock(); defer b.mu.Unlock(); return b.accept }

// Close stops input delivery.
func (b *Backend) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		close(b.ch)
	}
	return nil
}
