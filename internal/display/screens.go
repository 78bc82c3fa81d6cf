package display

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/duel"
	"cabinet/internal/i18n"
	"cabinet/internal/money"
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// drawAttract is the attract loop: animated cards, the jackpot and the games.
func (fr *frame) drawAttract() {
	fr.drawFelt()
	fr.drawTopBar("", "")
	// A fan of cards riding a wave.
	show := card.MustParse("AS KH QD JC 10S")
	for i, c := range show {
		ph := fr.t*1.8 + float64(i)*0.7
		x := float32(340 + i*124)
		y := float32(130) + float32(math.Sin(ph))*18
		fr.drawCard(c, Rect{x, y, 100, 143})
	}
	// Title glow.
	p := fr.pulse(2)
	fr.centered(fr.tr("attract.title"), ScreenW/2+3, 303, 56, fade(colInk, 0.6), true, 1100)
	fr.centered(fr.tr("attract.title"), ScreenW/2, 300, 56, mix(colGold, colWhite, p*0.4), true, 1100)
	if fr.s.Jackpot > 0 {
		fr.drawJackpot(Rect{ScreenW/2 - 260, 372, 520, 84}, true)
	}
	// Game carousel.
	if n := len(fr.s.Games); n > 0 {
		i := int(fr.t/2.5) % n
		g := fr.s.Games[i]
		fr.centered(fr.tr("game."+string(g.ID))+" — "+fr.tr("gametag."+string(g.ID)), ScreenW/2, 470, 24, colWhite, true, 1150)
	}
	if fr.msg() != "" || fr.s.Paid != nil {
		// A refusal (a bill returned) or a handpay paid takes the place of
		// the call to insert one.
		fr.drawNotices(Rect{0, 502, ScreenW, 0})
	} else {
		blink := uint8(155 + 100*fr.pulse(1.4))
		fr.centered(fr.tr("attract.insert"), ScreenW/2, 506, 32, color.RGBA{255, 255, 255, blink}, true, 1100)
		fr.centered(fr.tr("attract.help")+"  ·  "+fr.tr("attract.responsible"), ScreenW/2, 546, 15, colFeltLine, false, 1200)
		fr.drawNotices(feltNotice)
	}
	fr.drawMeters(0, false)
}

// menuTile is where game i of n is drawn on the menu.
func menuTile(i, n int) Rect {
	n = max(n, 1)
	gap := float32(14)
	w := min((float32(ScreenW)-40-float32(n-1)*gap)/float32(n), 300)
	total := float32(n)*w + float32(n-1)*gap
	x0 := (ScreenW - total) / 2
	return Rect{x0 + float32(i)*(w+gap), 110, w, 400}
}

// menuGlow is the glow around the selected menu tile r.
func menuGlow(r Rect) Rect { return Rect{r.X - 6, r.Y - 6, r.W + 12, r.H + 12} }

// drawMenu is the game menu.
func (fr *frame) drawMenu() {
	fr.drawFelt()
	fr.drawTopBar(fr.tr("menu.title"), "")
	for i, g := range fr.s.Games {
		r := menuTile(i, len(fr.s.Games))
		sel := g.ID == fr.s.Game
		if sel {
			r.Y -= 12
			if !fr.still { // the moving layer draws the glow
				box(menuGlow(r), 22, fade(colActive, 0.25+0.2*fr.pulse(1.2)))
			}
		}
		box(r, 18, color.RGBA{16, 22, 34, 240})
		border := colGoldDark
		if sel {
			border = colActive
		}
		frameBox(r, 18, 3, border)
		fr.drawEmblem(g.ID, Rect{r.X + 20, r.Y + 20, r.W - 40, 150})
		fr.centered(fr.tr("game."+string(g.ID)), r.X+r.W/2, r.Y+190, 24, colGold, true, r.W-20)
		y := r.Y + 230
		for _, l := range fr.wrap(fr.tr("gametag."+string(g.ID)), 17, r.W-28, false) {
			fr.centered(l, r.X+r.W/2, y, 17, colWhite, false, 0)
			y += 22
		}
		switch {
		case g.ID == game.Duel && g.MinBet > 0:
			// One price: a Poker Duel session, not a range of bets.
			fr.centered(fr.trf("duel.price", fr.money(g.MinBet)), r.X+r.W/2, r.Y+330, 16, colDim, true, r.W-16)
		case g.MaxBet > 0:
			fr.centered(fr.trf("menu.limits", fr.money(g.MinBet), fr.money(g.MaxBet)), r.X+r.W/2, r.Y+330, 16, colDim, true, r.W-16)
		}
		if g.Spots > 1 {
			fr.centered(fr.trf("menu.spots", g.Spots), r.X+r.W/2, r.Y+356, 16, colDim, false, r.W-16)
		}
	}
	if fr.msg() != "" || fr.s.Paid != nil {
		// A refusal or a handpay paid takes the hint's place, under the tiles.
		fr.drawNotices(Rect{0, 516, ScreenW, 0})
	} else {
		fr.centered(fr.tr("menu.hint"), ScreenW/2, 526, 18, colFeltLine, true, 1200)
		fr.drawNotices(feltNotice)
	}
	fr.drawMeters(0, false)
}

