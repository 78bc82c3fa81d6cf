package main

import (
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
