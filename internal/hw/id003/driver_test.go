package id003_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/money"
	"cabinet/internal/serial"
)

// notes is the test cabinet's table: 5 to 100 accepted, 200 (0x66) not.
var notes = map[byte]money.Cents{0x61: 500, 0x62: 1000, 0x63: 2000, 0x64: 5000, 0x65: 10000}

// boltBox is the Cashbox the controller will be, reduced to its money
// rule, on a real bbolt file: the order record and the credit meter in one
// bucket, each change one fsynced transaction.
type boltBox struct {
	db *bbolt.DB

	mu    sync.Mutex  // the test sets these while the driver runs
	limit money.Cents // credit limit: a note taking credits above it is returned
	// crash, when set, is called at a named point ("ordered", "before
	// credit", "credited"); if it returns true the box fails there, as a
	// host that dies at that point (what was committed stays committed).
	crash func(point string) bool
	// tickets is the casino system's answer for each barcode (shared by
	// the boxes of one rig: it survives a host restart).
	tickets *ticketHost
}

func (b *boltBox) setLimit(l money.Cents) {
	b.mu.Lock()
	b.limit = l
	b.mu.Unlock()
}

func (b *boltBox) setCrash(f func(string) bool) {
	b.mu.Lock()
	b.crash = f
	b.mu.Unlock()
}

// dies reports whether the host dies at point p.
func (b *boltBox) dies(p string) bool {
	b.mu.Lock()
	f := b.crash
	b.mu.Unlock()
	return f != nil && f(p)
}

var (
	bucket   = []byte("cashbox")
	keyOrder = []byte("order")  // code, value (8 bytes), credited (1 byte)
	keyCred  = []byte("credit") // credits, 8 bytes
	keyLog   = []byte("log")    // escrow codes of the notes credited, in order
	keyTLog  = []byte("tlog")   // barcodes of the tickets credited, each ended by a newline
)

var errCrash = errors.New("host died here (test)")

func openBox(t *testing.T, path string, limit money.Cents, tickets *ticketHost) *boltBox {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bbolt.Tx) error { _, err := tx.CreateBucketIfNotExists(bucket); return err }); err != nil {
		t.Fatal(err)
	}
	return &boltBox{db: db, limit: limit, tickets: tickets}
}

func (b *boltBox) credits(tx *bbolt.Tx) money.Cents {
	v := tx.Bucket(bucket).Get(keyCred)
	if v == nil {
		return 0
	}
	return money.Cents(binary.BigEndian.Uint64(v))
}

func (b *boltBox) Escrow(n id003.Note) (id003.Decision, error) {
	var dec id003.Decision
	b.mu.Lock()
	limit := b.limit
	b.mu.Unlock()
	err := b.db.Update(func(tx *bbolt.Tx) error {
		if c := b.credits(tx); c+n.Value > limit {
			dec.Reason = fmt.Sprintf("credit limit %s (credits %s)", limit, c)
			return nil
		}
		rec := make([]byte, 10)
		rec[0] = n.Code
		binary.BigEndian.PutUint64(rec[1:], uint64(n.Value))
		dec.Stack = true
		return tx.Bucket(bucket).Put(keyOrder, rec)
	})
	if err == nil && dec.Stack && b.dies("ordered") {
		return id003.Decision{}, errCrash
	}
	return dec, err
}

func (b *boltBox) Credit() (id003.Note, bool, error) {
	if b.dies("before credit") {
		return id003.Note{}, false, errCrash
	}
	var n id003.Note
	var fresh bool
	err := b.db.Update(func(tx *bbolt.Tx) error {
		bk := tx.Bucket(bucket)
		rec := bk.Get(keyOrder)
		if rec == nil {
			return id003.ErrNotOrdered
		}
		n = id003.Note{Code: rec[0], Value: money.Cents(binary.BigEndian.Uint64(rec[1:9]))}
		if rec[9] == 1 {
			return nil
		}
		fresh = true
		c := make([]byte, 8)
		binary.BigEndian.PutUint64(c, uint64(b.credits(tx)+n.Value))
		upd := slices.Clone(rec)
		upd[9] = 1
		if err := bk.Put(keyCred, c); err != nil {
			return err
		}
		if n.Code == id003.TicketCode {
			if err := bk.Put(keyTLog, append(slices.Clone(bk.Get(keyTLog)), append(slices.Clone(rec[10:]), '\n')...)); err != nil {
				return err
			}
		}
		if err := bk.Put(keyLog, append(slices.Clone(bk.Get(keyLog)), n.Code)); err != nil {
			return err
		}
		return bk.Put(keyOrder, upd)
	})
	if err == nil && fresh && b.dies("credited") {
		return id003.Note{}, false, errCrash
	}
	return n, fresh, err
}

