package sashost_test

// The cash-out side of the autonomous casino against the real cabinet: a
// real store, the real controller (Run on its own goroutine), the tclemu
// printer over a pty driven by the tcl host, and the SAS engine served
// over the casino's pty, wired as internal/sasmachine's tests and
// cmd/cabinet wire them. In process, a test decides when the cabinet
// cashes out (after LP 4C has set the validation ID, say); the whole cycle
// against `cabinet sim` itself is TestServeSimTickets.
//
// This file is an external test package: it imports the cabinet (its SAS
// engine included) to run it, while the host under test is used only
// through its exported API, and internal/sashost itself still imports
// nothing of the cabinet.

import (
	assembly "cabinet/internal/cabinet"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
	"cabinet/internal/sas"
	"cabinet/internal/sashost"
	"cabinet/internal/sasmachine"
)

type cabinet struct {
	be   *sim.Backend
	c    *controller.Controller
	stop func()
}

// boot runs the cabinet on the store at path with printer pr and its SAS
// link on the casino's pty, in validation mode mode.
func boot(t *testing.T, path string, pr *tclemu.Printer, h *sashost.Host, mode sas.ValidationMode) *cabinet {
	t.Helper()
	st := recoverytest.Open(t, path, recovery.Options{})
	p, err := tcl.Open(pr.Path, 9600, tcl.Options{Poll: time.Millisecond, Reply: 50 * time.Millisecond, NoAnswer: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	host := make(chan controller.HostRequest, 64)
	be := sim.New()
	heading := tcl.Ticket{Currency: "EUR", Lang: "en", Casino: "Casino du Lac", Address1: "1 quai du Lac", Machine: "A-12", Asset: 4242, ExpiryDays: 30}
	tito := &controller.TITO{Printer: tcl.Device{P: p, Heading: heading}, Validation: controller.TicketValidation(mode), Wait: 30 * time.Second,
		ExpiryDays: heading.ExpiryDays}
	set := controller.InForce{
		Games: []game.ID{game.Classic}, Rules: map[game.ID]blackjack.Rules{game.Classic: blackjack.Classic()},
		CreditLimit: 100000, HandpayLimit: 120000, Bills: []money.Cents{500, 1000, 2000, 5000, 10000},
		Chips: []money.Cents{100, 500, 2500}, Denom: 1, Currency: "€", Language: "en", Volume: 80,
	}
	c, err := assembly.New(assembly.Parts{Rules: assembly.Rules{InForce: set}, Store: st, HW: be, Exceptions: sasmachine.Exceptions, Host: host,
		RNG: controller.SeededRNG{Seed: 7}, TITO: tito})
	if err != nil {
		t.Fatal(err)
	}
	port, err := sas.OpenPort(h.Slave)
	if err != nil {
		t.Fatal(err)
	}
	m := &sasmachine.Machine{Store: st, Cab: c, Host: host}
	eng := &sas.Engine{Cfg: sas.Config{Address: 1, Denom: 1, Asset: 4242, Validation: mode}, M: m, Q: m}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { _ = c.Run(ctx); done <- struct{}{} }()
	go func() { _ = sas.Serve(ctx, port, eng, sas.LinkOptions{}); done <- struct{}{} }()
	cab := &cabinet{be: be, c: c}
	stopped := false
	cab.stop = func() {
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
	t.Cleanup(cab.stop)
	return cab
}

// wait waits for ok: a bound on a wait, generous for a loaded machine,
// not a timing assertion.
func wait(t *testing.T, what string, casino *sashost.Casino, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); {
		if ok() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s; ledger %+v; stats %+v", what, casino.Ledger(), casino.Stats())
}

// cashOut stacks bills, then presses CASH OUT once they are credited.
func (cab *cabinet) cashOut(t *testing.T, casino *sashost.Casino, bills ...money.Cents) {
	t.Helper()
	want := cab.c.Snapshot().Credits
	for _, b := range bills {
		want += b
		cab.be.InsertBill(b)
	}
	wait(t, "the bills credited", casino, func() bool { return cab.c.Snapshot().Credits == want })
	cab.be.Press(hw.CashOut)
}

func barcodes(pr *tclemu.Printer) []string {
	var out []string
	for _, tk := range pr.Tickets() {
		for _, f := range tk.Fields {
			if f.Barcode && tk.Complete {
				out = append(out, f.Data)
			}
		}
	}
	return out
}

func entry(casino *sashost.Casino, number string) (sashost.TicketRecord, bool) {
	for _, r := range casino.Ledger() {
		if r.Number == number {
			return r, true
		}
	}
	return sashost.TicketRecord{}, false
}

func serve(t *testing.T, casino *sashost.Casino) {
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- casino.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; !errors.Is(err, context.Canceled) {
			t.Errorf("Serve = %v, want context.Canceled", err)
		}
	})
}

// System validation: each cash-out gets the casino's next number (57 →
// LP 57, LP 58), the printed ticket carries it, and its record (3D →
// LP 4D) makes it outstanding in the ledger at the printed amount; the
// cabinet restarting on its store between two cash-outs is survived.
func TestServeSystemValidationCabinet(t *testing.T) {
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close() })
	h, err := sashost.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	t.Cleanup(func() { h.Close() })
	path := filepath.Join(t.TempDir(), "cabinet.db")
	cab := boot(t, path, pr, h, sas.ValidationSystem)
	casino := &sashost.Casino{H: h, Addr: 1, Wait: time.Second, Interval: 5 * time.Millisecond, SystemID: 12, NextNumber: 7000000000000001}
	serve(t, casino)

	const first, second = "127000000000000001", "127000000000000002"
	cab.cashOut(t, casino, 2000, 500)
	wait(t, "the first ticket outstanding", casino, func() bool { r, _ := entry(casino, first); return r.Status == sashost.TicketOutstanding })
	if r, _ := entry(casino, first); !r.Given || !r.Read || r.Cents != 2500 || r.Type != 0x00 {
		t.Errorf("ledger %+v: want given and read, a cashable ticket of 2500 cents", r)
	}
	if got := barcodes(pr); len(got) != 1 || got[0] != first {
		t.Errorf("printed %q, want [%s]", got, first)
	}

	// A restart: the cabinet goes silent, then boots on its store.
	cab.stop()
	cab = boot(t, path, pr, h, sas.ValidationSystem)
	cab.cashOut(t, casino, 1000)
	wait(t, "the second ticket outstanding", casino, func() bool { r, _ := entry(casino, second); return r.Status == sashost.TicketOutstanding })
	if r, _ := entry(casino, second); !r.Given || !r.Read || r.Cents != 1000 {
		t.Errorf("ledger %+v: want given and read, 1000 cents", r)
	}
	if got := barcodes(pr); len(got) != 2 || got[1] != second {
		t.Errorf("printed %q, want the second ticket %s", got, second)
	}
	if l := casino.Ledger(); len(l) != 2 {
		t.Errorf("ledger %+v: want the two tickets only", l)
	}
	s := casino.Stats()
	if s.Exceptions[0x57] < 2 || s.Exceptions[0x3D] < 2 || s.Redeemed != 0 {
		t.Errorf("stats %+v: want 57 and 3D for each ticket, nothing redeemed", s)
	}
	t.Logf("stats %+v", s)
}

