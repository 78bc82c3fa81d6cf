package crashtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"cabinet/internal/config"
	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/hw/tcl/tclemu"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/sashost"
)

// TITOConfig is the tickets' kill run (issue 30): `<bin> sim --sas PTY
// --acceptor PTY --printer PTY --cashout-every N` plays against devices
// this process owns, so they outlive the child's kills: the id003emu
// validator (notes and tickets in), the tclemu printer (tickets out) and
// sashost's autonomous casino (Serve) numbering the tickets (system
// validation) and redeeming them. A player here inserts notes, and puts
// every ticket the printer completed back in once (now and then a copy of
// one already redeemed, which must come back refused); the validator's
// power is cut now and then. The sim is SIGKILLed Kills times at seeded
// random moments; after every kill and exactly at the end (after a
// settling run, interrupted once the validator idles and the casino has
// read every record) the store and the devices are checked:
//
//  1. the meters' money rule: bills + tickets in = credits + played − won
//     + tickets out + handpaid + voided + outstanding;
//  2. the bills credited are the notes the emulator stacked (after a kill
//     up to one note more, credited and not yet stacked);
//  3. the tickets credited are the tickets the emulator stacked, valued at
//     the casino's ledger amounts (after a kill up to one ticket more); no
//     number is stacked twice nor heard redeemed twice by the casino;
//  4. every ticket the printer completed is in the casino's ledger, and at
//     the end read from the machine's validation records, with no ticket
//     left pending or uncertain in the store.
type TITOConfig struct {
	Bin    string // cabinet binary
	Config string // configuration the run's file is made from ("" = configs/cabinet.toml)
	Game   string // --game (default classic)
	Rounds int64  // rounds the sim plays
	Seed   uint64 // sim seed; also seeds the kills, cuts, notes and tickets
	Kills  int
	Cuts   int   // validator power cuts
	Every  int64 // --cashout-every (default 5)
	Pace   time.Duration
	// Life bounds a child's life before its kill (uniform in 0..Life;
	// default 3 s).
	Life time.Duration
	Dir  string
	Env  []string
	Out  io.Writer
}

// TITOSummary is what the tickets' kill run measured.
type TITOSummary struct {
	Kills, Cuts        int
	Notes, NotesStaked int         // notes inserted, stacked
	BillsIn            money.Cents // the store's bills-in meter
	Cashouts           int64       // cash-outs to a ticket (TicketsIssuedCount)
	Printed            int64       // tickets printed (TicketsOutCount)
	Reprinted          int         // complete prints of a number already completed
	Voided             int64       // tickets voided and paid by hand
	TicketsOut         money.Cents
	TicketsInserted    int // tickets put in the validator (copies included)
	TicketsIn          int64
	TicketsInValue     money.Cents
	Copies, Refused    int         // copies of redeemed tickets inserted, and given back
	Handpaid           money.Cents // cash-outs paid by hand (HandpayCancelled)
	// Stranded counts tickets given back and left "redeeming" at the
	// casino (granted, then the cabinet died before stacking them).
	Stranded int
	// Reheard counts final statuses the casino heard again for a ticket
	// it had already heard redeemed (the same redemption re-reported
	// after a kill).
	Reheard int
	// Refusals are the casino's LP 71 refusals by transfer code (84:
	// already redeemed, 83: pending, 82: not in system...), and Returned
	// the tickets the validator gave back (refused by the casino or the
	// cabinet, or cut off by a kill or a power cut).
	Refusals map[byte]int
	Returned int
	Credits  money.Cents
	Rounds   int64
	Elapsed  time.Duration
}

