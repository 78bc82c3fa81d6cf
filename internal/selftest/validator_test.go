package selftest_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/periph/periphtest"
	"cabinet/internal/hw/sim"
	"cabinet/internal/i18n"
	"cabinet/internal/selftest"
)

// The serial validator's model, version and status are reported at the
// start and when they change; its notes are inputs; the screen words them.
func TestRunValidator(t *testing.T) {
	var mu sync.Mutex
	state := selftest.ValidatorState{Status: "power up"}
	set := func(s selftest.ValidatorState) { mu.Lock(); state = s; mu.Unlock() }
	notes := make(chan hw.Input)
	ticks := make(chan time.Time)
	lines := make(chan selftest.Line, 64)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- selftest.Run(ctx, sim.New(), selftest.Options{LampTicks: ticks, Notes: notes,
			Validator: func() selftest.ValidatorState { mu.Lock(); defer mu.Unlock(); return state }}, func(l selftest.Line) { lines <- l })
	}()
	var screen selftest.Screen
	next := func(kind selftest.Kind) selftest.Line {
		t.Helper()
		for {
			select {
			case l := <-lines:
				screen.Add(l)
				if l.Kind == kind {
					return l
				}
			case <-time.After(periphtest.HangGuard):
				t.Fatalf("no line of kind %d", kind)
			}
		}
	}
	if l := next(selftest.ValidatorSeen); l.String() != "note validator , version : power up" {
		t.Errorf("first validator line %q", l)
	}
	set(selftest.ValidatorState{Model: "UBA-10", Version: "ID003-05V226-59 17JUL14", Status: "idling"})
	ticks <- time.Time{}
	if l := next(selftest.ValidatorSeen); l.String() != "note validator UBA-10, version ID003-05V226-59 17JUL14: idling" {
		t.Errorf("validator line %q", l)
	}
	ticks <- time.Time{} // unchanged: nothing reported
	notes <- hw.Input{Kind: hw.BillRefused, Value: 2000, Err: "20.00 read in escrow, returned"}
	if l := next(selftest.InputSeen); l.Input.Value != 2000 {
		t.Errorf("note line %+v", l)
	}
	v := screen.View()
	found := false
	for _, l := range v.Inputs {
		if l.Kind == "validator" && !found { // newest first
			found = true
			if got := selftest.LineText("fr", "EUR", l); got != "lecteur de billets UBA-10 ID003-05V226-59 17JUL14 : idling" {
				t.Errorf("fr text %q", got)
			}
			if !i18n.Has("en", "hwtest.line.validator") {
				t.Error("no English text")
			}
		}
	}
	if !found {
		t.Errorf("screen has no validator line: %+v", v.Inputs)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
