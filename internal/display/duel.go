package display

import (
	"image/color"
	"math"
	"slices"
	"strings"

	"cabinet/internal/game"
	"cabinet/internal/game/duel"
	"cabinet/internal/i18n"
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

var (
	colSkin    = color.RGBA{240, 200, 160, 255}
	colShirt   = color.RGBA{245, 245, 240, 255}
	colTrouser = color.RGBA{70, 74, 90, 255}
	colJacket  = color.RGBA{30, 50, 110, 255}
	colScarf   = color.RGBA{200, 40, 50, 255}
	colGlove   = color.RGBA{250, 250, 250, 255}
	colShoe    = color.RGBA{30, 22, 18, 255}
	colSock    = color.RGBA{120, 170, 230, 255}
	colPlay    = color.RGBA{120, 60, 170, 255}
)

// outfit tells which accessories the Baron wears now.
type outfit struct{ worn, pawned map[string]bool }

func newOutfit(d *duel.Picture) outfit {
	o := outfit{worn: map[string]bool{}, pawned: map[string]bool{}}
	if d == nil {
		for _, it := range []string{"hat", "glasses", "scarf", "jacket", "gloves", "shoes"} {
			o.worn[it] = true
		}
		return o
	}
	for _, it := range d.Outfit {
		o.worn[it] = true
	}
	for _, it := range d.Pawned {
		o.pawned[it] = true
	}
	return o
}

// drawBaron draws the Poker Duel opponent — a stylised, fully clothed
// cartoon gentleman — in area; only his accessories come and go.
func (fr *frame) drawBaron(area Rect, o outfit, happy bool) {
	s := area.W / 380
	cx := area.X + area.W/2
	y0 := area.Y
	P := func(dx, dy float32) rl.Vector2 { return v2(cx+dx*s, y0+dy*s) }
	R := func(dx, dy, w, h float32) Rect { return Rect{cx + dx*s, y0 + dy*s, w * s, h * s} }
	// Spotlight.
	rl.DrawEllipse(int32(cx), int32(y0+470*s), 150*s, 22*s, color.RGBA{0, 0, 0, 70})
	// Legs and feet.
	box(R(-58, 330, 50, 140), 8*s, colTrouser)
	box(R(8, 330, 50, 140), 8*s, colTrouser)
	for _, dx := range []float32{-34, 34} {
		if o.worn["shoes"] {
			rl.DrawEllipseV(P(dx+6, 472), 40*s, 16*s, colShoe)
			rl.DrawEllipseV(P(dx+12, 466), 16*s, 5*s, fade(colWhite, 0.3))
		} else {
			rl.DrawEllipseV(P(dx+4, 472), 32*s, 13*s, colSock)
			for k := range 3 {
				rl.DrawLineEx(P(dx-20, 464+float32(k)*6), P(dx+28, 464+float32(k)*6), 2*s, fade(colWhite, 0.6))
			}
		}
	}
	// Torso: the shirt is always worn.
	box(R(-80, 196, 160, 150), 24*s, colShirt)
	for k := range 4 {
		rl.DrawCircleV(P(0, 224+float32(k)*30), 3.5*s, color.RGBA{180, 180, 190, 255})
	}
	box(R(-82, 326, 164, 20), 6*s, color.RGBA{60, 40, 30, 255}) // belt
	rl.DrawRectangleRec(rec(R(-10, 328, 20, 16)), colGold)
	armColor := colShirt
	if o.worn["jacket"] {
		armColor = colJacket
		box(R(-84, 192, 64, 150), 20*s, colJacket)
		box(R(20, 192, 64, 150), 20*s, colJacket)
		tri(P(-20, 196), P(-44, 196), P(-18, 270), mix(colJacket, colWhite, 0.15))
		tri(P(20, 196), P(44, 196), P(18, 270), mix(colJacket, colWhite, 0.15))
		rl.DrawRectangleRec(rec(R(40, 222, 26, 6)), colScarf) // pocket square
	}
	if o.worn["tie"] {
		tri(P(-9, 204), P(9, 204), P(0, 270), colScarf)
	}
	// Arms and hands.
	swing := float32(0)
	if happy {
		swing = float32(math.Sin(fr.t*6)) * 6
	}
	box(R(-116, 200, 36, 120), 16*s, armColor)
	box(R(80, 200+swing, 36, 120), 16*s, armColor)
	for _, p := range []rl.Vector2{P(-98, 330), P(98, 330+swing)} {
		if o.worn["gloves"] {
			rl.DrawCircleV(p, 18*s, colGlove)
			rl.DrawCircleLinesV(p, 18*s, color.RGBA{170, 170, 180, 255})
		} else {
			rl.DrawCircleV(p, 16*s, colSkin)
		}
	}
	if o.worn["watch"] {
		rl.DrawRectangleRec(rec(R(-114, 304, 32, 8)), colGold)
	}
	// Neck and head.
	rl.DrawRectangleRec(rec(R(-16, 170, 32, 30)), colSkin)
	if !o.worn["hat"] {
		// Hair, seen only without the hat.
		rl.DrawCircleSector(P(0, 120), 70*s, 180, 360, 24, color.RGBA{90, 60, 40, 255})
		rl.DrawCircleV(P(-52, 98), 16*s, color.RGBA{90, 60, 40, 255})
	}
	rl.DrawCircleV(P(0, 126), 64*s, colSkin)
	rl.DrawCircleV(P(-64, 130), 12*s, colSkin) // ears
	rl.DrawCircleV(P(64, 130), 12*s, colSkin)
	rl.DrawCircleV(P(-22, 116), 6*s, colInk) // eyes
	rl.DrawCircleV(P(22, 116), 6*s, colInk)
	rl.DrawCircleV(P(-20, 114), 2*s, colWhite)
	rl.DrawCircleV(P(24, 114), 2*s, colWhite)
	rl.DrawCircleV(P(0, 136), 9*s, color.RGBA{225, 160, 130, 255}) // nose
	// Moustache and mouth.
	rl.DrawEllipseV(P(-16, 152), 18*s, 7*s, color.RGBA{90, 60, 40, 255})
	rl.DrawEllipseV(P(16, 152), 18*s, 7*s, color.RGBA{90, 60, 40, 255})
	if happy {
		rl.DrawRing(P(0, 158), 10*s, 13*s, 20, 160, 16, colInk)
	} else {
		rl.DrawRing(P(0, 178), 10*s, 13*s, 200, 340, 16, colInk)
	}
	if o.worn["glasses"] {
		rl.DrawRing(P(-22, 116), 15*s, 18*s, 0, 360, 24, colInk)
		rl.DrawRing(P(22, 116), 15*s, 18*s, 0, 360, 24, colInk)
		rl.DrawLineEx(P(-5, 114), P(5, 114), 3*s, colInk)
		rl.DrawLineEx(P(-38, 112), P(-62, 120), 3*s, colInk)
		rl.DrawLineEx(P(38, 112), P(62, 120), 3*s, colInk)
	} else {
		rl.DrawLineEx(P(-34, 98), P(-12, 96), 4*s, color.RGBA{90, 60, 40, 255}) // eyebrows
		rl.DrawLineEx(P(12, 96), P(34, 98), 4*s, color.RGBA{90, 60, 40, 255})
	}
	if o.worn["scarf"] {
		box(R(-44, 178, 88, 26), 12*s, colScarf)
		box(R(18, 190, 24, 78), 8*s, colScarf)
		for k := range 3 {
			rl.DrawLineEx(P(20+float32(k)*8, 262), P(20+float32(k)*8, 274), 3*s, colScarf)
		}
	}
	if o.worn["hat"] {
		rl.DrawEllipseV(P(0, 76), 82*s, 14*s, colInk)
		box(R(-50, 0, 100, 78), 6*s, colInk)
		rl.DrawRectangleRec(rec(R(-50, 54, 100, 14)), colScarf)
	}
	// Pawn tickets hang on pawned items.
	tags := map[string]rl.Vector2{"hat": P(52, 20), "glasses": P(60, 100), "scarf": P(-52, 190),
		"jacket": P(-70, 250), "gloves": P(120, 330), "shoes": P(70, 460), "tie": P(12, 240), "watch": P(-130, 300)}
	for it := range o.pawned {
		if p, ok := tags[it]; ok && o.worn[it] {
			fr.pawnTag(p.X, p.Y, s)
		}
	}
}

// pawnTag is the little ticket hung on a pawned item.
func (fr *frame) pawnTag(x, y, s float32) {
	r := Rect{x, y, 30 * s, 18 * s}
	rl.DrawLineEx(v2(x, y+r.H/2), v2(x-10*s, y-6*s), 1.5, colGoldDark)
	box(r, 3, colToken)
	fr.inRect("$", r, 14*s, colInk, true)
}

// drawPlayChips draws a stack of play chips (never money) for n chips.
func (fr *frame) drawPlayChips(n int64, x, y float32) {
	k := int(min(max(n/50, 1), 6))
	if n <= 0 {
		k = 0
	}
	if k > 0 {
		top := y - float32(k-1)*5 - 20
		defer fr.inObject("play chips", Rect{x - 20, top, 40, y + 23 - top})()
	}
	for i := range k {
		yy := y - float32(i)*5
		rl.DrawCircleV(v2(x, yy+3), 20, color.RGBA{0, 0, 0, 80})
		rl.DrawCircleV(v2(x, yy), 20, colPlay)
		rl.DrawRing(v2(x, yy), 14, 20, 0, 360, 24, mix(colPlay, colWhite, 0.25))
		rl.DrawCircleV(v2(x, yy), 13, colPlay)
	}
}

// drawDuel draws Poker Duel: the Baron, both hands, the pot and stacks.
func (fr *frame) drawDuel() {
	s := fr.s
	fr.drawFelt()
	var d *duel.Picture
	right := ""
	if s.Round != nil {
		d = duel.PictureOf(*s.Round)
		if s.Round.Round > 0 && !s.Demo {
			right = fr.trf("meter.round", s.Round.Round)
		}
	}
	if d != nil && d.SessionOver && d.PlayerWon {
		fr.drawVictory(d)
		return
	}
	if duelBuying(s) {
		d, right = nil, "" // the buy screen: no session, the Baron dressed
	}
	fr.drawTopBar(fr.tr("game.duel"), right)
	fr.drawShoeTag(right)
	ca := duelCharacterArea()
	endCA := fr.inPanel("the Baron", ca)
	box(ca, 20, fade(colInk, 0.35))
	fr.drawBaron(Rect{ca.X + 20, ca.Y + 6, ca.W - 40, 420}, newOutfit(d), false)
	fr.drawOutfitList(d, Rect{ca.X + 10, ca.Y + 430, ca.W - 20, 44})
	endCA()

	di := s.DuelInput
	if d == nil {
		// Between sessions: the choices DEAL buys.
		fr.drawNotice(fr.tr("phase.buy"), 150, colGold)
		if di != nil {
			fr.centered(fr.deckLevel(di.Deck, di.Level, "duel.choice"), 740, 230, 26, colWhite, true, 600)
		}
		if info, ok := fr.gameInfo(game.Duel); ok && info.MinBet > 0 {
			fr.centered(fr.trf("duel.price", fr.money(info.MinBet)), 740, 370, 20, colGold, true, 600)
		}
		fr.centered(fr.tr("duel.buy"), 740, 290, 18, colDim, false, 600)
		fr.centered(fr.tr("duel.chips_note"), 740, 330, 16, colFeltLine, false, 600)
		fr.drawNotices(Rect{440, 404, 600, 0})
		fr.drawMeters(0, false)
		return
	}

	// The Baron's hand, named at the showdown; what he just did, said.
	cc := duelComputerCards()
	fr.text(fr.handLabel("duel.opponent", d.ComputerHand), cc.X, cc.Y-30, 20, colFeltLine, true)

	fr.right(fr.trf("duel.stack", i18n.Number(fr.lang, d.ComputerStack)), cc.X+cc.W, cc.Y-30, 20, colWhite, true)
	n := max(d.ComputerCards, len(d.Computer))
	for i, r := range RowRects(cc, n, 84, 120, 12) {
		if i < len(d.Computer) {
			fr.drawCard(d.Computer[i], r)
		} else {
			fr.drawBack(r)
		}
	}
	if d.ComputerDrew > 0 {
		fr.badge(fr.trf("duel.drew", d.ComputerDrew), cc.X+cc.W+60, cc.Y+14, 14, colInk, colDim) // over his chips
	}
	fr.drawPlayChips(d.ComputerStack, cc.X+cc.W+60, cc.Y+110)

	// Pot, call, phase: the phase on its own line across the top (it can be
	// long: "Draw — mark the cards to exchange"), the pot and what is to
	// call under it.
	pa := duelPotArea()
	box(pa, 16, fade(colInk, 0.4))
	endPot := fr.within(pa)
	if d.Phase != "" {
		// The engine writes "duel.draw"; the catalogue has "phase.draw".
		fr.centered(fr.word("phase", strings.TrimPrefix(d.Phase, "duel.")), pa.X+pa.W/2, pa.Y+8, 15, colFeltLine, true, pa.W-24)
	}
	fr.drawPlayChips(d.Pot, pa.X+50, pa.Y+66)
	fr.text(fr.tr("duel.pot"), pa.X+90, pa.Y+32, 16, colDim, true)
	fr.text(fr.trf("duel.stack", i18n.Number(fr.lang, d.Pot)), pa.X+90, pa.Y+52, 28, colGold, true)
	if d.ToCall > 0 {
		fr.right(fr.trf("duel.to_call", i18n.Number(fr.lang, d.ToCall)), pa.X+pa.W-14, pa.Y+32, 16, colActive, true)
	}
	endPot()
	// Between the two hands, clear of both: the result of the deal, or
	// what the Baron just did.
	switch say := fr.baronSays(d); {
	case d.Message != "" && playerPassed(d): // the player's own fold, named with its result (issue 35)
		fr.centered(fr.tr("duel.say.you_pass")+" — "+fr.word("msg", strings.TrimPrefix(d.Message, "duel.")), pa.X+pa.W/2, pa.Y-30, 22, colActive, true, 620)
	case d.Message != "" && say != "": // the Baron folded, or the session ended on his move
		fr.centered(say+" — "+fr.word("msg", strings.TrimPrefix(d.Message, "duel.")), pa.X+pa.W/2, pa.Y-30, 22, colActive, true, 620)
	case d.Message != "":
		fr.centered(fr.word("msg", strings.TrimPrefix(d.Message, "duel.")), pa.X+pa.W/2, pa.Y-30, 22, colActive, true, 620)
	case say != "":
		fr.centered(say, pa.X+pa.W/2, pa.Y-28, 18, colActive, true, 620)
	}

	// The player's hand: cursor and marks for the draw.
	pc := duelPlayerCards()
	for i, r := range RowRects(pc, len(d.Player), 96, 136, 16) {
		marked := di != nil && i < 5 && di.Marked[i]
		if marked {
			r.Y -= 18
		}
		fr.drawCard(d.Player[i], r)
		if marked {
			fr.badge("⇄", r.X+r.W/2, r.Y+r.H-30, 16, colInk, colZap)
		}
		if di != nil && i == di.Cursor && !d.SessionOver {
			p := fr.pulse(0.9)
			frameBox(Rect{r.X - 5, r.Y - 5, r.W + 10, r.H + 10}, 10, 4, mix(colActive, colWhite, p*0.5))
		}
	}
	fr.text(fr.handLabel("duel.player", d.PlayerHand), pc.X, pc.Y+pc.H+2, 20, colFeltLine, true)
	fr.right(fr.trf("duel.stack", i18n.Number(fr.lang, d.PlayerStack)), pc.X+pc.W, pc.Y+pc.H+2, 20, colWhite, true)
	fr.drawPlayChips(d.PlayerStack, pc.X+pc.W+60, pc.Y+110)
	if d.PlayerDrew > 0 {
		fr.badge(fr.trf("duel.drew", d.PlayerDrew), pc.X+pc.W+60, pc.Y+4, 14, colInk, colDim)
	}
	if di != nil && di.Amount > 0 {
		fr.badge(fr.trf("duel.amount", i18n.Number(fr.lang, di.Amount)), pc.X+pc.W+60, pc.Y+34, 14, colInk, colGold) // over the chips
	}
	// Deck and level.
	fr.right(fr.deckLevel(d.Deck, d.Level, ""), ScreenW-18, 62, 16, colFeltLine, false)
	if d.SessionOver && !d.PlayerWon {
		fr.drawNotice(fr.tr("duel.defeat")+" — "+fr.tr("duel.defeat_text"), 300, colLose)
	}
	fr.drawNotices(duelNotice)
	fr.drawMeters(0, false)
}

// duelNotice is where a refusal goes during a session: the right of the
// felt, between the Baron's chips and the player's badges.
var duelNotice = Rect{930, 246, 340, 0}

// drawOutfitList shows each item: worn, pawned (ticket) or taken off.
func (fr *frame) drawOutfitList(d *duel.Picture, r Rect) {
	var items []string
	var pawned, lost []string
	if d != nil {
		items = append(items, d.Outfit...)
		pawned, lost = d.Pawned, d.Lost
		for _, it := range lost {
			if !slices.Contains(items, it) {
				items = append(items, it)
			}
		}
	}
	if len(items) == 0 {
		return
	}
	w := r.W / float32(len(items))
	for i, it := range items {
		cell := Rect{r.X + float32(i)*w + 2, r.Y, w - 4, r.H}
		bg, fg := fade(colWhite, 0.85), colInk
		status := "✓"
		switch {
		case slices.Contains(lost, it) && !slices.Contains(d.Outfit, it):
			bg, fg, status = fade(colLose, 0.5), colWhite, "✗"
		case slices.Contains(pawned, it):
			bg, status = colToken, "$"
		}
		box(cell, 8, bg)
		fr.inRect(fr.word("item", it), Rect{cell.X, cell.Y + 2, cell.W, cell.H / 2}, 14, fg, true)
		fr.inRect(status, Rect{cell.X, cell.Y + cell.H/2, cell.W, cell.H / 2}, 16, fg, true)
	}
}

// drawVictory is the end of a session the player won.
func (fr *frame) drawVictory(d *duel.Picture) {
	fr.drawTopBar(fr.tr("game.duel"), "")
	f := feltArea()
	// Confetti: a fixed pattern falling with time.
	palette := []color.RGBA{colGold, colScarf, colZap, colWin, colWhite, colPlay}
	for i := range 90 {
		x := float32((i*977)%ScreenW) + float32(math.Sin(fr.t*2+float64(i)))*8
		y := f.Y + float32(math.Mod(float64((i*613)%int(f.H))+fr.t*60*float64(1+i%3), float64(f.H)))
		rl.DrawRectanglePro(rl.Rectangle{X: x, Y: y, Width: 8, Height: 14}, v2(4, 7), float32(i*37)+float32(fr.t*90), palette[i%len(palette)])
	}
	// Trophy.
	cx, top := float32(860), float32(130)
	rl.DrawCircleSector(v2(cx, top+40), 80, 0, 180, 32, colGold)
	rl.DrawRectangleRec(rec(Rect{cx - 80, top - 20, 160, 60}), colGold)
	rl.DrawRing(v2(cx-84, top+20), 26, 34, 90, 270, 16, colGold)
	rl.DrawRing(v2(cx+84, top+20), 26, 34, -90, 90, 16, colGold)
	rl.DrawRectangleRec(rec(Rect{cx - 12, top + 118, 24, 40}), colGoldDark)
	box(Rect{cx - 70, top + 156, 140, 30}, 6, colGoldDark)
	fr.centered("★", cx, top+4, 56, colWhite, true, 0)
	fr.centered(fr.tr("duel.victory"), cx, 360, 64, colGold, true, 700)
	fr.centered(fr.tr("duel.victory_text"), cx, 440, 22, colWhite, true, 760)
	fr.drawBaron(Rect{40, 70, 340, 446}, newOutfit(d), true)
	fr.drawMeters(0, false)
}

// deckLevel names the deck and, when the configuration offers levels, the
// level ("Jeu de 32 cartes · niveau : difficile"); with no level the deck
// alone. withKey formats both ("" joins them with a dot).
func (fr *frame) deckLevel(deck int, level, withKey string) string {
	d := fr.trf("duel.deck", deck)
	switch {
	case level == "":
		return d
	case withKey == "":
		return d + " · " + fr.word("level", level)
	}
	return fr.trf(withKey, d, fr.word("level", level))
}

// duelBuying reports whether Poker Duel is between sessions: nothing
// dealt, or the engine's buy phase, or a session over (DEAL buys the next).
func duelBuying(s *view.Snapshot) bool {
	var d *duel.Picture
	if s.Round != nil {
		d = duel.PictureOf(*s.Round)
	}
	if d == nil {
		return true
	}
	return d.Phase == "duel.buy" || d.SessionOver
}

// handLabel is a side's label, with its hand's name at the showdown.
func (fr *frame) handLabel(who, hand string) string {
	if hand == "" {
		return fr.tr(who)
	}
	return fr.tr(who) + " — " + fr.word("hand", hand)
}

// baronSays narrates the Baron's latest move of the deal: his bet in the
// current betting round, or his draw once he has drawn and not bet since
// ("The Baron raises: 30 chips in", "The Baron draws 3 cards"). Nothing at
// the showdown (both hands are named instead).
func (fr *frame) baronSays(d *duel.Picture) string {
	if playerPassed(d) {
		return "" // the deal ended on the player's move
	}
	if len(d.Computer) > 0 {
		return ""
	}
	var last *duel.PictureMove
	for i := range d.Moves {
		if d.Moves[i].Baron {
			last = &d.Moves[i]
		}
	}
	if d.ComputerDrawn && (last == nil || last.Round < 2) {
		switch d.ComputerDrew {
		case 0:
			return fr.tr("duel.say.pat")
		case 1:
			return fr.tr("duel.say.draw1")
		}
		return fr.trf("duel.say.draw", d.ComputerDrew)
	}
	if last == nil {
		return ""
	}
	k := string(last.Kind)
	if last.Amount == 0 && (last.Kind == game.See || last.Kind == game.Change) {
		k += "0"
	}
	if last.Amount > 0 {
		return fr.trf("duel.say."+k, i18n.Number(fr.lang, last.Amount))
	}
	return fr.tr("duel.say." + k)
}

// playerPassed reports that the deal's last move is the player's pass.
func playerPassed(d *duel.Picture) bool {
	n := len(d.Moves)
	return n > 0 && !d.Moves[n-1].Baron && d.Moves[n-1].Kind == game.Pass
}