// drawEmblem is a game's picture on its menu tile.
func (fr *frame) drawEmblem(id game.ID, r Rect) {
	cx, cy := r.Center()
	switch id {
	case game.Royal:
		for i, c := range card.MustParse("10H JH QH KH AH") {
			fr.drawCard(c, Rect{cx - 90 + float32(i)*30, cy - 60 + float32(i%2)*6, 70, 100})
		}
	case game.FreeBet:
		fr.drawCard(card.MustParse("9S")[0], Rect{cx - 80, cy - 55, 70, 100})
		fr.drawCard(card.MustParse("2D")[0], Rect{cx - 50, cy - 50, 70, 100})
		fr.drawToken(cx+50, cy, 36)
	case game.Zappit:
		fr.drawCard(card.MustParse("10C")[0], Rect{cx - 90, cy - 55, 70, 100})
		fr.drawCard(card.MustParse("6H")[0], Rect{cx - 60, cy - 50, 70, 100})
		drawBolt(Rect{cx + 10, cy - 60, 70, 110}, colZap)
	case game.Classic:
		fr.drawCard(card.MustParse("AS")[0], Rect{cx - 70, cy - 55, 70, 100})
		fr.drawCard(card.MustParse("KD")[0], Rect{cx - 20, cy - 50, 70, 100})
		fr.drawChip(2500, cx+70, cy+30, 24)
	case game.Duel:
		fr.drawBaron(Rect{cx - 55, r.Y - 4, 110, 150}, newOutfit(nil), true)
	}
}

// The help screen's two columns: the rules in force and the return (left),
// the payouts and how to play (right). Both are laid out as lines and paged:
// SPOT or BET+ turns the page (the controller counts the presses, this
// layout says how many pages there are), so no line is ever cut off.
func helpLeftBox() Rect  { return Rect{24, 66, 590, 452} }
func helpRightBox() Rect { return Rect{634, 66, 622, 452} }

// helpLine is one line of a help column: its height and how it is drawn
// with its top at y (nil: a gap). keep holds it on the page of the line
// after it (a heading, a paragraph's lines); a heading is repeated at the
// top of a page that goes on under it.
type helpLine struct {
	h       float32
	draw    func(y float32)
	keep    bool
	heading bool
}

// pageLines splits lines into pages of at most height. A run of kept lines
// goes whole to the next page when it does not fit what is left of this one
// (unless it is taller than a page); a page never starts with a gap, and one
// that starts under a heading of the last page repeats it.
func pageLines(lines []helpLine, height float32) [][]helpLine {
	var pages [][]helpLine
	var cur []helpLine
	used := float32(0)
	var head *helpLine
	for i := 0; i < len(lines); {
		j, runH := i, float32(0) // the run lines[i:j] is kept together
		for j < len(lines) {
			runH += lines[j].h
			j++
			if !lines[j-1].keep {
				break
			}
		}
		if used+runH > height && len(cur) > 0 && (runH <= height || used+lines[i].h > height) {
			pages = append(pages, cur)
			cur, used = nil, 0
			if lines[i].draw == nil {
				i++ // a gap at the top of a page
				continue
			}
			if head != nil && !lines[i].heading {
				cur, used = append(cur, *head), head.h
			}
		}
		for ; i < j; i++ {
			if used+lines[i].h > height && len(cur) > 0 { // a run taller than a page
				pages = append(pages, cur)
				cur, used = nil, 0
			}
			if lines[i].heading {
				head = &lines[i]
			}
			cur = append(cur, lines[i])
			used += lines[i].h
		}
	}
	if len(cur) > 0 || len(pages) == 0 {
		pages = append(pages, cur)
	}
	return pages
}

// helpLayout is the help screen of h paged: the rules of each page (the
// return block is on every page, at the bottom of the left column) and the
// right column's lines of each page.
type helpLayout struct {
	rules [][]helpLine
	rtp   []helpLine
	right [][]helpLine
}