// Ticket asks the test's casino system (ticketHost) and, to stack, records
// the order durably first: the ticket's code, amount and barcode.
func (b *boltBox) Ticket(number string) (id003.TicketDecision, error) {
	dec, amount, err := b.tickets.ask(number)
	if err != nil || dec.Action != id003.TicketStack {
		return dec, err
	}
	rec := make([]byte, 10, 10+len(number))
	rec[0] = id003.TicketCode
	binary.BigEndian.PutUint64(rec[1:], uint64(amount))
	rec = append(rec, number...)
	if err := b.db.Update(func(tx *bbolt.Tx) error { return tx.Bucket(bucket).Put(keyOrder, rec) }); err != nil {
		return id003.TicketDecision{}, err
	}
	if b.dies("ordered") {
		return id003.TicketDecision{}, errCrash
	}
	return dec, nil
}

// ticketLog reads the barcodes of the tickets credited, in order.
func (b *boltBox) ticketLog(t *testing.T) []string {
	t.Helper()
	var log []string
	if err := b.db.View(func(tx *bbolt.Tx) error {
		if v := tx.Bucket(bucket).Get(keyTLog); len(v) > 0 {
			log = strings.Split(strings.TrimSuffix(string(v), "\n"), "\n")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return log
}

// ledger reads the credit meter and the codes credited.
func (b *boltBox) ledger(t *testing.T) (money.Cents, []byte) {
	t.Helper()
	var c money.Cents
	var log []byte
	if err := b.db.View(func(tx *bbolt.Tx) error {
		c = b.credits(tx)
		log = slices.Clone(tx.Bucket(bucket).Get(keyLog))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return c, log
}

// events is the driver's event log, waitable.
type events struct {
	mu      sync.Mutex
	all     []id003.Event
	changed chan struct{}
}

func newEvents() *events { return &events{changed: make(chan struct{})} }

func (e *events) add(ev id003.Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	close(e.changed)
	e.changed = make(chan struct{})
	e.mu.Unlock()
}

func (e *events) list() []id003.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.all)
}

// wait waits for an event of kind k whose text contains sub.
func (e *events) wait(ctx context.Context, t *testing.T, k id003.EventKind, sub string) id003.Event {
	t.Helper()
	return e.waitFrom(ctx, t, 0, k, sub)
}

// mark is the number of events so far, for waitFrom.
func (e *events) mark() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.all)
}

// waitFrom waits for an event of kind k containing sub, from the from'th.
func (e *events) waitFrom(ctx context.Context, t *testing.T, from int, k id003.EventKind, sub string) id003.Event {
	t.Helper()
	for {
		e.mu.Lock()
		i := slices.IndexFunc(e.all[from:], func(ev id003.Event) bool { return ev.Kind == k && strings.Contains(ev.String(), sub) })
		var ev id003.Event
		if i >= 0 {
			i += from
			ev = e.all[i]
		}
		ch := e.changed
		e.mu.Unlock()
		if i >= 0 {
			return ev
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no %s event containing %q; events:\n%s", k, sub, dump(e.list()))
		case <-ch:
		}
	}
}

func dump(evs []id003.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		fmt.Fprintf(&b, "  %s\n", ev)
	}
	return b.String()
}

// rig is a validator emulator on a pty, a box on a bbolt file, and the
// driver between them; the driver (the host) can die and restart.
type rig struct {
	t      *testing.T
	ctx    context.Context // the test's guard against a hang
	emu    *id003emu.Validator
	dbPath string
	cfg    id003.Config
	host   *ticketHost
	box    *boltBox
	ev     *events
	drv    *id003.Driver
	port   *id003.Port
	cancel context.CancelFunc
	run    context.Context // the running driver's context
	done   chan error
}

var testCfg = id003.Config{Notes: notes, PollInterval: 2 * time.Millisecond, ReplyTimeout: 150 * time.Millisecond, Retries: 3}

func newRig(t *testing.T) *rig { t.Helper(); return newRigWith(t, testCfg) }

func newRigWith(t *testing.T, cfg id003.Config) *rig {
	t.Helper()
	emu, err := id003emu.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	r := &rig{t: t, ctx: ctx, emu: emu, dbPath: t.TempDir() + "/cabinet.db", cfg: cfg, host: newTicketHost(), ev: newEvents()}
	t.Cleanup(func() {
		r.stop()
		cancel()
		if err := emu.Close(); err != nil {
			t.Error(err)
		}
	})
	r.start()
	return r
}