func (s TITOSummary) String() string {
	return fmt.Sprintf("TITO kill run: %d kills, %d validator power cuts; %d notes inserted, %d stacked, %s bills in; "+
		"%d cash-outs to tickets, %d printed (%s), %d reprinted, %d voided; %d tickets inserted, %d credited (%s); "+
		"%d copies of redeemed tickets inserted, %d refused; %d left redeeming at the casino; %d final statuses re-reported after a kill; %d tickets given back, casino refusals (LP 71 code×count) %s; %s handpaid; credits %s; %d rounds; %s",
		s.Kills, s.Cuts, s.Notes, s.NotesStaked, s.BillsIn, s.Cashouts, s.Printed, s.TicketsOut, s.Reprinted, s.Voided,
		s.TicketsInserted, s.TicketsIn, s.TicketsInValue, s.Copies, s.Refused, s.Stranded, s.Reheard, s.Returned, refusalText(s.Refusals), s.Handpaid, s.Credits, s.Rounds,
		s.Elapsed.Round(time.Millisecond))
}

// ErrTickets is returned when the tickets credited, printed or redeemed
// break a rule of the run (see TITOConfig).
var ErrTickets = errors.New("crashtest: tickets in or out do not add up")

// ErrMoney is returned when the meters' money rule does not hold.
var ErrMoney = errors.New("crashtest: money not conserved")

// titoKeys are the keys the run's configuration sets, by section.
var titoKeys = []struct{ section, key, value string }{
	{"sas", "validation", `"system"`},
	{"sas", "ticket_in", "true"},
	{"sas", "asset", "4242"},
	{"printer", "casino", `"Casino du Lac"`},
	{"printer", "address1", `"1 quai du Lac"`},
	{"printer", "machine", `"A-12"`},
	{"hardware.acceptor", "notes", `{ 0x62 = "5.00", 0x63 = "10.00", 0x64 = "20.00", 0x65 = "50.00", 0x66 = "100.00" }`},
}

// TITOFile writes the run's configuration to dst: src with the keys of
// tickets set (system validation, tickets in, an asset number, the
// printer's heading, the validator's note table as ValidatorNotes). The
// ports come from the sim's flags. It refuses a file that does not parse
// afterwards, naming the error.
func TITOFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("crashtest: TITO configuration: %w", err)
	}
	text := string(b)
	for _, k := range titoKeys {
		text = setKey(text, k.section, k.key, k.value)
	}
	if err := os.WriteFile(dst, []byte(text), 0o644); err != nil {
		return fmt.Errorf("crashtest: TITO configuration: %w", err)
	}
	cfg, err := config.Load(dst)
	if err == nil {
		_, err = cfg.WithPrinterPort("/dev/null")
	}
	if err == nil && (cfg.SAS.Validation.String() != "system" || !cfg.SAS.TicketIn) {
		err = fmt.Errorf("[sas] validation %s, ticket_in %v: want system and true", cfg.SAS.Validation, cfg.SAS.TicketIn)
	}
	if err != nil {
		return fmt.Errorf("crashtest: TITO configuration %s (made from %s) refused: %w", dst, src, err)
	}
	return nil
}

// setKey sets key = value in the TOML table [section] of text: the key's
// line replaced if the table has it, else added under the heading; the
// table appended if text has none. (Text edits keep the shipped file's
// comments; the result is parsed by the caller.)
func setKey(text, section, key, value string) string {
	lines := strings.Split(text, "\n")
	line := key + " = " + value
	in, head := false, -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			name := strings.TrimSpace(strings.Trim(strings.SplitN(t, "#", 2)[0], " []"))
			in = name == section
			if in {
				head = i
			}
			continue
		}
		if in {
			if k, _, ok := strings.Cut(t, "="); ok && strings.TrimSpace(k) == key {
				lines[i] = line
				return strings.Join(lines, "\n")
			}
		}
	}
	if head < 0 {
		return strings.TrimRight(text, "\n") + "\n\n[" + section + "]\n" + line + "\n"
	}
	lines = slices.Insert(lines, head+1, line)
	return strings.Join(lines, "\n")
}

// watch is a child's output: the last bytes, and whether a line was seen.
type watch struct {
	mu   sync.Mutex
	t    tail
	seen bool
	mark string
	buf  []byte
}

