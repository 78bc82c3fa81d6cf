package controller

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/hw"
	"cabinet/internal/hw/periph"
	"cabinet/internal/hw/periph/periphtest"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/player"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// periphRig is the real controller on the periph backend, whose pins are
// periph's gpiotest fakes stepped by periphtest.Rig, and a real bbolt store.
// Inputs go from pin edges through debounce (or the pulse decoder) to
// Handle, as Run does; outputs are read back from the lamp, tower and
// inhibit pins.
type periphRig struct {
	t  *testing.T
	hw *periphtest.Rig
	st *recovery.Store
	c  *Controller
}

func newPeriphRig(t *testing.T) *periphRig {
	t.Helper()
	r := &periphRig{t: t, hw: periphtest.NewRig(t, periph.DefaultConfig())}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	r.c, r.st = testCabinet(t, Options{HW: r.hw.Backend, RNG: SeededRNG{Seed: 7}, InForce: testSettings(), Now: func() time.Time { return now }},
		kitStore{path: filepath.Join(t.TempDir(), "cabinet.db")})
	r.checkLamps()
	return r
}

// deliver hands every input the backend has produced to the controller and
// returns them with Handle's errors.
func (r *periphRig) deliver() ([]hw.Input, []error) {
	ins := r.hw.Inputs()
	errs := make([]error, len(ins))
	for i, in := range ins {
		errs[i] = r.c.Handle(HW(in))
	}
	return ins, errs
}

// deliverOne expects exactly one input, want, and returns Handle's error.
func (r *periphRig) deliverOne(want string) error {
	r.t.Helper()
	ins, errs := r.deliver()
	if len(ins) != 1 || ins[0].String() != want {
		r.t.Fatalf("backend produced %v, want one %q", ins, want)
	}
	return errs[0]
}

// checkLamps: the lamp pins are the snapshot's buttons, and in a round
// exactly the legal actions (and HELP).
func (r *periphRig) checkLamps() {
	r.t.Helper()
	s := r.c.Snapshot()
	if got := r.hw.Lamps(); got != s.Lamps {
		r.t.Fatalf("lamp pins %b, screen buttons %b (mode %s)", got, s.Lamps, s.Mode)
	}
	if s.Mode == view.Table && r.c.Round() != nil {
		want := LampsFor(r.c.Round().Legal(r.c.Credits())).With(hw.Help)
		if got := r.hw.Lamps(); got != want {
			r.t.Fatalf("lamp pins %b, legal actions %v light %b", got, r.c.Round().Legal(r.c.Credits()), want)
		}
	}
}

// press presses b on the panel (its pin, debounced) and hands the press to
// the controller; the lamps are checked afterwards.
func (r *periphRig) press(b hw.Button) error {
	r.t.Helper()
	r.hw.Press(b)
	err := r.deliverOne("press " + b.String())
	r.checkLamps()
	return err
}

// pressLit presses a lit button; it must be accepted.
func (r *periphRig) pressLit(b hw.Button) {
	r.t.Helper()
	if !r.hw.Lamps().Has(b) {
		r.t.Fatalf("%s not lit (lamps %b, mode %s)", b, r.hw.Lamps(), r.c.Snapshot().Mode)
	}
	if err := r.press(b); err != nil {
		r.t.Fatalf("press lit %s: %v (mode %s)", b, err, r.c.Snapshot().Mode)
	}
}

// turn sets a door or key switch on the panel.
func (r *periphRig) turn(s hw.Switch, on bool) {
	r.t.Helper()
	r.hw.Switch(s, on)
	want := s.String() + " off"
	if on {
		want = s.String() + " on"
	}
	if err := r.deliverOne(want); err != nil {
		r.t.Fatalf("switch %s: %v", want, err)
	}
	r.checkLamps()
}

func (r *periphRig) events() []meters.Event {
	r.t.Helper()
	var evs []meters.Event
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		evs, err = tx.Events(0)
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return evs // newest first
}

