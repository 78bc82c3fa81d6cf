package sasmachine

import (
	"bufio"
	"cabinet/internal/cabinet"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cabinet/internal/controller"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/recovery"
)

// killChild is the environment variable that makes TestKillWhilePrinting
// the child: "store path|printer path".
const killChild = "CABINET_TITO_KILL_CHILD"

// TestKillWhilePrinting: a real process commits "ticket pending" (its
// credits off the meter) and is SIGKILLed while the printer has not
// answered; the next boot finds the ticket uncertain, prints nothing by
// itself, and the attendant's reprint carries the same number once.
func TestKillWhilePrinting(t *testing.T) {
	if env := os.Getenv(killChild); env != "" {
		killChildMain(env)
		return
	}
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	pr.SetSilent(true)
	path := filepath.Join(t.TempDir(), "cabinet.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillWhilePrinting$", "-test.count=1")
	cmd.Env = append(os.Environ(), killChild+"="+path+"|"+pr.Path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "PENDING ") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q, %v; want PENDING", line, err)
	}
	validation := strings.TrimSpace(strings.TrimPrefix(line, "PENDING "))
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	pr.SetSilent(false)
	printed := len(pr.Tickets())

	st, err := recovery.Open(path, recovery.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := tcl.Open(pr.Path, 9600, printerOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	be := sim.New()
	defer be.Close()
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: be, Exceptions: Exceptions,
		Host: make(chan controller.HostRequest, 8), RNG: controller.SeededRNG{Seed: 1},
		TITO: &controller.TITO{Printer: tcl.Device{P: p, Heading: heading}, Validation: controller.ValidateSecureEnhanced, ExpiryDays: heading.ExpiryDays}})
	if err != nil {
		t.Fatal(err)
	}
	ticket := func() recovery.TicketOut {
		t.Helper()
		var tk []recovery.TicketOut
		if err := st.View(func(tx *recovery.Tx) error { tk, err = tx.TicketsOut(1); return err }); err != nil || len(tk) != 1 {
			t.Fatalf("tickets out %v, %v", tk, err)
		}
		return tk[0]
	}
	tk := ticket()
	if tk.Status != recovery.TicketUncertain || tk.Reason != recovery.ReasonPowerCut || tk.Validation != validation {
		t.Fatalf("after the kill and boot: %+v, want %s uncertain (power cut)", tk, validation)
	}
	if c.Snapshot().Message != controller.NoticeTicketUncertain || len(pr.Tickets()) != printed {
		t.Errorf("screen %q, %d tickets printed (before the boot %d)", c.Snapshot().Message, len(pr.Tickets()), printed)
	}
	m := c.Machine()
	if m.Credits != 0 || m.Meters.TicketsIssued != 4000 {
		t.Errorf("credits %v, issued %v: want the 40.00 off the meter, on the ticket", m.Credits, m.Meters.TicketsIssued)
	}
	if err := c.Handle(controller.HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: true})); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-c.TicketEvents():
		if err := c.Handle(controller.Input{Ticket: &ev}); err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no print result")
	}
	if tk := ticket(); tk.Status != recovery.TicketPrinted || tk.Validation != validation || tk.Reprints != 1 {
		t.Errorf("after the reprint: %+v", tk)
	}
	conserved(t, c.Machine())
}

// killChildMain is the child: a cabinet that cashes 40.00 out to a ticket
// and says PENDING once the pending ticket is committed, then waits for
// its kill (the printer is silent; it would give up only after a minute).
func killChildMain(env string) {
	path, printer, _ := strings.Cut(env, "|")
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(3)
	}
	st, err := recovery.Open(path, recovery.Options{Init: true})
	if err != nil {
		fail(err)
	}
	p, err := tcl.Open(printer, 9600, tcl.Options{Poll: time.Millisecond, NoAnswer: time.Minute})
	if err != nil {
		fail(err)
	}
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: sim.New(), Exceptions: Exceptions,
		Host: make(chan controller.HostRequest, 8), RNG: controller.SeededRNG{Seed: 1},
		TITO: &controller.TITO{Printer: tcl.Device{P: p, Heading: heading}, Validation: controller.ValidateSecureEnhanced, ExpiryDays: heading.ExpiryDays}})
	if err != nil {
		fail(err)
	}
	for _, in := range []controller.Input{
		{Host: &controller.HostRequest{ValidationID: &controller.HostValidationID{MachineID: 0x654321}}},
		controller.HW(hw.Input{Kind: hw.BillStacked, Value: 2000}),
		controller.HW(hw.Input{Kind: hw.BillStacked, Value: 2000}),
		controller.HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.CashOut}),
	} {
		if err := c.Handle(in); err != nil {
			fail(err)
		}
	}
	var tk []recovery.TicketOut
	if err := st.View(func(tx *recovery.Tx) error { tk, err = tx.TicketsOut(1); return err }); err != nil || len(tk) != 1 || tk[0].Status != recovery.TicketPending {
		fail(fmt.Errorf("tickets %v, %v: want one pending", tk, err))
	}
	fmt.Printf("PENDING %s\n", tk[0].Validation)
	time.Sleep(time.Hour) // until the kill
}
