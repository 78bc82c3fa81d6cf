package sasmachine

import (
	"bytes"
	"cabinet/internal/cabinet"
	"context"
	"path/filepath"
	"testing"
	"time"

	"cabinet/internal/controller"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
	"cabinet/internal/sas"
	"cabinet/internal/sashost"
)

// The cash-out by ticket end to end: a real store, the real controller
// (Run on its own goroutine), the tclemu printer over a pty driven by the
// tcl host, and the SAS engine served over a pty to sashost acting as the
// casino system.

type titoRig struct {
	path   string
	st     *recovery.Store
	be     *sim.Backend
	c      *controller.Controller
	pr     *tclemu.Printer
	casino *sashost.Casino
	stop   func()
}

var heading = tcl.Ticket{Currency: "EUR", Lang: "en", Casino: "Casino du Lac", Address1: "1 quai du Lac",
	Machine: "A-12", Asset: 4242, ExpiryDays: 30}

// printerOptions poll fast, and give up on a silent printer in 300 ms.
var printerOptions = tcl.Options{Poll: time.Millisecond, Reply: 50 * time.Millisecond, NoAnswer: 300 * time.Millisecond}

// titoBoot boots the cabinet on the store at path with the emulated
// printer pr and a SAS link in validation mode mode, as cmd/cabinet wires
// them; wait is the system validation wait.
func titoBoot(t *testing.T, path string, pr *tclemu.Printer, h *sashost.Host, mode sas.ValidationMode, wait time.Duration) *titoRig {
	t.Helper()
	return titoBootEvery(t, path, pr, h, mode, wait, 0)
}

// titoBootEvery is titoBoot with the printer's status asked every every
// between tickets (0: never).
func titoBootEvery(t *testing.T, path string, pr *tclemu.Printer, h *sashost.Host, mode sas.ValidationMode, wait, every time.Duration) *titoRig {
	t.Helper()
	st := recoverytest.Open(t, path, recovery.Options{})
	p, err := tcl.Open(pr.Path, 9600, printerOptions)
	if err != nil {
		t.Fatal(err)
	}
	host := make(chan controller.HostRequest, 64)
	be := sim.New()
	tito := &controller.TITO{Printer: tcl.Device{P: p, Heading: heading}, Validation: controller.TicketValidation(mode), Wait: wait, StatusEvery: every, ExpiryDays: heading.ExpiryDays}
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: be, Exceptions: Exceptions, Host: host,
		RNG: controller.SeededRNG{Seed: 7}, TITO: tito})
	if err != nil {
		t.Fatal(err)
	}
	port, err := sas.OpenPort(h.Slave)
	if err != nil {
		t.Fatal(err)
	}
	m := &Machine{Store: st, Cab: c, Host: host}
	eng := &sas.Engine{Cfg: sas.Config{Address: 1, Denom: 1, Asset: 4242, Validation: mode}, M: m, Q: m}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { _ = c.Run(ctx); done <- struct{}{} }()
	go func() { _ = sas.Serve(ctx, port, eng, sas.LinkOptions{}); done <- struct{}{} }()
	r := &titoRig{path: path, st: st, be: be, c: c, pr: pr, casino: &sashost.Casino{H: h, Addr: 1}}
	stopped := false
	r.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		<-done
		<-done
		port.Close()
		p.Close()
		be.Close()
		st.Close()
	}
	t.Cleanup(r.stop)
	if err := r.casino.Sync(); err != nil {
		t.Fatal(err)
	}
	return r
}

func newTITO(t *testing.T, mode sas.ValidationMode, wait time.Duration) *titoRig {
	t.Helper()
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close() })
	h, err := sashost.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return titoBoot(t, filepath.Join(t.TempDir(), "cabinet.db"), pr, h, mode, wait)
}

