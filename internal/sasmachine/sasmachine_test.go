package sasmachine

import (
	"cabinet/internal/cabinet"
	"fmt"

	"cabinet/internal/analysis/rtp"
	"cabinet/internal/config"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
	"cabinet/internal/sas"
	rules "cabinet/internal/settings"
)

func settings() controller.InForce {
	return controller.InForce{
		Games: []game.ID{game.Royal, game.FreeBet, game.Zappit, game.Classic, game.Duel},
		Rules: map[game.ID]blackjack.Rules{game.Classic: blackjack.Classic(), game.Royal: blackjack.Royal(),
			game.FreeBet: blackjack.FreeBet(), game.Zappit: blackjack.Zappit()},
		Duel:        controller.DuelInForce{Enabled: true, Config: duel.DefaultConfig()},
		CreditLimit: 100000, HandpayLimit: 120000,
		Bills: []money.Cents{500, 1000, 2000, 5000, 10000},
		Chips: []money.Cents{100, 500, 2500},
		Denom: 1, Currency: "€", Language: "en", Sound: true, Volume: 80,
		JackpotReset: 2000000, JackpotRateE7: 2030843,
	}
}

type cab struct {
	st  *recovery.Store
	be  *sim.Backend
	c   *controller.Controller
	eng *sas.Engine
	m   *Machine
	now time.Time
}

// boot runs a real controller (its own goroutine, Run) on a real store
// and an engine on the Machine, as cmd/cabinet wires them.
func boot(t *testing.T, path string) *cab {
	t.Helper()
	st := recoverytest.Open(t, path, recovery.Options{})
	host := make(chan controller.HostRequest, 64)
	be := sim.New()
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: be, Exceptions: Exceptions, Host: host,
		RNG: controller.SeededRNG{Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = c.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; be.Close(); st.Close() })
	m := &Machine{Store: st, Cab: c, Host: host}
	k := &cab{st: st, be: be, c: c, m: m, now: time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)}
	k.eng = &sas.Engine{Cfg: sas.Config{Address: 1, Denom: 1}, M: m, Q: m, Clock: func() time.Time { return k.now }}
	k.poll(0x82) // sync: a poll to another address
	return k
}

func (k *cab) poll(msg ...byte) []byte {
	k.now = k.now.Add(200 * time.Millisecond)
	return k.eng.Handle(k.now, msg)
}