func (w *watch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.t.Write(p)
	if w.mark != "" && !w.seen {
		w.buf = append(w.buf, p...)
		w.seen = bytes.Contains(w.buf, []byte(w.mark))
		if len(w.buf) > 4096 {
			w.buf = w.buf[len(w.buf)-len(w.mark):]
		}
	}
	return len(p), nil
}

func (w *watch) Seen() bool { w.mu.Lock(); defer w.mu.Unlock(); return w.seen }

func (w *watch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(bytes.TrimSpace(w.t.b))
}

// doneMark is what the sim says when its rounds are done and it goes on
// answering the SAS host (cmd/cabinet/sim.go).
const doneMark = "rounds done; answering the SAS host"

// titoStore is what the checks read from the store.
type titoStore struct {
	m       recovery.Machine
	tickets []recovery.TicketOut // newest first
	done    int64
}

func loadTITO(path string) (*titoStore, error) {
	s, err := Load(path) // the full Check
	if err != nil {
		return nil, err
	}
	st, err := recovery.Open(path, recovery.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	out := &titoStore{m: s.Machine, done: s.Completed()}
	err = st.View(func(tx *recovery.Tx) (err error) { out.tickets, err = tx.TicketsOut(0); return err })
	return out, err
}

// barcodeOf is the 18 digits of a printed ticket's barcode ("" if none).
func barcodeOf(t tclemu.Ticket) string {
	for _, f := range t.Fields {
		if f.Barcode {
			return f.Data
		}
	}
	return ""
}

// TITO runs the tickets' kill run.
func TITO(ctx context.Context, c TITOConfig) (TITOSummary, error) {
	var sum TITOSummary
	start := time.Now()
	if c.Out == nil {
		c.Out = io.Discard
	}
	if c.Game == "" {
		c.Game = "classic"
	}
	if c.Life <= 0 {
		c.Life = 3 * time.Second
	}
	if c.Every <= 0 {
		c.Every = 5
	}
	src := c.Config
	if src == "" {
		src = filepath.Join("configs", "cabinet.toml")
	}
	cfgPath := filepath.Join(c.Dir, "tito.toml")
	if err := TITOFile(src, cfgPath); err != nil {
		return sum, err
	}
	emu, err := id003emu.Open()
	if err != nil {
		return sum, fmt.Errorf("crashtest: validator emulator: %w", err)
	}
	defer emu.Close()
	pr, err := tclemu.New(tclemu.Options{})
	if err != nil {
		return sum, fmt.Errorf("crashtest: printer emulator: %w", err)
	}
	defer pr.Close()
	h, err := sashost.Open()
	if err != nil {
		return sum, fmt.Errorf("crashtest: SAS host: %w", err)
	}
	defer h.Close()
	casino := &sashost.Casino{H: h, Addr: 1, Interval: 20 * time.Millisecond, SystemID: 7, NextNumber: 5550000000000001}
	cctx, stopCasino := context.WithCancel(ctx)
	casinoDone := make(chan error, 1)
	go func() { casinoDone <- casino.Serve(cctx) }()
	defer func() { stopCasino(); <-casinoDone }()

	store := filepath.Join(c.Dir, "tito.db")
	if err := removeStore(store); err != nil {
		return sum, err
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x7469746f))
	codes := slices.Sorted(func(yield func(byte) bool) {
		for k := range ValidatorNotes {
			if !yield(k) {
				return
			}
		}
	})
	ledger := func() map[string]sashost.TicketRecord {
		l := map[string]sashost.TicketRecord{}
		for _, r := range casino.Ledger() {
			l[r.Number] = r
		}
		return l
	}

	// The player: a printed ticket back in when the validator idles (each
	// number until it is stacked, at most three tries), now and then a
	// copy of a redeemed one, a note when no money went in for a while or
	// at random; the power cuts at random moments in between.
	var mu sync.Mutex // the player's state, read once it has stopped or under mu
	inserting, cutsLeft, cuts := true, c.Cuts, 0
	tries := map[string]int{} // tickets put in, by number (copies not counted)
	var copies []string       // the copies put in
	notes, tickets := 0, 0
	play := func(ctx context.Context, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 2))
		var last time.Time                   // the last money put in (none yet: a note at once)
		redeemedAt := map[string]time.Time{} // when the player saw a ticket redeemed
		for ctx.Err() == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(20+r.IntN(40)) * time.Millisecond):
			}
			mu.Lock()
			on := inserting
			if on && cutsLeft > 0 && r.IntN(60) == 0 {
				cutsLeft--
				cuts++
				emu.PowerCycle()
			}
			mu.Unlock()
			if !on {
				continue
			}
			snap := emu.Snapshot()
			if snap.Status != id003.StIdling {
				continue
			}
			// A ticket only while the cabinet takes tickets (the bar
			// inhibit): one offered under it is rejected by the validator
			// itself and never reaches the casino.
			ticketsOn := snap.Bar&id003.BarInhibitTickets == 0
			l := ledger()
			stacked := map[string]bool{}
			for _, n := range snap.TicketsStacked {
				stacked[n] = true
			}
			// A printed ticket the casino holds outstanding, not stacked yet.
			var next string
			for _, t := range pr.Tickets() {
				n := barcodeOf(t)
				mu.Lock()
				k := tries[n]
				mu.Unlock()
				if ticketsOn && t.Complete && n != "" && !stacked[n] && k < 3 && l[n].Status == sashost.TicketOutstanding {
					next = n
					break
				}
			}
			// The copies: of tickets the casino heard redeemed 300 ms ago
			// or more, so that the cabinet has closed the redemption and
			// asks the casino, whose refusal is the one tested.
			var red []string
			for _, n := range snap.TicketsStacked {
				if l[n].Status != sashost.TicketRedeemed {
					continue
				}
				if at, ok := redeemedAt[n]; !ok {
					redeemedAt[n] = time.Now()
				} else if time.Since(at) > 300*time.Millisecond {
					red = append(red, n)
				}
			}
			if ticketsOn && r.IntN(4) == 0 {
				if len(red) > 0 {
					n := red[r.IntN(len(red))]
					if emu.InsertTicket(n) == nil {
						mu.Lock()
						copies = append(copies, n)
						tickets++
						mu.Unlock()
						last = time.Now()
					}
					continue
				}
			}
			if next != "" {
				if emu.InsertTicket(next) == nil {
					mu.Lock()
					tries[next]++
					tickets++
					mu.Unlock()
					last = time.Now()
				}
				continue
			}
			if time.Since(last) > 1500*time.Millisecond || r.IntN(25) == 0 {
				if emu.Insert(codes[r.IntN(len(codes))]) == nil {
					mu.Lock()
					notes++
					mu.Unlock()
					last = time.Now()
				}
			}
		}
	}
	pctx, stopPlay := context.WithCancel(ctx)
	defer stopPlay()
	playDone := make(chan struct{})
	playSeed := rng.Uint64()
	go func() { defer close(playDone); play(pctx, playSeed) }()

	sim := func(rounds int64) (*exec.Cmd, *watch) {
		args := []string{"sim", "--game", c.Game, "--rounds", strconv.FormatInt(rounds, 10), "--seed", strconv.FormatUint(c.Seed, 10),
			"--store", store, "--config", cfgPath, "--sas", h.Slave, "--acceptor", emu.Path, "--printer", pr.Path,
			"--cashout-every", strconv.FormatInt(c.Every, 10), "--quiet", "--pace", c.Pace.String(),
			// The harness settles the validator itself, after the rounds,
			// with the casino's reads in its conditions.
			"--settle", "0s"}
		cmd := exec.CommandContext(ctx, c.Bin, args...)
		cmd.Env = append(os.Environ(), c.Env...)
		w := &watch{mark: doneMark}
		cmd.Stdout, cmd.Stderr = w, w
		return cmd, w
	}

	// check reads the store and the devices (see TITOConfig's rules).
	check := func(final bool) error {
		st, err := loadTITO(store)
		if err != nil {
			if !final && (errors.Is(err, os.ErrNotExist) || errors.Is(err, recovery.ErrNotInitialised)) {
				return nil
			}
			return fmt.Errorf("crashtest: TITO run store: %w", err)
		}
		mt := st.m.Meters
		snap := emu.Snapshot()
		l := ledger()
		sum.Rounds, sum.Credits, sum.BillsIn = st.done, st.m.Credits, mt.BillsIn
		sum.Cashouts, sum.Printed, sum.Voided, sum.TicketsOut = mt.TicketsIssuedCount, mt.TicketsOutCount, mt.TicketsVoidedCount, mt.TicketsOut
		sum.TicketsIn, sum.TicketsInValue, sum.Handpaid, sum.NotesStaked = mt.TicketsInCount, mt.TicketsIn, mt.HandpayCancelled, len(snap.Stacked)

		// 1. The money rule.
		out, _ := mt.TicketsOutstanding()
		in := mt.BillsIn + mt.TicketsIn
		rhs := st.m.Credits + (mt.TotalIn - mt.TotalWon) + mt.TicketsOut + mt.HandpayCancelled + mt.TicketsVoided + out
		if in != rhs {
			return fmt.Errorf("%w: bills %s + tickets in %s = %s; credits %s + played %s − won %s + tickets out %s + handpaid %s + voided %s + outstanding %s = %s",
				ErrMoney, mt.BillsIn, mt.TicketsIn, in, st.m.Credits, mt.TotalIn, mt.TotalWon, mt.TicketsOut, mt.HandpayCancelled, mt.TicketsVoided, out, rhs)
		}

		// 2. Bills: the notes stacked (after a kill, one more at most).
		var stackedNotes money.Cents
		for _, code := range snap.Stacked {
			stackedNotes += ValidatorNotes[code]
		}
		switch gap := mt.BillsIn - stackedNotes; {
		case final && gap != 0:
			return fmt.Errorf("%w: %s credited from bills, %s stacked (%x)", ErrNotes, mt.BillsIn, stackedNotes, snap.Stacked)
		case gap < 0 || gap > 10000:
			return fmt.Errorf("%w: %s credited from bills, %s stacked (%x): more than one note apart", ErrNotes, mt.BillsIn, stackedNotes, snap.Stacked)
		}
		if final {
			want := map[string]int64{}
			for _, code := range snap.Stacked {
				want[strconv.FormatInt(int64(ValidatorNotes[code]), 10)]++
			}
			for k, n := range mt.Bills {
				if want[k] != n {
					return fmt.Errorf("%w: %d bills of %s cents credited, %d stacked", ErrNotes, n, k, want[k])
				}
				delete(want, k)
			}
			for k, n := range want {
				return fmt.Errorf("%w: %d notes of %s cents stacked, none credited", ErrNotes, n, k)
			}
		}

		// 3. Tickets in: the tickets stacked at the casino's amounts, each
		// number once, none heard redeemed twice.
		var stackedValue money.Cents
		seen := map[string]bool{}
		for _, n := range snap.TicketsStacked {
			if seen[n] {
				return fmt.Errorf("%w: ticket %s stacked twice (stacked: %v)", ErrTickets, n, snap.TicketsStacked)
			}
			seen[n] = true
			rec, ok := l[n]
			if !ok {
				return fmt.Errorf("%w: ticket %s stacked, unknown to the casino", ErrTickets, n)
			}
			stackedValue += money.Cents(rec.Cents)
			if final && rec.Status != sashost.TicketRedeemed {
				return fmt.Errorf("%w: ticket %s stacked and credited, in the casino's ledger as %s", ErrTickets, n, rec.Status)
			}
		}
		// The casino may hear one redemption's final status again after a
		// kill (the host's read of it answered, its commit lost: 68 is
		// raised again, docs/sas.md): a re-report, not a second payment,
		// which the validator's stacker (each number once, above) and the
		// ticket-in meters (below) rule out.
		sum.Stranded, sum.Reheard = 0, 0
		for _, rec := range l {
			if rec.Status == sashost.TicketRedeeming {
				sum.Stranded++
			}
			if rec.Redeemed > 1 {
				sum.Reheard += rec.Redeemed - 1
			}
		}
		gap, count := mt.TicketsIn-stackedValue, mt.TicketsInCount-int64(len(snap.TicketsStacked))
		switch {
		case final && (gap != 0 || count != 0):
			return fmt.Errorf("%w: %d tickets credited (%s), %d stacked (%s at the casino's amounts)", ErrTickets, mt.TicketsInCount, mt.TicketsIn, len(snap.TicketsStacked), stackedValue)
		case gap < 0 || count < 0 || count > 1 || (count == 0) != (gap == 0):
			return fmt.Errorf("%w: %d tickets credited (%s), %d stacked (%s at the casino's amounts): more than one ticket apart", ErrTickets, mt.TicketsInCount, mt.TicketsIn, len(snap.TicketsStacked), stackedValue)
		}

		// 4. Every ticket printed is the casino's.
		complete := map[string]int{}
		for _, t := range pr.Tickets() {
			if n := barcodeOf(t); t.Complete && n != "" {
				complete[n]++
				rec, ok := l[n]
				if !ok {
					return fmt.Errorf("%w: ticket %s printed, not in the casino's ledger", ErrTickets, n)
				}
				if final && (!rec.Read || rec.Status != sashost.TicketOutstanding && rec.Status != sashost.TicketRedeemed) {
					return fmt.Errorf("%w: ticket %s printed, in the casino's ledger as %s (read %v)", ErrTickets, n, rec.Status, rec.Read)
				}
			}
		}
		sum.Reprinted = 0
		for _, k := range complete {
			sum.Reprinted += k - 1
		}
		if final {
			for _, t := range st.tickets {
				if t.Unresolved() {
					return fmt.Errorf("%w: ticket %s (%s) left %s in the store", ErrTickets, t.Validation, t.Amount, t.Status)
				}
				if t.Status == recovery.TicketPrinted && complete[t.Validation] == 0 {
					return fmt.Errorf("%w: ticket %s (%s) printed in the store, never completed by the printer", ErrTickets, t.Validation, t.Amount)
				}
			}
			if mt.TicketsVoidedCount == 0 && int64(len(complete)) != mt.TicketsOutCount {
				return fmt.Errorf("%w: the printer completed %d numbers, the store counts %d tickets out", ErrTickets, len(complete), mt.TicketsOutCount)
			}
		}
		return nil
	}

	for sum.Kills < c.Kills {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		delay := time.Duration(rng.Int64N(int64(c.Life))) + time.Millisecond
		cmd, out := sim(c.Rounds)
		what := fmt.Sprintf("TITO run %d", sum.Kills+1)
		killed, err := killAfter(cmd, delay, what, out)
		if err != nil {
			return sum, err
		}
		if !killed {
			// With SAS the sim answers the host after its rounds until
			// interrupted: it never ends by itself.
			return sum, fmt.Errorf("%w: %s exited by itself\n%s", ErrChild, what, out)
		}
		sum.Kills++
		if err := check(false); err != nil {
			return sum, fmt.Errorf("after kill %d (%s into the run): %w", sum.Kills, delay, err)
		}
		fmt.Fprintf(c.Out, "kill %d/%d after %s: %d rounds, %s bills, %d tickets out, %d in, store checked\n",
			sum.Kills, c.Kills, delay.Round(time.Millisecond), sum.Rounds, sum.BillsIn, sum.Printed, sum.TicketsIn)
	}

	// The settling run: at least one more round (an uncertain ticket is
	// reprinted at autoplay's first step), the player on until the rounds
	// are done, then off; interrupted once everything has settled.
	rounds := max(c.Rounds, sum.Rounds+1)
	cmd, out := sim(rounds)
	if err := cmd.Start(); err != nil {
		return sum, fmt.Errorf("%w: start %s: %w", ErrChild, c.Bin, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	kill := func() { _ = cmd.Process.Signal(syscall.SIGKILL); <-done }
	why, stable := "", 0
	for limit := time.Now().Add(max(2*time.Minute, time.Duration(rounds-sum.Rounds)*time.Second)); ; {
		select {
		case err := <-done:
			return sum, fmt.Errorf("%w: TITO settling run exited by itself: %v\n%s", ErrChild, err, out)
		case <-ctx.Done():
			kill()
			return sum, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(limit) {
			kill()
			return sum, fmt.Errorf("%w: TITO settling run did not settle: %s\n%s", ErrChild, why, out)
		}
		if !out.Seen() {
			why = "rounds not done"
			continue
		}
		mu.Lock()
		inserting = false
		mu.Unlock()
		why = settled(emu, pr, casino)
		if why != "" {
			stable = 0
			continue
		}
		if stable++; stable >= 10 {
			break
		}
	}
	stopPlay()
	<-playDone
	_ = cmd.Process.Signal(syscall.SIGINT)
	if err := <-done; err != nil {
		return sum, fmt.Errorf("%w: TITO settling run, interrupted: %w\n%s", ErrChild, err, out)
	}
	mu.Lock()
	sum.Notes, sum.TicketsInserted, sum.Copies, sum.Cuts = notes, tickets, len(copies), cuts
	mu.Unlock()
	returned := map[string]int{}
	for _, n := range emu.Snapshot().TicketsReturned {
		returned[n]++
	}
	for _, n := range copies {
		if returned[n] == 0 {
			return sum, fmt.Errorf("%w: a copy of redeemed ticket %s was not given back", ErrTickets, n)
		}
		returned[n]--
		sum.Refused++
	}
	sum.Refusals, sum.Returned = map[byte]int{}, len(emu.Snapshot().TicketsReturned)
	for code, n := range casino.Stats().Refusals {
		sum.Refusals[code] = n
	}
	if err := check(true); err != nil {
		return sum, err
	}
	sum.Elapsed = time.Since(start)
	fmt.Fprintln(c.Out, sum)
	return sum, nil
}

// settled says what has not settled yet ("" when everything has): the
// validator idling with nothing in it, every ticket the printer completed
// read by the casino, no redemption in progress.
func settled(emu *id003emu.Validator, pr *tclemu.Printer, casino *sashost.Casino) string {
	if s := emu.Snapshot(); s.Status != id003.StIdling && s.Status != id003.StDisabled {
		return "validator " + s.Status.String()
	}
	stacked := map[string]bool{}
	for _, n := range emu.Snapshot().TicketsStacked {
		stacked[n] = true
	}
	l := map[string]sashost.TicketRecord{}
	for _, r := range casino.Ledger() {
		l[r.Number] = r
		// A ticket stacked is settled when the casino heard its final
		// status; one given back may stay "redeeming" at the casino (the
		// cabinet died between the casino's grant and the stack: it has
		// no redemption to report), refused to anyone after (83).
		if r.Status == sashost.TicketRedeeming && stacked[r.Number] {
			return "ticket " + r.Number + " stacked, its redemption not heard by the casino"
		}
	}
	for _, t := range pr.Tickets() {
		if n := barcodeOf(t); !t.Complete {
			continue
		} else if !l[n].Read {
			return "ticket " + n + " not read by the casino"
		}
	}
	return ""
}

// refusalText is "84×6 83×1" (codes in hex, in order), "none" if empty.
func refusalText(m map[byte]int) string {
	var parts []string
	for _, code := range slices.Sorted(func(yield func(byte) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}) {
		parts = append(parts, fmt.Sprintf("%02X×%d", code, m[code]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}