func waitLong(t *testing.T, what string, ok func() bool) {
	t.Helper()
	// A bound on a wait, not a timing assertion: generous, as a loaded
	// machine running the race detector is slow.
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); {
		if ok() {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// lastTicket is the newest ticket out in the store.
func (r *titoRig) lastTicket(t *testing.T) recovery.TicketOut {
	t.Helper()
	var out []recovery.TicketOut
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		out, err = tx.TicketsOut(1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no ticket out in the store")
	}
	return out[0]
}

func (r *titoRig) status(t *testing.T) recovery.TicketOutStatus {
	t.Helper()
	var out []recovery.TicketOut
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		out, err = tx.TicketsOut(1)
		return err
	}); err != nil || len(out) == 0 {
		return ""
	}
	return out[0].Status
}

// machine is the committed machine record, read from the store (the
// controller's own copy belongs to its goroutine).
func (r *titoRig) machine(t *testing.T) recovery.Machine {
	t.Helper()
	var m recovery.Machine
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		m, err = tx.Machine()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return m
}

// insert stacks a bill and waits for its credit.
func (r *titoRig) insert(t *testing.T, v money.Cents) {
	t.Helper()
	// The acceptor takes the bill once the controller has enabled it: the
	// store shows a handpay paid before the controller re-enables the
	// acceptor, and a bill inserted in between comes back refused.
	waitLong(t, "the acceptor taking the bill", func() bool { return r.be.Acceptance() >= v })
	want := r.c.Snapshot().Credits + v
	r.be.InsertBill(v)
	waitLong(t, "the bill's credit", func() bool { return r.c.Snapshot().Credits == want })
}

// barcode is the 18 digits of the printed ticket's barcode region.
func barcode(t *testing.T, tk tclemu.Ticket) string {
	t.Helper()
	for _, f := range tk.Fields {
		if f.Barcode {
			return f.Data
		}
	}
	t.Fatalf("ticket without a barcode: %q", tk.Data())
	return ""
}

// conserved checks the money rule of meters/doc.go on the committed
// machine record: bills + tickets in = credits + net played + tickets out
// + handpays (cash-out handpays and voided tickets) + outstanding.
func conserved(t *testing.T, m recovery.Machine) {
	t.Helper()
	mt := m.Meters
	out, _ := mt.TicketsOutstanding()
	in := mt.BillsIn + mt.TicketsIn
	rhs := m.Credits + (mt.TotalIn - mt.TotalWon) + mt.TicketsOut + mt.HandpayCancelled + mt.TicketsVoided + out
	if in != rhs {
		t.Errorf("money not conserved: bills %v + tickets in %v = %v; credits %v + played %v − won %v + tickets out %v + handpaid %v + voided %v + outstanding %v = %v",
			mt.BillsIn, mt.TicketsIn, in, m.Credits, mt.TotalIn, mt.TotalWon, mt.TicketsOut, mt.HandpayCancelled, mt.TicketsVoided, out, rhs)
	}
}