// Secure-enhanced validation: the machine reports 3F until the casino
// sets its validation ID (LP 4C); its first ticket then carries the
// reference's number for ID 654321, sequence 1, which the casino learns
// from the record alone (3D → LP 4D).
func TestServeSecureEnhancedCabinet(t *testing.T) {
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close() })
	h, err := sashost.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	t.Cleanup(func() { h.Close() })
	cab := boot(t, filepath.Join(t.TempDir(), "cabinet.db"), pr, h, sas.ValidationSecureEnhanced)
	casino := &sashost.Casino{H: h, Addr: 1, Wait: time.Second, Interval: 5 * time.Millisecond, MachineID: 0x654321, Sequence: 0}
	serve(t, casino)
	wait(t, "3F", casino, func() bool { return casino.Stats().Exceptions[0x3F] > 0 })
	// LP 4C follows 3F before the next general poll.
	p := casino.Stats().Polls
	wait(t, "the validation ID set", casino, func() bool { return casino.Stats().Polls > p+1 })

	const number = "006429188185446104" // shared/spec: docs/sas.md's vector
	cab.cashOut(t, casino, 5000)
	wait(t, "the ticket outstanding", casino, func() bool { r, _ := entry(casino, number); return r.Status == sashost.TicketOutstanding })
	if r, _ := entry(casino, number); r.Given || !r.Read || r.Cents != 5000 {
		t.Errorf("ledger %+v: want read (not given), 5000 cents", r)
	}
	if got := barcodes(pr); len(got) != 1 || got[0] != number {
		t.Errorf("printed %q, want [%s]", got, number)
	}
}