// start opens the store and the port and runs a new driver (a host boot).
func (r *rig) start() {
	r.t.Helper()
	if r.host == nil {
		r.host = newTicketHost()
	}
	if r.cfg.Notes == nil {
		r.cfg = testCfg
	}
	r.box = openBox(r.t, r.dbPath, 100000, r.host)
	p, err := id003.OpenPort(r.emu.Path)
	if err != nil {
		r.t.Fatal(err)
	}
	r.port = p
	d, err := id003.New(p, r.cfg, r.box, r.ev.add)
	if err != nil {
		r.t.Fatal(err)
	}
	d.SetAcceptance(100000)
	d.SetTickets(r.cfg.Tickets)
	r.drv = d
	ctx, cancel := context.WithCancel(r.ctx)
	r.cancel, r.run, r.done = cancel, ctx, make(chan error, 1)
	go func() { r.done <- d.Run(ctx) }()
}

// stop ends the driver (a host that dies sends nothing) and closes the
// store and the port.
func (r *rig) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	if err := <-r.done; !errors.Is(err, context.Canceled) {
		r.t.Errorf("Run = %v, want context.Canceled", err)
	}
	r.cancel = nil
	if err := r.port.Close(); err != nil {
		r.t.Error(err)
	}
	if err := r.box.db.Close(); err != nil {
		r.t.Error(err)
	}
}

// restart is a host crash and reboot: the store is reopened from its file.
func (r *rig) restart() {
	r.t.Helper()
	r.stop()
	r.start()
}

// waitEmu waits for the validator to reach cond.
func (r *rig) waitEmu(what string, cond func(id003emu.Snapshot) bool) id003emu.Snapshot {
	r.t.Helper()
	s, err := r.emu.WaitFor(r.ctx, cond)
	if err != nil {
		r.t.Fatalf("waiting for %s: %v; events:\n%s", what, err, dump(r.ev.list()))
	}
	return s
}

// idleAfter waits until the validator idles with n notes and tickets
// handled.
func (r *rig) idleAfter(n int) id003emu.Snapshot {
	r.t.Helper()
	return r.waitEmu(fmt.Sprintf("idle after %d items", n), func(s id003emu.Snapshot) bool {
		return s.Status == id003.StIdling && handled(s) == n
	})
}

// handled is the number of notes and tickets stacked or given back.
func handled(s id003emu.Snapshot) int {
	return len(s.Stacked) + len(s.Returned) + len(s.TicketsStacked) + len(s.TicketsReturned)
}

// insert feeds a note once the validator idles.
func (r *rig) insert(code byte) {
	r.t.Helper()
	r.waitEmu("idling", func(s id003emu.Snapshot) bool { return s.Status == id003.StIdling })
	if err := r.emu.Insert(code); err != nil {
		r.t.Fatal(err)
	}
}

// checkMoney: the credits are exactly the notes and tickets the validator
// stacked, item for item, and none it gave back was credited.
func (r *rig) checkMoney() {
	r.t.Helper()
	s := r.emu.Snapshot()
	credits, log := r.box.ledger(r.t)
	tlog := r.box.ticketLog(r.t)
	var want money.Cents
	for _, c := range s.Stacked {
		want += notes[c]
	}
	for _, bc := range s.TicketsStacked {
		want += r.host.amountOf(bc)
	}
	noteLog := slices.DeleteFunc(slices.Clone(log), func(c byte) bool { return c == id003.TicketCode })
	if credits != want || !slices.Equal(noteLog, s.Stacked) || !slices.Equal(tlog, s.TicketsStacked) ||
		len(log)-len(noteLog) != len(tlog) {
		r.t.Errorf("credits %s for notes % X and tickets %q, want %s for the stacked % X and %q (returned % X, %q); events:\n%s",
			credits, log, tlog, want, s.Stacked, s.TicketsStacked, s.Returned, s.TicketsReturned, dump(r.ev.list()))
	}
}

func TestStackAndCredit(t *testing.T) {
	r := newRig(t)
	for i, c := range []byte{0x61, 0x63, 0x65, 0x62} {
		r.insert(c)
		r.idleAfter(i + 1)
	}
	r.checkMoney()
	if s := r.emu.Snapshot(); len(s.Stacked) != 4 || len(s.Returned) != 0 {
		t.Errorf("stacked % X returned % X, want 4 stacked", s.Stacked, s.Returned)
	}
	for _, v := range []string{"5.00", "20.00", "100.00", "10.00"} {
		r.ev.wait(r.ctx, t, id003.EvCredited, v)
	}
	ev := r.ev.wait(r.ctx, t, id003.EvVersion, "ID003-EMU")
	info := r.drv.Info()
	for info.Status != id003.StIdling && r.ctx.Err() == nil {
		time.Sleep(time.Millisecond) // the driver handles the idling answer
		info = r.drv.Info()
	}
	if info.Version != ev.Text || info.Gone || !info.Enabled || info.Status != id003.StIdling {
		t.Errorf("Info() = %+v, want version %q, enabled, idling", info, ev.Text)
	}
	for _, st := range []id003.Status{id003.StAccepting, id003.StEscrow, id003.StStacking, id003.StVendValid, id003.StStacked} {
		r.ev.wait(r.ctx, t, id003.EvStatus, st.String())
	}
}