// exceptions reads general polls until 00, each acknowledged by a poll to
// address 0 in between (the "80 81" heartbeat of sas.md: a message other
// than the repeated poll is the implied ACK).
func (k *cab) exceptions(t *testing.T) []byte {
	t.Helper()
	var out []byte
	for range 100 {
		k.poll(0x80)
		r := k.poll(0x81)
		if len(r) != 1 {
			t.Fatalf("general poll reply % X", r)
		}
		if r[0] == 0 {
			return out
		}
		out = append(out, r[0])
	}
	t.Fatal("exceptions do not end")
	return nil
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	// A bound on a wait, not a timing assertion: generous, as a loaded
	// machine running the race detector is slow.
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); {
		if ok() {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestExceptionsAndMetersFromTheStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cabinet.db")
	k := boot(t, path)
	if got, want := k.exceptions(t), []byte{0x18, 0x17}; !cmp.Equal(got, want) {
		t.Fatalf("after boot: % X, want % X", got, want)
	}
	k.be.InsertBill(2000)
	waitFor(t, "the bill", func() bool { return k.c.Snapshot().Credits == 2000 })
	k.be.SetSwitch(hw.MainDoor, true)
	waitFor(t, "the door", func() bool { return len(k.c.Snapshot().Tilts) > 0 })
	// The same poll repeated is an implied NACK: the same exception again,
	// not the next one.
	if r := k.poll(0x81); !cmp.Equal(r, []byte{0x4A}) { // a 20.00 bill accepted
		t.Fatalf("GP = % X, want 4A", r)
	}
	if r := k.poll(0x81); !cmp.Equal(r, []byte{0x4A}) {
		t.Fatalf("repeated GP = % X, want 4A again", r)
	}
	if r := k.poll(0x01, 0x1A); !cmp.Equal(r, sas.AppendCRC([]byte{0x01, 0x1A, 0x00, 0x00, 0x20, 0x00})) {
		t.Fatalf("LP 1A = % X, want 2000 credits", r)
	}
	if got := k.exceptions(t); !cmp.Equal(got, []byte{0x11}) {
		t.Fatalf("after the 1A poll acknowledged 4F: % X, want 11", got)
	}
	// LP 48: the last bill (20.00 = code 04 in BCD), once.
	if r := k.poll(0x01, 0x48); !cmp.Equal(r, sas.AppendCRC([]byte{0x01, 0x48, 0x00, 0x04, 0, 0, 0, 1})) {
		t.Errorf("LP 48 = % X", r)
	}
	// Power cut: the queue is in the store.
	k.be.SetSwitch(hw.MainDoor, false)
	waitFor(t, "the door to close", func() bool { return len(k.c.Snapshot().Tilts) == 0 })
	if r := k.poll(0x81); !cmp.Equal(r, []byte{0x12}) { // reported, not yet acknowledged
		t.Fatalf("GP = % X, want 12", r)
	}
	k2 := reboot(t, k, path)
	if got, want := k2.exceptions(t), []byte{0x12, 0x18, 0x17}; !cmp.Equal(got, want) {
		t.Fatalf("after a power cut: % X, want % X (the unacknowledged 12 again, nothing lost)", got, want)
	}
}

// reboot stops k's controller (as a power cut would: no shutdown work) and
// boots a new one on the same store.
func reboot(t *testing.T, k *cab, path string) *cab {
	t.Helper()
	k.settle(t)
	k.be.Close()
	if err := k.st.Close(); err != nil {
		t.Fatal(err)
	}
	return boot(t, path)
}

// settle waits until the controller's ledger has committed every
// acknowledgement the host gave (the store no longer holds the exception).
func (k *cab) settle(t *testing.T) {
	t.Helper()
	waitFor(t, "the acknowledgements to be committed", func() bool {
		if _, _, err := k.m.Peek(); err != nil {
			t.Fatal(err)
		}
		k.m.mu.Lock()
		defer k.m.mu.Unlock()
		return len(k.m.acked) == 0 && len(k.m.unsent) == 0
	})
}

// hostState reads the host state committed in k's store.
func (k *cab) hostState(t *testing.T) recovery.HostState {
	t.Helper()
	var h recovery.HostState
	if err := k.st.View(func(tx *recovery.Tx) error { var err error; h, err = tx.HostState(); return err }); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHostCommands(t *testing.T) {
	k := boot(t, filepath.Join(t.TempDir(), "cabinet.db"))
	ack := []byte{0x01}
	if r := k.poll(sas.AppendCRC([]byte{0x01, 0x01})...); !cmp.Equal(r, ack) {
		t.Fatalf("LP 01 = % X, want ACK", r)
	}
	// The reply does not wait for the commit, which follows it.
	waitFor(t, "LP 01 in the store", func() bool { return k.hostState(t).PlayLocked })
	// LP 09 game 0004 (Classic) off.
	if r := k.poll(sas.AppendCRC([]byte{0x01, 0x09, 0x00, 0x04, 0x00})...); !cmp.Equal(r, ack) { // 00: disable
		t.Fatalf("LP 09 = % X, want ACK", r)
	}
	waitFor(t, "Classic disabled", func() bool { return !k.c.HostInfo().Games[3].Enabled })
	// LP 56 lists the enabled games: 1, 2, 3, 5.
	if r := k.poll(0x01, 0x56); !cmp.Equal(r, sas.AppendCRC([]byte{0x01, 0x56, 0x09, 0x04, 0x00, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x05})) {
		t.Errorf("LP 56 = % X", r)
	}
	// A game number beyond LP 51's count is bad data: NACK.
	if r := k.poll(sas.AppendCRC([]byte{0x01, 0x09, 0x00, 0x06, 0x01})...); !cmp.Equal(r, []byte{0x81}) {
		t.Errorf("LP 09 game 6 = % X, want NACK", r)
	}
	// LP 03 silences the cabinet (kept in the store), LP 04 gives the
	// operator's setting back.
	if !k.c.Snapshot().Sound {
		t.Fatal("the test settings have the sound off: LP 03 cannot be seen")
	}
	if r := k.poll(sas.AppendCRC([]byte{0x01, 0x03})...); !cmp.Equal(r, ack) {
		t.Fatalf("LP 03 = % X, want ACK", r)
	}
	waitFor(t, "LP 03 in the store", func() bool { return k.hostState(t).SoundOff })
	// The snapshot is published just after the commit.
	waitFor(t, "the sound off after LP 03", func() bool { return !k.c.Snapshot().Sound })
	if r := k.poll(sas.AppendCRC([]byte{0x01, 0x04})...); !cmp.Equal(r, ack) {
		t.Fatalf("LP 04 = % X, want ACK", r)
	}
	waitFor(t, "the sound back after LP 04", func() bool { return k.c.Snapshot().Sound })
	if r := k.poll(sas.AppendCRC([]byte{0x01, 0x07})...); !cmp.Equal(r, ack) {
		t.Fatalf("LP 07 = % X", r)
	}
	waitFor(t, "the acceptor to be inhibited", func() bool { return k.be.Acceptance() == 0 })
}

// TestMemoryErrorReportedThenSilent: a store rolled back behind its proof
// is a memory error: the host hears 34 once, then (the reference: the
// address drops to 0) the machine stops; nothing is written to the store.
func TestMemoryErrorReportedThenSilent(t *testing.T) {
	dir := t.TempDir()
	path, mirror := filepath.Join(dir, "c.db"), filepath.Join(dir, "c.mirror")
	st, err := recovery.Open(path, recovery.Options{Init: true, Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: sim.New(), Exceptions: Exceptions})
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	st.Close()
	if err := os.WriteFile(path, old, 0o600); err != nil { // rolled back
		t.Fatal(err)
	}
	st, err = recovery.Open(path, recovery.Options{Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err = cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: sim.New(), Exceptions: Exceptions})
	if err != nil || c.Err() == nil {
		t.Fatalf("boot on a rolled-back store: %v, memory error %v", err, c.Err())
	}
	before, _ := os.ReadFile(path)
	m := &Machine{Store: st, Cab: c}
	e := &sas.Engine{Cfg: sas.Config{Address: 1, Denom: 1}, M: m, Q: m}
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	e.Handle(now, []byte{0x82})
	if r := e.Handle(now, []byte{0x81}); !cmp.Equal(r, []byte{0x34}) {
		t.Fatalf("GP = % X, want 34", r)
	}
	e.Handle(now, []byte{0x80}) // acknowledged
	if !m.Stopped() {
		t.Error("not stopped after 34 was acknowledged")
	}
	if r := e.Handle(now, []byte{0x81}); !cmp.Equal(r, []byte{0x00}) {
		t.Errorf("GP after 34 = % X, want 00 (the queue is evidence, not reported)", r)
	}
	after, _ := os.ReadFile(path)
	if !cmp.Equal(before, after) {
		t.Error("the store in error was written")
	}
}

// gatedStore is the real store whose commits wait, inside their bbolt
// write transaction (holding the store's one writer lock, as a slow fsync
// would), while the test holds gate.
type gatedStore struct {
	*recovery.Store
	gate    sync.Mutex
	entered chan struct{} // a commit reached the gate
}

func (g *gatedStore) Update(fn func(tx *recovery.Tx) error) error {
	return g.Store.Update(func(tx *recovery.Tx) error {
		select {
		case g.entered <- struct{}{}:
		default:
		}
		g.gate.Lock()
		g.gate.Unlock() //nolint:staticcheck // a gate, not a critical section
		return fn(tx)
	})
}

// TestRepliesDoNotWaitForTheStore: with the controller's commit stuck in
// the store (the write lock held), the host's acknowledgement and its
// command are answered at once, the next general poll moves on to the next
// exception, and the ledger commits both afterwards: a reopened store no
// longer holds the acknowledged exception and holds the lock-out.
func TestRepliesDoNotWaitForTheStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cabinet.db")
	st := recoverytest.Open(t, path, recovery.Options{})
	gs := &gatedStore{Store: st, entered: make(chan struct{}, 1)}
	host := make(chan controller.HostRequest, 64)
	be := sim.New()
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: gs, HW: be, Exceptions: Exceptions, Host: host,
		RNG: controller.SeededRNG{Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = c.Run(ctx) }()
	stop := sync.OnceFunc(func() { cancel(); <-done; be.Close(); st.Close() })
	t.Cleanup(stop)
	m := &Machine{Store: st, Cab: c, Host: host}

	code, ok, err := m.Peek()
	if err != nil || !ok || code != 0x18 {
		t.Fatalf("Peek() = %02X, %v, %v; want 18", code, ok, err)
	}
	var queued []recovery.Exception
	if err := st.View(func(tx *recovery.Tx) error { queued, err = tx.Exceptions(); return err }); err != nil {
		t.Fatal(err)
	}
	<-gs.entered // the boot's commit
	gs.gate.Lock()
	release := sync.OnceFunc(gs.gate.Unlock)
	t.Cleanup(release) // runs before stop: the controller's commit goes on
	be.InsertBill(2000)
	<-gs.entered // the bill's commit now holds the store's write lock

	replied := make(chan error, 2)
	go func() {
		replied <- m.Ack(0x18)
		replied <- m.Command(sas.Command{Kind: sas.CmdPlay, On: false})
	}()
	for _, what := range []string{"Ack(18)", "Command(LP 01)"} {
		select {
		case err := <-replied:
			if err != nil {
				t.Fatalf("%s = %v while the store is busy, want nil (answered at once)", what, err)
			}
		case <-time.After(10 * time.Second): // a hang detector, not a timing assertion
			t.Fatalf("%s waits for the store's commit: the reply would wait for a disk sync", what)
		}
	}
	if code, ok, err := m.Peek(); err != nil || !ok || code != 0x17 {
		t.Fatalf("Peek() after Ack(18) = %02X, %v, %v; want 17 (the acknowledged one never offered again)", code, ok, err)
	}
	release()
	waitFor(t, "the bill credited", func() bool { return c.Snapshot().Credits == 2000 })
	waitFor(t, "the lock-out committed", func() bool { return locked(t, st) })
	waitFor(t, "the acknowledgement committed", func() bool { return !holds(t, st, queued[0]) })
	stop()

	st, err = recovery.Open(path, recovery.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if holds(t, st, queued[0]) {
		t.Errorf("the reopened store still holds the acknowledged exception %+v", queued[0])
	}
	if !locked(t, st) {
		t.Error("the reopened store does not hold the LP 01 the host was answered ACK for")
	}
}

func holds(t *testing.T, st *recovery.Store, e recovery.Exception) bool {
	t.Helper()
	var q []recovery.Exception
	if err := st.View(func(tx *recovery.Tx) error { var err error; q, err = tx.Exceptions(); return err }); err != nil {
		t.Fatal(err)
	}
	for _, x := range q {
		if x.Seq == e.Seq {
			return true
		}
	}
	return false
}

func locked(t *testing.T, st *recovery.Store) bool {
	t.Helper()
	var h recovery.HostState
	if err := st.View(func(tx *recovery.Tx) error { var err error; h, err = tx.HostState(); return err }); err != nil {
		t.Fatal(err)
	}
	return h.PlayLocked
}

// TestBasePctIsTheRulesInForce: LP 53 reports each game's base % as the
// main bet's return for the rules in force in hundredths of a percent
// (four ASCII digits, implied decimal: "9970" for 99.70 %), the figure the
// analyser gives (par, through the return check); LP 1F the machine's
// lowest. The shipped configuration, with the return check wired as
// cmd/cabinet wires it.
func TestBasePctIsTheRulesInForce(t *testing.T) {
	cfg, err := config.Load(filepath.Join("..", "..", "configs", "cabinet.toml"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := rules.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := rtp.Check(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := recoverytest.Open(t, filepath.Join(t.TempDir(), "cabinet.db"), recovery.Options{})
	host := make(chan controller.HostRequest, 64)
	be := sim.New()
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: controller.InForce(set), Returns: rules.New(cfg, rtp.NewGuard())}, Store: st, HW: be, Exceptions: Exceptions, Host: host,
		RNG: controller.SeededRNG{Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = c.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; be.Close(); st.Close() })
	m := &Machine{Store: st, Cab: c, Host: host}
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	eng := &sas.Engine{Cfg: sas.Config{Address: 1, Denom: 1}, M: m, Q: m, Clock: func() time.Time { return now }}
	poll := func(msg ...byte) []byte {
		now = now.Add(200 * time.Millisecond)
		return eng.Handle(now, msg)
	}
	poll(0x82)
	lowest := int64(0)
	for i, id := range game.IDs {
		want := "0000" // Poker Duel: played for chips, no figure
		if fs := figs[id]; len(fs) > 0 {
			if fs[0].Bet != game.Main || fs[0].RTP < 5000 {
				t.Fatalf("%s: main figure %+v", id, fs[0])
			}
			want = fmt.Sprintf("%04d", fs[0].RTP)
			if lowest == 0 || fs[0].RTP < lowest {
				lowest = fs[0].RTP
			}
		}
		r := poll(sas.AppendCRC([]byte{0x01, 0x53, 0x00, byte(i + 1)})...)
		if len(r) < 6 {
			t.Fatalf("LP 53 game %d (%s) = % X", i+1, id, r)
		}
		if got := string(r[len(r)-6 : len(r)-2]); got != want {
			t.Errorf("LP 53 game %d (%s): base %% %q, want %q (the analyser's main-bet figure in hundredths of a percent)", i+1, id, got, want)
		}
	}
	r := poll(0x01, 0x1F)
	if len(r) < 6 {
		t.Fatalf("LP 1F = % X", r)
	}
	if got, want := string(r[len(r)-6:len(r)-2]), fmt.Sprintf("%04d", lowest); got != want {
		t.Errorf("LP 1F base %% %q, want the lowest figure %q", got, want)
	}
}
