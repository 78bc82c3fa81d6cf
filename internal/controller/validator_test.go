package controller

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/hw/sim"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// vNotes is the validator's table in these tests: the testSettings bills.
var vNotes = map[byte]money.Cents{0x62: 500, 0x63: 1000, 0x64: 2000, 0x65: 5000, 0x66: 10000}

// vrig is a cabinet on a real store with the emulated validator on a real
// pty, its driver on its own goroutine, and the test's goroutine as the
// controller's loop (serve hands the driver's calls to Handle).
type vrig struct {
	t      *testing.T
	path   string
	st     *recovery.Store
	c      *Controller
	v      *id003.Seam
	emu    *id003emu.Validator
	port   *id003.Port
	cancel context.CancelFunc
	done   chan error
	set    InForce
	tito   *TITO         // ticket in (ticketin_test.go); nil: notes only
	reply  time.Duration // the driver's reply timeout (0: 50 ms)
}

func newVRig(t *testing.T, mod func(*InForce)) *vrig { return newVRigTITO(t, mod, nil) }

// newVRigTITO is newVRig with tickets wired (tito nil: none).
func newVRigTITO(t *testing.T, mod func(*InForce), tito *TITO) *vrig {
	t.Helper()
	emu, err := id003emu.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() { emu.Close() })
	r := &vrig{t: t, path: filepath.Join(t.TempDir(), "cabinet.db"), emu: emu, set: testSettings(), tito: tito}
	if mod != nil {
		mod(&r.set)
	}
	r.boot()
	t.Cleanup(r.stop)
	return r
}

// boot starts a cabinet (controller and driver) on the store, as a new
// process would after a crash: the emulator keeps its state.
func (r *vrig) boot() {
	r.t.Helper()
	r.v = id003.NewSeam()
	r.c, r.st = testCabinet(r.t, Options{HW: sim.New(), RNG: SeededRNG{Seed: 1}, InForce: r.set, Exceptions: hostKinds, Validator: r.v, TITO: r.tito}, kitStore{path: r.path})
	var err error
	if r.port, err = id003.OpenPort(r.emu.Path); err != nil {
		r.t.Fatal(err)
	}
	reply := r.reply
	if reply == 0 {
		reply = 50 * time.Millisecond
	}
	d, err := id003.New(r.port, id003.Config{Notes: vNotes, PollInterval: time.Millisecond, ReplyTimeout: reply, Tickets: r.tito != nil}, r.v, r.v.Event)
	if err != nil {
		r.t.Fatal(err)
	}
	r.v.Attach(d)
	var ctx context.Context
	ctx, r.cancel = context.WithCancel(context.Background())
	r.done = make(chan error, 1)
	go func() { r.done <- d.Run(ctx) }()
	r.c.publish(r.c.led.cur()) // the acceptance to the driver
}

// stop ends the driver (as a killed process: it tells the validator
// nothing) and closes the store.
func (r *vrig) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	r.v.Close()
	<-r.done
	r.port.Close()
	r.st.Close()
	r.cancel = nil
}

// serve hands the driver's calls to Handle until cond holds (checked on
// this goroutine after each), failing after a generous deadline.
func (r *vrig) serve(what string, cond func() bool) {
	r.t.Helper()
	deadline := time.After(20 * time.Second)
	for !cond() {
		select {
		case req := <-r.v.Calls():
			if err := r.c.Handle(Input{Note: req}); err != nil {
				r.t.Logf("handle %s: %v", req, err)
			}
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			r.t.Fatalf("waiting for %s: validator %+v, credits %v, tilts %v", what, r.emu.Snapshot(), r.c.led.cur().m.Credits, r.c.led.cur().tilts())
		}
	}
}

