package controller

import (
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"cabinet/internal/desk"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/sas"
	"cabinet/internal/view"
)

// titoRig is a cabinet with a ticket printer: a real store, the tclemu
// printer over a pty driven by the tcl host, secure-enhanced validation
// with the host's LP 4C applied, the SAS exception queue on (hostKinds).
type titoRig struct {
	t  testing.TB
	st *recovery.Store
	c  *Controller
	pr *tclemu.Printer
}

// newTITORig boots it on a new store; seed, if set, writes records into
// the store before the boot.
func newTITORig(t testing.TB, every time.Duration, seed func(tx *recovery.Tx) error) *titoRig {
	t.Helper()
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close() })
	path := filepath.Join(t.TempDir(), "cabinet.db")
	if seed != nil {
		st, err := recovery.Open(path, recovery.Options{Init: true})
		if err != nil {
			t.Fatal(err)
		}
		err = st.Update(seed)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	p, err := tcl.Open(pr.Path, 9600, tcl.Options{Poll: time.Millisecond, Reply: 50 * time.Millisecond, NoAnswer: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	tito := &TITO{Printer: tcl.Device{P: p, Heading: tcl.Ticket{Currency: "EUR", Lang: "en",
		Casino: "Casino du Lac", Address1: "1 quai du Lac", Machine: "A-12", Asset: 4242, ExpiryDays: 30}}, Validation: ValidateSecureEnhanced, StatusEvery: every, ExpiryDays: 30}
	c, st := testCabinet(t, Options{HW: sim.New(), RNG: SeededRNG{Seed: 3}, InForce: testSettings(), Exceptions: hostKinds, TITO: tito}, kitStore{path: path})
	r := &titoRig{t: t, st: st, c: c, pr: pr}
	r.handle(Input{Host: &HostRequest{ValidationID: &HostValidationID{MachineID: 0x654321}}})
	return r
}

func (r *titoRig) handle(in Input) {
	r.t.Helper()
	if err := r.c.Handle(in); err != nil {
		r.t.Fatalf("%+v: %v (mode %s)", in, err, r.c.Snapshot().Mode)
	}
}

// cashOut stacks bill v, presses CASH OUT and hands the printer's result
// to the controller.
func (r *titoRig) cashOut(v money.Cents) {
	r.t.Helper()
	r.handle(HW(hw.Input{Kind: hw.BillStacked, Value: v}))
	r.handle(HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.CashOut}))
	r.printResult()
}

// printResult waits for the printer's result (skipping status polls) and
// hands it to the controller.
func (r *titoRig) printResult() {
	r.t.Helper()
	for {
		select {
		case ev := <-r.c.TicketEvents():
			r.handle(Input{Ticket: &ev})
			if ev.Kind == desk.TicketPrintResult {
				return
			}
		case <-time.After(30 * time.Second): // a bound on a wait, not a timing assertion
			r.t.Fatal("no print result")
		}
	}
}