func TestCashOutTicketSystemValidation(t *testing.T) {
	r := newTITO(t, sas.ValidationSystem, 30*time.Second)
	r.insert(t, 2000)
	r.insert(t, 500)
	r.be.Press(hw.CashOut)
	waitLong(t, "the cash-out waiting for the host", func() bool { return r.c.TITOInfo().Cashout != 0 })
	// The snapshot is published just after the commit: wait for it too.
	waitLong(t, "the screen saying it waits", func() bool { return r.c.Snapshot().Message == controller.NoticeTicketWait })
	// 57 is a priority exception: it comes before the queue (power up,
	// bills, the cash-out button's 66).
	if seen, err := r.casino.WaitException(sas.ExValidationRequest, 300); err != nil || len(seen) != 0 {
		t.Fatalf("before 57: % X, %v; want 57 first", seen, err)
	}
	typ, amount, err := r.casino.Cashout()
	if err != nil || typ != 0 || amount != 2500 {
		t.Fatalf("LP 57 = type %02X, %d cents, %v; want cashable 2500", typ, amount, err)
	}
	if st, err := r.casino.Validate(12, 1234567890123456); err != nil || st != sas.ValidationAcked {
		t.Fatalf("LP 58 = %02X, %v; want acknowledged", st, err)
	}
	waitLong(t, "the ticket printed", func() bool { return r.status(t) == recovery.TicketPrinted })
	tk := r.lastTicket(t)
	if tk.Validation != "121234567890123456" || tk.Amount != 2500 {
		t.Errorf("ticket = %+v, want the host's number 12-1234567890123456 for 25.00", tk)
	}
	printed := r.pr.Tickets()
	if len(printed) != 1 || !printed[0].Complete || barcode(t, printed[0]) != "121234567890123456" {
		t.Fatalf("printer holds %+v, want one complete ticket with the host's number", printed)
	}
	waitLong(t, "the screen", func() bool { return r.c.Snapshot().Message == controller.NoticeTicketPrinted })
	m := r.machine(t)
	if m.Credits != 0 || m.Meters.TicketsOut != 2500 || m.Meters.TicketsOutCount != 1 || m.Meters.TicketsIssued != 2500 || m.Handpay != 0 {
		t.Errorf("after the ticket: credits %v, tickets out %v (%d), issued %v, handpay %v", m.Credits, m.Meters.TicketsOut,
			m.Meters.TicketsOutCount, m.Meters.TicketsIssued, m.Handpay)
	}
	conserved(t, m)
	// The host hears the ticket printed (3D) and reads its validation record.
	seen, err := r.casino.WaitException(sas.ExTicketPrinted, 300)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(seen, []byte{0x66}); n != 0 {
		// 3D is a priority exception too: the queue (with 66) follows it
		t.Errorf("66 before 3D: % X", seen)
	}
	rest, err := r.casino.WaitException(0x66, 300)
	if err != nil || bytes.Count(rest, []byte{0x66}) != 0 {
		t.Errorf("the queue after 3D: % X then 66, %v; want 66 once", rest, err)
	}
	rec, ok, err := r.casino.ValidationRecord(0)
	if err != nil || !ok || rec.Validation18() != "121234567890123456" || rec.Cents != 2500 || rec.Ticket != tk.TicketNumber() {
		t.Fatalf("LP 4D = %+v, %v, %v; want the ticket's record", rec, ok, err)
	}
	if _, err := r.casino.GeneralPoll(); err != nil { // the implied ACK of the record
		t.Fatal(err)
	}
	waitLong(t, "the record read committed", func() bool { return r.lastTicket(t).HostRead })
}

func TestCashOutHandpayWhenTheHostDoesNotAnswer(t *testing.T) {
	r := newTITO(t, sas.ValidationSystem, 50*time.Millisecond)
	r.insert(t, 1000)
	r.be.Press(hw.CashOut)
	waitLong(t, "the handpay", func() bool { return r.machine(t).Handpay == 1000 })
	waitLong(t, "the handpay notice tito_host_timeout", func() bool { return r.c.Snapshot().Message == "tito_host_timeout" })
	if n := len(r.pr.Tickets()); n != 0 {
		t.Errorf("%d tickets printed, want none", n)
	}
	// A late LP 58 numbers nothing.
	if st, err := r.casino.Validate(12, 1); err != nil || st != sas.ValidationNotInOut {
		t.Errorf("late LP 58 = %02X, %v; want not in cash-out", st, err)
	}
	r.be.SetSwitch(hw.ResetKey, true)
	waitLong(t, "the handpay paid", func() bool { return r.machine(t).Handpay == 0 })
	conserved(t, r.machine(t))
}

// setID has the host set the secure-enhanced validation ID (LP 4C).
func (r *titoRig) setID(t *testing.T) {
	t.Helper()
	id, seq, err := r.casino.SetValidationID(0x654321, 0)
	if err != nil || id != 0x654321 || seq != 0 {
		t.Fatalf("LP 4C = %06X %d, %v", id, seq, err)
	}
	waitLong(t, "the validation ID committed", func() bool { return r.c.TITOInfo().ID.MachineID == 0x654321 })
}

