package display

import "cabinet/internal/view"

// reporter tells the controller how far the presentation has got
// (platform.md §7, what is shown is part of what is accepted): a
// snapshot's picture number (Snapshot.Present) once a frame shows it in
// full, and once it has then stayed on screen the snapshot's HoldMS. Its
// clock is the frame's: the controller reads none for this. Reports only
// grow; the controller's side (controller.Presentation) keeps the latest,
// so report never waits.
type reporter struct {
	report  func(view.Shown) // nil: nobody listens (screenshots, tests)
	last    view.Shown
	shownAt float64 // when last.Shown was first shown in full
}

// frame notes frame pf of snapshot s drawn at time now (seconds); demo: the
// attract demo is drawn instead of s (nothing of s is on screen).
func (r *reporter) frame(s *view.Snapshot, pf paced, demo bool, now float64) {
	if r.report == nil || demo || s == nil {
		return
	}
	next := r.last
	if pf.done(s) && s.Present > r.last.Shown {
		next.Shown, r.shownAt = s.Present, now
	}
	// The hold counts from the frame that showed the picture in full. A
	// picture without a hold (HoldMS 0) is held as soon as it is shown.
	if next.Shown == s.Present && s.Present > next.Held && now-r.shownAt >= float64(s.HoldMS)/1000 {
		next.Held = s.Present
	}
	if next != r.last {
		r.last = next
		r.report(next)
	}
}