func (l helpLayout) pages() int { return max(len(l.rules), len(l.right)) }

const (
	helpRow  = 23 // a paytable row
	helpRule = 21 // a rule or return row
)

// helpLayoutOf lays out h (the help of game id) for the frame's language.
func (fr *frame) helpLayoutOf(h *view.HelpView, id game.ID) helpLayout {
	left, right := helpLeftBox(), helpRightBox()
	var l helpLayout
	// The return, at the bottom of the left column.
	l.rtp = append(l.rtp, helpLine{h: 30, draw: func(y float32) { fr.text(fr.tr("help.rtp"), left.X+16, y, 17, colGold, true) }})
	for _, r := range h.RTP {
		// The figure, its basis (as `cabinet par` gives it) and how it was
		// obtained; for the main bet, the figure per initial bet, and where
		// a cap makes the return depend on the bet, the worst allowed bet it
		// was computed at (the figure is then at least that).
		l.rtp = append(l.rtp, helpLine{h: helpRule, draw: func(y float32) {
			fr.text(fr.tr("bet."+string(r.Bet)), left.X+16, y, 16, colWhite, true)
			pct := i18n.Percent(fr.lang, r.RTPBP)
			if r.WorstBet > 0 {
				pct = fr.trf("help.at_least", pct)
			}
			fr.text(pct, left.X+220, y, 16, colWin, true)
			if r.Basis != "" {
				fr.text(fr.tr("basis."+r.Basis), left.X+220+fr.measure(pct, 16, true)+8, y+2, 13, colDim, false)
			}
			fr.right(fr.method(r.Method), left.X+left.W-16, y, 14, colDim, false)
		}})
		switch {
		case r.WorstBet > 0:
			l.rtp = append(l.rtp, helpLine{h: helpRule, draw: func(y float32) {
				fr.text(fr.trf("help.worst_bet", r.WorstSpots, fr.money(r.WorstBet)), left.X+32, y+1, 13, colDim, false)
			}})
		case r.InitialBP > 0:
			l.rtp = append(l.rtp, helpLine{h: helpRule, draw: func(y float32) {
				fr.text(fr.trf("help.per_initial", i18n.Percent(fr.lang, r.InitialBP)), left.X+32, y+1, 13, colDim, false)
			}})
		}
	}
	switch {
	case len(h.RTP) > 0:
	case id == game.Duel:
		// An amusement game: no figure to give, and the heading says why.
		l.rtp = append(l.rtp, fr.paragraph(fr.tr("help.rtp.duel"), left.X+16, left.W-32, 15, 19, colWhite)...)
	default:
		// A controller without the return check wired sends none: say so
		// under the heading rather than leave it empty.
		l.rtp = append(l.rtp, fr.paragraph(fr.tr("help.rtp.none"), left.X+16, left.W-32, 15, 19, colDim)...)
	}
	rtpH := float32(0)
	for _, ln := range l.rtp {
		rtpH += ln.h
	}
	// The rules in force, above it.
	var rules []helpLine
	rule := func(label, value string) {
		rules = append(rules, helpLine{h: helpRule, draw: func(y float32) {
			fr.text(label, left.X+16, y, 16, colWhite, false)
			fr.right(value, left.X+left.W-16, y, 16, colActive, true)
		}})
	}
	for _, kv := range h.Rules {
		rule(fr.word("rule", kv.Key), fr.value(kv.Value))
	}
	if id == game.Duel {
		deck, level := fr.duelInForce()
		if deck > 0 {
			rule(fr.tr("help.duel.deck"), fr.trf("duel.deck", deck))
		}
		if level != "" {
			rule(fr.tr("help.duel.level"), fr.word("level", level))
		}
	}
	l.rules = pageLines(rules, left.H-24-32-rtpH-12)
	// The payouts, then how to play.
	var lines []helpLine
	heading := func(text string, size, h float32) {
		lines = append(lines, helpLine{h: h, draw: func(y float32) { fr.text(text, right.X+16, y, size, colActive, true) }, keep: true, heading: true})
	}
	lines = append(lines, helpLine{h: 34, draw: func(y float32) { fr.text(fr.tr("help.pays"), right.X+16, y, 22, colGold, true) }, keep: true})
	var last game.BetKind = "-"
	for _, p := range h.Pays {
		if p.Bet != last {
			heading(fr.tr("bet."+string(p.Bet)), 17, helpRow)
			last = p.Bet
		}
		lines = append(lines, helpLine{h: helpRow, draw: func(y float32) {
			fr.text(fr.payHand(p.Hand), right.X+36, y, 16, colWhite, false)
			fr.right(fr.pays(p.Pays), right.X+right.W-16, y, 16, colGold, true)
		}})
	}
	if id == game.Duel && len(h.Pays) == 0 {
		// Poker Duel pays no credits: the pot goes to the better hand,
		// ranked as games.md §5 ranks them.
		lines = append(lines, fr.paragraph(fr.tr("help.duel.pot"), right.X+16, right.W-32, 15, 19, colWhite)...)
		lines = append(lines, helpLine{h: 8})
		heading(fr.tr("help.duel.ranking"), 17, helpRow)
		for i, k := range duelRanking {
			lines = append(lines, helpLine{h: helpRow - 2, draw: func(y float32) {
				fr.text(fr.word("hand", k), right.X+36, y, 16, colWhite, false)
				fr.right(strconv.Itoa(i+1), right.X+right.W-16, y, 16, colGold, true)
			}})
		}
	}
	lines = append(lines, helpLine{h: 14})
	heading(fr.tr("help.howto"), 17, 26)
	for i, para := range strings.Split(fr.tr("help.howto."+string(id)), "\n") {
		if i > 0 {
			lines = append(lines, helpLine{h: 5})
		}
		lines = append(lines, fr.paragraph(para, right.X+16, right.W-32, 15, 19, colWhite)...)
	}
	lines = append(lines, fr.commitmentLines(right.X+16, right.W-32)...)
	l.right = pageLines(lines, right.H-24)
	return l
}

