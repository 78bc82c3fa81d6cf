package sashost

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/hw/tcl/tclemu"
)

// titoConfig is configs/cabinet.toml with tickets on: system validation,
// tickets in, the printer's heading.
func titoConfig(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root(t), "configs", "cabinet.toml"))
	if err != nil {
		t.Fatal(err)
	}
	// The shipped file with tickets on: its [sas] keys set by name (the
	// [printer] heading is shipped filled in).
	set := map[string]string{"validation": `"system"`, "validation_wait": `"30s"`, "ticket_in": "true"}
	lines := strings.Split(string(b), "\n")
	section := ""
	for i, l := range lines {
		f := strings.TrimSpace(l)
		if strings.HasPrefix(f, "[") {
			section = strings.TrimSpace(strings.SplitN(strings.SplitN(f, "]", 2)[0], "[", 2)[1])
			continue
		}
		k, _, ok := strings.Cut(f, "=")
		if v, want := set[strings.TrimSpace(k)]; ok && want && section == "sas" {
			lines[i] = strings.TrimSpace(k) + " = " + v
			delete(set, strings.TrimSpace(k))
		}
	}
	if len(set) > 0 {
		t.Fatalf("configs/cabinet.toml has no [sas] keys %v to set", set)
	}
	b = []byte(strings.Join(lines, "\n"))
	path := filepath.Join(t.TempDir(), "cabinet.toml")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// printed is the barcodes of the tickets printed complete, in order.
func printed(pr *tclemu.Printer) []string {
	var out []string
	for _, tk := range pr.Tickets() {
		for _, f := range tk.Fields {
			if f.Barcode && tk.Complete && !slices.Contains(out, f.Data) {
				out = append(out, f.Data)
			}
		}
	}
	return out
}

