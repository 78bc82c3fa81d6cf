package tcl_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/i18n"
	"cabinet/internal/serial"
)

// fast are host timings for tests: quick polls, and a NoAnswer long
// enough that only a printer that really stays silent reaches it.
var fast = tcl.Options{Reply: 50 * time.Millisecond, Poll: 2 * time.Millisecond, NoAnswer: 5 * time.Second, Start: 5 * time.Second}

// rig starts an emulated printer and opens the host on its pty.
func rig(t *testing.T, eo tclemu.Options, o tcl.Options) (*tclemu.Printer, *tcl.Printer) {
	t.Helper()
	emu, err := tclemu.New(eo)
	if err != nil {
		t.Fatalf("tclemu.New: %v", err)
	}
	t.Cleanup(func() {
		if err := emu.Close(); err != nil {
			t.Errorf("emulator Close: %v", err)
		}
	})
	p, err := tcl.Open(emu.Path, 38400, o)
	if err != nil {
		t.Fatalf("Open(%s): %v", emu.Path, err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("printer Close: %v", err)
		}
	})
	return emu, p
}

func sample() tcl.Ticket {
	return tcl.Ticket{
		Validation: "001234567890123456",
		Amount:     123456,
		Currency:   "USD",
		Lang:       i18n.EN,
		Casino:     "CASINO DU LAC",
		Address1:   "1 RUE DU PORT",
		Address2:   "74000 ANNECY",
		Machine:    "A-12",
		Asset:      40312,
		Issued:     time.Date(2026, 11, 25, 16, 33, 54, 0, time.UTC),
		Number:     42,
		ExpiryDays: 30,
	}
}

func TestPrintTicket(t *testing.T) {
	fr := sample()
	fr.Lang, fr.Currency, fr.ExpiryDays, fr.Amount, fr.Address2 = i18n.FR, "EUR", 0, 8_008_000, ""
	tests := []struct {
		name string
		t    tcl.Ticket
		want []string
	}{
		{"english", sample(), []string{
			"CASINO DU LAC", "1 RUE DU PORT", "74000 ANNECY", "CASHOUT TICKET",
			"VALIDATION 00-1234-5678-9012-3456", "DATE 2026-11-25", "TIME 16:33:54", "TICKET # 0042",
			"USD 1,234.56", "ONE THOUSAND TWO HUNDRED THIRTY-FOUR AND 56/100",
			"MACHINE A-12", "ASSET 40312", "VOID AFTER 30 DAYS", "001234567890123456"}},
		{"french", fr, []string{
			"CASINO DU LAC", "1 RUE DU PORT", "", "TICKET DE PAIEMENT",
			"VALIDATION 00-1234-5678-9012-3456", "DATE 2026-11-25", "HEURE 16:33:54", "TICKET NO 0042",
			"80 080,00 EUR", "QUATRE-VINGT MILLE QUATRE-VINGTS ET 00/100",
			"MACHINE A-12", "ACTIF 40312", "SANS EXPIRATION", "001234567890123456"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emu, p := rig(t, tclemu.Options{}, fast)
			st, err := p.Print(tt.t)
			if err != nil {
				t.Fatalf("Print: %v", err)
			}
			if st.Has(tcl.Busy) || !st.Has(tcl.ValidationDone) {
				t.Errorf("Print status = %v, want validation done and not busy", st)
			}
			got := emu.Tickets()
			if len(got) != 1 {
				t.Fatalf("printer recorded %d tickets, want 1", len(got))
			}
			tk := got[0]
			if !tk.Complete || !tk.ValidationPrinted || tk.Copies != 1 || tk.Template != tcl.TemplateID {
				t.Errorf("ticket = %+v, want complete, validation printed, 1 copy of template %q", tk, tcl.TemplateID)
			}
			if d := tk.Data(); !slices.Equal(d, tt.want) {
				t.Errorf("printed fields:\n got %q\nwant %q", d, tt.want)
			}
			for i, f := range tk.Fields {
				if f.Barcode != (i == tcl.RegionBarcode) {
					t.Errorf("field %d (%q) barcode = %v, want %v", i, f.Data, f.Barcode, i == tcl.RegionBarcode)
				}
			}
		})
	}
}

