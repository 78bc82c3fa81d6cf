package controller

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/i18n"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/player"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

func testSettings() InForce {
	return InForce{
		Games: []game.ID{game.Royal, game.FreeBet, game.Zappit, game.Classic, game.Duel},
		Rules: map[game.ID]blackjack.Rules{game.Classic: blackjack.Classic(), game.Royal: blackjack.Royal(),
			game.FreeBet: blackjack.FreeBet(), game.Zappit: blackjack.Zappit()},
		Duel:        DuelInForce{Enabled: true, Config: duel.DefaultConfig()},
		CreditLimit: 100000, HandpayLimit: 120000,
		Bills: []money.Cents{500, 1000, 2000, 5000, 10000},
		Chips: []money.Cents{100, 500, 2500},
		Denom: 1, Currency: "€", Language: "en", ResultHoldMS: 1000,
		JackpotReset: 2000000, JackpotRateE7: 2030843,
	}
}

type rig struct {
	t    testing.TB
	path string
	st   *recovery.Store
	be   *sim.Backend
	c    *Controller
	now  time.Time
	seed uint64
	// onCommit, if set, is the controller's OnCommit hook (kept across boots).
	onCommit func(id game.ID, round uint64, evs []game.Event)
	// sas turns on the SAS exception queue (kept across boots).
	sas bool
	// display, if set, is a display's reports channel (kept across boots):
	// the table waits for Shown inputs (shown.go).
	display *Presentation
}

func newRig(t testing.TB, seed uint64) *rig { return newRigSAS(t, seed, false) }

// newRigSAS is newRig with the SAS exception queue on or off.
func newRigSAS(t testing.TB, seed uint64, sas bool) *rig {
	t.Helper()
	r := &rig{t: t, path: filepath.Join(t.TempDir(), "cabinet.db"), now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), seed: seed, sas: sas}
	r.boot()
	t.Cleanup(func() { r.st.Close() }) // the store open last (a state's own reboot)
	return r
}

// boot (re)opens the store and boots a controller on it, as after a power cycle.
func (r *rig) boot() {
	r.t.Helper()
	if r.st != nil {
		if err := r.st.Close(); err != nil {
			r.t.Fatal(err)
		}
	}
	r.be = sim.New()
	var hear func(HostEvent) []byte
	if r.sas {
		hear = hostKinds
	}
	r.c, r.st = testCabinet(r.t, Options{HW: r.be, RNG: SeededRNG{Seed: r.seed}, InForce: testSettings(), Now: func() time.Time { return r.now },
		Exceptions: hear, OnCommit: r.onCommit, Display: r.display}, kitStore{path: r.path})
}

func (r *rig) press(b hw.Button) error {
	return r.c.Handle(HW(hw.Input{Kind: hw.ButtonPressed, Button: b}))
}

func (r *rig) mustPress(b hw.Button) {
	r.t.Helper()
	if err := r.press(b); err != nil {
		r.t.Fatalf("press %s: %v (mode %s)", b, err, r.c.Snapshot().Mode)
	}
}

func (r *rig) set(s hw.Switch, on bool) {
	r.t.Helper()
	if err := r.c.Handle(HW(hw.Input{Kind: hw.SwitchChanged, Switch: s, On: on})); err != nil {
		r.t.Fatalf("switch %s=%v: %v", s, on, err)
	}
}

func (r *rig) bill(v money.Cents) {
	r.t.Helper()
	if err := r.c.Handle(HW(hw.Input{Kind: hw.BillStacked, Value: v})); err != nil {
		r.t.Fatalf("bill %v: %v", v, err)
	}
}

