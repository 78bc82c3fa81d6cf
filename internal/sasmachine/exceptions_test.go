package sasmachine

import (
	"cabinet/internal/cabinet"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
)

// TestExceptionsFollowEvents: a real controller with this package's table
// queues every exception the host must hear of with the commit of its
// event, in order; a refused input queues nothing.
func TestExceptionsFollowEvents(t *testing.T) {
	st := recoverytest.Open(t, filepath.Join(t.TempDir(), "cabinet.db"), recovery.Options{})
	defer st.Close()
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: sim.New(), Exceptions: Exceptions,
		RNG: controller.SeededRNG{Seed: 3}, Now: func() time.Time { return time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	queued := func() []byte {
		t.Helper()
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
	handle := func(in hw.Input) {
		t.Helper()
		if err := c.Handle(controller.HW(in)); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
	}
	sw := func(s hw.Switch, on bool) { handle(hw.Input{Kind: hw.SwitchChanged, Switch: s, On: on}) }
	press := func(b hw.Button) { handle(hw.Input{Kind: hw.ButtonPressed, Button: b}) }
	sw(hw.MainDoor, true)
	sw(hw.MainDoor, false)
	sw(hw.CashDoor, true)
	sw(hw.CashDoor, false)
	handle(hw.Input{Kind: hw.BillStacked, Value: 2000})
	for c.Snapshot().Game != game.Classic {
		press(hw.Spot)
	}
	press(hw.Deal) // to the table: game selected
	for n := c.Completed(); c.Completed() == n; {
		if err := c.Handle(controller.Input{Auto: &controller.AutoStep{Game: game.Classic}}); err != nil {
			t.Fatal(err)
		}
	}
	sw(hw.AuditKey, true)
	sw(hw.AuditKey, false)
	press(hw.Game)
	press(hw.CashOut)
	sw(hw.ResetKey, true)
	sw(hw.ResetKey, false)
	want := []byte{0x18, 0x17, exSlotDoorOpen, exSlotDoorClosed, exCashDoorOpen, exCashDoorClosed, 0x4A, // a 20.00 bill
		exGameSelected, exGameStarted, exGameEnded, exAttendantIn, exAttendantOut, exCashout, exHandpayReset}
	if got := queued(); !cmp.Equal(got, want) {
		t.Errorf("queued % X\nwant   % X", got, want)
	}
	// A refused input commits nothing and queues nothing.
	if err := c.Handle(controller.HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.Deal})); err == nil {
		t.Fatal("deal without credits accepted")
	}
	if got := queued(); len(got) != len(want) {
		t.Errorf("a refused input queued % X", got[len(want):])
	}
}

// TestBillAcceptedCodes: a bill accepted is reported by its value where
// SAS has a code for it (non-RTE), 4F otherwise.
func TestBillAcceptedCodes(t *testing.T) {
	for _, tc := range []struct {
		bill money.Cents
		code byte
	}{{100, 0x47}, {200, 0x4D}, {500, 0x48}, {1000, 0x49}, {2000, 0x4A}, {5000, 0x4B}, {10000, 0x4C},
		{20000, 0x50}, {50000, 0x4E}, {2500, 0x4F}, {7, 0x4F}} {
		e := meters.Event{Kind: meters.KindBillAccepted, Detail: "bill", Args: []meters.Arg{{Type: meters.ArgMoney, Value: tc.bill.String()}}}
		if got := Exceptions(controller.HostEvent{Kind: controller.HostLogged, Log: e}); !cmp.Equal(got, []byte{tc.code}) {
			t.Errorf("bill %v: exceptions % X, want %02X", tc.bill, got, tc.code)
		}
	}
}
