package display

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
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
	blink := uint8(155 + 100*fr.pulse(1.4))
	fr.centered(fr.tr("attract.insert"), ScreenW/2, 506, 32, color.RGBA{255, 255, 255, blink}, true, 1100)
	fr.centered(fr.tr("attract.help")+"  ·  "+fr.tr("attract.responsible"), ScreenW/2, 546, 15, colFeltLine, false, 1200)
	fr.drawNotices()
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
	fr.centered(fr.tr("menu.hint"), ScreenW/2, 526, 18, colFeltLine, true, 1200)
	fr.drawNotices()
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

// The help screen's paytable box and its row height.
const helpRow = 23

func helpPaysBox() Rect { return Rect{634, 66, 622, 488} }

// helpPayRows is how many paytable rows one help page holds.
func helpPayRows() int { return int((helpPaysBox().H - 60) / helpRow) }

// payPages is the number of help pages the paytable needs: a heading row
// per bet and a row per line, helpPayRows a page.
func payPages(pays []view.PayLine) int {
	rows, last := 0, game.BetKind("-")
	for _, p := range pays {
		if p.Bet != last {
			rows++
			last = p.Bet
		}
		rows++
	}
	return max(1, (rows+helpPayRows()-1)/helpPayRows())
}

// drawHelp is the help and paytable page of a game: rules in force, the
// paytables and the RTP figures, all from the snapshot (never hand-typed).
func (fr *frame) drawHelp() {
	h := fr.s.Help
	id := fr.s.Game
	if h != nil && h.Game != "" {
		id = h.Game
	}
	fr.drawFelt()
	right, page := "", 0
	if h != nil {
		// The controller counts the player's page presses; the pages are
		// what this layout needs for the paytable.
		pages := payPages(h.Pays)
		page = h.Page % pages
		if pages > 1 {
			right = fr.trf("help.page", page+1, pages)
		}
	}
	fr.drawTopBar(fr.trf("help.title", fr.tr("game."+string(id))), right)
	if h == nil {
		fr.drawMeters(0, false)
		return
	}
	left := Rect{24, 66, 590, 488}
	rightR := helpPaysBox()
	box(left, 14, fade(colInk, 0.55))
	box(rightR, 14, fade(colInk, 0.55))

	const row, rtpRow = helpRow, 21
	// The RTP block is anchored at the bottom of the left box; the rules
	// fill what is above it (a row that does not fit is not drawn).
	rtpLines := len(h.RTP)
	for _, r := range h.RTP {
		if r.InitialBP > 0 || r.WorstBet > 0 {
			rtpLines++ // the main bet's second line
		}
	}
	rtpTop := left.Y + left.H - 12 - 30 - rtpRow*float32(rtpLines)
	// Rules in force.
	y := left.Y + 12
	fr.text(fr.tr("help.rules"), left.X+16, y, 22, colGold, true)
	y += 32
	endLeft := fr.within(left)
	for i, kv := range h.Rules {
		if y+rtpRow > rtpTop-6 {
			fr.cutOff(fmt.Sprintf("%d rules from %q", len(h.Rules)-i, kv.Key))
			break
		}
		fr.text(fr.word("rule", kv.Key), left.X+16, y, 16, colWhite, false)
		fr.right(fr.value(kv.Value), left.X+left.W-16, y, 16, colActive, true)
		y += rtpRow
	}
	// RTP, below the rules.
	y = rtpTop
	fr.text(fr.tr("help.rtp"), left.X+16, y, 17, colGold, true)
	y += 30
	for _, r := range h.RTP {
		// The figure, its basis (as `cabinet par` gives it) and how it was
		// obtained; for the main bet, the figure per initial bet, and where
		// a cap makes the return depend on the bet, the worst allowed bet it
		// was computed at (the figure is then at least that).
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
		y += rtpRow
		switch {
		case r.WorstBet > 0:
			fr.text(fr.trf("help.worst_bet", r.WorstSpots, fr.money(r.WorstBet)), left.X+32, y+1, 13, colDim, false)
			y += rtpRow
		case r.InitialBP > 0:
			fr.text(fr.trf("help.per_initial", i18n.Percent(fr.lang, r.InitialBP)), left.X+32, y+1, 13, colDim, false)
			y += rtpRow
		}
	}
	endLeft()
	// Paytables, grouped by bet.
	endRight := fr.within(rightR)
	y = rightR.Y + 12
	fr.text(fr.tr("help.pays"), rightR.X+16, y, 22, colGold, true)
	y += 34
	var last game.BetKind = "-"
	start := page * helpPayRows()
	n := 0
	for _, p := range h.Pays {
		lines := 1
		if p.Bet != last {
			lines = 2
		}
		if n+lines <= start {
			n += lines
			last = p.Bet
			continue
		}
		if y > rightR.Y+rightR.H-row {
			break
		}
		if p.Bet != last {
			fr.text(fr.tr("bet."+string(p.Bet)), rightR.X+16, y, 17, colActive, true)
			y += row
			last = p.Bet
		}
		fr.text(fr.payHand(p.Hand), rightR.X+36, y, 16, colWhite, false)
		fr.right(fr.pays(p.Pays), rightR.X+rightR.W-16, y, 16, colGold, true)
		y += row
		n += lines
	}
	if page == payPages(h.Pays)-1 {
		fr.drawHowTo(id, Rect{rightR.X + 16, y + 14, rightR.W - 32, rightR.Y + rightR.H - y - 24})
	}
	endRight()
	fr.centered(fr.tr("help.back"), ScreenW/2, 548, 14, colFeltLine, false, 0)
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

// drawHowTo teaches the game in plain words (help.howto.<game>) in r,
// below the last page's paytable: a paragraph per line of the text, as
// many lines as fit.
func (fr *frame) drawHowTo(id game.ID, r Rect) {
	const size, line = 15, 19
	if r.H < 2*line+30 {
		fr.cutOff(fr.tr("help.howto." + string(id)))
		return
	}
	y := r.Y
	fr.text(fr.tr("help.howto"), r.X, y, 17, colActive, true)
	y += 26
	for _, para := range strings.Split(fr.tr("help.howto."+string(id)), "\n") {
		for _, l := range fr.wrap(para, size, r.W, false) {
			if y+line > r.Y+r.H {
				fr.cutOff(l)
				return
			}
			fr.text(l, r.X, y, size, colWhite, false)
			y += line
		}
		y += 5
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