func TestReturnedNeverCredited(t *testing.T) {
	r := newRig(t)
	r.box.setLimit(3000)
	r.insert(0x63) // 20.00: stacked
	r.idleAfter(1)
	r.insert(0x63) // 20.00 more is over the 30.00 limit: returned
	r.idleAfter(2)
	r.ev.wait(r.ctx, t, id003.EvReturned, "credit limit 30.00")
	r.insert(0x66) // inhibited by set denomination: the validator rejects it
	r.idleAfter(3)
	r.ev.wait(r.ctx, t, id003.EvRejected, "inhibited denomination")
	r.emu.IgnoreMask(true) // a validator that escrows it anyway: the host returns it
	r.insert(0x66)
	r.idleAfter(4)
	r.ev.wait(r.ctx, t, id003.EvReturned, "escrow code 0x66 is not an accepted note")
	if err := r.emu.InsertReject(0x62, 0x77); err != nil {
		t.Fatal(err)
	}
	r.idleAfter(5)
	r.ev.wait(r.ctx, t, id003.EvRejected, "photo pattern error")
	r.insert(0x61) // 5.00 fits: stacked
	s := r.idleAfter(6)
	r.checkMoney()
	if !slices.Equal(s.Stacked, []byte{0x63, 0x61}) || !slices.Equal(s.Returned, []byte{0x63, 0x66, 0x66, 0x62}) {
		t.Errorf("stacked % X returned % X, want 63 61 / 63 66 66 62", s.Stacked, s.Returned)
	}
}

func TestAcceptanceOff(t *testing.T) {
	r := newRig(t)
	r.waitEmu("idling", func(s id003emu.Snapshot) bool { return s.Status == id003.StIdling })
	r.drv.SetAcceptance(0)
	r.waitEmu("inhibited", func(s id003emu.Snapshot) bool { return s.Status == id003.StDisabled && s.Inhibit })
	if err := r.emu.Insert(0x61); !errors.Is(err, id003emu.ErrBusy) {
		t.Errorf("Insert while inhibited = %v, want ErrBusy", err)
	}
	r.drv.SetAcceptance(2000)
	r.insert(0x64) // 50.00 is above the acceptance limit: returned without asking
	r.idleAfter(1)
	r.ev.wait(r.ctx, t, id003.EvReturned, "above the acceptance limit 20.00")
	r.checkMoney()
}

// TestPowerCutAtEveryStep cuts the validator's power at each step of a
// note's way in (and of a return), with the power-up status that step
// leaves: the note is credited exactly when it ends in the stacker, once.
func TestPowerCutAtEveryStep(t *testing.T) {
	tests := []struct {
		name    string
		trap    id003emu.Trap
		limit   money.Cents // below 20.00: the note is returned
		stacked bool
		powerUp id003.Status
	}{
		{"accepting", id003emu.Trap{Status: id003.StAccepting}, 0, false, id003.StPowerUpBillAcceptor},
		{"escrow", id003emu.Trap{Status: id003.StEscrow}, 0, false, id003.StPowerUpBillAcceptor},
		{"stack-1 received", id003emu.Trap{Command: id003.CmdStack1}, 0, false, id003.StPowerUpBillAcceptor},
		{"stacking", id003emu.Trap{Status: id003.StStacking}, 0, true, id003.StPowerUpBillStacker},
		{"vend valid before it is seen", id003emu.Trap{Status: id003.StVendValid}, 0, true, id003.StPowerUpBillStacker},
		{"vend valid credited, ACK lost", id003emu.Trap{Command: id003.CmdAck}, 0, true, id003.StPowerUpBillStacker},
		{"stacked", id003emu.Trap{Status: id003.StStacked}, 0, true, id003.StPowerUp},
		{"return received", id003emu.Trap{Command: id003.CmdReturn}, 1000, false, id003.StPowerUpBillAcceptor},
		{"returning", id003emu.Trap{Status: id003.StReturning}, 1000, false, id003.StPowerUpBillAcceptor},
		{"vend valid, off long enough to time out", id003emu.Trap{Status: id003.StVendValid, Silent: 4}, 0, true, id003.StPowerUpBillStacker},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t)
			if tt.limit != 0 {
				r.box.setLimit(tt.limit)
			}
			r.insert(0x61) // 5.00 before, so a double credit would show
			r.idleAfter(1)
			r.emu.Arm(tt.trap)
			r.insert(0x63)
			s := r.waitEmu("idle after the cut", func(s id003emu.Snapshot) bool {
				return s.Cuts == 1 && s.Status == id003.StIdling && len(s.Stacked)+len(s.Returned) == 2
			})
			if got := slices.Contains(s.Stacked, 0x63); got != tt.stacked {
				t.Errorf("note stacked = %v, want %v (stacked % X, returned % X)", got, tt.stacked, s.Stacked, s.Returned)
			}
			r.ev.wait(r.ctx, t, id003.EvPowerUp, tt.powerUp.String())
			if tt.trap.Silent > 0 {
				r.ev.wait(r.ctx, t, id003.EvTimeout, "no valid answer to 3 status requests")
				r.ev.wait(r.ctx, t, id003.EvBack, "")
			}
			r.box.setLimit(100000)
			r.insert(0x62) // and it takes notes again
			r.idleAfter(3)
			r.checkMoney()
		})
	}
}

