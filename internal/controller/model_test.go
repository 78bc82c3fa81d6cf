package controller

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/hw/sim"
	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

var modelSeed = flag.Uint64("model.seed", 0, "seed of TestModelRandomInputs (0: from the clock)")

// seen is the part of a snapshot that comes from committed state: it may
// change only when a transaction commits.
type seen struct {
	Credits, Win, Jackpot, Handpay money.Cents
	HandpayKind                    string
	Tilts                          []string
	Round                          string // the open round's table, "" if none
}

func seenOf(c *Controller) seen {
	s := c.Snapshot()
	v := seen{Credits: s.Credits, Win: s.Win, Jackpot: s.Jackpot, Tilts: s.Tilts}
	if s.Mode != view.Table || c.led.cur().round == nil && (c.led.cur().last == nil || c.led.cur().last.Game != s.Game) {
		// The win meter is shown at the table of its round only
		// (presenter): elsewhere the committed value stands for it, which
		// moves only with a commit.
		v.Win = c.led.cur().win
	}
	if s.Mode == view.Handpay {
		v.Handpay, v.HandpayKind = s.Handpay, s.HandpayKind
	}
	if c.Round() != nil && s.Round != nil {
		b, _ := json.Marshal(s.Round)
		v.Round = string(b)
	}
	return v
}

// TestModelRandomInputs drives the controller over a real store with random
// inputs (buttons, bills the acceptor would take, doors, keys, jams) and
// checks after each one: a lit button is accepted, an unlit one refused
// with ErrNotNow; what the snapshot shows of committed state changes only
// when a transaction committed; the hardware lamps are the snapshot's; the
// money balances (every stacked bill is in the bills-in meter, the meter
// invariant holds, credits shown = credits stored). Re-run a failure with
// -model.seed.
func TestModelRandomInputs(t *testing.T) { modelTest(t, 12, 3, false) }

// modelTest runs the random walk runs times (short: shortRuns) of 400
// inputs, with the devices wired or not.
func modelTest(t *testing.T, runs, shortRuns int, wired bool) {
	seed := *modelSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (re-run with -model.seed=%d)", seed, seed)
	steps := 400
	if testing.Short() {
		runs = shortRuns
	}
	var rounds uint64
	var refused, accepted int
	for run := range runs {
		r, a, n := modelRun(t, seed+uint64(run), steps, wired)
		if t.Failed() {
			t.Fatalf("run %d failed: seed %d", run, seed+uint64(run))
		}
		rounds, accepted, refused = rounds+r, accepted+a, refused+n
	}
	t.Logf("%d runs of %d inputs: %d rounds played, %d presses accepted, %d refused", runs, steps, rounds, accepted, refused)
	// The walk must reach play and both outcomes of a press, or it checks
	// nothing.
	if rounds < uint64(runs) || accepted == 0 || refused == 0 {
		t.Fatalf("the random walk did not exercise the cabinet: %d rounds, %d accepted, %d refused", rounds, accepted, refused)
	}
}

// TestModelWired is TestModelRandomInputs with every device wired: a
// ticket printer (the TCL emulator on a pty, system validation), the note
// validator (the ID-003 emulator on a pty, its driver, tickets in) and the
// SAS link (exceptions queued, the host's validation numbers and denials
// among the random inputs, the printer failing now and then). Besides lit
// ⇔ accepted, every unlit press must name its reason: a cash-out waiting
// for the casino system, a ticket printing or one for the attendant stop
// DEAL and CASH OUT on the table itself, never a lit button refused.
func TestModelWired(t *testing.T) { modelTest(t, 4, 2, true) }

// devices are the model's wired devices: the printer's and the validator's
// emulators, the validator's seam and driver.
type devices struct {
	pr     *tclemu.Printer
	seam   *id003.Seam
	number uint64 // the host's next validation number
	stop   func()
}