// TestPeriphPanel runs the controller on the periph backend: a bill from a
// pulse train, a malformed train, a game chosen and a round played with lit
// buttons whose lamp pins equal the legal actions, the main door opened
// mid-round (tilt: round frozen, play refused, acceptor inhibited, tower
// tilt) and closed (the same round continues), the cash door, the audit
// key, and every change in the store's event log.
func TestPeriphPanel(t *testing.T) {
	r := newPeriphRig(t)
	if s := r.c.Snapshot(); s.Mode != view.Attract {
		t.Fatalf("boot: mode %s, want attract", s.Mode)
	}
	if r.hw.Inhibited() || r.hw.Tower() != hw.TowerOff {
		t.Fatalf("attract: inhibited %v tower %d, want accepting, tower off", r.hw.Inhibited(), r.hw.Tower())
	}

	// Bills: a valid train is credited, a malformed one is logged only.
	r.hw.Bill(2000)
	if err := r.deliverOne("bill stacked 20.00"); err != nil {
		t.Fatal(err)
	}
	a := r.hw.Config.Acceptor
	r.hw.Train(2, a.WidthMax.Std()+time.Millisecond, a.GapMin.Std())
	ins, errs := r.deliver()
	if len(ins) != 1 || ins[0].Kind != hw.BillError || errs[0] != nil {
		t.Fatalf("malformed train: inputs %v errors %v, want one bill error handled", ins, errs)
	}
	if got := r.c.Credits(); got != 2000 {
		t.Fatalf("credits %v, want 20.00 (the malformed train credits nothing)", got)
	}
	r.checkLamps()

	// A Classic round through the panel.
	for i := 0; r.c.Snapshot().Game != game.Classic; i++ {
		if i > len(game.IDs) {
			t.Fatal("classic not on the menu")
		}
		r.pressLit(hw.Spot)
	}
	r.pressLit(hw.Deal)
	r.pressLit(hw.BetPlus)
	r.pressLit(hw.Deal)
	if r.c.Round() == nil {
		t.Fatal("DEAL with a bet: no round")
	}
	for r.c.Round() != nil && len(r.c.Round().Legal(r.c.Credits())) == 0 {
		t.Fatal("round open with no legal action")
	}
	round := r.c.Machine().NextRound
	before := string(mustJSON(r.c.Round().Table()))

	// Main door open: tilt.
	r.turn(hw.MainDoor, true)
	s := r.c.Snapshot()
	if s.Mode != view.Tilt || len(s.Tilts) != 1 || s.Tilts[0] != "main_door" {
		t.Fatalf("door open: mode %s tilts %v, want tilt main_door", s.Mode, s.Tilts)
	}
	if r.hw.Lamps() != 0 || !r.hw.Inhibited() || r.hw.Tower() != hw.TowerTilt {
		t.Fatalf("door open: lamps %b inhibited %v tower %d, want all off, inhibited, tilt", r.hw.Lamps(), r.hw.Inhibited(), r.hw.Tower())
	}
	for _, b := range []hw.Button{hw.Hit, hw.Stand, hw.Deal, hw.CashOut} {
		if err := r.press(b); !errors.Is(err, ErrNotNow) {
			t.Fatalf("press %s while the door is open = %v, want ErrNotNow", b, err)
		}
	}
	if got := string(mustJSON(r.c.Round().Table())); got != before {
		t.Fatal("round moved while tilted")
	}

	// Closed: back where it was, the same round.
	r.turn(hw.MainDoor, false)
	if s := r.c.Snapshot(); s.Mode != view.Table || len(s.Tilts) != 0 {
		t.Fatalf("door closed: mode %s tilts %v, want the table", s.Mode, s.Tilts)
	}
	if r.c.Round() == nil || string(mustJSON(r.c.Round().Table())) != before || r.c.Machine().NextRound != round {
		t.Fatal("door closed: not the same round")
	}
	if r.hw.Inhibited() || r.hw.Tower() != hw.TowerOff {
		t.Fatalf("door closed: inhibited %v tower %d, want accepting, tower off", r.hw.Inhibited(), r.hw.Tower())
	}

	// Play the round out with lit buttons only.
	for i := 0; r.c.Round() != nil; i++ {
		if i > 30 {
			t.Fatal("round did not finish")
		}
		br := r.c.Round().(*blackjack.Round)
		legal := br.Legal(r.c.Credits())
		k := player.Basic(br, legal)
		var btn hw.Button
		found := false
		for b := hw.Button(0); b < hw.NumButtons && !found; b++ {
			if got, ok := ActionFor(b, legal); ok && got == k {
				btn, found = b, true
			}
		}
		if !found {
			t.Fatalf("no button for %s (legal %v)", k, legal)
		}
		r.pressLit(btn)
	}

	// Cash door: a tilt too.
	r.turn(hw.CashDoor, true)
	if s := r.c.Snapshot(); s.Mode != view.Tilt || !r.hw.Inhibited() || r.hw.Tower() != hw.TowerTilt {
		t.Fatalf("cash door open: mode %s inhibited %v tower %d", s.Mode, r.hw.Inhibited(), r.hw.Tower())
	}
	r.turn(hw.CashDoor, false)
	if s := r.c.Snapshot(); s.Mode == view.Tilt {
		t.Fatalf("cash door closed: still tilted %v", s.Tilts)
	}

	// Audit key: the audit screens, acceptor inhibited; off: back.
	back := r.c.Snapshot().Mode
	r.turn(hw.AuditKey, true)
	if s := r.c.Snapshot(); s.Mode != view.Audit || !r.hw.Inhibited() {
		t.Fatalf("audit key on: mode %s inhibited %v, want audit, inhibited", s.Mode, r.hw.Inhibited())
	}
	r.pressLit(hw.Spot) // the next audit page
	r.turn(hw.AuditKey, false)
	if s := r.c.Snapshot(); s.Mode != back || r.hw.Inhibited() {
		t.Fatalf("audit key off: mode %s inhibited %v, want %s, accepting", s.Mode, r.hw.Inhibited(), back)
	}

	// Every change is in the event log, in order.
	var log []string
	evs := r.events()
	for i := len(evs) - 1; i >= 0; i-- {
		log = append(log, evs[i].Kind+": "+evs[i].Text)
	}
	want := []string{
		meters.KindBillAccepted + ": bill 20.00",
		meters.KindBillError + ": bill error",
		meters.KindDoor + ": main_door opened",
		meters.KindTilt + ": tilt",
		meters.KindDoor + ": main_door closed",
		meters.KindTiltClear + ": tilt cleared",
		meters.KindDoor + ": cash_door opened",
		meters.KindTilt + ": tilt",
		meters.KindDoor + ": cash_door closed",
		meters.KindTiltClear + ": tilt cleared",
		meters.KindKey + ": audit_key on",
		meters.KindKey + ": audit_key off",
	}
	i := 0
	for _, l := range log {
		if i < len(want) && strings.HasPrefix(l, want[i]) {
			i++
		}
	}
	if i < len(want) {
		t.Fatalf("event log lacks %q (in order); log:\n%s", want[i], strings.Join(log, "\n"))
	}
	if m := r.c.Machine().Meters; m.MainDoor != 1 || m.CashDoor != 1 || m.AuditKey != 1 || m.BillsIn != 2000 {
		t.Fatalf("meters: main door %d cash door %d audit key %d bills in %v, want 1 1 1 20.00", m.MainDoor, m.CashDoor, m.AuditKey, m.BillsIn)
	}
}

