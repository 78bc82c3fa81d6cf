package controller

import (
	"maps"
	"sync"

	"cabinet/internal/inforce"
	"cabinet/internal/view"
)

// The operator's return figure without a freeze (issue 26, platform.md §5).
//
// The return of a draft (the game it changes, with the draft in force) is
// computed off the input path: a rule change of Classic takes the analyser
// about 0.4 s on a desktop and more on the cabinet's board, and keys pressed
// meanwhile must act on what the screen shows. BET+ sets the draft at once
// (the list shows the new value) and the draft's return row says the
// figure is being computed (view.OperatorRTP.Computing); YES stays unlit
// with that reason (NoticeReturnComputing). The figure is computed on a
// goroutine of its own, from values copied on the input path (the base
// settings, the committed overrides with the draft, Options.Settings,
// which is safe for concurrent use: the analyser's Guard locks its cache), and comes back through Handle as Input.Return, tagged with
// the draft's sequence number: a result for a draft that has since changed
// (another BET+, a move, NO) is dropped. Once the figure is known the
// draft is refused or allowed exactly as when it was computed on the input
// path (a return of 100 % or more, or below min_rtp, refused with the
// figure; a value the configuration refuses, named).
//
// The configuration's own refusal of a draft (a minimum above the maximum)
// is found by the same computation (the operator overrides are applied
// once, with the return check), so it too arrives with the result, a
// moment after BET+ for a limit (the analyser answers a change of limits
// from its cache); until then YES is unlit.
//
// Headless (Options.Display nil: cabinet sim, the scenarios, the tests
// that drive Handle themselves) the figure is computed at once on the
// input path, as before, so every run is deterministic; a test of the live
// path sets Options.Display and hands the result to Handle itself.

// DraftReturn is the computed return of an operator draft, handed to
// Handle as Input.Return by Run (draftReturns).
type DraftReturn struct {
	// Seq is the draft's sequence number: a result for an older draft is
	// dropped.
	Seq uint64
	// Setting and Value are the draft.
	Setting view.Setting
	Value   string
	// RTP is the figure (nil: none can be computed, or the key changes no
	// game); Invalid the configuration's refusal of the draft.
	RTP     *view.OperatorRTP
	Invalid error
}

// draftJob is one computation of a draft's return, from values copied on
// the input path: it reads nothing of the controller.
type draftJob struct {
	seq   uint64
	it    view.Setting
	value string
	base  InForce
	o     map[string]string // the committed overrides with the draft
	opt   Options
}

func (j draftJob) run() DraftReturn {
	r, invalid := draftReturn(j.opt, j.base, j.o, j.it, j.value)
	return DraftReturn{Seq: j.seq, Setting: j.it, Value: j.value, RTP: r, Invalid: invalid}
}

// draftReturns runs the draft returns of a live cabinet on one goroutine
// at a time, the latest draft only: a job asked for while one runs waits
// for it, and replaces any other waiting job (its result would be dropped
// anyway). Like Presentation, the latest result is kept and ready wakes
// Run, which hands it to Handle.
type draftReturns struct {
	mu      sync.Mutex
	next    *draftJob // waiting to run
	running bool
	last    DraftReturn
	ready   chan struct{}
}

func newDraftReturns() *draftReturns { return &draftReturns{ready: make(chan struct{}, 1)} }

// start computes j off the caller's goroutine.
func (d *draftReturns) start(j draftJob) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next = &j
	if !d.running {
		d.running = true
		go d.work()
	}
}

func (d *draftReturns) work() {
	for {
		d.mu.Lock()
		j := d.next
		d.next = nil
		if j == nil {
			d.running = false
			d.mu.Unlock()
			return
		}
		d.mu.Unlock()
		r := j.run()
		d.mu.Lock()
		d.last = r
		d.mu.Unlock()
		select {
		case d.ready <- struct{}{}:
		default: // a wake-up is pending already: it will read the latest
		}
	}
}

// take is the latest result.
func (d *draftReturns) take() DraftReturn {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last
}

// draftChanged shows the return of the draft value of it: computing, then
// the figure (at once when headless).
func (u *screen) draftChanged(it view.Setting, value string) {
	c := u.c
	u.opSeq++
	u.opRTP = nil
	if it.Game == "" || c.opt.Settings == nil {
		return // the key changes no game: no figure
	}
	j := draftJob{seq: u.opSeq, it: it, value: value, base: c.base, o: withValue(c.led.cur().overrides, it.Key, value), opt: c.opt}
	u.opRTP = &view.OperatorRTP{Game: it.Game, Computing: true}
	if c.opt.Display == nil {
		u.draftReturned(j.run()) // headless: on the input path
		return
	}
	if err := c.opt.Settings.Validate(j.o); err != nil && c.opt.Settings.Explain(err).Invalid {
		// The configuration refuses the draft: at once, naming the value
		// edited; no return to compute.
		u.draftReturned(DraftReturn{Seq: j.seq, Setting: it, Value: value, Invalid: err})
		return
	}
	u.returns.start(j)
}

// draftReturned shows the computed return r of the draft, unless the draft
// has changed since it was asked for (then r is dropped).
func (u *screen) draftReturned(r DraftReturn) error {
	if r.Seq != u.opSeq || u.mode != view.Operator || u.opRTP == nil || !u.opRTP.Computing {
		return nil
	}
	u.opRTP = r.RTP
	if r.Invalid != nil {
		// Refused naming the value being edited (issue 26: a minimum above
		// the maximum was refused only after the confirmation, naming the
		// maximum). YES stays unlit.
		u.opError = &view.OperatorError{Setting: r.Setting, Value: r.Value}
	}
	if u.message == NoticeReturnComputing {
		u.message = "" // the figure is shown: the notice has done its work
	}
	return nil
}

// withValue is overrides with key set to value (a copy).
func withValue(overrides map[string]string, key, value string) map[string]string {
	o := maps.Clone(overrides)
	if o == nil {
		o = map[string]string{}
	}
	o[key] = value
	return o
}

// draftReturn is the return of the game it changes with it = value in
// force (o: the committed overrides with the draft): Settings.Return of
// Settings.Apply, or the refused figure Settings.Explain reads from
// Apply's error. nil when nothing can be computed or the key changes no
// game. invalid is the configuration's refusal of the draft (a minimum
// above the maximum…), found on the way at no extra cost. It reads nothing
// of the controller: it runs off the input path.
func draftReturn(opt Options, base InForce, o map[string]string, it view.Setting, value string) (r *view.OperatorRTP, invalid error) {
	id := it.Game
	if id == "" || opt.Settings == nil {
		return nil, nil
	}
	s, err := opt.Settings.Apply(inforce.InForce(base), o)
	if err != nil {
		why := opt.Settings.Explain(err)
		switch {
		case why.Return != nil:
			return why.Return, nil
		case why.Invalid:
			return nil, err
		}
		return nil, nil
	}
	r, err = opt.Settings.Return(s, id)
	if err != nil {
		opt.Log.Warn("operator: return not computed", "game", id, "err", err)
		return nil, nil
	}
	return r, nil
}