// until waits for ok: a bound on a wait, generous for a loaded machine,
// not a timing assertion.
func until(t *testing.T, what string, c *Casino, sm *sim, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(90 * time.Second); time.Now().Before(end); {
		if ok() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s; ledger %+v; stats %+v\n%s", what, c.Ledger(), c.Stats(), sm.log())
}

// TestServeSimTickets: the casino serves `cabinet sim` with a printer
// (tclemu), a note validator reading barcodes (id003emu) and tickets on.
// The sim plays on notes and cashes out every few rounds: the casino
// gives each ticket its number and reads its record. Then its tickets go
// back into the validator: the casino redeems one (the cabinet stacks it
// and credits it), refuses it the second time (84), refuses a number it
// never gave (82) and one it was told to refuse (85), and redeems that one
// once the refusal is withdrawn; a power cut of the cabinet between two
// tickets changes none of it. The audit meters agree with the ledger.
func TestServeSimTickets(t *testing.T) {
	h, err := Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	t.Cleanup(func() { h.Close() })
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close() })
	val, err := id003emu.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { val.Close() })
	cfg := titoConfig(t)
	store := filepath.Join(t.TempDir(), "sas.db")

	c := &Casino{H: h, Addr: addr, Wait: time.Second, Interval: 5 * time.Millisecond, SystemID: 7, NextNumber: 1000000000000001}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- c.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; !errors.Is(err, context.Canceled) {
			t.Errorf("Serve = %v, want context.Canceled", err)
		}
	})

	sm := startSim(t, h, store, "--config", cfg, "--game", "classic", "--rounds", "9", "--pace", "5ms", "--seed", "3",
		"--acceptor", val.Path, "--printer", pr.Path, "--cashout-every", "3")
	insert := func(what string, f func() error) {
		t.Helper()
		until(t, what+" taken by the validator", c, sm, func() bool { return f() == nil })
	}
	for range 3 {
		insert("a 20.00 note", func() error { return val.Insert(0x64) })
		until(t, "the note stacked", c, sm, func() bool { s := val.Snapshot(); return s.Status == 0x11 })
	}
	sm.await(t, "rounds done", 120*time.Second)
	tickets := printed(pr)
	if len(tickets) < 2 {
		t.Fatalf("printed %q: want two tickets or more from 9 rounds with a cash-out every 3\n%s", tickets, sm.log())
	}
	outstanding := func(n string) func() bool {
		return func() bool {
			for _, r := range c.Ledger() {
				if r.Number == n {
					return r.Status == TicketOutstanding && r.Given && r.Read
				}
			}
			return false
		}
	}
	for _, n := range tickets {
		until(t, "ticket "+n+" outstanding", c, sm, outstanding(n))
	}
	status := func(n string) TicketRecord {
		for _, r := range c.Ledger() {
			if r.Number == n {
				return r
			}
		}
		return TicketRecord{}
	}
	stacked := func(n string, times int) func() bool {
		return func() bool {
			s := val.Snapshot()
			k := 0
			for _, x := range s.TicketsStacked {
				if x == n {
					k++
				}
			}
			return k == times && s.Status == 0x11
		}
	}
	returned := func(n string, times int) func() bool {
		return func() bool {
			s := val.Snapshot()
			k := 0
			for _, x := range s.TicketsReturned {
				if x == n {
					k++
				}
			}
			return k == times && s.Status == 0x11
		}
	}
	first, second := tickets[0], tickets[1]

	insert("the first ticket", func() error { return val.InsertTicket(first) })
	until(t, "the first ticket stacked", c, sm, stacked(first, 1))
	until(t, "the first ticket redeemed", c, sm, func() bool { return status(first).Status == TicketRedeemed })

	// A power cut, and the cabinet boots again on its store: the casino
	// polls on through the silence.
	sm.stop(t, syscall.SIGKILL)
	sm = startSim(t, h, store, "--config", cfg, "--game", "classic", "--rounds", "9", "--seed", "3",
		"--acceptor", val.Path, "--printer", pr.Path, "--settle", "0")
	// offer puts ticket n in until the casino has refused it with code:
	// the cabinet gives a ticket back itself, without asking, while the
	// host has not yet read the last ticket's result (68 after the
	// reboot) — the player tries again, as the screen says.
	offer := func(what, n string, code byte) {
		t.Helper()
		want := c.Stats().Refusals[code] + 1
		for i := 1; c.Stats().Refusals[code] < want; i++ {
			if i > 1 {
				t.Logf("%s: given back by the cabinet (try %d)", what, i)
			}
			insert(what, func() error { return val.InsertTicket(n) })
			until(t, what+" returned", c, sm, returned(n, i))
		}
	}
	offer("the first ticket again", first, TransferRedeemed)
	offer("a ticket the casino never gave", "079999999999999999", TransferNotInSystem)

	if err := c.Reject(second, TransferExpired); err != nil {
		t.Fatal(err)
	}
	offer("the second ticket", second, TransferExpired)
	if err := c.Reject(second, 0x00); err != nil {
		t.Fatal(err)
	}
	insert("the second ticket again", func() error { return val.InsertTicket(second) })
	until(t, "the second ticket stacked", c, sm, stacked(second, 1))
	until(t, "the second ticket redeemed", c, sm, func() bool { return status(second).Status == TicketRedeemed })
	// The casino hears the last final status before the sim stops.
	until(t, "the refusals counted", c, sm, func() bool {
		s := c.Stats()
		return s.Refusals[TransferRedeemed] == 1 && s.Refusals[TransferNotInSystem] == 1 && s.Refusals[TransferExpired] == 1
	})
	sm.stop(t, syscall.SIGTERM)

	a := auditMeters(t, store)
	var in, out, inCount, outCount int64
	for _, r := range c.Ledger() {
		if r.Read && r.Type == 0x00 {
			out += r.Cents
			outCount++
		}
		if r.Status == TicketRedeemed {
			in += r.Cents
			inCount++
		}
	}
	for _, m := range []struct {
		name      string
		got, want int64
	}{
		{"tickets_out", out, num(t, a, "meters", "tickets_out")},
		{"tickets_out_count", outCount, num(t, a, "meters", "tickets_out_count")},
		{"tickets_in", in, num(t, a, "meters", "tickets_in")},
		{"tickets_in_count", inCount, num(t, a, "meters", "tickets_in_count")},
	} {
		if m.got != m.want {
			t.Errorf("%s: ledger %d, audit %d", m.name, m.got, m.want)
		}
	}
	s := c.Stats()
	if inCount != 2 || s.Redeemed != 2 || s.Unexpected != 0 || s.Silent == 0 {
		t.Errorf("%d tickets redeemed in the ledger, stats %+v: want 2, nothing unexpected, the silence of the power cut", inCount, s)
	}
	t.Logf("printed %q; stats %+v", tickets, s)
}