// TestHostCrashAtEveryStep kills the host (the driver and its store) at
// each point of the money rule and boots it again on the same file, the
// validator still holding the note.
func TestHostCrashAtEveryStep(t *testing.T) {
	tests := []struct {
		name    string
		point   string
		cut     bool // the validator's power is cut too while the host is down
		stacked bool // where the 50.00 note ends
	}{
		{"order recorded, stack not sent", "ordered", false, true},                          // still in escrow: decided again
		{"order recorded, then a power cut", "ordered", true, false},                        // bill in acceptor: returned
		{"vend valid, credit not committed", "before credit", false, true},                  // vend valid repeated: credited
		{"vend valid, credit not committed, then a power cut", "before credit", true, true}, // bill in stacker: credited
		{"credit committed, ACK not sent", "credited", false, true},                         // vend valid repeated: not again
		{"credit committed, ACK not sent, then a power cut", "credited", true, true},        // bill in stacker: not again
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t)
			r.insert(0x61)
			r.idleAfter(1)
			// The host dies at the point: the driver stays in the
			// callback until it is stopped, and then tells the
			// validator nothing, as a dead process.
			died := make(chan struct{})
			var once sync.Once
			run := r.run
			r.box.setCrash(func(p string) bool {
				if p != tt.point {
					return false
				}
				once.Do(func() { close(died) })
				<-run.Done()
				return true
			})
			r.insert(0x64)
			select {
			case <-died:
			case <-r.ctx.Done():
				t.Fatalf("the host never reached %q; events:\n%s", tt.point, dump(r.ev.list()))
			}
			r.stop()
			if tt.cut {
				r.emu.PowerCycle()
			}
			r.start()
			s := r.idleAfter(2)
			if got := slices.Contains(s.Stacked, 0x64); got != tt.stacked {
				t.Errorf("50.00 stacked = %v, want %v: stacked % X returned % X", got, tt.stacked, s.Stacked, s.Returned)
			}
			r.insert(0x62)
			r.idleAfter(3)
			r.checkMoney()
			if tt.point == "credited" {
				r.ev.wait(r.ctx, t, id003.EvCreditRepeated, "50.00")
			}
		})
	}
}