// TestPrintEscapes: the bytes TCL reserves travel escaped and arrive whole.
func TestPrintEscapes(t *testing.T) {
	emu, p := rig(t, tclemu.Options{}, fast)
	tk := sample()
	tk.Casino = "LE ^ROYAL| ~CLUB~"
	if _, err := p.Print(tk); err != nil {
		t.Fatalf("Print: %v", err)
	}
	if got := emu.Tickets()[0].Fields[tcl.RegionCasino].Data; got != tk.Casino {
		t.Errorf("casino printed %q, want %q", got, tk.Casino)
	}
	if got, want := tcl.Escape("a|b^c~d"), "a~124b~094c~126d"; got != want {
		t.Errorf("Escape = %q, want %q", got, want)
	}
}

// TestPrintRefusesInvalidTicket: a bad ticket is refused naming the field,
// and not one byte reaches the printer.
func TestPrintRefusesInvalidTicket(t *testing.T) {
	tests := []struct {
		field  string
		change func(*tcl.Ticket)
	}{
		{"validation number", func(t *tcl.Ticket) { t.Validation = "12345678901234567" }},
		{"validation number", func(t *tcl.Ticket) { t.Validation = "1234567890123456789" }},
		{"validation number", func(t *tcl.Ticket) { t.Validation = "00123456789012345X" }},
		{"validation number", func(t *tcl.Ticket) { t.Validation = "000000000000000000" }},
		{"amount", func(t *tcl.Ticket) { t.Amount = 0 }},
		{"amount", func(t *tcl.Ticket) { t.Amount = -500 }},
		{"amount", func(t *tcl.Ticket) { t.Amount = tcl.MaxAmount + 1 }},
		{"currency", func(t *tcl.Ticket) { t.Currency = "€" }},
		{"currency", func(t *tcl.Ticket) { t.Currency = "usd" }},
		{"language", func(t *tcl.Ticket) { t.Lang = "de" }},
		{"casino name", func(t *tcl.Ticket) { t.Casino = "" }},
		{"casino name", func(t *tcl.Ticket) { t.Casino = "CASINO DE MONTRÉAL" }},
		{"casino name", func(t *tcl.Ticket) { t.Casino = strings.Repeat("X", tcl.MaxLine+1) }},
		{"address line 1", func(t *tcl.Ticket) { t.Address1 = "" }},
		{"address line 2", func(t *tcl.Ticket) { t.Address2 = "LINE\nBREAK" }},
		{"machine number", func(t *tcl.Ticket) { t.Machine = "" }},
		{"machine number", func(t *tcl.Ticket) { t.Machine = "A 12" }},
		{"asset number", func(t *tcl.Ticket) { t.Asset = 0 }},
		{"issue time", func(t *tcl.Ticket) { t.Issued = time.Time{} }},
		{"ticket number", func(t *tcl.Ticket) { t.Number = -1 }},
		{"ticket number", func(t *tcl.Ticket) { t.Number = 0xFFFF }},
		{"expiry", func(t *tcl.Ticket) { t.ExpiryDays = -1 }},
		{"expiry", func(t *tcl.Ticket) { t.ExpiryDays = 10000 }},
	}
	emu, p := rig(t, tclemu.Options{}, fast)
	for _, tt := range tests {
		tk := sample()
		tt.change(&tk)
		_, err := p.Print(tk)
		var te *tcl.TicketError
		if !errors.As(err, &te) || !errors.Is(err, tcl.ErrInvalidTicket) {
			t.Errorf("Print(bad %s) = %v, want a *TicketError", tt.field, err)
			continue
		}
		if te.Field != tt.field {
			t.Errorf("Print(bad %s) refused field %q (%v)", tt.field, te.Field, err)
		}
	}
	if got := emu.Received(); len(got) != 0 {
		t.Errorf("printer received %q after invalid tickets, want nothing", got)
	}
}

