package sasmachine

import (
	"cabinet/internal/cabinet"
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"cabinet/internal/controller"
	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/hw/sim"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
)

// TestValidatorExceptions: the emulated note validator on a pty, its
// driver, a real controller and store with this package's table: a note
// stacked raises its bill accepted code; stacker removed and back, stacker
// full, a jam, a failure and silence raise 1B, 1C, 27, 28 and 29.
func TestValidatorExceptions(t *testing.T) {
	emu, err := id003emu.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer emu.Close()
	st := recoverytest.Open(t, filepath.Join(t.TempDir(), "cabinet.db"), recovery.Options{})
	defer st.Close()
	v := id003.NewSeam()
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: sim.New(), Exceptions: Exceptions,
		RNG: controller.SeededRNG{Seed: 3}, Validator: v})
	if err != nil {
		t.Fatal(err)
	}
	port, err := id003.OpenPort(emu.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	d, err := id003.New(port, id003.Config{Notes: map[byte]money.Cents{0x63: 1000}, PollInterval: time.Millisecond, ReplyTimeout: 50 * time.Millisecond}, v, v.Event)
	if err != nil {
		t.Fatal(err)
	}
	v.Attach(d)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); v.Close(); <-done }()
	queued := func() []byte {
		var q []recovery.Exception
		if err := st.View(func(tx *recovery.Tx) error { var err error; q, err = tx.Exceptions(); return err }); err != nil {
			t.Fatal(err)
		}
		var out []byte
		for _, e := range q {
			out = append(out, e.Code)
		}
		return out
	}
	serve := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for !cond() {
			select {
			case r := <-v.Calls():
				if err := c.Handle(controller.Input{Note: r}); err != nil {
					t.Logf("%s: %v", r, err)
				}
			case <-time.After(5 * time.Millisecond):
			case <-deadline:
				t.Fatalf("waiting for %s: validator %+v, queue % X", what, emu.Snapshot(), queued())
			}
		}
	}
	has := func(code byte) func() bool { return func() bool { return slices.Contains(queued(), code) } }
	serve("idling", func() bool { return emu.Snapshot().Status == id003.StIdling })
	if err := emu.Insert(0x63); err != nil {
		t.Fatal(err)
	}
	serve("bill accepted 10 (49)", has(0x49))
	for _, tc := range []struct {
		st       id003.Status
		on, off  byte
		describe string
	}{
		{id003.StStackerOpen, exCashboxRemoved, exCashboxInstalled, "stacker removed"},
		{id003.StStackerFull, exCashboxFull, 0, "stacker full"},
		{id003.StStackerJam, exBillJam, 0, "jam"},
		{id003.StFailure, exBillAcceptorFailure, 0, "failure"},
	} {
		serve("idling", func() bool { return emu.Snapshot().Status == id003.StIdling && len(c.Snapshot().Tilts) == 0 })
		clearQueue(t, st)
		emu.Fault(tc.st, 0xA6)
		serve(tc.describe, has(tc.on))
		emu.Clear()
		if tc.off != 0 {
			serve(tc.describe+" cleared", has(tc.off))
		}
	}
	serve("idling", func() bool { return emu.Snapshot().Status == id003.StIdling && len(c.Snapshot().Tilts) == 0 })
	clearQueue(t, st)
	emu.Mute(true)
	serve("silence", has(exBillAcceptorFailure))
	emu.Mute(false)
}

// clearQueue acknowledges every queued exception, as a host would.
func clearQueue(t *testing.T, st *recovery.Store) {
	t.Helper()
	if err := st.Update(func(tx *recovery.Tx) error {
		q, err := tx.Exceptions()
		if err != nil {
			return err
		}
		for _, e := range q {
			if err := tx.AckException(e.Seq); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