func TestFaults(t *testing.T) {
	r := newRig(t)
	r.waitEmu("idling", func(s id003emu.Snapshot) bool { return s.Status == id003.StIdling })

	r.emu.Fault(id003.StStackerOpen, 0)
	r.ev.wait(r.ctx, t, id003.EvFault, "stacker open")
	r.emu.Clear()
	r.ev.wait(r.ctx, t, id003.EvFaultCleared, "stacker open")

	r.emu.Fault(id003.StFailure, 0xA2)
	r.ev.wait(r.ctx, t, id003.EvFault, "stack motor failure (0xA2)")
	r.emu.Clear()
	r.ev.wait(r.ctx, t, id003.EvFaultCleared, "failure")

	// A jam with the note in the acceptor: the attendant takes it out.
	r.emu.Arm(id003emu.Trap{Status: id003.StEscrow, Fault: id003.StAcceptorJam})
	r.insert(0x65)
	r.ev.wait(r.ctx, t, id003.EvFault, "acceptor jam")
	r.emu.Clear()
	r.idleAfter(1)

	// Stacker full after a note: credited, then a fault until emptied.
	r.emu.SetFull()
	r.insert(0x62)
	r.ev.wait(r.ctx, t, id003.EvFault, "stacker full")
	r.emu.Fault(id003.StStackerOpen, 0) // the attendant takes the stacker out...
	r.ev.wait(r.ctx, t, id003.EvFault, "stacker open")
	r.emu.Clear() // ...and puts it back empty
	r.idleAfter(2)

	for _, f := range []struct {
		s    id003.Status
		want string
	}{{id003.StStackerJam, "stacker jam"}, {id003.StPause, "pause"}, {id003.StCheated, "cheated"}} {
		r.emu.Fault(f.s, 0)
		r.ev.wait(r.ctx, t, id003.EvFault, f.want)
		r.emu.Clear()
		r.ev.wait(r.ctx, t, id003.EvFaultCleared, f.want)
	}
	r.insert(0x61)
	s := r.idleAfter(3)
	r.checkMoney()
	if !slices.Equal(s.Stacked, []byte{0x62, 0x61}) || !slices.Equal(s.Returned, []byte{0x65}) {
		t.Errorf("stacked % X returned % X, want 62 61 / 65", s.Stacked, s.Returned)
	}
}

func TestGarbledAndSilent(t *testing.T) {
	r := newRig(t)
	r.insert(0x61)
	r.idleAfter(1)
	// Damaged answers are one line fault: it begins with the first error
	// and its bytes, counts the rest, and clears after LineQuiet clean
	// answers, with the total.
	from := r.ev.mark()
	r.emu.Garble(id003emu.GarbleCRC, id003emu.GarbleLength, id003emu.GarbleNoise, id003emu.GarbleTrunc)
	began := r.ev.waitFrom(r.ctx, t, from, id003.EvLine, "line fault began: answer to status request: id003: bad CRC: frame FC 05 11")
	cleared := r.ev.waitFrom(r.ctx, t, from, id003.EvLine, "line fault cleared after")
	// CRC: the frame, then its bytes skipped; length: the same; noise: its
	// three bytes skipped; cut short: the incomplete frame.
	if cleared.Line.Count != 6 || !strings.Contains(cleared.Line.Last, "incomplete frame") || cleared.Line.First != began.Line.First {
		t.Errorf("cleared = %+v, want 6 errors from %q to the incomplete frame", cleared.Line, began.Line.First)
	}
	if n := countKind(r.ev.list()[from:], id003.EvLine); n != 2 {
		t.Errorf("%d line events, want 2 (began, cleared):\n%s", n, dump(r.ev.list()[from:]))
	}
	// A late ACK before a status reply (an earlier command's answer, late
	// under load): skipped and counted; the driver goes on (it stopped
	// serving the validator on it before).
	r.emu.Garble(id003emu.GarbleLateAck)
	r.ev.wait(r.ctx, t, id003.EvLine, "line fault began: answer to status request: a late ACK skipped")
	// Garbled answers in the middle of a note: at escrow and vend valid.
	r.insert(0x63)
	r.emu.Garble(id003emu.GarbleCRC, id003emu.GarbleCRC, id003emu.GarbleCRC)
	r.idleAfter(2)
	r.checkMoney()

	// Three garbled answers in a row are three requests without a valid
	// answer: reported as the timeout, and the driver recovers.
	r.ev.wait(r.ctx, t, id003.EvTimeout, "no valid answer to 3 status requests")
	r.ev.wait(r.ctx, t, id003.EvBack, "back") // once the line is clean again

	from = r.ev.mark()
	r.emu.Mute(true)
	r.ev.waitFrom(r.ctx, t, from, id003.EvTimeout, "no valid answer to 3 status requests")
	if !r.drv.Info().Gone {
		t.Errorf("Info().Gone = false after the timeout")
	}
	r.emu.Mute(false)
	r.ev.waitFrom(r.ctx, t, from, id003.EvBack, "")
	r.insert(0x62)
	r.idleAfter(3)
	r.checkMoney()
}

