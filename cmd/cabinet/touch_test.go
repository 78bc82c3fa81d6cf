package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/money"
)

// TestTouchPanel: a touch on an on-screen button reaches the controller's
// input channel like a physical press, merged with the hardware's own
// inputs; the screen cannot insert a bill or turn a key; after the
// hardware closes, a touch is dropped without a panic.
func TestTouchPanel(t *testing.T) {
	be := sim.New()
	tp := withTouch(be)
	if !tp.Press(hw.Deal) {
		t.Fatal("touch press not queued")
	}
	be.Press(hw.Hit) // a physical press
	got := map[hw.Button]bool{}
	for range 2 {
		select {
		case in := <-tp.Inputs():
			if in.Kind != hw.ButtonPressed {
				t.Fatalf("input %v, want a press", in)
			}
			got[in.Button] = true
		case <-time.After(2 * time.Second):
			t.Fatal("input not delivered")
		}
	}
	if !got[hw.Deal] || !got[hw.Hit] {
		t.Errorf("presses %v, want the touch (deal) and the physical (hit)", got)
	}
	if tp.InsertBill(money.Cents(2000)) || tp.Toggle(hw.MainDoor) || tp.ToggleJam() {
		t.Error("the touch screen inserted a bill or turned a switch")
	}
	be.Close()
	for range tp.Inputs() { // drains until the merge closes it
	}
	if tp.Press(hw.Deal) {
		t.Error("a touch after close was queued")
	}
}

// pipeBackend is the sim backend (for its outputs) whose inputs come from
// an unbuffered channel the test writes and closes: like the periph
// backend, whose queue is unbounded, it never drops an input itself, so
// whatever is lost is lost by the merge.
type pipeBackend struct {
	*sim.Backend
	ch chan hw.Input
}

func (p *pipeBackend) Inputs() <-chan hw.Input { return p.ch }

// hardwareFlood is n hardware inputs of every kind the merge forwards: a
// stacked bill (each of its own value, so a loss or reorder shows), a door,
// a jam and a press on the physical panel, in turn.
func hardwareFlood(n int) []hw.Input {
	in := make([]hw.Input, n)
	for i := range in {
		switch i % 4 {
		case 0:
			in[i] = hw.Input{Kind: hw.BillStacked, Value: money.Cents(100 * (i + 1))}
		case 1:
			in[i] = hw.Input{Kind: hw.SwitchChanged, Switch: hw.MainDoor, On: i%8 == 1}
		case 2:
			in[i] = hw.Input{Kind: hw.BillJam, On: i%8 == 2, Err: "jam"}
		case 3:
			in[i] = hw.Input{Kind: hw.ButtonPressed, Button: hw.Hit}
		}
	}
	return in
}

// feed writes in to p's channel, waiting as the hardware's queue does,
// then closes it; done is closed when every input has been taken.
func feed(p *pipeBackend, in []hw.Input) (done chan struct{}) {
	done = make(chan struct{})
	go func() {
		for _, x := range in {
			p.ch <- x
		}
		close(p.ch)
		close(done)
	}()
	return done
}

// TestTouchPanelNeverDropsHardware floods the merge with four times its
// depth of hardware inputs while the controller (the consumer) is stalled:
// every bill, door, jam and panel press arrives, in order, once the
// consumer reads again; a touch while the channel is full is dropped at
// once (the display never waits). Before the fix the merge dropped every
// hardware input past the channel's depth.
func TestTouchPanelNeverDropsHardware(t *testing.T) {
	p := &pipeBackend{Backend: sim.New(), ch: make(chan hw.Input)}
	tp := withTouch(p)
	want := hardwareFlood(4 * touchQueue)
	fed := feed(p, want)

	// The consumer stalls until the channel is full and the flood has
	// either all been taken (the old merge, which drops) or stopped
	// moving (the merge waits for room).
	deadline := time.Now().Add(10 * time.Second)
	for len(tp.out) < cap(tp.out) {
		if time.Now().After(deadline) {
			t.Fatalf("merged channel holds %d, never filled to %d", len(tp.out), cap(tp.out))
		}
		time.Sleep(time.Millisecond)
	}
	select {
	case <-fed:
	case <-time.After(100 * time.Millisecond):
	}
	if tp.Press(hw.Deal) {
		t.Error("Press(deal) with the channel full = true, want the touch dropped")
	}

	var got []hw.Input
	var bills int
	for x := range tp.Inputs() {
		if x.Kind == hw.ButtonPressed && x.Button == hw.Deal {
			t.Errorf("a touch dropped while full was delivered: %v", x)
			continue
		}
		if x.Kind == hw.BillStacked {
			bills++
		}
		got = append(got, x)
	}
	if bills != len(want)/4 {
		t.Errorf("bills delivered = %d, want %d", bills, len(want)/4)
	}
	if len(got) != len(want) {
		t.Errorf("hardware inputs delivered = %d, want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("hardware input %d delivered = %v, want %v (lost or reordered)", i, got[i], want[i])
			break
		}
	}
}

// TestTouchPanelCloseReportsUnread: Close with the controller gone and the
// merge waiting for room does not hang; every input never read (queued,
// or still arriving until the backend closed) is named in the error, with
// the stacked bills' total; a touch afterwards is dropped; a second Close
// returns the same error.
func TestTouchPanelCloseReportsUnread(t *testing.T) {
	p := &pipeBackend{Backend: sim.New(), ch: make(chan hw.Input)}
	tp := withTouch(p)
	n := touchQueue + 10
	in := make([]hw.Input, n)
	for i := range in {
		in[i] = hw.Input{Kind: hw.BillStacked, Value: 2000}
	}
	feed(p, in)
	deadline := time.Now().Add(10 * time.Second)
	for len(tp.out) < cap(tp.out) {
		if time.Now().After(deadline) {
			t.Fatalf("merged channel holds %d, never filled to %d", len(tp.out), cap(tp.out))
		}
		time.Sleep(time.Millisecond)
	}
	err := tp.Close()
	if !errors.Is(err, errInputsUnread) {
		t.Fatalf("Close() = %v, want %v", err, errInputsUnread)
	}
	wantMsg := fmt.Sprintf("%d inputs the controller never read (%d stacked bills, %v)", n, n, money.Cents(2000*n))
	if !strings.Contains(err.Error(), wantMsg) {
		t.Errorf("Close() = %.200s..., want it to say %q", err, wantMsg)
	}
	if tp.Press(hw.Deal) {
		t.Error("Press(deal) after Close = true, want dropped")
	}
	if err2 := tp.Close(); err2 != err {
		t.Errorf("second Close() = %v, want the first's error", err2)
	}
}
