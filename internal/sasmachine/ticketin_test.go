package sasmachine

import (
	"cabinet/internal/cabinet"
	"context"
	"path/filepath"
	"testing"
	"time"

	"cabinet/internal/controller"
	"cabinet/internal/hw"
	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/hw/sim"
	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
	"cabinet/internal/sas"
	"cabinet/internal/sashost"
)

// Tickets out and in end to end, every link a real one: the store, the
// controller's Run, the tclemu printer and the id003emu validator each on
// a pty through the cabinet's drivers, the SAS engine on a pty, and
// sashost's autonomous casino (Serve) as the casino system, written apart
// from the cabinet's SAS code. A note goes in, CASH OUT prints a ticket the
// casino numbers (57/58) and reads (3D/LP 4D), the ticket goes back in the
// validator (67, LP 70/71, stacked, 68) and is credited once; the same
// number again is refused by the casino (already redeemed) and returned
// with its reason on screen.

type tinRig struct {
	st     *recovery.Store
	be     *sim.Backend
	c      *controller.Controller
	pr     *tclemu.Printer
	emu    *id003emu.Validator
	casino *sashost.Casino
}

func newTinRig(t *testing.T) *tinRig { return newTinRigHost(t, true) }

// newTinRigHost is newTinRig whose casino polls only when serve is set
// (else the test drives sashost's one-shots); the link falls silent after
// 300 ms without polls.
func newTinRigHost(t *testing.T, serve bool) *tinRig {
	t.Helper()
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() { pr.Close() })
	emu, err := id003emu.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	h, err := sashost.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	st := recoverytest.Open(t, filepath.Join(t.TempDir(), "cabinet.db"), recovery.Options{})
	p, err := tcl.Open(pr.Path, 9600, printerOptions)
	if err != nil {
		t.Fatal(err)
	}
	host := make(chan controller.HostRequest, 64)
	be := sim.New()
	v := id003.NewSeam()
	tito := &controller.TITO{Printer: tcl.Device{P: p, Heading: heading}, Validation: controller.ValidateSystem, Wait: 30 * time.Second, ExpiryDays: heading.ExpiryDays, TicketIn: true}
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: be, Exceptions: Exceptions, Host: host,
		RNG: controller.SeededRNG{Seed: 7}, TITO: tito, Validator: v})
	if err != nil {
		t.Fatal(err)
	}
	vport, err := id003.OpenPort(emu.Path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := id003.New(vport, id003.Config{Notes: map[byte]money.Cents{0x63: 1000, 0x65: 5000}, Tickets: true,
		PollInterval: time.Millisecond, ReplyTimeout: 50 * time.Millisecond}, v, v.Event)
	if err != nil {
		t.Fatal(err)
	}
	v.Attach(d)
	port, err := sas.OpenPort(h.Slave)
	if err != nil {
		t.Fatal(err)
	}
	m := &Machine{Store: st, Cab: c, Host: host}
	eng := &sas.Engine{Cfg: sas.Config{Address: 1, Denom: 1, Asset: 4242, Validation: sas.ValidationSystem, TicketIn: true}, M: m, Q: m}
	casino := &sashost.Casino{H: h, Addr: 1, Interval: 20 * time.Millisecond, SystemID: 7, NextNumber: 5550000000000001}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 4)
	go func() { _ = c.Run(ctx); done <- struct{}{} }()
	go func() { _ = d.Run(ctx); done <- struct{}{} }()
	go func() {
		_ = sas.Serve(ctx, port, eng, sas.LinkOptions{ChirpAfter: 300 * time.Millisecond, Link: m.Link})
		done <- struct{}{}
	}()
	go func() {
		if serve {
			_ = casino.Serve(ctx)
		}
		done <- struct{}{}
	}()
	t.Cleanup(func() {
		cancel()
		v.Close()
		for range 4 {
			<-done
		}
		port.Close()
		vport.Close()
		p.Close()
		be.Close()
		st.Close()
	})
	return &tinRig{st: st, be: be, c: c, pr: pr, emu: emu, casino: casino}
}

func (r *tinRig) machine(t *testing.T) recovery.Machine {
	t.Helper()
	var m recovery.Machine
	if err := r.st.View(func(tx *recovery.Tx) (err error) { m, err = tx.Machine(); return err }); err != nil {
		t.Fatal(err)
	}
	return m
}

func (r *tinRig) lastOut(t *testing.T) recovery.TicketOut {
	var out []recovery.TicketOut
	if err := r.st.View(func(tx *recovery.Tx) (err error) { out, err = tx.TicketsOut(1); return err }); err != nil || len(out) == 0 {
		return recovery.TicketOut{}
	}
	return out[0]
}