func TestCommunicationErrorFromValidator(t *testing.T) {
	emu, err := id003emu.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer emu.Close()
	p, err := id003.OpenPort(emu.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	bad := id003.MustEncode(byte(id003.CmdStatus))
	bad[3] ^= 0xFF
	if err := p.Write(bad); err != nil {
		t.Fatal(err)
	}
	var buf []byte
	chunk := make([]byte, 16)
	for len(buf) < 5 {
		n, err := p.Read(chunk, 2*time.Second)
		if err != nil || n == 0 {
			t.Fatalf("Read = %d, %v; want the communication error status", n, err)
		}
		buf = append(buf, chunk[:n]...)
	}
	f, _, err := id003.Decode(buf)
	if err != nil || id003.Status(f.Code) != id003.StCommError {
		t.Errorf("answer to a frame with a bad CRC = %v, %v; want communication error (4A)", f, err)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		notes map[byte]money.Cents
		want  string
	}{
		{nil, "no note accepted"},
		{map[byte]money.Cents{0x60: 500}, "escrow code 0x60 (allowed 0x61–0x68)"},
		{map[byte]money.Cents{0x61: 0}, "escrow code 0x61 has value 0.00 (must be above 0)"},
	}
	for _, tt := range tests {
		err := id003.Config{Notes: tt.notes}.Validate()
		if !errors.Is(err, id003.ErrConfig) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%v) = %v, want ErrConfig with %q", tt.notes, err, tt.want)
		}
	}
}

// TestVendValidNotOrdered: a note another host stacked (the store holds no
// order for it) reaches vend valid: acknowledged so the validator carries
// on, reported, never credited.
func TestVendValidNotOrdered(t *testing.T) {
	emu, err := id003emu.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer emu.Close()
	p, err := id003.OpenPort(emu.Path)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(c id003.Command, data ...byte) {
		t.Helper()
		if err := p.Write(id003.MustEncode(byte(c), data...)); err != nil {
			t.Fatal(err)
		}
		// The answer arrives at once; drop it.
		buf := make([]byte, 64)
		if n, err := p.Read(buf, 5*time.Second); n == 0 || err != nil {
			t.Fatalf("%s: no answer: %v", c, err)
		}
	}
	// Another host: reset, enable, a 10.00 note stacked up to vend valid.
	ask(id003.CmdReset)
	ask(id003.CmdStatus)
	ask(id003.CmdSetInhibit, 0)
	ask(id003.CmdStatus)
	if err := emu.Insert(0x62); err != nil {
		t.Fatal(err)
	}
	ask(id003.CmdStatus) // accepting
	ask(id003.CmdStatus) // escrow
	ask(id003.CmdStack1)
	ask(id003.CmdStatus) // stacking
	ask(id003.CmdStatus) // vend valid
	p.Close()

	r := &rig{t: t, ctx: context.Background(), emu: emu, dbPath: t.TempDir() + "/cabinet.db", ev: newEvents()}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r.ctx = ctx
	r.start()
	defer r.stop()
	r.idleAfter(1)
	r.ev.wait(ctx, t, id003.EvUncredited, "vend valid with no note ordered stacked in the store: not credited")
	if c, log := r.box.ledger(t); c != 0 || len(log) != 0 {
		t.Errorf("credits %s (% X), want none", c, log)
	}
	if s := emu.Snapshot(); !slices.Equal(s.Stacked, []byte{0x62}) {
		t.Errorf("stacked % X, want 62", s.Stacked)
	}
}

// TestRandomCutsAndCrashes feeds notes and tickets (held a few times, then
// stacked or returned) while cutting the validator's power and killing the
// host at random steps (seeded; the seed is printed): the credits always
// end equal, item for item, to the notes and tickets stacked.
func TestRandomCutsAndCrashes(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	traps := []id003emu.Trap{
		{Status: id003.StAccepting}, {Status: id003.StEscrow}, {Command: id003.CmdStack1},
		{Status: id003.StStacking}, {Status: id003.StVendValid}, {Command: id003.CmdAck},
		{Status: id003.StStacked}, {Command: id003.CmdReturn}, {Status: id003.StReturning},
		{Command: id003.CmdReset}, {Status: id003.StInitialize}, {Status: id003.StVendValid, Silent: 4},
		{Command: id003.CmdHold}, {Status: id003.StHolding},
	}
	points := []string{"ordered", "before credit", "credited"}
	codes := []byte{0x61, 0x62, 0x63, 0x64, 0x65, 0x66, id003.TicketCode, id003.TicketCode}
	r := newRigWith(t, ticketCfg)
	for i := range 40 {
		r.box.setLimit([]money.Cents{100000, 100000, 100000, 1000}[rng.IntN(4)])
		if rng.IntN(3) == 0 {
			r.emu.Arm(traps[rng.IntN(len(traps))])
		}
		died := make(chan struct{})
		if rng.IntN(3) == 0 {
			point, run := points[rng.IntN(len(points))], r.run
			var once sync.Once
			r.box.setCrash(func(p string) bool {
				if p != point {
					return false
				}
				once.Do(func() { close(died) })
				<-run.Done()
				return true
			})
		}
		code := codes[rng.IntN(len(codes))]
		if code == id003.TicketCode {
			bc := fmt.Sprintf("%018d", 1000+i)
			r.host.plan(bc, ticketPlan{holds: rng.IntN(3), amount: []money.Cents{0, 1000, 2500}[rng.IntN(3)], reason: "voided"})
			r.insertTicket(bc)
		} else {
			r.insert(code)
		}
		idle := make(chan error, 1)
		wctx, stop := context.WithCancel(r.ctx)
		go func() {
			_, err := r.emu.WaitFor(wctx, func(s id003emu.Snapshot) bool {
				return s.Status == id003.StIdling && handled(s) == i+1
			})
			idle <- err
		}()
		select {
		case <-died:
			stop()
			<-idle
			r.stop()
			if rng.IntN(2) == 0 {
				r.emu.PowerCycle()
			}
			r.start()
			r.idleAfter(i + 1)
		case err := <-idle:
			stop()
			if err != nil {
				t.Fatalf("note %d (%02X): %v; events:\n%s", i, code, err, dump(r.ev.list()))
			}
		}
		r.box.setCrash(nil)
		r.checkMoney()
		if t.Failed() {
			t.Fatalf("note %d (%02X), seed %d", i, code, seed)
		}
	}
	s := r.emu.Snapshot()
	t.Logf("notes stacked %d, returned %d; tickets stacked %d, returned %d; power cuts %d",
		len(s.Stacked), len(s.Returned), len(s.TicketsStacked), len(s.TicketsReturned), s.Cuts)
}