func TestCashOutTicketSecureEnhanced(t *testing.T) {
	r := newTITO(t, sas.ValidationSecureEnhanced, 0)
	r.insert(t, 1000)
	r.be.Press(hw.CashOut) // no validation ID yet: handpay, with the reason
	waitLong(t, "the handpay", func() bool { return r.machine(t).Handpay == 1000 })
	waitLong(t, "the handpay notice tito_no_validation_id", func() bool { return r.c.Snapshot().Message == "tito_no_validation_id" })
	r.be.SetSwitch(hw.ResetKey, true)
	r.be.SetSwitch(hw.ResetKey, false)
	waitLong(t, "the handpay paid", func() bool { return r.machine(t).Handpay == 0 })
	r.setID(t)
	r.insert(t, 2000)
	r.be.Press(hw.CashOut)
	waitLong(t, "the ticket printed", func() bool { return r.status(t) == recovery.TicketPrinted })
	// The reference's example: machine ID 654321, sequence 1.
	if tk := r.lastTicket(t); tk.Validation != "006429188185446104" {
		t.Errorf("validation %s, want 00 6429188185446104", tk.Validation)
	}
	conserved(t, r.machine(t))
}

// TestPrinterFailures: a failure at each stage leaves the ticket
// uncertain, its credits off the meter and play locked; the attendant's
// reset key prints it again with the same number; with the audit key on it
// voids it instead.
func TestPrinterFailures(t *testing.T) {
	r := newTITO(t, sas.ValidationSecureEnhanced, 0)
	r.setID(t)
	for i, tc := range []struct {
		name  string
		arm   func()
		clear func()
		void  bool
	}{
		{"paper out before printing", func() { r.pr.Set(tcl.PaperOut) }, func() { r.pr.Clear(tcl.PaperOut) }, false},
		{"head open after the command", func() { r.pr.FailAt(tclemu.HeadOpen, 1) }, func() { r.pr.Clear(tcl.HeadUp) }, false},
		{"jam after the validation number", func() { r.pr.FailAt(tclemu.Jam, 2) }, func() { r.pr.Clear(tcl.PaperJam) }, false},
		{"printer silent", func() { r.pr.FailAt(tclemu.Silent, 1) }, func() { r.pr.SetSilent(false) }, false},
		{"power cycle mid-print", func() { r.pr.FailAt(tclemu.PowerCycle, 2) }, func() {}, false},
		{"paper out, voided", func() { r.pr.FailAt(tclemu.PaperOut, 3) }, func() { r.pr.Clear(tcl.PaperOut) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			amount := money.Cents(500 * (i + 1))
			r.insert(t, amount)
			tc.arm()
			r.be.Press(hw.CashOut)
			waitLong(t, "the ticket uncertain", func() bool { return r.status(t) == recovery.TicketUncertain })
			first := r.lastTicket(t)
			if first.Amount != amount || first.Reason == "" {
				t.Errorf("uncertain ticket %+v, want %v with the printer's reason", first, amount)
			}
			waitLong(t, "the screen", func() bool { return r.c.Snapshot().Message == controller.NoticeTicketUncertain })
			if m := r.machine(t); m.Credits != 0 {
				t.Errorf("credits %v while the ticket is uncertain, want 0 (they left with the ticket)", m.Credits)
			}
			conserved(t, r.machine(t))
			r.be.InsertBill(500) // play stays locked: a bill credits, no round starts
			waitLong(t, "the bill", func() bool { return r.c.Snapshot().Credits == 500 })
			tc.clear()
			if tc.void {
				r.be.SetSwitch(hw.AuditKey, true)
			}
			r.be.SetSwitch(hw.ResetKey, true)
			r.be.SetSwitch(hw.ResetKey, false)
			if tc.void {
				waitLong(t, "the ticket voided", func() bool { return r.status(t) == recovery.TicketVoided })
				r.be.SetSwitch(hw.AuditKey, false)
				if m := r.machine(t); m.Meters.TicketsVoided != amount {
					t.Errorf("tickets voided %v, want %v", m.Meters.TicketsVoided, amount)
				}
			} else {
				waitLong(t, "the reprint printed", func() bool { return r.status(t) == recovery.TicketPrinted })
				again := r.lastTicket(t)
				if again.Seq != first.Seq || again.Validation != first.Validation || again.Reprints != 1 {
					t.Errorf("reprint %+v, want ticket %d with the same number %s", again, first.Seq, first.Validation)
				}
				ps := r.pr.Tickets()
				if last := ps[len(ps)-1]; !last.Complete || barcode(t, last) != first.Validation {
					t.Errorf("the printer's last ticket %+v, want %s complete", last, first.Validation)
				}
			}
			conserved(t, r.machine(t))
			// take the bill out again for the next case
			r.be.Press(hw.CashOut)
			// One read: the ticket and the credits of one commit (read
			// apart, the old ticket's status and the new cash-out's
			// credits passed while the new ticket was still printing, and
			// the next case's failure hit it).
			waitLong(t, "the next ticket", func() bool {
				var done bool
				if err := r.st.View(func(tx *recovery.Tx) error {
					out, err := tx.TicketsOut(1)
					if err != nil || len(out) == 0 {
						return err
					}
					m, err := tx.Machine()
					done = out[0].Seq != first.Seq && out[0].Status == recovery.TicketPrinted && m.Credits == 0
					return err
				}); err != nil {
					t.Fatal(err)
				}
				return done
			})
		})
	}
	m := r.machine(t)
	valid := map[string]int{}
	for _, tk := range r.pr.Tickets() {
		if tk.Complete {
			valid[barcode(t, tk)]++
		}
	}
	for v, n := range valid {
		if n > 1 {
			t.Errorf("validation number %s printed complete %d times", v, n)
		}
	}
	conserved(t, m)
}

