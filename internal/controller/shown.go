package controller

import (
	"errors"
	"fmt"
	"sync"

	"cabinet/internal/hw"
	"cabinet/internal/view"
)

// What is shown is part of what is accepted (platform.md §7).
//
// Every committed round step is a picture to present: the screen numbers
// them (screen.present, published as Snapshot.Present; a boot that resumes
// a round starts at 1, the recovered picture). The display reports, as an
// input on Handle (Input.Shown), the highest number it has presented in
// full (cards dealt and turned, chips landed) and kept complete on screen
// since for the operator's cabinet.decision_pause_ms (Snapshot.PauseMS),
// and the highest whose result has stayed on screen for the operator's
// cabinet.result_hold_ms (Snapshot.HoldMS). The button table follows:
//
//   - while the table's latest step is not shown, every button of the table
//     is unlit (lamps too: they are the same table); a press is consumed: it
//     never acts, and it finishes the reveal at once (Snapshot.Hurry);
//   - once a round's settling step is shown, DEAL and REBET stay unlit until
//     its hold is over (the notice says the result is being shown).
//
// The decision pause (issue 35): a press that finishes a reveal makes the
// picture complete at once, and the next press, 50 ms later, would decide
// on a picture barely seen. The display reports a picture shown only once
// it has been complete for the pause, so the buttons stay unlit that long
// and a press meanwhile is consumed. The certification reading chosen: no
// decision is ever taken on a step complete on screen for less than the
// pause, whether its reveal ran its course or a press finished it.
//
// The reports and the presses reach Run on two channels: a press already
// queued when a report arrives may be handled after it, and so act on the
// picture the report says is shown — one that was completing on screen as
// the button went down (the report follows the drawn frame). A press during
// a reveal proper is consumed first: it is what finishes the reveal.
//
// Only button presses wait: a switch (a door is a tilt), a bill (money in
// the cash box) and the host's requests are handled at once, as the
// certification reading of "input" for a decision.
//
// The time source is the display's: the hold is measured where the player's
// eyes are, and arrives as an input ("held"), so the controller reads no
// clock for it and stays deterministic in tests (a test hands it Shown
// inputs). Headless (Options.Display nil: cabinet sim, the scenarios, the
// crash harnesses) counts every step as shown and held when committed.

// ErrRevealing is wrapped by the refusal of a press made while the step on
// screen is still being revealed: the press is consumed (the reveal
// finishes at once) and nothing else is done. The finished reveal is the
// answer on screen, so it sets no notice.
var ErrRevealing = fmt.Errorf("%w: the step on screen is still being revealed", ErrNotNow)

// Presentation carries the display's reports to the controller's goroutine.
// Report never blocks (the display's loop never waits for the controller)
// and never loses a report: reports only grow, so the latest is kept and
// Run hands it to Handle.
type Presentation struct {
	mu    sync.Mutex
	last  view.Shown
	ready chan struct{}
}

// NewPresentation returns the channel of a display's reports; set it as
// Options.Display.
func NewPresentation() *Presentation { return &Presentation{ready: make(chan struct{}, 1)} }

// Report records how far the display has got.
func (p *Presentation) Report(s view.Shown) {
	p.mu.Lock()
	p.last.Shown = max(p.last.Shown, s.Shown)
	p.last.Held = max(p.last.Held, s.Held)
	p.mu.Unlock()
	select {
	case p.ready <- struct{}{}:
	default: // a wake-up is pending already: it will read the latest
	}
}

// take is the latest report.
func (p *Presentation) take() view.Shown {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// shownReport records the display's report s.
func (c *Controller) shownReport(s view.Shown) error {
	if s.Held > s.Shown {
		return fmt.Errorf("cabinet: display report: picture %d held but only %d shown", s.Held, s.Shown)
	}
	if s.Shown > c.scr.present {
		return fmt.Errorf("cabinet: display report: picture %d shown, only %d published", s.Shown, c.scr.present)
	}
	u := &c.scr
	u.shownN, u.heldN = max(u.shownN, s.Shown), max(u.heldN, s.Held)
	if u.message == NoticeResultShown && !u.holding() {
		u.message = "" // the hold is over: DEAL is lit, the notice has done its work
	}
	return nil
}

// stepCommitted numbers the picture of a step just committed; settled: it
// closed its round (its result is held on screen).
func (u *screen) stepCommitted(settled bool) {
	u.present++
	if settled {
		u.settled = u.present
	}
}

// revealing reports that the table's latest committed step is not yet
// shown in full.
func (u *screen) revealing() bool {
	return u.c.opt.Display != nil && u.shownN < u.present
}

// holding reports that the last settled round's result has not yet stayed
// on screen its minimum time.
func (u *screen) holding() bool {
	return u.c.opt.Display != nil && u.heldN < u.settled
}

// revealPanel is the table while a step is being revealed: nothing lit, a
// press consumed.
func revealPanel(p *panel) {
	for b := range p {
		p[b] = entry{reveal: true}
	}
}

// holdResult leaves DEAL and REBET unlit while the last result is held,
// where they would be lit; their notice says why.
func (u *screen) holdResult(p *panel) {
	if !u.holding() {
		return
	}
	for _, b := range []hw.Button{hw.Deal, hw.Rebet} {
		if p[b].do != nil {
			p.refuse(b, NoticeResultShown)
		}
	}
}

// consumed reports a press refused because a reveal was running.
func consumed(err error) bool { return errors.Is(err, ErrRevealing) }