// wire puts a printer, a validator and the SAS link in o.
func wire(t *testing.T, o *Options) *devices {
	t.Helper()
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	p, err := tcl.Open(pr.Path, 9600, tcl.Options{Poll: time.Millisecond, Reply: 50 * time.Millisecond, NoAnswer: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	emu, err := id003emu.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	d := &devices{pr: pr, seam: id003.NewSeam(), number: 1_000_000_000_000_000}
	o.TITO = &TITO{Printer: tcl.Device{P: p, Heading: tcl.Ticket{Currency: "EUR", Lang: "en", Casino: "Casino du Lac",
		Address1: "1 quai du Lac", Machine: "A-12", Asset: 4242}}, Validation: ValidateSystem, Wait: time.Hour, TicketIn: true}
	o.Validator, o.Exceptions = d.seam, hostKinds
	port, err := id003.OpenPort(emu.Path)
	if err != nil {
		t.Fatal(err)
	}
	drv, err := id003.New(port, id003.Config{Notes: vNotes, PollInterval: time.Millisecond, ReplyTimeout: 50 * time.Millisecond, Tickets: true}, d.seam, d.seam.Event)
	if err != nil {
		t.Fatal(err)
	}
	d.seam.Attach(drv)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- drv.Run(ctx) }()
	d.stop = func() {
		cancel()
		d.seam.Close()
		<-done
		port.Close()
		emu.Close()
		p.Close()
		pr.Close()
	}
	return d
}

// serve hands the devices' waiting calls and results to Handle; a ticket
// being printed is waited for (its result is the printer's to give).
func (d *devices) serve(t *testing.T, c *Controller) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case r := <-d.seam.Calls():
			if err := c.Handle(Input{Note: r}); err != nil {
				t.Logf("note validator %s: %v", r, err)
			}
			continue
		case ev := <-c.TicketEvents():
			if err := c.Handle(Input{Ticket: &ev}); err != nil {
				t.Logf("ticket event: %v", err)
			}
			continue
		default:
		}
		if !c.tickets.Printing() {
			return
		}
		select {
		case ev := <-c.TicketEvents():
			if err := c.Handle(Input{Ticket: &ev}); err != nil {
				t.Logf("ticket event: %v", err)
			}
		case r := <-d.seam.Calls():
			if err := c.Handle(Input{Note: r}); err != nil {
				t.Logf("note validator %s: %v", r, err)
			}
		case <-deadline:
			t.Fatalf("the printer's result did not come")
		}
	}
}

