package sasmachine

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/recovery"
	"cabinet/internal/sas"
	"cabinet/internal/sashost"
)

// queuedCodes is the store's SAS exception queue: what the host hears.
func (r *titoRig) queuedCodes(t *testing.T) []byte {
	t.Helper()
	var q []recovery.Exception
	if err := r.st.View(func(tx *recovery.Tx) error { var err error; q, err = tx.Exceptions(); return err }); err != nil {
		t.Fatal(err)
	}
	var out []byte
	for _, e := range q {
		out = append(out, e.Code)
	}
	return out
}

// printerLogged is the newest printer condition in the event log
// ("printer_ok", "printer_paper_out", …; "" if none).
func (r *titoRig) printerLogged(t *testing.T) string {
	t.Helper()
	var last string
	if err := r.st.View(func(tx *recovery.Tx) error {
		evs, err := tx.Events(0)
		for _, e := range evs {
			if strings.HasPrefix(e.Detail, "printer_") {
				last = e.Detail
				break
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return last
}

// enqs counts the status requests the printer has answered or heard.
func enqs(pr *tclemu.Printer) int {
	n := 0
	for _, c := range pr.Received() {
		if c == "ENQ" {
			n++
		}
	}
	return n
}

func count(b []byte, c byte) int {
	n := 0
	for _, x := range b {
		if x == c {
			n++
		}
	}
	return n
}

// TestPrinterStatusBetweenTickets: the cabinet asks the printer's status
// between tickets (the tclemu printer over a pty, every 20 ms here). Paper
// out is shown, logged and raised to the host as 61 once however many
// polls find it; a cash-out meanwhile is a handpay at once with the reason
// on screen, nothing sent to the printer; paper back, the next cash-out
// prints its ticket. A printer that stops answering raises 60 once, paper
// low 74 once.
func TestPrinterStatusBetweenTickets(t *testing.T) {
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
	r := titoBootEvery(t, filepath.Join(t.TempDir(), "cabinet.db"), pr, h, sas.ValidationSecureEnhanced, 10*time.Second, 20*time.Millisecond)
	r.setID(t)
	message := func(want string) {
		t.Helper()
		waitLong(t, "the screen saying "+want, func() bool { return r.c.Snapshot().Message == want })
	}
	polls := func(n int) { // n more status requests with the condition unchanged
		t.Helper()
		target := enqs(pr) + n
		waitLong(t, "more status requests", func() bool { return enqs(pr) >= target })
	}

	pr.Set(tcl.PaperOut)
	message("printer_paper_out")
	polls(5)
	if q := r.queuedCodes(t); count(q, 0x61) != 1 || count(q, 0x60) != 0 {
		t.Fatalf("queued % X after paper out for 5 more polls, want one 61", q)
	}
	// A cash-out while out of paper: a handpay at once, the reason shown,
	// no print command sent.
	r.insert(t, 2000)
	sent := len(pr.Received())
	r.be.Press(hw.CashOut)
	waitLong(t, "the handpay", func() bool { return r.machine(t).Handpay == 2000 })
	message("tito_printer_paper_out")
	if s := r.c.Snapshot(); s.Mode != "handpay" {
		t.Errorf("mode %s, want handpay", s.Mode)
	}
	for _, c := range pr.Received()[sent:] {
		if c != "ENQ" {
			t.Errorf("sent %q to the printer while out of paper", c)
		}
	}
	if tk := pr.Tickets(); len(tk) != 0 {
		t.Errorf("printed %d tickets", len(tk))
	}
	r.be.SetSwitch(hw.ResetKey, true) // the attendant pays
	r.be.SetSwitch(hw.ResetKey, false)
	waitLong(t, "the handpay paid", func() bool { return r.machine(t).Handpay == 0 })

	// Paper back: the next cash-out prints.
	pr.Clear(tcl.PaperOut)
	// Ready once the cabinet's poll has found the paper back (logged): the
	// screen leaves "printer_paper_out" earlier, for the handpay's notice,
	// and a cash-out before that poll is a handpay again.
	waitLong(t, "the printer ready", func() bool { return r.printerLogged(t) == "printer_ok" })
	r.insert(t, 500)
	r.be.Press(hw.CashOut)
	waitLong(t, "the ticket printed", func() bool { return r.status(t) == recovery.TicketPrinted })
	if tk := pr.Tickets(); len(tk) != 1 || !tk[0].Complete {
		t.Fatalf("printer holds %+v, want one complete ticket", tk)
	}
	if m := r.machine(t); m.Meters.TicketsOut != 500 || m.Meters.HandpayCancelled != 2000 {
		t.Errorf("tickets out %v, handpaid %v; want 5.00 by ticket and 20.00 by hand", m.Meters.TicketsOut, m.Meters.HandpayCancelled)
	}
	conserved(t, r.machine(t))
	r.insert(t, 500) // credits again: the screen no longer says the ticket is printed

	// Silence: 60 once; paper low: 74 once (shown, cash-outs still print).
	pr.SetSilent(true)
	message("printer_no_answer")
	polls(2)
	pr.Set(tcl.PaperLow)
	pr.SetSilent(false)
	waitLong(t, "paper low", func() bool {
		m := r.c.Snapshot().Message
		return m == "printer_paper_low"
	})
	polls(3)
	q := r.queuedCodes(t)
	if count(q, 0x61) != 1 || count(q, 0x60) != 1 || count(q, 0x74) != 1 {
		t.Errorf("queued % X, want one each of 61, 60 and 74", q)
	}
	// The host hears them: 61 before 60 before 74.
	var heard []byte
	for range 200 {
		x, err := r.casino.GeneralPoll()
		if err != nil {
			t.Fatal(err)
		}
		if x == 0 {
			break
		}
		heard = append(heard, x)
	}
	i61, i60, i74 := slices.Index(heard, 0x61), slices.Index(heard, 0x60), slices.Index(heard, 0x74)
	if i61 < 0 || i60 < i61 || i74 < i60 {
		t.Errorf("the host heard % X, want 61, then 60, then 74", heard)
	}
	var logged []string
	if err := r.st.View(func(tx *recovery.Tx) error {
		evs, err := tx.Events(0)
		for _, e := range evs {
			if len(e.Detail) > 8 && e.Detail[:8] == "printer_" {
				logged = append(logged, e.Detail)
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// Newest first: each change once.
	want := []string{"printer_paper_low", "printer_no_answer", "printer_ok", "printer_paper_out"}
	if !slices.Equal(logged, want) {
		t.Errorf("logged %q, want %q", logged, want)
	}
}