// TestWalkingSkeleton: bill in, choose Classic, bet, deal, play to the end
// with lit buttons only, cash out into a handpay, reset key clears it.
func TestWalkingSkeleton(t *testing.T) {
	r := newRig(t, 1)
	if got := r.c.Snapshot().Mode; got != view.Attract {
		t.Fatalf("mode at boot = %s, want attract", got)
	}
	r.bill(2000)
	s := r.c.Snapshot()
	if s.Mode != view.Menu || s.Credits != 2000 {
		t.Fatalf("after a 20.00 bill: mode %s credits %v, want menu 20.00", s.Mode, s.Credits)
	}
	for r.c.Snapshot().Game != game.Classic {
		r.mustPress(hw.Spot)
	}
	r.mustPress(hw.Deal) // enter the table
	r.mustPress(hw.BetPlus)
	if got := r.c.Snapshot().Bets; len(got) != 1 || got[0].Amount != 100 {
		t.Fatalf("bets after BET+ = %v, want one 1.00 main bet", got)
	}
	if r.c.Credits() != 2000 {
		t.Fatalf("credits moved before the deal: %v", r.c.Credits())
	}
	r.mustPress(hw.Deal)
	for i := 0; r.c.Round() != nil; i++ {
		if i > 30 {
			t.Fatal("round did not finish")
		}
		s := r.c.Snapshot()
		legal := r.c.Round().Legal(r.c.Credits())
		if want := LampsFor(legal).With(hw.Help); s.Lamps != want || r.be.Lamps() != want {
			t.Fatalf("lamps = %b (hw %b), want %b for legal %v", s.Lamps, r.be.Lamps(), want, legal)
		}
		// A button that is not lit does nothing.
		before := r.c.Machine()
		if err := r.press(hw.CashOut); err == nil {
			t.Fatal("cash out during a round accepted")
		}
		if r.c.Machine().Credits != before.Credits {
			t.Fatal("refused input changed credits")
		}
		act := player.Basic(r.c.Round().(*blackjack.Round), legal)
		for b := hw.Button(0); b < hw.NumButtons; b++ {
			if k, ok := ActionFor(b, legal); ok && k == act {
				r.mustPress(b)
				break
			}
		}
	}
	m := r.c.Machine()
	if err := m.Meters.Check(m.Credits); err != nil {
		t.Fatal(err)
	}
	if m.Meters.Played != 1 || m.Meters.Won+m.Meters.Lost+m.Meters.Pushed != 1 {
		t.Fatalf("meters after one round: %+v", m.Meters)
	}
	credits := m.Credits
	r.mustPress(hw.CashOut)
	if s := r.c.Snapshot(); s.Mode != view.Handpay || s.Handpay != credits || r.be.Acceptance() != 0 || r.be.TowerLight() != hw.TowerAttendant {
		t.Fatalf("after cash out: mode %s handpay %v acceptance %v tower %d", s.Mode, s.Handpay, r.be.Acceptance(), r.be.TowerLight())
	}
	if err := r.press(hw.BetPlus); err == nil {
		t.Fatal("bet accepted during handpay")
	}
	r.set(hw.ResetKey, true)
	r.set(hw.ResetKey, false)
	m = r.c.Machine()
	if m.Credits != 0 || m.Meters.HandpayCancelled != credits || r.c.Snapshot().Mode != view.Attract {
		t.Fatalf("after reset key: credits %v cancelled %v mode %s", m.Credits, m.Meters.HandpayCancelled, r.c.Snapshot().Mode)
	}
	if err := m.Meters.Check(m.Credits); err != nil {
		t.Fatal(err)
	}
}