func (r *tinRig) idle(t *testing.T) {
	t.Helper()
	waitLong(t, "the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling })
}

func (r *tinRig) ledger(number string) (sashost.TicketRecord, bool) {
	for _, rec := range r.casino.Ledger() {
		if rec.Number == number {
			return rec, true
		}
	}
	return sashost.TicketRecord{}, false
}

func TestTicketOutThenInWithTheCasino(t *testing.T) {
	r := newTinRig(t)
	r.idle(t)
	if err := r.emu.Insert(0x65); err != nil {
		t.Fatal(err)
	}
	waitLong(t, "the note's credit", func() bool { return r.c.Snapshot().Credits == 5000 })
	r.be.Press(hw.CashOut)
	waitLong(t, "the ticket printed", func() bool {
		p := r.pr.Tickets()
		return len(p) == 1 && p[0].Complete && r.machine(t).Meters.TicketsOut == 5000 || r.lastOut(t).Status == recovery.TicketUncertain
	})
	if tk := r.lastOut(t); tk.Status != recovery.TicketPrinted {
		t.Fatalf("the ticket out is %s: %s", tk.Status, tk.Reason)
	}
	number := barcode(t, r.pr.Tickets()[0])
	if number != "075550000000000001" {
		t.Fatalf("printed %s, want the casino's number 07-5550000000000001", number)
	}
	waitLong(t, "the casino reading the ticket's record", func() bool {
		rec, ok := r.ledger(number)
		return ok && rec.Status == sashost.TicketOutstanding && rec.Cents == 5000
	})

	// The ticket back in: redeemed by the casino, credited once.
	r.idle(t)
	if err := r.emu.InsertTicket(number); err != nil {
		t.Fatal(err)
	}
	waitLong(t, "the ticket credited and redeemed", func() bool {
		rec, _ := r.ledger(number)
		return r.c.Snapshot().Credits == 5000 && rec.Status == sashost.TicketRedeemed
	})
	m := r.machine(t)
	if m.Meters.TicketsIn != 5000 || m.Meters.TicketsInCount != 1 || m.Meters.BillsIn != 5000 {
		t.Errorf("meters: tickets in %v (%d), bills in %v; want 50.00 once, the note 50.00", m.Meters.TicketsIn, m.Meters.TicketsInCount, m.Meters.BillsIn)
	}
	conserved(t, m)
	if got := r.emu.Snapshot().TicketsStacked; len(got) != 1 || got[0] != number {
		t.Errorf("stacked tickets %v, want %s", got, number)
	}

	// The same number again (a copy): the casino refuses it (84), the
	// validator gives it back, the screen says why, nothing credited.
	waitLong(t, "the casino read the result", func() bool { return r.c.TITOInfo().Redemption.Stage == sas.StageIdle })
	r.idle(t)
	if err := r.emu.InsertTicket(number); err != nil {
		t.Fatal(err)
	}
	waitLong(t, "the copy returned", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	waitLong(t, "the reason on screen", func() bool { return r.c.Snapshot().Message == "ticket_in_host_84" })
	if m := r.machine(t); m.Credits != 5000 || m.Meters.TicketsInCount != 1 {
		t.Errorf("after the copy: credits %v, tickets in %d; want 50.00 and one ticket", m.Credits, m.Meters.TicketsInCount)
	}
	if rec, _ := r.ledger(number); rec.Redeemed != 1 {
		t.Errorf("the casino heard the ticket redeemed %d times, want once", rec.Redeemed)
	}
}

// A ticket the casino does not know is refused (82) and returned.
func TestTicketInUnknownToTheCasino(t *testing.T) {
	r := newTinRig(t)
	r.idle(t)
	if err := r.emu.InsertTicket("071234567890123456"); err != nil {
		t.Fatal(err)
	}
	waitLong(t, "the ticket returned", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	waitLong(t, "the reason on screen", func() bool { return r.c.Snapshot().Message == "ticket_in_host_82" })
	if m := r.machine(t); m.Credits != 0 || m.Meters.TicketsInCount != 0 {
		t.Errorf("credits %v, tickets in %d: want nothing", m.Credits, m.Meters.TicketsInCount)
	}
}

// No host polls (the casino system offline): the link goes down after its
// silence limit; a cash-out is a handpay at once, with the reason on
// screen, and a ticket is returned at once ("casino system offline", no
// record). Once the host polls again, tickets are taken.
func TestTicketsWhileTheHostIsOffline(t *testing.T) {
	r := newTinRigHost(t, false)
	waitLong(t, "the link down", func() bool { return r.c.TITOInfo().HostDown })
	r.idle(t)
	if err := r.emu.Insert(0x63); err != nil {
		t.Fatal(err)
	}
	waitLong(t, "the note's credit", func() bool { return r.c.Snapshot().Credits == 1000 })
	r.idle(t)
	if err := r.emu.InsertTicket("071234567890123456"); err != nil {
		t.Fatal(err)
	}
	waitLong(t, "the ticket returned", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	waitLong(t, "the reason on screen", func() bool { return r.c.Snapshot().Message == "ticket_in_status_89" })
	var ins []recovery.TicketIn
	if err := r.st.View(func(tx *recovery.Tx) (err error) { ins, err = tx.TicketsIn(0); return err }); err != nil || len(ins) != 0 {
		t.Errorf("tickets in recorded while offline: %+v, %v", ins, err)
	}
	r.be.Press(hw.CashOut)
	waitLong(t, "the handpay", func() bool { return r.machine(t).Handpay == 1000 })
	waitLong(t, "its reason on screen", func() bool { return r.c.Snapshot().Message == "tito_no_host" })
	if len(r.pr.Tickets()) != 0 {
		t.Errorf("printed %d tickets while the host was offline", len(r.pr.Tickets()))
	}
	// The host polls again: the link is up, tickets are taken.
	if err := r.casino.Sync(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.casino.GeneralPoll(); err != nil {
		t.Logf("first poll after the silence: %v", err)
	}
	waitLong(t, "the link up", func() bool { return !r.c.TITOInfo().HostDown })
}
