package display

import (
	"cabinet/internal/cabinet"
	"path/filepath"
	"slices"
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
	"cabinet/internal/view"
)

// ticketShots are the screens of a real cabinet with a ticket printer (the
// shipped configuration, a bbolt store in a temp dir, the tclemu printer
// over a pty): the audit page of tickets after seven tickets out (printed,
// voided, reprinted: a full table) and a ticket in returned (its record
// written before the boot), and the printer's
// notices and handpay reasons on the player's screens.
func ticketShots(t *testing.T) []namedShot {
	t.Helper()
	_, _, set := realController(t)
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close() })
	st := recoverytest.Open(t, filepath.Join(t.TempDir(), "tickets.db"), recovery.Options{})
	t.Cleanup(func() { st.Close() })
	if err := st.Update(func(tx *recovery.Tx) error {
		in, err := tx.TicketInserted("001234567890123456")
		if err != nil {
			return err
		}
		_, err = tx.TicketReturned(in.Seq, sas.RedeemValidatorFailed, "")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	p, err := tcl.Open(pr.Path, 9600, tcl.Options{Poll: time.Millisecond, Reply: 50 * time.Millisecond, NoAnswer: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	tito := &controller.TITO{Printer: tcl.Device{P: p, Heading: tcl.Ticket{Currency: "EUR", Lang: "fr",
		Casino: "Casino du Lac", Address1: "1 quai du Lac", Machine: "A-12", Asset: 4242, ExpiryDays: 30}}, Validation: controller.ValidateSecureEnhanced, ExpiryDays: 30}
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: set}, Store: st, HW: sim.New(), RNG: controller.SeededRNG{Seed: 5},
		Exceptions: func(controller.HostEvent) []byte { return nil }, TITO: tito})
	if err != nil {
		t.Fatal(err)
	}
	handle := func(in controller.Input) {
		t.Helper()
		if err := c.Handle(in); err != nil {
			t.Fatalf("%+v: %v (mode %s)", in, err, c.Snapshot().Mode)
		}
	}
	sw := func(s hw.Switch, on bool) {
		handle(controller.HW(hw.Input{Kind: hw.SwitchChanged, Switch: s, On: on}))
	}
	printed := func() {
		t.Helper()
		select {
		case ev := <-c.TicketEvents():
			handle(controller.Input{Ticket: &ev})
		case <-time.After(30 * time.Second): // a bound on a wait, not a timing assertion
			t.Fatal("no print result")
		}
	}
	cashOut := func(v money.Cents) {
		handle(controller.HW(hw.Input{Kind: hw.BillStacked, Value: v}))
		handle(controller.HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.CashOut}))
		printed()
	}
	handle(controller.Input{Host: &controller.HostRequest{ValidationID: &controller.HostValidationID{MachineID: 0x654321}}})
	for _, v := range []money.Cents{10000, 500, 2000, 5000, 1000} {
		cashOut(v)
	}
	pr.Set(tcl.PaperOut) // refused before the print: uncertain, voided
	cashOut(10000)
	pr.Clear(tcl.PaperOut)
	sw(hw.AuditKey, true)
	sw(hw.ResetKey, true)
	sw(hw.ResetKey, false)
	sw(hw.AuditKey, false)
	pr.FailAt(tclemu.Jam, 3) // jammed with the number printed: uncertain, reprinted
	cashOut(5000)
	pr.Clear(tcl.PaperJam)
	sw(hw.ResetKey, true)
	printed()
	sw(hw.ResetKey, false)

	var shots []namedShot
	for _, m := range []string{"printer_paper_low", "printer_paper_out", "printer_fault", "printer_no_answer"} {
		s := *c.Snapshot()
		s.Message = m
		shots = append(shots, namedShot{"real tickets notice " + m, &s})
	}
	sw(hw.AuditKey, true)
	for i := 0; c.Snapshot().Audit.Page != "tickets"; i++ {
		if i > 10 {
			t.Fatal("SPOT never shows the tickets page")
		}
		handle(controller.HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.Spot}))
	}
	s := *c.Snapshot()
	shots = append(shots, namedShot{"real audit tickets", &s})
	sw(hw.AuditKey, false)
	handle(controller.HW(hw.Input{Kind: hw.BillStacked, Value: 10000}))
	for _, m := range []string{"tito_printer_paper_out", "tito_printer_fault", "tito_printer_no_answer"} {
		s := *c.Snapshot()
		s.Mode, s.Under, s.Handpay, s.HandpayKind, s.Message = view.Handpay, view.Menu, 10000, "cashout", m
		shots = append(shots, namedShot{"real tickets handpay " + m, &s})
	}
	return shots
}

// TestTicketsPage: the audit page of tickets draws what the store
// committed, in both languages: every ticket's validation number grouped as
// printed, amounts, statuses translated, the ticket in's reason as the
// player was shown it, in the cabinet's language, and no key missing from the catalogues.
func TestTicketsPage(t *testing.T) {
	o := offscreen(t)
	var page *view.Snapshot
	for _, sh := range ticketShots(t) {
		if sh.name == "real audit tickets" {
			page = sh.snap
		}
	}
	tv := page.Audit.Tickets
	if tv == nil || len(tv.Out) != 7 || len(tv.In) != 1 {
		t.Fatalf("tickets view %+v, want 7 out and 1 in", tv)
	}
	for _, lang := range []string{"fr", "en"} {
		s := *page
		s.Lang = lang
		var missing []string
		if _, err := o.image(&s, 0, true, func(k string) { missing = append(missing, k) }); err != nil {
			t.Fatal(err)
		}
		if len(missing) > 0 {
			t.Errorf("%s: keys missing from the catalogue: %q", lang, missing)
		}
		l, err := o.inkOf(&s, false)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, x := range l.texts {
			texts = append(texts, x.s)
		}
		want := []string{"00-1234-5678-9012-3456", "Tickets"}
		for _, ln := range tv.Out {
			want = append(want, ln.Validation, ln.Time)
		}
		if lang == "fr" {
			want = append(want, "Imprimé", "Annulé", "Rendu", "Ticket rendu : le valideur n'a pas pu le prendre", "Tickets émis", "7", "Imprimé · réimprimé 1×", "—")
		} else {
			want = append(want, "Printed", "Voided", "Returned", "Ticket returned: the validator could not take it", "Tickets issued", "7", "Printed · reprinted 1×", "—")
		}
		for _, w := range want {
			if !slices.ContainsFunc(texts, func(x string) bool { return x == w }) {
				t.Errorf("%s: %q not drawn (drawn: %q)", lang, w, texts)
			}
		}
		if probs := inkProblems(l); len(probs) > 0 {
			t.Errorf("%s: %d problems:%s", lang, len(probs), list(probs, 8))
		}
	}
}
