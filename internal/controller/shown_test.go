package controller

import (
	"errors"
	"testing"

	"cabinet/internal/hw"
	"cabinet/internal/view"
)

// burst is issue 26's burst after DEAL: h s x p d y n z b h s.
var burst = []hw.Button{hw.Hit, hw.Stand, hw.Double, hw.Split, hw.Deal, hw.Yes, hw.No, hw.Special, hw.BetPlus, hw.Hit, hw.Stand}

// fakeDisplay is what the real display reports (internal/display's
// reporter), without its clock: it shows the published picture in full
// when told to (or at once after a consumed press, which finishes the
// reveal), and holds a result when told to.
type fakeDisplay struct {
	r     *rig
	hurry uint64
	// shown lists, per committed picture number, whether it was reported
	// shown before the next picture was committed.
	seen map[uint64]bool
	last uint64
}

func (d *fakeDisplay) report(held bool) {
	d.r.t.Helper()
	s := d.r.c.Snapshot()
	rep := view.Shown{Shown: s.Present}
	if held {
		rep.Held = s.Present
	}
	if err := d.r.c.Handle(Input{Shown: &rep}); err != nil {
		d.r.t.Fatalf("report %+v: %v", rep, err)
	}
	d.seen[s.Present] = true
}

// after is the display's frame after an input: a new picture is noted; a
// consumed press (Hurry changed) finishes the reveal, so the picture is
// shown in full at once.
func (d *fakeDisplay) after() {
	s := d.r.c.Snapshot()
	if s.Present != d.last {
		if d.last != 0 && !d.seen[d.last] {
			d.r.t.Errorf("picture %d committed before picture %d was shown", s.Present, d.last)
		}
		d.last = s.Present
	}
	if s.Hurry != d.hurry {
		d.hurry = s.Hurry
		d.report(false)
	}
}

// TestBurstBeforeShownPlaysOneRound: at a table whose display paces the
// deal, DEAL followed by a burst of eleven buttons pressed before the
// display reports the deal shown plays exactly the deal: every press is
// consumed (no lamp lit meanwhile), none acts. Then, with a display that
// finishes the reveal on a consumed press, the same burst plays one round
// to its end and never a second one (the result is held before DEAL
// lights), and every committed step was shown before the next was taken.
func TestBurstBeforeShownPlaysOneRound(t *testing.T) {
	r := newRig(t, 4)
	r.display = NewPresentation()
	r.boot()
	d := &fakeDisplay{r: r, seen: map[uint64]bool{}}
	r.bill(2000)
	r.mustPress(hw.Deal)    // the menu: to Royal Poker's table
	r.mustPress(hw.BetPlus) // 1.00 on spot 1
	r.mustPress(hw.Deal)
	d.after()
	if n := len(r.c.led.cur().open.Steps); n != 1 {
		t.Fatalf("steps after DEAL = %d, want 1", n)
	}
	dealt := r.c.Snapshot().Present
	for _, b := range burst {
		err := r.press(b)
		if !errors.Is(err, ErrRevealing) {
			t.Errorf("press %s before the deal is shown = %v, want ErrRevealing", b, err)
		}
		if s := r.c.Snapshot(); s.Lamps != 0 || s.Message != "" {
			t.Errorf("after press %s: lamps %v, message %q; want none while the deal is revealed", b, s.Lamps, s.Message)
		}
	}
	if r.c.led.cur().open == nil || len(r.c.led.cur().open.Steps) != 1 || r.c.Completed() != 0 {
		t.Fatalf("after the burst: open %v, completed %d; want the dealt round, one step", r.c.led.cur().open != nil, r.c.Completed())
	}
	if got := r.c.Snapshot().Hurry; got != uint64(len(burst)) {
		t.Errorf("Hurry = %d, want %d (each consumed press finishes the reveal)", got, len(burst))
	}
	// The display has shown the deal: the decisions light.
	d.report(false)
	if s := r.c.Snapshot(); !s.Lamps.Has(hw.Stand) || s.Present != dealt {
		t.Fatalf("deal shown: lamps %v, present %d; want STAND lit on picture %d", s.Lamps, s.Present, dealt)
	}

	// The same burst on the next decision, with the display finishing each
	// reveal a consumed press asks for.
	played := r.c.Completed()
	for _, b := range burst {
		_ = r.press(b) // refused or accepted: the lamps decide, the count is checked below
		d.after()
	}
	if got := r.c.Completed() - played; got != 1 {
		t.Errorf("rounds completed by the burst = %d, want 1", got)
	}
	if r.c.led.cur().open != nil {
		t.Errorf("a round was opened by the burst (round %d)", r.c.led.cur().open.Round)
	}
	s := r.c.Snapshot()
	if s.Lamps.Has(hw.Deal) || s.Lamps.Has(hw.Rebet) {
		t.Errorf("DEAL/REBET lit before the result's hold: lamps %v", s.Lamps)
	}
	if s.HoldMS != testSettings().ResultHoldMS {
		t.Errorf("HoldMS = %d, want %d", s.HoldMS, testSettings().ResultHoldMS)
	}
	if err := r.press(hw.Rebet); err == nil || r.c.Snapshot().Message != NoticeResultShown {
		t.Errorf("REBET during the hold = %v, message %q; want refused with %q", err, r.c.Snapshot().Message, NoticeResultShown)
	}
	d.report(true)
	if s := r.c.Snapshot(); !s.Lamps.Has(hw.Rebet) || s.HoldMS != 0 || s.Message != "" {
		t.Errorf("after the hold: lamps %v, HoldMS %d, message %q; want REBET lit, no hold asked, the hold's notice gone", s.Lamps, s.HoldMS, s.Message)
	}
	for n := uint64(1); n <= d.last; n++ {
		if !d.seen[n] {
			t.Errorf("picture %d never reported shown", n)
		}
	}
}

