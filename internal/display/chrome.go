package display

import (
	"image/color"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/i18n"
	"cabinet/internal/money"
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// buttonLabel is button b's caption for the snapshot: help names its own
// buttons ("btn.helppage.spot" = Next page), a game may rename a button
// ("btn.classic.special" = Surrender), otherwise the generic name.
func (fr *frame) buttonLabel(b hw.Button) string {
	if fr.s.Mode == view.Help {
		// What the button does on the help pages (issue 35: they read
		// Deal, Bet +, Spot, Games, the table's words).
		if i18n.Has(fr.lang, "btn.helppage."+b.String()) {
			return fr.tr("btn.helppage." + b.String())
		}
		return fr.tr("btn." + b.String())
	}
	overlay := fr.s.Mode == view.Tilt || fr.s.Mode == view.Handpay
	if fr.s.Mode == view.Table || overlay && fr.s.Under == view.Table {
		if fr.s.Game == game.Duel && duelBuying(fr.s) {
			// Between sessions SPOT picks the deck and SPECIAL the level.
			if s, ok := i18n.Lookup(fr.lang, "btn.duel.buy", b.String()); ok {
				return s
			}
		}
		if b == hw.Special && fr.betting() {
			// Between rounds SPECIAL picks the next chip: it says so, with
			// the chip BET+ places now.
			return fr.trf("btn.chip", fr.money(fr.s.Chip))
		}
		if (b == hw.Yes || b == hw.No || b == hw.Clear) && fr.betting() {
			// Between rounds YES bets the maximum, NO clears every bet,
			// CLEAR takes the last chip back.
			return fr.tr("btn.bet." + b.String())
		}
		if s, ok := i18n.Lookup(fr.lang, "btn."+string(fr.s.Game), b.String()); ok {
			return s
		}
	}
	return fr.tr("btn." + b.String())
}

// betting reports whether a blackjack table is between rounds (bets are
// placed, no round is being played).
func (fr *frame) betting() bool {
	s := fr.s
	return s.Mode == view.Table && s.Game != game.Duel && (s.Round == nil || s.Round.Done)
}

// drawButtons draws the on-screen panel: one button per hw.Button, lit
// exactly when its lamp is in the snapshot.
func (fr *frame) drawButtons() {
	rl.DrawRectangleRec(rec(buttonBar()), colBar)
	rl.DrawLineEx(v2(0, buttonBar().Y), v2(ScreenW, buttonBar().Y), 2, colGoldDark)
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		r := ButtonRect(b)
		end := fr.inPanel("button "+b.String(), r)
		lit := fr.s.Lamps.Has(b)
		face, ink := colUnlit, colUnlitText
		if lit {
			face, ink = colLit, colLitText
			if !fr.still { // the moving layer draws the halo
				glow := fr.pulse(1.2)
				box(Rect{r.X - 3, r.Y - 3, r.W + 6, r.H + 6}, 12, fade(colLit, 0.25+0.25*glow))
			}
		}
		box(r, 10, face)
		// A lighter top half gives the physical button's dome.
		top := Rect{r.X + 3, r.Y + 14, r.W - 6, r.H/2 - 14}
		rl.DrawRectangleRec(rec(top), fade(colWhite, 0.08))
		frameBox(r, 10, 2, mix(face, colInk, 0.45))
		// Up to three lines, centred on the face; with the legend, above
		// the key letter (smaller if they would run into it).
		size, lines := fr.buttonLines(fr.buttonLabel(b), r.W-8, 3)
		y := r.Y + r.H/2 - float32(len(lines))*size*0.6 + 4
		if bottom := r.Y + r.H - 18; fr.legend && y+float32(len(lines)-1)*size*1.15+size > bottom {
			for size > 10 && float32(len(lines))*size*1.15 > bottom-r.Y-6 {
				size--
			}
			y = r.Y + 6 + (bottom-r.Y-6-float32(len(lines))*size*1.15)/2
		}
		for _, l := range lines {
			fr.centered(l, r.X+r.W/2, y, size, ink, true, 0)
			y += size * 1.15
		}
		if fr.legend {
			k := keyName(b)
			fr.text(k, r.X+r.W-fr.measure(k, 13, true)-6, r.Y+r.H-17, 13, fade(ink, 0.8), true)
		}
		end()
	}
}

// buttonLines wraps a button's label to width w in at most n lines, at 17
// or the size at which its widest line fits.
func (fr *frame) buttonLines(label string, w float32, n int) (float32, []string) {
	lines := fr.wrap(label, 17, w, true)
	if len(lines) > n {
		fr.cutOff(label)
		lines = lines[:n]
	}
	size := float32(17)
	for _, l := range lines {
		size = min(size, fr.fit(l, 17, w, true))
	}
	return size, lines
}