// TestPowerCutWhilePrinting: the cabinet stops between "ticket pending"
// and the printer's confirmation; at the next boot the ticket is uncertain
// (never printed again by itself), and the attendant's reprint carries the
// same number.
func TestPowerCutWhilePrinting(t *testing.T) {
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	h, err := sashost.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	path := filepath.Join(t.TempDir(), "cabinet.db")
	r := titoBoot(t, path, pr, h, sas.ValidationSecureEnhanced, 0)
	r.setID(t)
	r.insert(t, 3000)
	pr.SetSilent(true) // the print never finishes before the cut
	r.be.Press(hw.CashOut)
	waitLong(t, "the ticket pending", func() bool { return r.status(t) == recovery.TicketPending })
	pending := r.lastTicket(t)
	r.stop() // the power cut: nothing after the pending commit reaches the store
	pr.SetSilent(false)
	n := len(pr.Tickets())

	r2 := titoBoot(t, path, pr, h, sas.ValidationSecureEnhanced, 0)
	tk := r2.lastTicket(t)
	if tk.Status != recovery.TicketUncertain || tk.Reason != recovery.ReasonPowerCut || tk.Validation != pending.Validation {
		t.Fatalf("after the boot: %+v, want %s uncertain (power cut)", tk, pending.Validation)
	}
	if got := r2.c.Snapshot().Message; got != controller.NoticeTicketUncertain {
		t.Errorf("screen %q, want %q", got, controller.NoticeTicketUncertain)
	}
	if len(pr.Tickets()) != n {
		t.Errorf("the boot printed: %d tickets, want %d", len(pr.Tickets()), n)
	}
	r2.be.Press(hw.CashOut) // nothing to cash out, and no new ticket
	r2.be.SetSwitch(hw.ResetKey, true)
	waitLong(t, "the reprint printed", func() bool { return r2.status(t) == recovery.TicketPrinted })
	if tk := r2.lastTicket(t); tk.Seq != pending.Seq || tk.Validation != pending.Validation || tk.Reprints != 1 {
		t.Errorf("reprint %+v, want ticket %d again", tk, pending.Seq)
	}
	m := r2.machine(t)
	if m.Meters.TicketsIssuedCount != 1 || m.Meters.TicketsOut != 3000 {
		t.Errorf("issued %d, out %v: want one ticket of 30.00", m.Meters.TicketsIssuedCount, m.Meters.TicketsOut)
	}
	conserved(t, m)
}