// duelRanking is Poker Duel's hands, highest first (games.md §5).
var duelRanking = [...]string{"straight flush", "four of a kind", "full house", "flush", "straight",
	"three of a kind", "two pairs", "one pair", "nothing"}

// paragraph wraps s into lines of width w at size, line apart, at x.
func (fr *frame) paragraph(s string, x, w, size, line float32, c color.RGBA) []helpLine {
	var out []helpLine
	ts := fr.wrap(s, size, w, false)
	for i, t := range ts {
		out = append(out, helpLine{h: line, draw: func(y float32) { fr.text(t, x, y, size, c, false) }, keep: i < len(ts)-1})
	}
	return out
}

// duelInForce is Poker Duel's deck and level: the session's while one is
// played, else what DEAL buys next.
func (fr *frame) duelInForce() (int, string) {
	if fr.s.Round != nil && !duelBuying(fr.s) {
		if d := duel.PictureOf(*fr.s.Round); d != nil {
			return d.Deck, d.Level
		}
	}
	if di := fr.s.DuelInput; di != nil {
		return di.Deck, di.Level
	}
	return 0, ""
}

// drawHelp is the help and paytable page of a game: rules in force, the
// paytables and the RTP figures, all from the snapshot (never hand-typed),
// and how to play, over as many pages as they need.
func (fr *frame) drawHelp() {
	h := fr.s.Help
	id := fr.s.Game
	if h != nil && h.Game != "" {
		id = h.Game
	}
	fr.drawFelt()
	if h == nil {
		fr.drawTopBar(fr.trf("help.title", fr.tr("game."+string(id))), "")
		fr.drawMeters(0, false)
		return
	}
	l := fr.helpLayoutOf(h, id)
	pages := l.pages()
	page := h.Page % pages
	right := ""
	if pages > 1 {
		right = fr.trf("help.page", page+1, pages)
	}
	fr.drawTopBar(fr.trf("help.title", fr.tr("game."+string(id))), right)
	left, rightR := helpLeftBox(), helpRightBox()
	box(left, 14, fade(colInk, 0.55))
	box(rightR, 14, fade(colInk, 0.55))
	draw := func(lines []helpLine, y float32) {
		for _, ln := range lines {
			if ln.draw != nil {
				ln.draw(y)
			}
			y += ln.h
		}
	}
	endLeft := fr.within(left)
	fr.text(fr.tr("help.rules"), left.X+16, left.Y+12, 22, colGold, true)
	draw(l.rules[min(page, len(l.rules)-1)], left.Y+44)
	rtpH := float32(0)
	for _, ln := range l.rtp {
		rtpH += ln.h
	}
	draw(l.rtp, left.Y+left.H-12-rtpH)
	endLeft()
	endRight := fr.within(rightR)
	if page < len(l.right) {
		draw(l.right[page], rightR.Y+12)
	}
	endRight()
	hint := fr.tr("help.back")
	if pages > 1 {
		hint = fr.tr("help.next") + "  ·  " + hint
	}
	fr.centered(hint, ScreenW/2, left.Y+left.H+6, 15, colFeltLine, true, 1200)
	fr.drawMeters(0, false)
}