// TestRecoveredShownBeforeInput: after a power cut the resumed round is
// presented in full before any press is accepted; the "game recovered"
// notice goes with the first accepted press; and after the recovered round
// REBET repeats the bets it was dealt with.
func TestRecoveredShownBeforeInput(t *testing.T) {
	r := newRig(t, 3)
	r.display = NewPresentation()
	r.boot()
	d := &fakeDisplay{r: r, seen: map[uint64]bool{}}
	r.bill(2000)
	r.mustPress(hw.Deal)
	r.mustPress(hw.BetPlus)
	r.mustPress(hw.Deal)
	if r.c.led.cur().open == nil {
		t.Skip("seed 3 settles at the deal: no round to resume")
	}
	r.boot() // the power cut
	s := r.c.Snapshot()
	if !s.Recovered || s.Present != 1 || s.Lamps != 0 {
		t.Fatalf("after boot: recovered %v, present %d, lamps %v; want the recovered picture to present, nothing lit", s.Recovered, s.Present, s.Lamps)
	}
	if err := r.press(hw.Stand); !errors.Is(err, ErrRevealing) {
		t.Fatalf("STAND before the recovered round is shown = %v, want ErrRevealing", err)
	}
	if !r.c.Snapshot().Recovered {
		t.Error("the recovered notice went with a consumed press")
	}
	d.report(false)
	if !r.c.Snapshot().Lamps.Has(hw.Stand) {
		t.Fatalf("recovered round shown: lamps %v, want STAND lit", r.c.Snapshot().Lamps)
	}
	for r.c.led.cur().open != nil {
		r.mustPress(hw.Stand)
		if r.c.Snapshot().Recovered {
			t.Error("the recovered notice stays after an accepted press")
		}
		d.report(true)
	}
	if s := r.c.Snapshot(); !s.Lamps.Has(hw.Rebet) || !s.Lamps.Has(hw.Deal) {
		t.Errorf("after the recovered round: lamps %v, want DEAL and REBET lit (the round's bets repeat)", s.Lamps)
	}
}

// TestHeadlessCountsEverythingShown: without a display (cabinet sim, the
// scenarios) every step counts as shown and held when committed.
func TestHeadlessCountsEverythingShown(t *testing.T) {
	r := newRig(t, 3)
	r.bill(2000)
	r.mustPress(hw.Deal)
	r.mustPress(hw.BetPlus)
	r.mustPress(hw.Deal)
	for r.c.led.cur().open != nil {
		r.mustPress(hw.Stand)
	}
	if s := r.c.Snapshot(); !s.Lamps.Has(hw.Rebet) || s.HoldMS != 0 {
		t.Errorf("headless, settled: lamps %v, HoldMS %d; want REBET lit at once", s.Lamps, s.HoldMS)
	}
}

// TestShownReportChecked: a report ahead of what was published, or a hold
// before the showing, is an error and changes nothing.
func TestShownReportChecked(t *testing.T) {
	r := newRig(t, 3)
	r.display = NewPresentation()
	r.boot()
	for _, rep := range []view.Shown{{Shown: 5}, {Shown: 0, Held: 1}} {
		if err := r.c.Handle(Input{Shown: &rep}); err == nil {
			t.Errorf("report %+v accepted, want an error", rep)
		}
	}
	if r.c.scr.shownN != 0 || r.c.scr.heldN != 0 {
		t.Errorf("after bad reports: shown %d held %d, want 0 0", r.c.scr.shownN, r.c.scr.heldN)
	}
}