// TestResumeEveryStep power-cycles the cabinet after every committed step of
// many rounds of every game: the resumed round has the same picture, the
// same legal actions, and play continues to the same end as without cuts.
func TestResumeEveryStep(t *testing.T) {
	const seed, rounds = 7, 40
	play := func(cut bool) (recovery.Machine, []string) {
		r := newRig(t, seed)
		var pictures []string
		for r.c.Completed() < rounds {
			id := r.c.set.Games[int(r.c.Completed())%len(r.c.set.Games)]
			if err := r.c.Handle(Input{Auto: &AutoStep{Game: id}}); err != nil {
				t.Fatalf("AutoStep: %v", err)
			}
			if r.c.Round() != nil {
				before := string(mustJSON(r.c.Round().Table())) + string(mustJSON(r.c.Round().Legal(r.c.Credits())))
				if cut {
					r.boot()
					after := string(mustJSON(r.c.Round().Table())) + string(mustJSON(r.c.Round().Legal(r.c.Credits())))
					if after != before {
						t.Fatalf("resume changed the round:\n before %s\n after  %s", before, after)
					}
					if !r.c.Snapshot().Recovered {
						t.Fatal("resumed round not flagged as recovered")
					}
				}
				pictures = append(pictures, before)
			}
		}
		m := r.c.Machine()
		if err := m.Meters.Check(m.Credits); err != nil {
			t.Fatal(err)
		}
		return m, pictures
	}
	a, pa := play(false)
	b, pb := play(true)
	if len(pa) != len(pb) {
		t.Fatalf("%d steps without cuts, %d with", len(pa), len(pb))
	}
	for i := range pa {
		if pa[i] != pb[i] {
			t.Fatalf("step %d differs with power cuts:\n %s\n %s", i, pa[i], pb[i])
		}
	}
	if a.Credits != b.Credits || a.Meters.TotalIn != b.Meters.TotalIn || a.Meters.TotalWon != b.Meters.TotalWon || a.PoolUnits != b.PoolUnits {
		t.Fatalf("final state differs: %v/%v in %v/%v won %v/%v", a.Credits, b.Credits, a.Meters.TotalIn, b.Meters.TotalIn, a.Meters.TotalWon, b.Meters.TotalWon)
	}
	if b.Meters.Recoveries == 0 {
		t.Fatal("no recovery counted")
	}
}

// TestDoorTilt: a door freezes the round and inhibits the acceptor; closing
// it resumes where it was.
func TestDoorTilt(t *testing.T) {
	r := newRig(t, 3)
	r.bill(5000)
	for r.c.Round() == nil || len(r.c.Round().Legal(r.c.Credits())) == 0 {
		if err := r.c.Handle(Input{Auto: &AutoStep{Game: game.Classic}}); err != nil {
			t.Fatal(err)
		}
	}
	before := string(mustJSON(r.c.Round().Table()))
	r.set(hw.MainDoor, true)
	s := r.c.Snapshot()
	if s.Mode != view.Tilt || len(s.Tilts) != 1 || s.Tilts[0] != "main_door" || s.Lamps != 0 || r.be.Acceptance() != 0 || r.be.TowerLight() != hw.TowerTilt {
		t.Fatalf("door open: mode %s tilts %v lamps %b acceptance %v", s.Mode, s.Tilts, s.Lamps, r.be.Acceptance())
	}
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		if err := r.press(b); !errors.Is(err, ErrNotNow) {
			t.Fatalf("press %s while tilted = %v, want ErrNotNow", b, err)
		}
	}
	if got := string(mustJSON(r.c.Round().Table())); got != before {
		t.Fatal("round moved while tilted")
	}
	r.set(hw.MainDoor, false)
	if s := r.c.Snapshot(); s.Mode != view.Table || s.Lamps == 0 || r.be.Acceptance() == 0 {
		t.Fatalf("door closed: mode %s lamps %b acceptance %v", s.Mode, s.Lamps, r.be.Acceptance())
	}
	if r.c.Machine().Meters.MainDoor != 1 {
		t.Fatalf("main door meter = %d, want 1", r.c.Machine().Meters.MainDoor)
	}
}

