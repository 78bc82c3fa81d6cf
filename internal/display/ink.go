package display

// This file records, for tests, where a frame's text goes: every string
// drawn with the box it must stay in, the panels it lies among (notices,
// badges, buttons, meters) and the objects (cards, chips, tokens), and what
// a screen had to leave out. The text-fit test (ink_test.go) measures each
// string with the real font against its box and against everything else
// drawn in the same layer. A production frame has no log: recording costs a
// nil check per draw.

// inkLog is what one frame drew.
type inkLog struct {
	texts  []inkText
	panels []inkPanel
	// cut is content a screen shortened or left out (an ellipsis, a line
	// that did not fit): each is a finding, whatever its box.
	cut []string

	panel int  // the panel being drawn into (index+1 in panels; 0: none)
	box   Rect // the container texts outside any panel must stay in
	layer int  // an overlay starts a new layer over the frozen screen
	quiet int  // > 0: inside an object (a card's face, a chip's value): not recorded
}

// inkText is one string drawn: ink is its measured extent (width by the
// real font, height the font size), box the rectangle it must stay in.
type inkText struct {
	s        string
	ink, box Rect
	panel    int
	layer    int
}

// inkPanel is an opaque shape text must not run into: a notice, a badge, a
// button, a meter (object false) or a card, chip or token (object true:
// objects may overlap each other, as fanned cards and stacked chips do).
type inkPanel struct {
	name   string
	r, box Rect
	parent int
	layer  int
	object bool
}

func newInkLog() *inkLog { return &inkLog{box: Rect{0, 0, ScreenW, ScreenH}} }

// noop is what the recording helpers return on a production frame.
func noop() {}

// recordText notes s drawn at (x, y) with width w at size.
func (fr *frame) recordText(s string, x, y, w, size float32) {
	l := fr.ink
	if l == nil || l.quiet > 0 || s == "" {
		return
	}
	b := l.box
	if l.panel > 0 {
		b = l.panels[l.panel-1].r
	}
	l.texts = append(l.texts, inkText{s: s, ink: Rect{x, y, w, size}, box: b, panel: l.panel, layer: l.layer})
}

// inPanel starts a panel r (name says what it is, in test messages): the
// texts drawn until the returned func is called belong to it and must stay
// inside it.
func (fr *frame) inPanel(name string, r Rect) func() {
	return fr.beginPanel(name, r, false)
}

// inObject starts an object r: a card, a chip or a token. What is printed on
// it (rank, value) is its picture, not text to check.
func (fr *frame) inObject(name string, r Rect) func() {
	return fr.beginPanel(name, r, true)
}

func (fr *frame) beginPanel(name string, r Rect, object bool) func() {
	l := fr.ink
	if l == nil {
		return noop
	}
	if l.quiet > 0 { // a shape inside an object is the object's picture
		return noop
	}
	b := l.box
	if l.panel > 0 {
		b = l.panels[l.panel-1].r
	}
	l.panels = append(l.panels, inkPanel{name: name, r: r, box: b, parent: l.panel, layer: l.layer, object: object})
	prev := l.panel
	l.panel = len(l.panels)
	if object {
		l.quiet++
	}
	return func() {
		l.panel = prev
		if object {
			l.quiet--
		}
	}
}

// within makes r the container of the texts drawn (outside panels) until
// the returned func is called: a help column, the pot area.
func (fr *frame) within(r Rect) func() {
	l := fr.ink
	if l == nil {
		return noop
	}
	prev := l.box
	l.box = r
	return func() { l.box = prev }
}

// cutOff notes content the screen shortened or left out.
func (fr *frame) cutOff(what string) {
	if fr.ink != nil && fr.ink.quiet == 0 {
		fr.ink.cut = append(fr.ink.cut, what)
	}
}

// overlay starts a new layer: what follows covers what was drawn before.
func (fr *frame) overlay() {
	if fr.ink != nil {
		fr.ink.layer++
	}
}