// method translates an RTP method: its first word is the key ("exact",
// "simulation"), the rest (a precision such as "±0.05 %") is kept.
func (fr *frame) method(m string) string {
	word, rest, _ := strings.Cut(m, " ")
	word = strings.TrimRight(word, ",:;")
	if strings.HasPrefix(rest, "±") {
		return fr.word("method", word) + " " + rest // a simulation's margin
	}
	return fr.word("method", word) // the analyser's long description stays in the PAR sheet
}

// value translates a help-screen value token from the controller: a word
// of the "val" namespace ("yes", "ace-ten", "10-11"), an amount written as
// money.Cents.String ("1000.00"), or a number shown as is.
func (fr *frame) value(v string) string {
	if s, ok := i18n.Lookup(fr.lang, "val", v); ok && i18n.Has(fr.lang, "val."+v) {
		return s
	}
	if strings.Contains(v, ".") {
		if c, err := money.Parse(v); err == nil {
			return fr.money(c)
		}
	}
	return v
}

// pays translates a paytable entry: "500 for 1", "10%" (of the jackpot) or
// an odds ratio such as "3:2", shown as is.
func (fr *frame) pays(p string) string {
	if n, ok := strings.CutSuffix(p, " for 1"); ok {
		return fr.trf("pays.for_one", n)
	}
	if n, ok := strings.CutSuffix(p, "%"); ok {
		if v, err := strconv.ParseInt(n, 10, 64); err == nil {
			return fr.trf("pays.jackpot_pct", i18n.Percent(fr.lang, v*100))
		}
	}
	return p
}

// payHand names a paytable line: a hand name, else an outcome.
func (fr *frame) payHand(key string) string {
	if s, ok := i18n.Lookup(fr.lang, "hand", key); ok {
		return s
	}
	if _, ok := i18n.Lookup(fr.lang, "outcome", key); !ok && fr.miss != nil {
		fr.miss("hand." + key)
		return key
	}
	return fr.word("outcome", key)
}

// drawBoot is the start-up screen.
func (fr *frame) drawBoot() {
	rl.ClearBackground(colBackground)
	fr.centered(fr.tr("boot.title"), ScreenW/2, 280, 48, colGold, true, 0)
	fr.centered(fr.tr("boot.selftest"), ScreenW/2, 350, 24, colDim, false, 0)
	a := float32(math.Mod(fr.t*240, 360))
	rl.DrawRing(v2(ScreenW/2, 450), 26, 32, a, a+270, 32, colGold)
}

// drawScreen draws the mode m of the snapshot (no overlay).
func (fr *frame) drawScreen(m view.Mode) {
	switch m {
	case view.Attract:
		fr.drawAttract()
	case view.Menu:
		fr.drawMenu()
	case view.Table:
		if fr.s.Game == game.Duel {
			fr.drawDuel()
		} else {
			fr.drawBlackjack()
		}
	case view.Help:
		fr.drawHelp()
	case view.Audit:
		fr.drawAudit()
	case view.Operator:
		fr.drawOperator()
	case view.HwTest:
		fr.drawHwTest()
	default:
		fr.drawBoot()
	}
}

// draw draws a whole frame of the snapshot.
func (fr *frame) draw() {
	rl.ClearBackground(colBackground)
	m := fr.s.Mode
	overlay := m == view.Tilt || m == view.Handpay
	if overlay {
		m = fr.s.Under
		if m == "" || m == view.Tilt || m == view.Handpay {
			m = view.Attract
		}
	}
	fr.drawScreen(m)
	if m != view.Boot {
		if fr.legend {
			fr.drawLegend()
		}
		fr.drawButtons()
	}
	if fr.s.Demo {
		fr.drawDemoBanner()
	}
	switch fr.s.Mode {
	case view.Tilt:
		fr.drawTilt()
	case view.Handpay:
		fr.drawHandpay()
	}
}

// drawDemoBanner marks a demonstration picture: DEMO and how to play for real.
func (fr *frame) drawDemoBanner() {
	// Right of the demo's two hands, under the round's call-outs.
	r := Rect{ScreenW - 460, 290, 440, 120}
	box(r, 18, fade(colInk, 0.85))
	frameBox(r, 18, 3, colGold)
	cx := r.X + r.W/2
	fr.centered(fr.tr("attract.demo"), cx, r.Y+10, 30, colGold, true, r.W-30)
	fr.centered(fr.tr("attract.insert"), cx, r.Y+52, 22, colWhite, true, r.W-30)
	fr.centered(fr.tr("attract.responsible"), cx, r.Y+86, 16, colDim, false, r.W-30)
}