// TestTicketsAfterPlay: rounds played by autoplay between cash-outs by
// ticket, every input handed to Handle on the test's goroutine (as the
// sim's loop does): the money rule holds with credits played, and each
// ticket takes the whole credit meter with the next secure-enhanced number.
func TestTicketsAfterPlay(t *testing.T) {
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	st := recoverytest.Open(t, filepath.Join(t.TempDir(), "cabinet.db"), recovery.Options{})
	defer st.Close()
	p, err := tcl.Open(pr.Path, 9600, printerOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	host := make(chan controller.HostRequest, 64)
	be := sim.New()
	defer be.Close()
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: be, Exceptions: Exceptions, Host: host,
		RNG: controller.SeededRNG{Seed: 11}, TITO: &controller.TITO{Printer: tcl.Device{P: p, Heading: heading}, Validation: controller.ValidateSecureEnhanced, ExpiryDays: heading.ExpiryDays}})
	if err != nil {
		t.Fatal(err)
	}
	m := &Machine{Store: st, Cab: c, Host: host}
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	eng := &sas.Engine{Cfg: sas.Config{Address: 1, Denom: 1, Validation: sas.ValidationSecureEnhanced}, M: m, Q: m,
		Clock: func() time.Time { return now }}
	handle := func(in controller.Input) {
		t.Helper()
		if err := c.Handle(in); err != nil {
			t.Fatal(err)
		}
	}
	serveHost := func() {
		for {
			select {
			case r := <-host:
				handle(controller.Input{Host: &r})
			default:
				return
			}
		}
	}
	eng.Handle(now, []byte{0x82}) // sync
	if r := eng.Handle(now, sas.AppendCRC([]byte{1, 0x4C, 0x21, 0x43, 0x65, 0, 0, 0})); len(r) != 10 {
		t.Fatalf("LP 4C reply % X", r)
	}
	serveHost()
	var numbers []string
	for cashouts := 0; cashouts < 3; cashouts++ {
		for target := c.Completed() + 15; c.Completed() < target; {
			handle(controller.Input{Auto: &controller.AutoStep{Game: "classic"}})
			serveHost()
		}
		credits := c.Credits()
		if credits == 0 {
			handle(controller.HW(hw.Input{Kind: hw.BillStacked, Value: 500}))
			credits = 500
		}
		handle(controller.HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.CashOut}))
		if c.Credits() != 0 {
			t.Fatalf("credits %v after the cash-out's pending commit, want 0", c.Credits())
		}
		select {
		case ev := <-c.TicketEvents():
			handle(controller.Input{Ticket: &ev})
		case <-time.After(10 * time.Second):
			t.Fatal("no print result")
		}
		var tk []recovery.TicketOut
		if err := st.View(func(tx *recovery.Tx) error { tk, err = tx.TicketsOut(1); return err }); err != nil {
			t.Fatal(err)
		}
		if tk[0].Status != recovery.TicketPrinted || tk[0].Amount != credits {
			t.Fatalf("ticket %+v, want %v printed", tk[0], credits)
		}
		numbers = append(numbers, tk[0].Validation)
		conserved(t, c.Machine())
	}
	mt := c.Machine().Meters
	if mt.Played < 45 || mt.TicketsOutCount != 3 || mt.TotalIn == 0 {
		t.Errorf("played %d, tickets %d, wagered %v: want 45 rounds and 3 tickets", mt.Played, mt.TicketsOutCount, mt.TotalIn)
	}
	// The reference's numbers of ID 654321 for sequences 1, 2, 3: distinct.
	if numbers[0] != "006429188185446104" || numbers[1] == numbers[0] || numbers[2] == numbers[1] {
		t.Errorf("validation numbers %v", numbers)
	}
}