// drawMeters draws the credit, bet and win meters and the next chip.
func (fr *frame) drawMeters(bet money.Cents, showChip bool) {
	mb := meterBar()
	rl.DrawRectangleGradientV(int32(mb.X), int32(mb.Y), int32(mb.W), int32(mb.H), color.RGBA{24, 30, 44, 255}, colBar)
	meter := func(x, w float32, label, value string, c color.RGBA, below string) {
		r := Rect{x, mb.Y + 5, w, mb.H - 10}
		defer fr.inPanel("meter "+label, r)()
		box(r, 8, color.RGBA{0, 0, 0, 140})
		frameBox(r, 8, 1.5, colGoldDark)
		fr.text(label, r.X+12, r.Y+13, 18, colDim, true)
		fr.right(value, r.X+r.W-12, r.Y+7, 30, c, true)
		if below != "" {
			fr.text(below, r.X+14, r.Y+31, 12, colDim, false)
		}
	}
	credit, count := fr.money(fr.s.Credits), ""
	if fr.s.Denom > 0 {
		count = fr.trf("meter.credits_count", i18n.Number(fr.lang, int64(fr.s.Credits/fr.s.Denom)))
	}
	meter(10, 420, fr.tr("meter.credits"), credit, colGold, count)
	meter(440, 300, fr.tr("meter.bet"), fr.money(bet), colWhite, "")
	meter(750, 300, fr.tr("meter.win"), fr.money(fr.s.Win), colWin, "")
	if showChip && fr.s.Chip > 0 {
		fr.drawChip(fr.s.Chip, 1100, mb.Y+mb.H/2, 22)
		fr.text(fr.tr("meter.chip"), 1130, mb.Y+10, 16, colDim, true)
		fr.text(fr.money(fr.s.Chip), 1130, mb.Y+28, 18, colWhite, true)
	}
}

// drawTopBar draws the title band: title left, extra right.
func (fr *frame) drawTopBar(title, right string) {
	tb := topBar()
	rl.DrawRectangleGradientV(0, 0, ScreenW, int32(tb.H), color.RGBA{30, 36, 52, 255}, colBar)
	rl.DrawLineEx(v2(0, tb.H), v2(ScreenW, tb.H), 2, colGoldDark)
	fr.text(title, 18, 11, 28, colGold, true)
	if right != "" {
		fr.right(right, ScreenW-18, 15, 22, colWhite, true)
	}
}

// betTotal is the sum of pending bets.
func betTotal(bs []game.Bet) money.Cents {
	var t money.Cents
	for _, b := range bs {
		t += b.Amount
	}
	return t
}

// drawNotice draws a banner with a message across the felt at y.
func (fr *frame) drawNotice(msg string, y float32, c color.RGBA) {
	fr.drawNoticeAt(msg, Rect{0, y, ScreenW, 0}, c)
}

// drawNoticeAt draws a notice centred in the column col (X, W) at col.Y,
// shrunk to fit it, or on two or three lines when one would be too small to
// read; it returns the notice's box.
func (fr *frame) drawNoticeAt(msg string, col Rect, c color.RGBA) Rect {
	maxW := min(1000, col.W-48)
	size := fr.fit(msg, 26, maxW, true)
	if size >= 18 {
		w := fr.measure(msg, size, true) + 48
		r := Rect{col.X + (col.W-w)/2, col.Y, w, 44}
		defer fr.inPanel("notice", r)()
		box(r, 12, fade(colInk, 0.88))
		frameBox(r, 12, 2, c)
		fr.inRect(msg, r, size, c, true)
		return r
	}
	size = 18
	lines := fr.wrap(msg, size, maxW, true)
	w := float32(0)
	for _, l := range lines {
		w = max(w, fr.measure(l, size, true))
	}
	w += 32
	r := Rect{col.X + (col.W-w)/2, col.Y, w, float32(len(lines))*size*1.2 + 20}
	defer fr.inPanel("notice", r)()
	box(r, 12, fade(colInk, 0.88))
	frameBox(r, 12, 2, c)
	y := r.Y + 10
	for _, l := range lines {
		fr.centered(l, r.X+r.W/2, y, size, c, true, r.W-16)
		y += size * 1.2
	}
	return r
}

// legendTop is the top of the simulator's legend strip where it goes at the
// top of the felt.
const legendTop = 56

// drawLegend is the simulator's keyboard legend (switches and bills; the
// button keys are printed on the buttons).
func (fr *frame) drawLegend() {
	items := []string{
		"1–5 " + fr.tr("legend.bills"),
		"M " + fr.tr("sw.main_door"),
		"K " + fr.tr("sw.cash_door"),
		"A " + fr.tr("sw.audit_key"),
		"T " + fr.tr("sw.reset_key"),
		"E " + fr.tr("sw.operator_key"),
		"J " + fr.tr("legend.jam"),
	}
	line := fr.tr("legend.title") + " : "
	if fr.lang == i18n.EN {
		line = fr.tr("legend.title") + ": "
	}
	for i, it := range items {
		if i > 0 {
			line += "  ·  "
		}
		line += it
	}
	size := fr.fit(line, 14, ScreenW-20, false)
	w := fr.measure(line, size, false)
	r := Rect{(ScreenW - w - 16) / 2, meterBar().Y - 22, w + 16, 20}
	m := fr.s.Mode
	if m == view.Tilt || m == view.Handpay {
		m = fr.s.Under // the strip stays where the screen below has it
	}
	if m == view.Table && fr.s.Game != game.Duel || m == view.Menu || m == view.Attract || m == "" {
		// On the felt the bottom edge holds the bet labels, on the menu
		// and attract the hint lines: use the top (Poker Duel's top holds
		// the Baron's hand: it keeps the bottom).
		r.Y = legendTop
	}
	defer fr.inPanel("legend", r)()
	box(r, 6, fade(colInk, 0.7))
	fr.text(line, r.X+8, r.Y+3, size, colDim, false)
}