// TestPrintNotSent: a printer that cannot print is found out before the
// print command is sent: nothing printed, Stage NotSent.
func TestPrintNotSent(t *testing.T) {
	tests := []struct {
		set  tcl.Flags
		want error
	}{
		{tcl.PaperOut, tcl.ErrPaperOut},
		{tcl.HeadUp, tcl.ErrHeadOpen},
		{tcl.ChassisOpen, tcl.ErrHeadOpen},
		{tcl.PaperJam, tcl.ErrJam},
		{tcl.Offline, tcl.ErrOffline},
		{tcl.SystemError, tcl.ErrPrinterError},
		{tcl.HeadError, tcl.ErrPrinterError},
		{tcl.VoltageError, tcl.ErrPrinterError},
		{tcl.TemperatureError, tcl.ErrPrinterError},
		{tcl.CutterError, tcl.ErrPrinterError},
		{tcl.PaperOut | tcl.PaperJam, tcl.ErrJam},
	}
	for _, tt := range tests {
		t.Run(tt.set.String(), func(t *testing.T) {
			emu, p := rig(t, tclemu.Options{}, fast)
			emu.Set(tt.set)
			_, err := p.Print(sample())
			checkPrintError(t, err, tt.want, tcl.NotSent)
			for _, c := range emu.Received() {
				if strings.HasPrefix(c, "P|") {
					t.Errorf("printer received the print command %q", c)
				}
			}
			if n := len(emu.Tickets()); n != 0 {
				t.Errorf("printer recorded %d tickets, want 0", n)
			}
			// The condition cleared, the same ticket prints.
			emu.Clear(tt.set)
			if _, err := p.Print(sample()); err != nil {
				t.Fatalf("Print after clearing %v: %v", tt.set, err)
			}
		})
	}
}

func checkPrintError(t *testing.T, err, want error, stage tcl.Stage) *tcl.PrintError {
	t.Helper()
	var pe *tcl.PrintError
	if !errors.As(err, &pe) {
		t.Fatalf("Print = %v, want a *PrintError wrapping %v", err, want)
	}
	if !errors.Is(err, want) {
		t.Errorf("Print = %v, want %v", err, want)
	}
	if pe.Stage != stage {
		t.Errorf("Print stage = %v, want %v (%v)", pe.Stage, stage, err)
	}
	if pe.Number != 42 || pe.Validation != "001234567890123456" {
		t.Errorf("PrintError names ticket %d validation %s, want 42 001234567890123456", pe.Number, pe.Validation)
	}
	return pe
}

// TestPrintFailsMidway: every failure after the print command, before and
// after the validation number is printed (the emulator reports it at the
// 2nd status request and print done at the 4th).
func TestPrintFailsMidway(t *testing.T) {
	quiet := fast
	quiet.NoAnswer = 200 * time.Millisecond
	tests := []struct {
		name  string
		f     tclemu.Failure
		at    int
		o     tcl.Options
		want  []error
		stage tcl.Stage
	}{
		{"paper out", tclemu.PaperOut, 1, fast, []error{tcl.ErrPaperOut}, tcl.Sent},
		{"head open", tclemu.HeadOpen, 1, fast, []error{tcl.ErrHeadOpen}, tcl.Sent},
		{"jam", tclemu.Jam, 1, fast, []error{tcl.ErrJam}, tcl.Sent},
		{"jam after validation", tclemu.Jam, 2, fast, []error{tcl.ErrJam}, tcl.ValidationPrinted},
		{"paper out after validation", tclemu.PaperOut, 3, fast, []error{tcl.ErrPaperOut}, tcl.ValidationPrinted},
		{"offline", tclemu.Offline, 3, fast, []error{tcl.ErrOffline}, tcl.ValidationPrinted},
		{"error", tclemu.Error, 1, fast, []error{tcl.ErrPrinterError}, tcl.Sent},
		{"silent", tclemu.Silent, 1, quiet, []error{tcl.ErrNoAnswer}, tcl.Sent},
		{"silent after validation", tclemu.Silent, 3, quiet, []error{tcl.ErrNoAnswer}, tcl.ValidationPrinted},
		{"power cycle", tclemu.PowerCycle, 1, fast, []error{tcl.ErrPrinterReset}, tcl.Sent},
		{"power cycle after validation", tclemu.PowerCycle, 3, fast, []error{tcl.ErrPrinterReset}, tcl.ValidationPrinted},
		{"garble", tclemu.Garble, 1, quiet, []error{tcl.ErrNoAnswer, tcl.ErrBadStatus}, tcl.Sent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emu, p := rig(t, tclemu.Options{}, tt.o)
			emu.FailAt(tt.f, tt.at)
			_, err := p.Print(sample())
			for _, w := range tt.want {
				checkPrintError(t, err, w, tt.stage)
			}
			var pe *tcl.PrintError
			if errors.As(err, &pe) && pe.Status.Version == "" {
				t.Errorf("PrintError status is empty, want the last status the printer gave")
			}
			got := emu.Tickets()
			if len(got) != 1 {
				t.Fatalf("printer recorded %d tickets, want 1", len(got))
			}
			if tt.f != tclemu.Garble && got[0].Complete {
				t.Errorf("ticket complete after %v at request %d, want stopped", tt.f, tt.at)
			}
			// A garbled line hides the printer's progress: the host stays at
			// Sent while the barcode may be printed (what Stage Sent warns of).
			if tt.f != tclemu.Garble && got[0].ValidationPrinted != (tt.stage == tcl.ValidationPrinted) {
				t.Errorf("emulator validation printed = %v, host stage %v", got[0].ValidationPrinted, tt.stage)
			}
		})
	}
}

