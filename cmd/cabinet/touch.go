package main

import (
	"sync"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/money"
)

// touchPanel is the hardware backend with the touch screen's on-screen
// buttons merged into its inputs: the controller reads the physical panel
// and the screen from one channel, one input at a time, so a touch presses
// a button exactly as the physical one does (the controller decides if it
// is legal). Doors, keys and bills stay physical: the screen cannot open a
// door or insert a bill.
type touchPanel struct {
	hw.Backend
	mu     sync.Mutex
	closed bool
	out    chan hw.Input
}

// touchInput is what the window drives (display.Input): the sim backend,
// or the touch screen's buttons on real hardware.
type touchInput interface {
	Press(hw.Button) bool
	Toggle(hw.Switch) bool
	InsertBill(money.Cents) bool
	ToggleJam() bool
}

// withTouch wraps be (the periph backend) with the touch screen's buttons.
func withTouch(be hw.Backend) *touchPanel {
	t := &touchPanel{Backend: be, out: make(chan hw.Input, 256)}
	go func() {
		for in := range be.Inputs() {
			t.send(in)
		}
		t.mu.Lock()
		t.closed = true
		close(t.out)
		t.mu.Unlock()
	}()
	return t
}

// Inputs implements hw.Inputs: the hardware's inputs and the touches.
func (t *touchPanel) Inputs() <-chan hw.Input { return t.out }

func (t *touchPanel) send(in hw.Input) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	select {
	case t.out <- in:
		return true
	default: // full: dropped, as a missed press
		return false
	}
}

// Press is a touch on an on-screen button.
func (t *touchPanel) Press(b hw.Button) bool {
	return t.send(hw.Input{Kind: hw.ButtonPressed, Button: b, At: time.Now()})
}

// Toggle, InsertBill and ToggleJam do nothing: switches and bills are physical.
func (t *touchPanel) Toggle(hw.Switch) bool       { return false }
func (t *touchPanel) InsertBill(money.Cents) bool { return false }
func (t *touchPanel) ToggleJam() bool             { return false }