// insert feeds a note once the validator idles.
func (r *vrig) insert(code byte) {
	r.t.Helper()
	r.serve("the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling })
	if err := r.emu.Insert(code); err != nil {
		r.t.Fatal(err)
	}
}

func stackedValue(s id003emu.Snapshot) money.Cents {
	var sum money.Cents
	for _, c := range s.Stacked {
		sum += vNotes[c]
	}
	return sum
}

// settled waits until the validator idles with its note gone and the
// cabinet has credited exactly the notes stacked, and checks so.
func (r *vrig) settled() {
	r.t.Helper()
	r.serve("the note settled", func() bool {
		s := r.emu.Snapshot()
		return (s.Status == id003.StIdling || s.Status == id003.StDisabled) && r.c.led.cur().m.Meters.BillsIn == stackedValue(s) && r.note() == nil
	})
	s := r.emu.Snapshot()
	if got, want := r.c.led.cur().m.Meters.BillsIn, stackedValue(s); got != want {
		r.t.Fatalf("bills in %v, notes stacked %v (%x)", got, want, s.Stacked)
	}
}

func (r *vrig) note() *recovery.Note {
	var n *recovery.Note
	if err := r.st.View(func(tx *recovery.Tx) (err error) { n, err = tx.Note(); return err }); err != nil {
		r.t.Fatal(err)
	}
	return n
}

func (r *vrig) events() []meters.Event { return storeEvents(r.t, r.st) }

func TestValidatorCreditsStackedNotes(t *testing.T) {
	r := newVRig(t, nil)
	for _, code := range []byte{0x62, 0x64, 0x63} {
		r.insert(code)
		r.settled()
	}
	m := r.c.led.cur().m
	if m.Credits != 3500 || m.Meters.BillsIn != 3500 || m.Meters.Bills["2000"] != 1 {
		t.Errorf("credits %v, bills in %v, bill meters %v; want 35.00 from 5+20+10", m.Credits, m.Meters.BillsIn, m.Meters.Bills)
	}
	if !hasEvent(r.events(), meters.KindBillAccepted, "bill 20.00 (validator, vend valid)") {
		t.Errorf("no bill accepted event: %v", r.events())
	}
}

func TestValidatorReturnsWhatAcceptanceRefuses(t *testing.T) {
	r := newVRig(t, func(s *InForce) { s.CreditLimit = 2500 })
	r.insert(0x64) // 20.00: room for a 5.00 left
	r.settled()
	r.insert(0x63) // 10.00: past the limit
	r.serve("the note returned", func() bool { return len(r.emu.Snapshot().Returned) == 1 })
	r.settled()
	if r.c.led.cur().m.Credits != 2000 {
		t.Errorf("credits %v, want 20.00", r.c.led.cur().m.Credits)
	}
	if !hasEvent(r.events(), meters.KindBillRefused, "bill 10.00 refused: it would take the credits past the credit limit") {
		t.Errorf("no refusal logged: %v", r.events())
	}
	if r.c.scr.message != NoticeCreditLimit {
		t.Errorf("notice %q, want %q", r.c.scr.message, NoticeCreditLimit)
	}
	r.insert(0x68) // a code the configuration does not accept: the validator rejects it
	r.serve("the inhibited code rejected", func() bool { return len(r.emu.Snapshot().Returned) == 2 })
	r.emu.IgnoreMask(true) // a unit whose table disagrees: it escrows it, the cabinet returns it
	r.insert(0x68)
	r.serve("the unknown code returned", func() bool { return len(r.emu.Snapshot().Returned) == 3 })
	r.settled()
	if !hasEvent(r.events(), meters.KindBillRefused, "validator rejected it: inhibited denomination") {
		t.Errorf("the validator's reject not logged with its reason: %v", r.events())
	}
	if !hasEvent(r.events(), meters.KindBillRefused, "escrow code 0x68 is not an accepted note") {
		t.Errorf("unknown code not logged with its reason: %v", r.events())
	}
	r.insert(0x62) // 5.00 still fits
	r.settled()
	if r.c.led.cur().m.Credits != 2500 {
		t.Errorf("credits %v, want 25.00", r.c.led.cur().m.Credits)
	}
}

// The escrow decision is the committed state's, whatever acceptance the
// driver last had: with a door open (a tilt) a note is returned and no
// order is written.
func TestEscrowDecisionFollowsAcceptance(t *testing.T) {
	r := newRig(t, 1)
	r.c.opt.Validator = id003.NewSeam()
	escrow := func(v money.Cents) hw.NoteAnswer {
		t.Helper()
		req := &hw.NoteCall{Kind: hw.NoteEscrow, Value: v, Reply: make(chan hw.NoteAnswer, 1)}
		if err := r.c.Handle(Input{Note: req}); err != nil {
			t.Fatal(err)
		}
		a := <-req.Reply
		if a.Err != nil {
			t.Fatal(a.Err)
		}
		return a
	}
	noRecord := func() {
		t.Helper()
		var n *recovery.Note
		if err := r.st.View(func(tx *recovery.Tx) (err error) { n, err = tx.Note(); return err }); err != nil || n != nil {
			t.Fatalf("note record %+v, %v; want none", n, err)
		}
	}
	r.set(hw.MainDoor, true)
	if d := escrow(500); d.Stack || d.Reason != billReasons[NoticeBillInhibited].text {
		t.Errorf("door open: %+v, want returned as inhibited", d)
	}
	noRecord()
	r.set(hw.MainDoor, false)
	if d := escrow(700); d.Stack {
		t.Errorf("a value not among the bills: %+v, want returned", d)
	}
	noRecord()
	if err := r.host(HostCommand{Kind: HostBills, On: false}); err != nil {
		t.Fatal(err)
	}
	if d := escrow(500); d.Stack {
		t.Errorf("host disabled the bills: %+v, want returned", d)
	}
	noRecord()
	if err := r.host(HostCommand{Kind: HostBills, On: true}); err != nil {
		t.Fatal(err)
	}
	if d := escrow(500); !d.Stack {
		t.Errorf("nothing against it: %+v, want stacked", d)
	}
	var n *recovery.Note
	if err := r.st.View(func(tx *recovery.Tx) (err error) { n, err = tx.Note(); return err }); err != nil || n == nil || n.Status != recovery.NoteStacking || n.Value != 500 {
		t.Fatalf("note record %+v, %v; want 5.00 stacking", n, err)
	}
}

// A power cut while the note is stacking: the validator powers up with the
// bill in the stacker (42h); the cabinet credits it from its order, once.
func TestValidatorPowerCutWhileStacking(t *testing.T) {
	r := newVRig(t, nil)
	r.emu.Arm(id003emu.Trap{Status: id003.StStacking, Silent: 1})
	r.insert(0x65)
	r.settled()
	if s := r.emu.Snapshot(); s.Cuts != 1 || len(s.Stacked) != 1 || r.c.led.cur().m.Credits != 5000 {
		t.Errorf("cuts %d, stacked %x, credits %v; want one cut, 50.00 stacked and credited", s.Cuts, s.Stacked, r.c.led.cur().m.Credits)
	}
}

// A power cut instead of the stack command: the order is committed, the
// note still in the transport (41h). Resolved at the power up, before the
// reset: returned, nothing credited, the record gone.
func TestValidatorPowerCutBeforeStacking(t *testing.T) {
	r := newVRig(t, nil)
	r.emu.Arm(id003emu.Trap{Command: id003.CmdStack1})
	r.insert(0x63)
	r.serve("the note given back", func() bool { return len(r.emu.Snapshot().Returned) == 1 })
	r.settled()
	if r.c.led.cur().m.Credits != 0 {
		t.Errorf("credits %v, want 0", r.c.led.cur().m.Credits)
	}
	if !hasEvent(r.events(), meters.KindBillRefused, "powered up (power up with bill in acceptor (41h)) before stacking it") {
		t.Errorf("no resolution logged: %v", r.events())
	}
}

// The cabinet dies after the credit's commit, before the ACK: the new
// process finds the validator still in vend valid and the record credited:
// acknowledged, not credited again.
func TestValidatorHostDiesBeforeAck(t *testing.T) {
	r := newVRig(t, nil)
	r.insert(0x66)
	r.serve("the credit committed", func() bool { return r.c.led.cur().m.Credits == 10000 })
	r.stop() // the driver may or may not have sent its ACK
	r.boot()
	r.settled()
	if r.c.led.cur().m.Credits != 10000 || len(r.emu.Snapshot().Stacked) != 1 {
		t.Errorf("credits %v, stacked %x; want 100.00 once", r.c.led.cur().m.Credits, r.emu.Snapshot().Stacked)
	}
}

func TestValidatorFaultsTilt(t *testing.T) {
	r := newVRig(t, nil)
	r.serve("the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling })
	r.queuedCodes() // the boot's
	for _, tc := range []struct {
		st       id003.Status
		tilt     string
		raise    HostEventKind
		clearRaw HostEventKind
	}{
		{id003.StStackerOpen, "stacker_open", HostStackerRemoved, HostStackerInstalled},
		{id003.StStackerFull, "stacker_full", HostStackerFull, 0},
		{id003.StAcceptorJam, "bill_jam", HostBillJam, 0},
		{id003.StFailure, "bill_error", HostValidatorFailure, 0},
	} {
		r.emu.Fault(tc.st, 0xA2)
		r.serve(tc.st.String()+" tilt", func() bool { return slices.Contains(r.c.led.cur().tilts(), tc.tilt) })
		if acceptance(r.c.led.cur(), &r.c.set, r.c.scr.mode) != 0 {
			t.Errorf("%s: acceptance on during the tilt", tc.st)
		}
		if q := r.queuedCodes(); !slices.Contains(q, byte(tc.raise)) {
			t.Errorf("%s: exceptions %v, want %d", tc.st, q, tc.raise)
		}
		r.emu.Clear()
		r.serve(tc.st.String()+" cleared", func() bool { return len(r.c.led.cur().tilts()) == 0 })
		if q := r.queuedCodes(); tc.clearRaw != 0 && !slices.Contains(q, byte(tc.clearRaw)) {
			t.Errorf("%s cleared: exceptions %v, want %d", tc.st, q, tc.clearRaw)
		}
	}
	// Silence: a tilt with its reason, acceptance off, until it answers.
	r.emu.Mute(true)
	r.serve("the gone tilt", func() bool { return slices.Contains(r.c.led.cur().tilts(), "validator_gone") })
	if !hasEvent(r.events(), meters.KindTilt, "note validator not answering: no valid answer") {
		t.Errorf("no reason logged: %v", r.events())
	}
	r.emu.Mute(false)
	r.serve("the validator back", func() bool { return len(r.c.led.cur().tilts()) == 0 })
	// A garbled answer begins a line fault, logged with its reason and
	// bytes; nothing is credited.
	r.emu.Garble(id003emu.GarbleCRC)
	r.serve("the line fault logged", func() bool {
		return hasEvent(r.events(), meters.KindDevice, "validator line fault began: answer to") &&
			hasEvent(r.events(), meters.KindDevice, "id003: bad CRC: frame FC")
	})
	r.insert(0x62)
	r.settled()
}

// queuedCodes drains the SAS queue (hostKinds' codes).
func (r *vrig) queuedCodes() []byte {
	rr := &rig{t: r.t, st: r.st}
	return rr.queued()
}

// The audit's self-test page shows the validator's model, version and
// status.
func TestValidatorSelfCheck(t *testing.T) {
	r := newVRig(t, nil)
	r.serve("the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling && r.v.Info().Status == id003.StIdling })
	got := map[string]string{}
	for _, kv := range r.c.selfChecks(r.c.led.cur()) {
		got[kv.Key] = kv.Value
	}
	want := map[string]string{"validator": checkOK, "validator_model": "ID003-EMU(EUR)-100-SS", "validator_version": "ID003-05V100-00 01JAN26", "validator_status": "idling"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("check %s = %q, want %q", k, got[k], v)
		}
	}
	r.emu.Fault(id003.StStackerOpen, 0)
	r.serve("stacker open", func() bool { return r.v.Info().Status == id003.StStackerOpen })
	for _, kv := range r.c.selfChecks(r.c.led.cur()) {
		if kv.Key == "validator" && kv.Value != checkFailed || kv.Key == "validator_status" && kv.Value != "stacker open" {
			t.Errorf("with the stacker open: %s = %q", kv.Key, kv.Value)
		}
	}
}

// The cabinet dies with the order committed and the validator's power is
// cut while it is down: at the next boot the power-up status (41h if the
// stack command never arrived, 42h if it did) is resolved against the
// record before the reset: credited exactly when stacked.
func TestValidatorPowerCutWhileCabinetDown(t *testing.T) {
	r := newVRig(t, nil)
	r.insert(0x63)
	r.serve("the order committed", func() bool { n := r.note(); return n != nil && n.Status == recovery.NoteStacking })
	r.stop()
	r.emu.PowerCycle()
	r.boot()
	r.settled()
	s := r.emu.Snapshot()
	if len(s.Stacked)+len(s.Returned) != 1 || r.c.led.cur().m.Credits != stackedValue(s) {
		t.Errorf("stacked %x, returned %x, credits %v", s.Stacked, s.Returned, r.c.led.cur().m.Credits)
	}
	t.Logf("stacked %x, returned %x, credits %v", s.Stacked, s.Returned, r.c.led.cur().m.Credits)
}

// Under a memory error the validator's power up is not resolved (the
// store is evidence) and no note is stacked.
func TestValidatorMemoryError(t *testing.T) {
	r := newVRig(t, nil)
	r.serve("the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling })
	r.c.led.fail(ErrMemory)
	r.emu.PowerCycle()
	r.serve("the power up seen", func() bool { return r.emu.Snapshot().Status == id003.StDisabled })
	reply := make(chan hw.NoteAnswer, 1)
	err := r.c.notes.Request(&hw.NoteCall{Kind: hw.NoteEscrow, Value: 500, Reply: reply})
	if d := <-reply; err != nil || d.Stack {
		t.Errorf("escrow under a memory error = %+v, %v; want returned", d, err)
	}
}

// A note jammed in the stacker after stack-1 and freed by hand: the
// validator never reports vend valid, so nothing is credited, and the
// order's end is logged for the attendant. (The emulator finishes
// stacking such a note when the jam is cleared: the one case where the
// stacker holds a note the meters do not count, which the attendant
// reconciles from the log; decided: a note is never credited without the
// validator saying it is in the stacker.)
func TestValidatorJamAfterStack(t *testing.T) {
	r := newVRig(t, nil)
	r.emu.Arm(id003emu.Trap{Status: id003.StStacking, Fault: id003.StStackerJam})
	r.insert(0x62)
	r.serve("the jam", func() bool { return slices.Contains(r.c.led.cur().tilts(), "bill_jam") })
	r.emu.Clear()
	r.serve("the record closed", func() bool { return r.note() == nil && len(r.c.led.cur().tilts()) == 0 })
	if r.c.led.cur().m.Credits != 0 {
		t.Errorf("credits %v, want 0 (no vend valid)", r.c.led.cur().m.Credits)
	}
	if !hasEvent(r.events(), meters.KindBillError, "note 5.00 ordered stacked, the validator") {
		t.Errorf("the order's end not logged: %v", r.events())
	}
	t.Logf("emulator: %+v", r.emu.Snapshot())
}

// TestNoisyValidatorKeepsTheLog (issue 37): a validator that damages every
// answer for 1,100 status requests (110 s of polling at the default
// 100 ms; a short reply timeout makes it a few seconds here) leaves the
// event log's significant events where they were, the store initialised
// (memory clear) and the power up among them, and is recorded as one line
// fault of a handful of events carrying its count, and one tilt; when it
// answers cleanly again the fault clears with its total.
func TestNoisyValidatorKeepsTheLog(t *testing.T) {
	emu, err := id003emu.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() { emu.Close() })
	r := &vrig{t: t, path: filepath.Join(t.TempDir(), "cabinet.db"), emu: emu, set: testSettings(), reply: 5 * time.Millisecond}
	r.boot()
	t.Cleanup(r.stop)
	r.serve("the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling })
	start := r.emu.Snapshot().Requests
	r.emu.GarbleAll(id003emu.GarbleCRC, id003emu.GarbleLength, id003emu.GarbleTrunc, id003emu.GarbleNoise)
	r.serve("1,100 damaged answers", func() bool { return r.emu.Snapshot().Requests >= start+1100 })
	r.emu.GarbleAll()
	r.serve("the line fault cleared", func() bool { return hasEvent(r.events(), meters.KindDevice, "line fault cleared") })
	r.serve("the validator back", func() bool { return len(r.c.led.cur().tilts()) == 0 })

	evs := r.events()
	for _, k := range []string{meters.KindMemoryClear, meters.KindPowerUp} {
		if !hasEvent(evs, k, "") {
			t.Errorf("no %s event left in the log after the noise", k)
		}
	}
	kinds := map[string]int{}
	var dev []meters.Event
	for _, e := range evs {
		kinds[e.Kind]++
		if e.Kind == meters.KindDevice {
			dev = append(dev, e)
		}
	}
	if len(dev) > 5 || kinds[meters.KindBillError] != 0 || kinds[meters.KindTilt] != 1 {
		t.Fatalf("the noise made %d device events, %d bill errors, %d tilts; want at most 5, 0, 1: %v", len(dev), kinds[meters.KindBillError], kinds[meters.KindTilt], kinds)
	}
	for _, e := range dev {
		t.Logf("%s: %s", e.Kind, e.Text)
	}
	first, last := dev[0], dev[len(dev)-1]
	if first.Detail != "line_fault_began" || !strings.Contains(first.Text, "frame FC") {
		t.Errorf("first device event %+v, want the fault's beginning with the first bytes seen", first)
	}
	n, _ := strconv.Atoi(last.Args[len(last.Args)-1].Value)
	if last.Detail != "line_fault_cleared" || n < 1100 {
		t.Errorf("last device event %+v, want the fault cleared with its count (at least 1100)", last)
	}
	for _, e := range dev[1:] {
		if e.Args[len(e.Args)-1].Type != meters.ArgCount {
			t.Errorf("device event %+v carries no count", e)
		}
	}
}