// TestReprintAfterPowerCycle: a printer that lost power mid-print forgot
// the template; the next print (the attendant's reprint) loads it again.
func TestReprintAfterPowerCycle(t *testing.T) {
	emu, p := rig(t, tclemu.Options{}, fast)
	emu.FailAt(tclemu.PowerCycle, 3)
	if _, err := p.Print(sample()); !errors.Is(err, tcl.ErrPrinterReset) {
		t.Fatalf("Print during a power cycle = %v, want %v", err, tcl.ErrPrinterReset)
	}
	if _, err := p.Print(sample()); err != nil {
		t.Fatalf("reprint after the power cycle: %v", err)
	}
	emu.PowerCycle() // while idle, between tickets
	if _, err := p.Print(sample()); err != nil {
		t.Fatalf("print after an idle power cycle: %v", err)
	}
	loads := 0
	for _, c := range emu.Received() {
		if strings.HasPrefix(c, "T|") {
			loads++
		}
	}
	if loads != 3 {
		t.Errorf("template loaded %d times, want 3 (start, after each power cycle)", loads)
	}
	got := emu.Tickets()
	if len(got) != 3 || got[0].Complete || !got[1].Complete || !got[2].Complete {
		t.Errorf("tickets = %+v, want an unfinished one then two complete", got)
	}
}

func TestNoAnswer(t *testing.T) {
	o := fast
	o.NoAnswer = 150 * time.Millisecond
	emu, p := rig(t, tclemu.Options{}, o)
	emu.SetSilent(true)
	_, err := p.Print(sample())
	pe := checkPrintError(t, err, tcl.ErrNoAnswer, tcl.NotSent)
	if pe.Status != (tcl.Status{}) {
		t.Errorf("PrintError status = %v, want none", pe.Status)
	}
	if errors.Is(err, tcl.ErrBadStatus) {
		t.Errorf("Print = %v: silence reported as garbled", err)
	}
}

// TestGarbledRepliesRetried: a few replies garbled on the line are asked
// again; the print goes through.
func TestGarbledRepliesRetried(t *testing.T) {
	emu, p := rig(t, tclemu.Options{}, fast)
	emu.GarbleReplies(3)
	if _, err := p.Print(sample()); err != nil {
		t.Fatalf("Print with 3 garbled replies: %v", err)
	}
	if got := emu.Tickets(); len(got) != 1 || !got[0].Complete {
		t.Errorf("tickets = %+v, want one complete", got)
	}
}

// TestPaperLowPrints: paper low is a warning carried in the status, not a
// failure.
func TestPaperLowPrints(t *testing.T) {
	emu, p := rig(t, tclemu.Options{}, fast)
	emu.Set(tcl.PaperLow)
	st, err := p.Print(sample())
	if err != nil {
		t.Fatalf("Print with paper low: %v", err)
	}
	if !st.Has(tcl.PaperLow) {
		t.Errorf("Print status = %v, want paper low", st)
	}
}

