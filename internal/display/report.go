package display

import "cabinet/internal/view"

// reporter tells the controller how far the presentation has got
// (platform.md §7, what is shown is part of what is accepted): a
// snapshot's picture number (Snapshot.Present) once a frame has shown it in
// full and it has then stayed complete the snapshot's PauseMS, and once it
// has stayed the snapshot's HoldMS. Its clock is the frame's: the
// controller reads none for this. Reports only grow; the controller's side
// (controller.Presentation) keeps the latest, so report never waits.
//
// The pause (cabinet.decision_pause_ms, issue 35) counts from the first
// frame that shows the picture complete, whether its reveal ran its course
// or a press finished it at once: until it is over the table's buttons are
// unlit and a press is consumed, so no decision is taken on a picture
// complete for less than the pause, however fast the buttons are mashed.
type reporter struct {
	report func(view.Shown) // nil: nobody listens (screenshots, tests)
	last   view.Shown
	// full is the highest picture drawn in full, first at fullAt.
	full   uint64
	fullAt float64
}

// frame notes frame pf of snapshot s drawn at time now (seconds); demo: the
// attract demo is drawn instead of s (nothing of s is on screen).
func (r *reporter) frame(s *view.Snapshot, pf paced, demo bool, now float64) {
	if r.report == nil || demo || s == nil {
		return
	}
	if pf.done(s) && s.Present > r.full {
		r.full, r.fullAt = s.Present, now
	}
	next := r.last
	since := now - r.fullAt // how long picture full has been complete
	if r.full == s.Present && s.Present > next.Shown && since >= float64(s.PauseMS)/1000 {
		next.Shown = s.Present
	}
	// The hold counts from the frame that showed the picture in full. A
	// picture without a hold (HoldMS 0) is held as soon as it is shown.
	if next.Shown == s.Present && s.Present > next.Held && since >= float64(s.HoldMS)/1000 {
		next.Held = s.Present
	}
	if next != r.last {
		r.last = next
		r.report(next)
	}
}