// TestTicketsAuditPage: the audit page "tickets" shows the ticket meters
// and the last tickets out and in as the store committed them: a ticket
// printed, one the printer failed that the attendant voided, one jammed
// and reprinted, and a ticket in returned (its record written before the
// boot: the ticket-in flow itself is the note desk's, ticketin_test.go).
func TestTicketsAuditPage(t *testing.T) {
	r := newTITORig(t, 0, func(tx *recovery.Tx) error {
		in, err := tx.TicketInserted("001234567890123456")
		if err != nil {
			return err
		}
		_, err = tx.TicketReturned(in.Seq, sas.RedeemLinkDown, "")
		return err
	})
	r.cashOut(2000) // printed
	r.pr.Set(tcl.PaperOut)
	r.cashOut(500) // refused before the command: uncertain
	r.pr.Clear(tcl.PaperOut)
	r.handle(HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: true}))
	r.handle(HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: true})) // void
	r.handle(HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: false}))
	r.handle(HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: false}))
	r.pr.FailAt(tclemu.Jam, 3)
	r.cashOut(1000)                                                               // jammed after the validation number: uncertain
	r.pr.Clear(tcl.PaperJam)                                                      // the attendant clears the jam
	r.handle(HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: true})) // reprint
	r.printResult()
	r.handle(HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: false}))

	r.handle(HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: true}))
	for i := 0; r.c.Snapshot().Audit.Page != "tickets"; i++ {
		if i == len(auditPages) {
			t.Fatal("SPOT never shows the tickets page")
		}
		r.handle(HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.Spot}))
	}
	tv := r.c.Snapshot().Audit.Tickets
	if tv == nil {
		t.Fatal("tickets page without its view")
	}
	wantMeters := []view.TicketMeter{{Key: "issued", Count: 3, Amount: 3500}, {Key: "printed", Count: 2, Amount: 3000},
		{Key: "voided", Count: 1, Amount: 500}, {Key: "redeemed"}}
	if len(tv.Meters) != len(wantMeters) {
		t.Fatalf("meters %+v, want %+v", tv.Meters, wantMeters)
	}
	for i := range wantMeters {
		if tv.Meters[i] != wantMeters[i] {
			t.Errorf("meter %d = %+v, want %+v", i, tv.Meters[i], wantMeters[i])
		}
	}
	// The store's own records, newest first, as the page must show them.
	var outs []recovery.TicketOut
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		outs, err = tx.TicketsOut(0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	grouped := regexp.MustCompile(`^\d{2}-\d{4}-\d{4}-\d{4}-\d{4}$`)
	wantOut := []struct {
		status   string
		amount   money.Cents
		reprints int
		reason   bool
	}{{"printed", 1000, 1, true}, {"voided", 500, 0, true}, {"printed", 2000, 0, false}}
	if len(tv.Out) != len(wantOut) || len(outs) != len(wantOut) {
		t.Fatalf("tickets out %+v (store %d), want %d", tv.Out, len(outs), len(wantOut))
	}
	for i, w := range wantOut {
		l := tv.Out[i]
		if l.Status != w.status || l.Amount != w.amount || l.Reprints != w.reprints || (l.Reason != "") != w.reason {
			t.Errorf("ticket out %d = %+v, want %+v", i, l, w)
		}
		if !grouped.MatchString(l.Validation) || l.Validation != tcl.FormatValidation(outs[i].Validation) {
			t.Errorf("ticket out %d validation %q, want %s grouped 2-4-4-4-4", i, l.Validation, outs[i].Validation)
		}
		if l.Time != outs[i].Created.Format(time.DateTime) {
			t.Errorf("ticket out %d time %q, want %v", i, l.Time, outs[i].Created)
		}
	}
	if len(tv.In) != 1 || tv.In[0].Validation != "00-1234-5678-9012-3456" || tv.In[0].Status != "returned" || tv.In[0].Code != "status_89" ||
		tv.In[0].Reason == "" {
		t.Errorf("tickets in %+v, want the returned 00-1234-5678-9012-3456 with reason status_89", tv.In)
	}
	// Another page carries no tickets view (read only for its page).
	r.handle(HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.Spot}))
	if a := r.c.Snapshot().Audit; a.Page == "tickets" || a.Tickets != nil {
		t.Errorf("page %q carries tickets %v", a.Page, a.Tickets)
	}
}

// BenchmarkTicketsPage: one input while the tickets page is shown (HIT,
// which changes nothing there): the store's rings read for the page, the
// snapshot drawn, with seven tickets out and one in.
//
//	go test ./internal/controller -run '^$' -bench TicketsPage -benchtime 2000x
func BenchmarkTicketsPage(b *testing.B) {
	r := newTITORig(b, 0, func(tx *recovery.Tx) error {
		in, err := tx.TicketInserted("001234567890123456")
		if err != nil {
			return err
		}
		_, err = tx.TicketReturned(in.Seq, sas.RedeemLinkDown, "")
		return err
	})
	for range 7 {
		r.cashOut(2000)
	}
	r.handle(HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: true}))
	for r.c.Snapshot().Audit.Page != "tickets" {
		r.handle(HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.Spot}))
	}
	hit := HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.Hit})
	b.ResetTimer()
	for range b.N {
		if err := r.c.Handle(hit); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if tv := r.c.Snapshot().Audit.Tickets; tv == nil || len(tv.Out) != 7 || len(tv.In) != 1 {
		b.Fatalf("tickets page %+v", tv)
	}
}