// TestPeriphInhibitAtCreditLimit: the acceptor is inhibited as soon as the
// largest bill could take the credits over the limit (a pulse acceptor
// cannot refuse one denomination), though a smaller bill would still fit.
func TestPeriphInhibitAtCreditLimit(t *testing.T) {
	r := newPeriphRig(t)
	limit := testSettings().CreditLimit // 1000.00; the largest bill is 100.00
	for credited := money.Cents(0); credited+10000 <= limit-5000; credited += 10000 {
		if r.hw.Inhibited() {
			t.Fatalf("credits %v, limit %v: inhibited, want accepting", credited, limit)
		}
		r.hw.Bill(10000)
		if err := r.deliverOne("bill stacked 100.00"); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.c.Credits(); got != 90000 {
		t.Fatalf("credits %v, want 900.00", got)
	}
	r.hw.Bill(5000)
	if err := r.deliverOne("bill stacked 50.00"); err != nil {
		t.Fatal(err)
	}
	if !r.hw.Inhibited() {
		t.Fatalf("credits %v, limit %v, room for 50.00 but not 100.00: acceptor enabled, want inhibited", r.c.Credits(), limit)
	}
	// The reset key is logged; it changes nothing here.
	r.turn(hw.ResetKey, true)
	r.turn(hw.ResetKey, false)
	if !r.hw.Inhibited() {
		t.Fatalf("after the reset key: acceptor enabled (credits %v)", r.c.Credits())
	}
	evs := r.events()
	if len(evs) < 2 || evs[0].Text != "reset_key off" || evs[1].Text != "reset_key on" {
		t.Fatalf("newest events %v, want reset_key on, reset_key off", evs[:min(len(evs), 2)])
	}
}