// TestCashOutHandpayReasons: with a printer but no way to validate a
// ticket, CASH OUT is the handpay it always was, the reason on screen and
// in the event log, nothing printed.
func TestCashOutHandpayReasons(t *testing.T) {
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	p, err := tcl.Open(pr.Path, 9600, printerOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, tc := range []struct {
		name string
		sas  bool
		mode controller.TicketValidation
		want string
	}{
		{"SAS off", false, controller.ValidateSystem, "tito_no_host"},
		{"validation none", true, controller.ValidateNone, "tito_no_validation"},
		{"no validation ID", true, controller.ValidateSecureEnhanced, "tito_no_validation_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := recovery.Open(filepath.Join(t.TempDir(), "cabinet.db"), recovery.Options{Init: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			be := sim.New()
			defer be.Close()
			opt := cabinet.Parts{Store: st, HW: be, Rules: cabinet.Rules{InForce: settings()}, RNG: controller.SeededRNG{Seed: 1},
				TITO: &controller.TITO{Printer: tcl.Device{P: p, Heading: heading}, Validation: tc.mode, ExpiryDays: heading.ExpiryDays}}
			if tc.sas {
				opt.Exceptions, opt.Host = Exceptions, make(chan controller.HostRequest, 8)
			}
			c, err := cabinet.New(opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range []hw.Input{{Kind: hw.BillStacked, Value: 2000}, {Kind: hw.ButtonPressed, Button: hw.CashOut}} {
				if err := c.Handle(controller.HW(in)); err != nil {
					t.Fatal(err)
				}
			}
			if m := c.Machine(); m.Handpay != 2000 || m.Meters.TicketsIssuedCount != 0 {
				t.Errorf("handpay %v, tickets issued %d; want a 20.00 handpay and no ticket", m.Handpay, m.Meters.TicketsIssuedCount)
			}
			if got := c.Snapshot().Message; got != tc.want {
				t.Errorf("screen %q, want %q", got, tc.want)
			}
			if n := len(pr.Tickets()); n != 0 {
				t.Errorf("%d tickets printed", n)
			}
		})
	}
}

// BenchmarkCashOutTicket: one cash-out by ticket under secure-enhanced
// validation on a real store and the tclemu printer over a pty (1 ms
// between status polls): the pending commit, the print, the printed
// commit.
func BenchmarkCashOutTicket(b *testing.B) {
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer pr.Close()
	st := recoverytest.Open(b, filepath.Join(b.TempDir(), "cabinet.db"), recovery.Options{})
	defer st.Close()
	p, err := tcl.Open(pr.Path, 9600, printerOptions)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	be := sim.New()
	defer be.Close()
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: be, Exceptions: Exceptions,
		Host: make(chan controller.HostRequest, 8), RNG: controller.SeededRNG{Seed: 1},
		TITO: &controller.TITO{Printer: tcl.Device{P: p, Heading: heading}, Validation: controller.ValidateSecureEnhanced, ExpiryDays: heading.ExpiryDays}})
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Handle(controller.Input{Host: &controller.HostRequest{ValidationID: &controller.HostValidationID{MachineID: 0x654321}}}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		for _, in := range []hw.Input{{Kind: hw.BillStacked, Value: 2000}, {Kind: hw.ButtonPressed, Button: hw.CashOut}} {
			if err := c.Handle(controller.HW(in)); err != nil {
				b.Fatal(err)
			}
		}
		ev := <-c.TicketEvents()
		if ev.Err != nil {
			b.Fatal(ev.Err)
		}
		if err := c.Handle(controller.Input{Ticket: &ev}); err != nil {
			b.Fatal(err)
		}
	}
}