func countKind(evs []id003.Event, k id003.EventKind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// noisyRig is a rig whose driver waits 5 ms for an answer (a damaged one
// costs little time), idling, and the mark of its events from there.
func noisyRig(t *testing.T) (*rig, int) {
	t.Helper()
	cfg := testCfg
	cfg.ReplyTimeout = 5 * time.Millisecond
	r := newRigWith(t, cfg)
	r.idleAfter(0)
	return r, r.ev.mark()
}

// TestLineFaultCoalesced: a validator that damages every answer is one
// line fault (its beginning, a count at 10 and 100 errors) and one
// timeout, however long it lasts; once it answers cleanly the fault
// clears with its count and the validator is back.
func TestLineFaultCoalesced(t *testing.T) {
	r, from := noisyRig(t)
	start := r.emu.Snapshot().Requests
	r.emu.GarbleAll(id003emu.GarbleCRC, id003emu.GarbleLength, id003emu.GarbleTrunc, id003emu.GarbleNoise)
	r.waitEmu("300 damaged answers", func(s id003emu.Snapshot) bool { return s.Requests >= start+300 })
	r.emu.GarbleAll()
	r.ev.waitFrom(r.ctx, t, from, id003.EvBack, "back")
	evs := r.ev.list()[from:]
	var line []id003.Event
	for _, e := range evs {
		if e.Kind == id003.EvLine {
			line = append(line, e)
		}
	}
	if len(line) > 5 || countKind(evs, id003.EvTimeout) != 1 || countKind(evs, id003.EvBack) != 1 {
		t.Fatalf("%d line events, %d timeouts, %d backs; want at most 5, 1, 1:\n%s", len(line), countKind(evs, id003.EvTimeout), countKind(evs, id003.EvBack), dump(evs))
	}
	last := line[len(line)-1].Line
	if line[0].Line.Phase != serial.FaultBegan || last.Phase != serial.FaultCleared || last.Count < 300 {
		t.Errorf("line events %v, want began … cleared after at least 300 errors", line)
	}
}

// TestTimedBurstsBackOff: a validator that garbles three answers in a
// row (a timeout) and then answers cleanly just long enough for the line
// to clear, again and again, is gone twice, not once per burst: a fault
// back soon after it cleared needs twice the clean answers to clear
// (serial.LineFault), and the validator is back only on a clean line.
func TestTimedBurstsBackOff(t *testing.T) {
	r, from := noisyRig(t)
	for range 10 {
		r.emu.Garble(id003emu.GarbleCRC, id003emu.GarbleCRC, id003emu.GarbleCRC)
		start := r.emu.Snapshot().Requests
		r.waitEmu("60 answers after the burst", func(s id003emu.Snapshot) bool { return s.Requests >= start+63 })
	}
	evs := r.ev.list()[from:]
	if n := countKind(evs, id003.EvTimeout); n != 2 {
		t.Errorf("%d timeouts for 10 bursts, want 2:\n%s", n, dump(evs))
	}
	if n := countKind(evs, id003.EvLine); n > 8 {
		t.Errorf("%d line events for 10 bursts, want a handful:\n%s", n, dump(evs))
	}
}
