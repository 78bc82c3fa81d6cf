package main

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/money"
)

// touchQueue is the depth of the merged input channel.
const touchQueue = 256

// errInputsUnread is returned by touchPanel.Close when inputs were still
// on their way to the controller: each is named, so a stacked bill that was
// never credited is in the log, not silently gone.
var errInputsUnread = errors.New("inputs the controller never read")

// touchPanel is the hardware backend with the touch screen's on-screen
// buttons merged into its inputs: the controller reads the physical panel
// and the screen from one channel, one input at a time, so a touch presses
// a button exactly as the physical one does (the controller decides if it
// is legal). Doors, keys and bills stay physical: the screen cannot open a
// door or insert a bill.
//
// The two sources are not equal when the controller falls behind. A
// hardware input (a stacked bill, a door, a jam, a press on the physical
// panel) is never dropped: the merge waits for room, and the backend queues
// behind it (the periph backend's queue is unbounded). A touch is dropped
// when the channel is full, as a missed press: the display's loop, which
// calls Press, never waits for the controller.
type touchPanel struct {
	hw.Backend
	out    chan hw.Input
	quit   chan struct{} // closed by Close: nobody reads out any more
	merged chan struct{} // closed when the merge has ended (out is closed)

	mu     sync.Mutex // orders Press's sends with the close of out
	closed bool

	lost      []hw.Input // hardware inputs received after quit; merge writes, Close reads after merged
	closeOnce sync.Once
	closeErr  error
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
	t := &touchPanel{Backend: be, out: make(chan hw.Input, touchQueue),
		quit: make(chan struct{}), merged: make(chan struct{})}
	go t.merge(be.Inputs())
	return t
}

// merge forwards every hardware input, waiting for room, until the
// backend closes its channel; then it closes out. After Close it stops
// waiting: what it still receives is kept for Close to report.
func (t *touchPanel) merge(in <-chan hw.Input) {
	defer close(t.merged)
	for x := range in {
		select {
		case t.out <- x:
			continue
		case <-t.quit:
		}
		t.lost = append(t.lost, x)
	}
	t.mu.Lock()
	t.closed = true
	close(t.out)
	t.mu.Unlock()
}

// Inputs implements hw.Inputs: the hardware's inputs and the touches.
func (t *touchPanel) Inputs() <-chan hw.Input { return t.out }

// Press is a touch on an on-screen button. It never waits: with the
// channel full, or after the hardware closed, the touch is dropped and
// Press reports false.
func (t *touchPanel) Press(b hw.Button) bool {
	in := hw.Input{Kind: hw.ButtonPressed, Button: b, At: time.Now()}
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

// Toggle, InsertBill and ToggleJam do nothing: switches and bills are physical.
func (t *touchPanel) Toggle(hw.Switch) bool       { return false }
func (t *touchPanel) InsertBill(money.Cents) bool { return false }
func (t *touchPanel) ToggleJam() bool             { return false }

// Close closes the backend and ends the merge. It is called once the
// controller has stopped reading: the merge stops waiting for room (it
// would wait forever), and every input that never reached the controller
// (still queued, or arriving until the backend closed) is named in an
// error wrapping errInputsUnread, with the stacked bills' total. Close is
// idempotent.
func (t *touchPanel) Close() error {
	t.closeOnce.Do(func() {
		close(t.quit)
		err := t.Backend.Close()
		<-t.merged
		unread := t.lost
		for x := range t.out {
			unread = append(unread, x)
		}
		t.closeErr = errors.Join(err, unreadError(unread))
	})
	return t.closeErr
}

// unreadError names the inputs the controller never read; nil if none.
func unreadError(unread []hw.Input) error {
	if len(unread) == 0 {
		return nil
	}
	var bills int
	var total money.Cents
	names := make([]string, 0, len(unread))
	for _, x := range unread {
		if x.Kind == hw.BillStacked {
			bills++
			total += x.Value
		}
		names = append(names, x.String())
	}
	return fmt.Errorf("touch: close: %d %w (%d stacked bills, %v): %q", len(unread), errInputsUnread, bills, total, names)
}
