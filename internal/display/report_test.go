package display

import (
	"slices"
	"testing"

	"cabinet/internal/view"
)

// TestReporter: a picture is reported shown at the first frame that shows
// it in full (not while a card flies or chips move, not while the demo is
// drawn), its hold once it has stayed HoldMS since, each report once.
func TestReporter(t *testing.T) {
	var got []view.Shown
	r := reporter{report: func(s view.Shown) { got = append(got, s) }}
	s := &view.Snapshot{Present: 3, HoldMS: 1000}
	fly := paced{s: s, flying: &reveal{}}
	chips := paced{s: s, chips: []chipFlight{{}}}
	full := paced{s: s}
	r.frame(s, fly, false, 0.0)
	r.frame(s, chips, false, 0.5)
	r.frame(s, full, true, 0.6) // the demo is drawn instead
	if len(got) != 0 {
		t.Fatalf("reports before the picture was shown in full: %+v", got)
	}
	r.frame(s, full, false, 1.0)
	r.frame(s, full, false, 1.5)
	r.frame(s, full, false, 2.0)
	r.frame(s, full, false, 2.5)
	want := []view.Shown{{Shown: 3}, {Shown: 3, Held: 3}}
	if !slices.Equal(got, want) {
		t.Errorf("reports %+v, want %+v", got, want)
	}
	// A picture without a hold is held as soon as shown.
	got = nil
	s2 := &view.Snapshot{Present: 4}
	r.frame(s2, paced{s: s2}, false, 3.0)
	if want := []view.Shown{{Shown: 4, Held: 4}}; !slices.Equal(got, want) {
		t.Errorf("reports %+v, want %+v", got, want)
	}
}

// TestHurryFinishesReveal: a press the controller consumed during a reveal
// (Snapshot.Hurry changed) shows the whole committed picture at the next
// frame, chips landed: the window reports it shown at once.
func TestHurryFinishesReveal(t *testing.T) {
	shots := paceShots(t)
	betting, dealt := shots[0].Snap, shots[1].Snap
	p := newPacer(0.5)
	p.frame(betting, 0)
	if pf := p.frame(dealt, 1); pf.done(dealt) {
		t.Fatal("the deal is not paced: nothing to hurry")
	}
	hurried := *dealt
	hurried.Hurry++
	if pf := p.frame(&hurried, 1.1); !pf.done(&hurried) {
		t.Errorf("after a consumed press: flying %v, chips %d; want the deal shown in full at once", pf.flying, len(pf.chips))
	}
}

// TestReporterPause is issue 35's pause: a picture is reported shown only
// once it has been complete on screen the snapshot's PauseMS, counted from
// the first complete frame, whether the reveal ran its course or a press
// finished it (a new snapshot, Hurry changed, of the same picture); its
// hold counts from the same frame.
func TestReporterPause(t *testing.T) {
	var got []view.Shown
	r := reporter{report: func(s view.Shown) { got = append(got, s) }}
	s := &view.Snapshot{Present: 7, PauseMS: 400, HoldMS: 1000}
	r.frame(s, paced{s: s, flying: &reveal{}}, false, 0.0)
	hurried := *s
	hurried.Hurry++
	r.frame(&hurried, paced{s: &hurried}, false, 1.0) // the press finished the reveal
	r.frame(&hurried, paced{s: &hurried}, false, 1.2)
	r.frame(&hurried, paced{s: &hurried}, false, 1.39)
	if len(got) != 0 {
		t.Fatalf("reported %+v before the picture had been complete 400 ms", got)
	}
	r.frame(&hurried, paced{s: &hurried}, false, 1.4)
	r.frame(&hurried, paced{s: &hurried}, false, 1.9)
	r.frame(&hurried, paced{s: &hurried}, false, 2.0)
	want := []view.Shown{{Shown: 7}, {Shown: 7, Held: 7}}
	if !slices.Equal(got, want) {
		t.Errorf("reports %+v, want %+v", got, want)
	}
}