// TestJournalModeSwitched: a printer left in line (journal) mode is put
// back in template mode before the template is loaded.
func TestJournalModeSwitched(t *testing.T) {
	emu, p := rig(t, tclemu.Options{}, fast)
	emu.Set(tcl.JournalMode)
	if _, err := p.Print(sample()); err != nil {
		t.Fatalf("Print from journal mode: %v", err)
	}
	if !slices.Contains(emu.Received(), "ESC [^]") {
		t.Errorf("received %q, want the template mode escape", emu.Received())
	}
}

// TestTwoTicketsInARow: the previous ticket's validation-done flag does
// not end the next print early.
func TestTwoTicketsInARow(t *testing.T) {
	emu, p := rig(t, tclemu.Options{ValidateAfter: 3, DoneAfter: 6}, fast)
	for i := range 3 {
		tk := sample()
		tk.Number = 42
		if _, err := p.Print(tk); err != nil {
			t.Fatalf("Print %d: %v", i, err)
		}
	}
	for i, tk := range emu.Tickets() {
		if !tk.Complete {
			t.Errorf("ticket %d not complete when Print returned", i)
		}
	}
}

func TestOpenPortRefuses(t *testing.T) {
	if _, err := tcl.OpenPort("/dev/null", 4800); !errors.Is(err, tcl.ErrBaud) {
		t.Errorf("OpenPort(4800 baud) = %v, want %v", err, tcl.ErrBaud)
	}
	if _, err := tcl.OpenPort(t.TempDir(), 9600); !errors.Is(err, tcl.ErrTermios) {
		t.Errorf("OpenPort(a directory) = %v, want %v", err, tcl.ErrTermios)
	}
	if _, err := tcl.OpenPort("/dev/null", 9600); !errors.Is(err, tcl.ErrTermios) {
		t.Errorf("OpenPort(/dev/null) = %v, want %v (not a serial port)", err, tcl.ErrTermios)
	}
}

// TestPrintNotStarted: a print command lost on the line is found out
// after Options.Start, as a failure the attendant resolves (the printer
// might still print it). Both at power-up (validation done clear) and
// after a ticket (validation done left set).
func TestPrintNotStarted(t *testing.T) {
	o := fast
	o.Start = 100 * time.Millisecond
	emu, p := rig(t, tclemu.Options{}, o)
	for _, when := range []string{"first ticket", "after a ticket"} {
		emu.FailAt(tclemu.Drop, 0)
		_, err := p.Print(sample())
		checkPrintError(t, err, tcl.ErrPrinterError, tcl.Sent)
		if !strings.Contains(err.Error(), "not started") {
			t.Errorf("%s: Print = %v, want the print not started", when, err)
		}
		if _, err := p.Print(sample()); err != nil {
			t.Fatalf("%s: Print after the lost command: %v", when, err)
		}
	}
	if n := len(emu.Tickets()); n != 2 {
		t.Errorf("printer recorded %d tickets, want 2", n)
	}
}