// modelRun returns the rounds started and the presses accepted and
// refused; wired: with the devices of TestModelWired.
func modelRun(t *testing.T, seed uint64, steps int, wired bool) (rounds uint64, accepted, refused int) {
	rnd := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	path := filepath.Join(t.TempDir(), "cabinet.db")
	var fs *failingStore
	be := sim.New()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	set := testSettings()
	opt := Options{HW: be, RNG: SeededRNG{Seed: seed}, InForce: set, Now: func() time.Time { return now }}
	var dev *devices
	if wired {
		dev = wire(t, &opt)
		defer dev.stop()
	}
	c, _ := testCabinet(t, opt, kitStore{path: path, wrap: func(st *recovery.Store) Store { fs = &failingStore{Store: st}; return fs }})
	var billsIn money.Cents
	modes := map[string]int{}
	defer func() {
		if t.Failed() {
			t.Logf("screens met: %v", modes)
		}
	}()
	switches := [hw.NumSwitches]bool{}
	jam := false
	var trail []string
	fail := func(format string, args ...any) {
		t.Helper()
		n := max(0, len(trail)-12)
		t.Errorf("seed %d step %d: %s\nlast inputs: %v", seed, len(trail), fmt.Sprintf(format, args...), trail[n:])
	}
	for range steps {
		now = now.Add(3 * time.Second)
		if dev != nil {
			dev.serve(t, c)
		}
		before := seenOf(c)
		lit := c.Snapshot().Lamps
		if hwLit := be.Lamps(); hwLit != lit {
			fail("hardware lamps %b, snapshot %b", hwLit, lit)
			return 0, 0, 0
		}
		commits := fs.commits
		modes[string(c.Snapshot().Mode)+"/"+string(c.Snapshot().Under)]++
		var in hw.Input
		var held []hw.Switch // keys are soon released, doors soon shut
		for _, k := range []hw.Switch{hw.AuditKey, hw.OperatorKey, hw.ResetKey, hw.MainDoor, hw.CashDoor} {
			if switches[k] {
				held = append(held, k)
			}
		}
		ti := c.TITOInfo()
		k := rnd.IntN(100)
		switch {
		case dev != nil && ti.Cashout != 0 && k < 30:
			// The casino system answers the cash-out: its number, or a
			// denial now and then.
			v := &HostValidation{Cashout: ti.Cashout, SystemID: 1, Number: dev.number}
			if k < 5 {
				v.SystemID = 0
			}
			dev.number++
			trail = append(trail, fmt.Sprintf("host validation %+v", *v))
			if err := c.Handle(Input{Host: &HostRequest{Validation: v}}); err != nil {
				fail("host validation: %v", err)
				return 0, 0, 0
			}
			continue
		case dev != nil && k < 2 && !c.tickets.Printing():
			dev.pr.FailAt(tclemu.Jam, 2) // the next print jams: a ticket for the attendant
			continue
		case dev != nil && c.led.cur().tickets.Uncertain() && dev.pr.Flags()&tcl.PaperJam != 0 && k < 10:
			dev.pr.Clear(tcl.PaperJam) // the attendant clears the jam
			continue
		}
		switch {
		case jam && k < 25:
			in = hw.Input{Kind: hw.BillJam, On: false}
		case c.Machine().Handpay > 0 && !switches[hw.ResetKey] && k < 25: // the attendant comes
			in = hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: true}
		case len(held) > 0 && k < 25:
			in = hw.Input{Kind: hw.SwitchChanged, Switch: held[rnd.IntN(len(held))], On: false}
		case k < 70 && lit != 0: // a lit button, to make progress
			// Weighted towards play: help, cash out and leaving the table are
			// lit most of the time and would keep the walk away from rounds.
			var bs []hw.Button
			for b := range hw.NumButtons {
				if !lit.Has(b) {
					continue
				}
				w := 4
				switch b {
				case hw.Help, hw.CashOut, hw.Game:
					w = 1
				case hw.Deal, hw.BetPlus:
					w = 8
				}
				for range w {
					bs = append(bs, b)
				}
			}
			in = hw.Input{Kind: hw.ButtonPressed, Button: bs[rnd.IntN(len(bs))]}
		case k < 85:
			in = hw.Input{Kind: hw.ButtonPressed, Button: hw.Button(rnd.IntN(int(hw.NumButtons)))}
		case k < 93:
			in = hw.Input{Kind: hw.BillStacked, Value: set.Bills[rnd.IntN(len(set.Bills))]}
		case k < 98:
			// Doors and the audit key open and close; the operator and
			// reset keys are turned and released.
			sw := hw.Switch(rnd.IntN(int(hw.NumSwitches)))
			on := !switches[sw]
			if (sw == hw.MainDoor || sw == hw.CashDoor) && on && rnd.IntN(3) > 0 {
				on = false // doors mostly stay shut
			}
			in = hw.Input{Kind: hw.SwitchChanged, Switch: sw, On: on}
		default:
			in = hw.Input{Kind: hw.BillJam, On: !jam, Err: "jam"}
		}
		if in.Kind == hw.BillStacked && be.Acceptance() < in.Value {
			continue // the acceptor would not take it
		}
		trail = append(trail, in.String())
		err := c.Handle(HW(in))
		switch in.Kind {
		case hw.ButtonPressed:
			if err == nil {
				accepted++
			} else {
				refused++
			}
			if lit.Has(in.Button) && err != nil {
				fail("lit %s refused: %v", in.Button, err)
				return 0, 0, 0
			}
			if !lit.Has(in.Button) && !errors.Is(err, ErrNotNow) {
				fail("unlit %s: %v, want ErrNotNow", in.Button, err)
				return 0, 0, 0
			}
			if m := c.Snapshot().Message; !lit.Has(in.Button) && (m == "" || m == NoticeStepFailed) {
				fail("unlit %s refused with notice %q: no reason named", in.Button, m)
				return 0, 0, 0
			}
		case hw.BillStacked:
			if err != nil {
				fail("bill %v the acceptor took: %v", in.Value, err)
				return 0, 0, 0
			}
			billsIn += in.Value
		case hw.SwitchChanged:
			if err != nil {
				fail("%s: %v", in, err)
				return 0, 0, 0
			}
			switches[in.Switch] = in.On
		case hw.BillJam:
			if err != nil {
				fail("%s: %v", in, err)
				return 0, 0, 0
			}
			jam = in.On
		}
		if after := seenOf(c); fs.commits == commits && !seenEqual(before, after) {
			fail("snapshot changed without a commit: %+v → %+v", before, after)
			return 0, 0, 0
		}
		m := c.Machine()
		if m.Meters.BillsIn != billsIn {
			fail("bills in meter %v, stacked %v", m.Meters.BillsIn, billsIn)
			return 0, 0, 0
		}
		if err := m.Meters.Check(m.Credits); err != nil {
			fail("meter invariant: %v", err)
			return 0, 0, 0
		}
		if c.Snapshot().Credits != m.Credits {
			fail("credits shown %v, committed %v", c.Snapshot().Credits, m.Credits)
			return 0, 0, 0
		}
		if c.Err() != nil {
			fail("memory error: %v", c.Err())
			return 0, 0, 0
		}
	}
	// The store agrees with the controller.
	var stored recovery.Machine
	if err := fs.View(func(tx *recovery.Tx) error {
		var err error
		stored, err = tx.Machine()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if stored.Credits != c.Credits() || stored.Handpay != c.Machine().Handpay {
		t.Errorf("seed %d: store credits %v handpay %v, controller %v %v", seed, stored.Credits, stored.Handpay, c.Credits(), c.Machine().Handpay)
	}
	return stored.NextRound - 1, accepted, refused
}

func seenEqual(a, b seen) bool {
	return a.Credits == b.Credits && a.Win == b.Win && a.Jackpot == b.Jackpot && a.Handpay == b.Handpay &&
		a.HandpayKind == b.HandpayKind && slices.Equal(a.Tilts, b.Tilts) && a.Round == b.Round
}