// TestVoid: a round left open beyond its limit is voided on boot and the
// credits restored to before the round.
func TestVoid(t *testing.T) {
	r := newRig(t, 5)
	r.bill(5000)
	for r.c.Round() == nil || r.c.OpenGame() != game.Classic {
		if err := r.c.Handle(Input{Auto: &AutoStep{Game: game.Classic}}); err != nil {
			t.Fatal(err)
		}
		if r.c.Round() != nil && r.c.Round().Done() {
			t.Fatal("done round kept open")
		}
		if r.c.Completed() > 50 {
			t.Fatal("no round stayed open")
		}
	}
	before, atCut := r.c.led.cur().open.CreditsBefore, r.c.Credits()
	r.now = r.now.Add(25 * time.Hour)
	r.boot()
	m := r.c.Machine()
	if r.c.Round() != nil || m.Credits != before || m.Meters.Voided != 1 {
		t.Fatalf("after void: open %v credits %v (want %v) voided %d", r.c.Round() != nil, m.Credits, before, m.Meters.Voided)
	}
	if err := m.Meters.Check(m.Credits); err != nil {
		t.Fatal(err)
	}
	// The log says which round, of which game, and what came back, typed
	// for the audit screen.
	var void *meters.Event
	for _, e := range storeEvents(t, r.st) {
		if e.Kind == meters.KindVoid {
			void = &e
		}
	}
	if void == nil || void.Detail != "round_voided" || len(void.Args) != 3 || void.Args[0].Type != meters.ArgCount ||
		void.Args[1] != meters.KeyArg("game.classic") || void.Args[2] != meters.MoneyArg(m.Credits-atCut) || m.Credits == atCut {
		t.Fatalf("void logged as %+v, want round_voided with the round, game.classic and the refund", void)
	}
	for _, lang := range i18n.Langs() {
		if txt := i18n.T(lang, "detail.round_voided"); strings.Count(txt, "%s") != 3 {
			t.Errorf("%s detail.round_voided = %q, want three %%s", lang, txt)
		}
	}
}

// TestJackpotResolution: the pool pays at its committed value, keeps the
// fractional units, resets after a royal, and a win at the handpay limit is
// not credited.
func TestJackpotResolution(t *testing.T) {
	r := newRig(t, 1)
	c := r.c
	m := recovery.Machine{Credits: 1000, PoolUnits: 200000*PoolUnitsPerCent + 123}
	evs, err := c.set.money(&m, game.Royal, []game.Event{
		{Kind: game.Stake, Bet: game.RoyalSide, Amount: 100},
		{Kind: game.JackpotWin, Percent: 10},
	})
	if err != nil {
		t.Fatal(err)
	}
	contrib := int64(100 * 2030843)
	pool := int64(200000*PoolUnitsPerCent+123) + contrib
	want := money.Cents(pool / 10 / PoolUnitsPerCent)
	if len(evs) != 3 || evs[1].Amount != want || evs[2].Kind != game.Payout || evs[2].Amount != want {
		t.Fatalf("events = %+v, want a jackpot of %v and its payout", evs, want)
	}
	if m.PoolUnits != pool-int64(want)*PoolUnitsPerCent || m.Credits != 1000-100+want {
		t.Fatalf("pool %d credits %v after a 10%% win", m.PoolUnits, m.Credits)
	}
	m2 := recovery.Machine{Credits: 1000, PoolUnits: 3000000 * PoolUnitsPerCent}
	evs, err = c.set.money(&m2, game.Royal, []game.Event{{Kind: game.JackpotWin, Percent: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if !evs[1].Handpay || m2.Handpay != 3000000 || m2.Credits != 1000 || m2.PoolUnits != 2000000*PoolUnitsPerCent {
		t.Fatalf("royal: events %+v handpay %v credits %v pool %d", evs, m2.Handpay, m2.Credits, m2.PoolUnits)
	}
}

// host hands a host command to the controller's entry point.
func (r *rig) host(cmd HostCommand) error { return r.c.Handle(Input{Host: &HostRequest{Cmd: cmd}}) }

// play applies a game action directly (the step, not a button): a test's
// way to bet what no button sequence reaches in a few presses.
func (r *rig) play(a game.Action) error {
	defer func() { r.c.publish(r.c.led.cur()) }()
	return r.c.play(a)
}

// storedOverrides reads the operator overrides in the store itself.
func (r *rig) storedOverrides() map[string]string {
	r.t.Helper()
	var o map[string]string
	if err := r.c.led.store().View(func(tx *recovery.Tx) error { var err error; o, err = tx.Overrides(); return err }); err != nil {
		r.t.Fatal(err)
	}
	return o
}

// hostKinds is the SAS rig's table from host events to queued codes: each
// event queues its kind, a logged event its kind and the first byte of its
// detail (the SAS codes themselves are internal/sasmachine's table, tested
// there with a real controller).
func hostKinds(e HostEvent) []byte {
	if e.Kind == HostLogged && e.Log.Detail != "" {
		return []byte{byte(e.Kind), e.Log.Detail[0]}
	}
	return []byte{byte(e.Kind)}
}