// BenchmarkPrint is one ticket over a pty to the emulator, template
// loaded, with 1 ms between status polls (five polls a ticket).
func BenchmarkPrint(b *testing.B) {
	emu, err := tclemu.New(tclemu.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer emu.Close()
	o := fast
	o.Poll = time.Millisecond
	p, err := tcl.Open(emu.Path, 38400, o)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	for b.Loop() {
		if _, err := p.Print(sample()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPrintWaitsWhileBusy: a printer busy before the print (a feed) is
// waited for; one that stays busy is a failure with nothing sent.
func TestPrintWaitsWhileBusy(t *testing.T) {
	o := fast
	o.Finish = 200 * time.Millisecond
	emu, p := rig(t, tclemu.Options{}, o)
	emu.BusyFor(3)
	if _, err := p.Print(sample()); err != nil {
		t.Fatalf("Print after 3 busy replies: %v", err)
	}
	emu.BusyFor(-1)
	_, err := p.Print(sample())
	checkPrintError(t, err, tcl.ErrPrinterError, tcl.NotSent)
	emu.BusyFor(0)
	if n := len(emu.Tickets()); n != 1 {
		t.Errorf("printer recorded %d tickets, want 1", n)
	}
}

// TestTicketNumberBounds: SAS's whole 2-byte range prints.
func TestTicketNumberBounds(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "TICKET # 0000"}, {7, "TICKET # 0007"}, {65534, "TICKET # 65534"}} {
		tk := sample()
		tk.Number = tt.n
		f, err := tk.Fields()
		if err != nil {
			t.Fatalf("Fields(number %d): %v", tt.n, err)
		}
		if f[tcl.RegionNumber] != tt.want {
			t.Errorf("Fields(number %d) = %q, want %q", tt.n, f[tcl.RegionNumber], tt.want)
		}
	}
}

// TestCloseDuringPrint: Close ends the Print in progress and waits for it
// before giving up the line. Before, Close freed the port's descriptor
// under the printer goroutine; the next Open (a reboot of the cabinet)
// got the same number, and the old goroutine went on talking on the new
// line: its status requests advanced the new conversation and took its
// replies, and its print command printed there. Under load that made a
// print after a power cut "not started" (the replies showing it busy went
// to the old goroutine).
func TestCloseDuringPrint(t *testing.T) {
	o := fast
	o.Reply = 20 * time.Millisecond
	o.NoAnswer = time.Minute // only Close ends the print below
	emu1, p1 := rig(t, tclemu.Options{}, o)
	emu2, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatalf("tclemu.New: %v", err)
	}
	t.Cleanup(func() { emu2.Close() })
	emu1.SetSilent(true)
	res := make(chan error, 1)
	go func() {
		_, err := p1.Print(sample())
		res <- err
	}()
	for len(emu1.Received()) == 0 { // the print is asking the status
		time.Sleep(time.Millisecond)
	}
	if err := p1.Close(); err != nil {
		t.Fatalf("Close during the print: %v", err)
	}
	// The next line opened takes the descriptor Close freed.
	p2, err := tcl.Open(emu2.Path, 38400, o)
	if err != nil {
		t.Fatalf("Open(%s): %v", emu2.Path, err)
	}
	err = <-res
	checkPrintError(t, err, tcl.ErrClosed, tcl.NotSent)
	if err := p2.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if got := emu2.Received(); len(got) != 0 {
		t.Errorf("the closed printer talked on the next line: %q", got)
	}
	if n := len(emu2.Tickets()); n != 0 {
		t.Errorf("the closed printer printed %d tickets on the next line", n)
	}
	if _, err := p1.Status(); !errors.Is(err, tcl.ErrClosed) {
		t.Errorf("Status after Close: %v, want %v", err, tcl.ErrClosed)
	}
	if _, err := p1.Print(sample()); !errors.Is(err, tcl.ErrClosed) {
		t.Errorf("Print after Close: %v, want %v", err, tcl.ErrClosed)
	}
}

// TestGarbledLineCoalesced: a printer line that garbles every reply is
// one line fault, reported when it begins (with the bytes seen), at 10
// and 100 errors, and when clean replies end it, with its count: never a
// report per garbled reply.
func TestGarbledLineCoalesced(t *testing.T) {
	o := fast
	o.Reply, o.NoAnswer = 10*time.Millisecond, 60*time.Millisecond
	emu, p := rig(t, tclemu.Options{}, o)
	emu.GarbleReplies(-1)
	for range 30 {
		if _, err := p.Status(); !errors.Is(err, tcl.ErrBadStatus) {
			t.Fatalf("Status on a garbled line = %v, want ErrBadStatus", err)
		}
	}
	emu.GarbleReplies(0)
	for range 3 {
		if _, err := p.Status(); err != nil {
			t.Fatalf("Status on a clean line = %v", err)
		}
	}
	rs := p.LineFaults()
	if len(rs) < 2 || len(rs) > 5 {
		t.Fatalf("%d line reports for 30 garbled status requests, want 2 to 5: %v", len(rs), rs)
	}
	first, last := rs[0], rs[len(rs)-1]
	if first.Phase != serial.FaultBegan || !strings.Contains(first.First, "status reply: tcl: ") || !strings.Contains(first.First, "(") {
		t.Errorf("first report %v, want the fault's beginning with the bytes seen", first)
	}
	if last.Phase != serial.FaultCleared || last.Count < 30 {
		t.Errorf("last report %v, want the fault cleared after at least 30 errors", last)
	}
	if again := p.LineFaults(); again != nil {
		t.Errorf("LineFaults again = %v, want nothing new", again)
	}
}
