package display

import (
	"image/color"
	"math"
	"strings"

	"cabinet/internal/i18n"
	"cabinet/internal/money"
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// Palette.
var (
	colBackground = color.RGBA{12, 16, 24, 255}
	colFeltTop    = color.RGBA{14, 102, 64, 255}
	colFeltBottom = color.RGBA{6, 58, 36, 255}
	colFeltLine   = color.RGBA{222, 196, 120, 160}
	colGold       = color.RGBA{240, 196, 80, 255}
	colGoldDark   = color.RGBA{150, 110, 30, 255}
	colWhite      = color.RGBA{250, 250, 245, 255}
	colInk        = color.RGBA{20, 20, 28, 255}
	colRed        = color.RGBA{200, 30, 40, 255}
	colDim        = color.RGBA{180, 190, 185, 255}
	colPanel      = color.RGBA{18, 24, 36, 235}
	colBar        = color.RGBA{10, 14, 22, 255}
	colLit        = color.RGBA{255, 190, 30, 255} // a lit button's face
	colUnlit      = color.RGBA{58, 62, 72, 255}   // an unlit button's face
	colLitText    = color.RGBA{30, 20, 0, 255}
	colUnlitText  = color.RGBA{140, 146, 156, 255}
	colActive     = color.RGBA{255, 230, 90, 255}
	colWin        = color.RGBA{90, 230, 120, 255}
	colLose       = color.RGBA{240, 90, 80, 255}
	colPush       = color.RGBA{150, 190, 255, 255}
	colTilt       = color.RGBA{150, 0, 0, 215}
	colToken      = color.RGBA{255, 215, 0, 255}
	colZap        = color.RGBA{80, 200, 255, 255}
)

// frame is one frame being drawn: the snapshot, its language and the time
// (seconds) that drives animations. Screenshots use a fixed time.
type frame struct {
	f      *fonts
	s      *view.Snapshot
	lang   string
	t      float64
	legend bool
	// miss, if set, hears every key looked up but missing from the
	// catalogue (tests).
	miss func(key string)
	// seen, if set, hears every string drawn (tests: no raw key or
	// English words on a French screen).
	seen func(s string)
	// still: draw the still layer (every pulse at rest, no halo; the
	// moving layer adds them, layers.go).
	still bool
	// fly is the card on its way from the shoe (pace.go), flyF how far.
	fly  *reveal
	flyF float32
	// chips are the settlement's chips moving (pace.go), chipF how far.
	chips []chipFlight
	chipF float32
	// messageDrawn: the screen placed Snapshot.Message itself;
	// roundBottom is the bottom of the round's notices right of the dealer.
	messageDrawn bool
	roundBottom  float32
	// faded: the refusal's notice has had its time (notice.go); the
	// standing notice shows instead.
	faded bool
	// ink, if set, records where every string goes (tests, ink.go).
	ink *inkLog
}

func newFrame(f *fonts, s *view.Snapshot, t float64, legend bool) *frame {
	return &frame{f: f, s: s, lang: i18n.Normalize(s.Lang), t: t, legend: legend}
}

// tr is the message of a catalogue key in the frame's language.
func (fr *frame) tr(key string) string {
	if fr.miss != nil && !i18n.Has(fr.lang, key) {
		fr.miss(key)
	}
	return i18n.T(fr.lang, key)
}

// trf formats the message of key.
func (fr *frame) trf(key string, args ...any) string {
	if fr.miss != nil && !i18n.Has(fr.lang, key) {
		fr.miss(key)
	}
	return i18n.Tf(fr.lang, key, args...)
}

// word translates a bare key from an engine under namespace.
func (fr *frame) word(namespace, key string) string {
	s, ok := i18n.Lookup(fr.lang, namespace, key)
	if !ok && fr.miss != nil {
		fr.miss(namespace + "." + key)
	}
	return s
}

// money formats an amount for the frame's locale.
func (fr *frame) money(c money.Cents) string { return i18n.Money(fr.lang, c, fr.s.Currency) }

// text draws s with its top-left corner at (x, y).
func (fr *frame) text(s string, x, y, size float32, c color.RGBA, bold bool) {
	if fr.seen != nil {
		fr.seen(s)
	}
	if fr.ink != nil {
		fr.recordText(s, x, y, fr.measure(s, size, bold), size)
	}
	rl.DrawTextEx(fr.f.pick(size, bold), s, rl.Vector2{X: x, Y: y}, size, 0, c)
}

// measure returns the width of s drawn at size.
func (fr *frame) measure(s string, size float32, bold bool) float32 {
	return rl.MeasureTextEx(fr.f.pick(size, bold), s, size, 0).X
}

// fit returns the largest size ≤ size at which s fits in width w.
func (fr *frame) fit(s string, size, w float32, bold bool) float32 {
	for size > 10 && fr.measure(s, size, bold) > w {
		size--
	}
	return size
}

// centered draws s centred horizontally on cx with its top at y, shrunk to
// fit maxW when maxW > 0.
func (fr *frame) centered(s string, cx, y, size float32, c color.RGBA, bold bool, maxW float32) {
	if maxW > 0 {
		size = fr.fit(s, size, maxW, bold)
	}
	w := fr.measure(s, size, bold)
	fr.text(s, cx-w/2, y, size, c, bold)
}

// inRect draws s centred in r (both ways), shrunk to fit.
func (fr *frame) inRect(s string, r Rect, size float32, c color.RGBA, bold bool) {
	size = fr.fit(s, size, r.W-8, bold)
	w := fr.measure(s, size, bold)
	fr.text(s, r.X+(r.W-w)/2, r.Y+(r.H-size)/2, size, c, bold)
}

// right draws s right-aligned at x.
func (fr *frame) right(s string, x, y, size float32, c color.RGBA, bold bool) {
	fr.text(s, x-fr.measure(s, size, bold), y, size, c, bold)
}

// wrap splits s into lines no wider than w at size.
func (fr *frame) wrap(s string, size, w float32, bold bool) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		try := word
		if cur != "" {
			try = cur + " " + word
		}
		if cur != "" && fr.measure(try, size, bold) > w {
			lines = append(lines, cur)
			cur = word
			continue
		}
		cur = try
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

func rec(r Rect) rl.Rectangle { return rl.Rectangle{X: r.X, Y: r.Y, Width: r.W, Height: r.H} }

func v2(x, y float32) rl.Vector2 { return rl.Vector2{X: x, Y: y} }

// box draws a rounded rectangle with radius px corners.
func box(r Rect, radius float32, c color.RGBA) {
	rl.DrawRectangleRounded(rec(r), roundness(r, radius), 8, c)
}

// frameBox outlines a rounded rectangle.
func frameBox(r Rect, radius, thick float32, c color.RGBA) {
	rl.DrawRectangleRoundedLinesEx(rec(r), roundness(r, radius), 8, thick, c)
}

func roundness(r Rect, radius float32) float32 {
	m := min(r.W, r.H)
	if m <= 0 {
		return 0
	}
	return min(1, 2*radius/m)
}

// pulse is a 0..1 wave with the given period in seconds.
func (fr *frame) pulse(period float64) float32 {
	if fr.still {
		return 0
	}
	return float32(0.5 + 0.5*math.Sin(2*math.Pi*fr.t/period))
}

func fade(c color.RGBA, a float32) color.RGBA { return rl.Fade(c, a) }

func mix(a, b color.RGBA, t float32) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8(float32(x) + (float32(y)-float32(x))*t) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), l(a.A, b.A)}
}
