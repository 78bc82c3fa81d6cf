package display

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"cabinet/internal/game"
	"cabinet/internal/i18n"
	"cabinet/internal/money"
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// gameInfo is the menu entry of id, if enabled.
func (fr *frame) gameInfo(id game.ID) (view.GameInfo, bool) {
	for _, g := range fr.s.Games {
		if g.ID == id {
			return g, true
		}
	}
	return view.GameInfo{}, false
}

// drawFelt draws the table cloth with the game's printed rules.
func (fr *frame) drawFelt() {
	f := feltArea()
	rl.DrawRectangleGradientV(int32(f.X), int32(f.Y), int32(f.W), int32(f.H), colFeltTop, colFeltBottom)
}

// The printed arc: a ring centred above the screen.
const (
	arcCenterY = -586
	arcInner   = 820
	arcOuter   = 824
)

// drawArc is the printed arc of a blackjack table, the rules under it. It
// spans only the angles where the whole ring is on the felt, below the
// title bar (issue 35: its ends were drawn over the title and the round
// number).
func (fr *frame) drawArc() {
	top := float64(feltArea().Y)
	from := float32(math.Asin((top-arcCenterY)/arcInner) * 180 / math.Pi)
	rl.DrawRing(v2(ScreenW/2, arcCenterY), arcInner, arcOuter, from, 180-from, 96, colFeltLine)
	fr.centered(fr.tr("table.rules."+string(fr.s.Game)), ScreenW/2, 246, 17, fade(colFeltLine, 0.95), true, 900)
}

func outcomeColor(o game.Outcome) color.RGBA {
	switch o {
	case game.Win, game.Blackjack, game.Charlie:
		return colWin
	case game.Lose, game.Bust:
		return colLose
	case game.Push:
		return colPush
	}
	return colDim
}

// badge draws a small rounded label centred at (cx, y).
func (fr *frame) badge(s string, cx, y, size float32, fg, bg color.RGBA) Rect {
	w := fr.measure(s, size, true) + 18
	r := Rect{cx - w/2, y, w, size + 10}
	defer fr.inPanel("badge "+s, r)()
	box(r, (size+10)/2, bg)
	fr.inRect(s, r, size, fg, true)
	return r
}

// totalText is a hand's total as shown: "17", "soft 17", "BJ".
func (fr *frame) totalText(h game.HandView) string {
	if len(h.Cards) == 0 || h.Total < 0 { // < 0: being dealt (pace.go)
		return ""
	}
	if h.Outcome == game.Blackjack { // a blackjack reads so, not "21"
		return fr.tr("table.blackjack")
	}
	if h.Soft && h.Total < 21 {
		return fr.trf("table.soft", h.Total)
	}
	return strconv.Itoa(h.Total)
}

// roundNotice is where a round's prompt, refusal or result is called out:
// the free felt right of the dealer (X, W: the column; Y: the top).
var roundNotice = Rect{ScreenW - 470, 104, 450, 0}

// jackpotBar is the progressive meter in the table's top bar.
var jackpotBar = Rect{ScreenW/2 - 230, 4, 460, 44}

// drawBlackjack draws a blackjack table (Classic, Royal, Free Bet, Zappit).
func (fr *frame) drawBlackjack() {
	s := fr.s
	fr.drawFelt()
	right := ""
	t := s.Round
	if t != nil && t.Round > 0 && !s.Demo { // a demonstration is no round of this cabinet
		right = fr.trf("meter.round", t.Round)
	}
	fr.drawTopBar(fr.tr("game."+string(s.Game)), right)
	fr.drawShoeTag(right)
	if s.Game == game.Royal {
		fr.drawJackpot(jackpotBar, false)
	}
	info, _ := fr.gameInfo(s.Game)
	spots := max(info.Spots, 1)
	fr.drawArc()
	fr.drawLimits(info)

	pending := len(s.Bets) > 0 || t == nil
	if pending || (t != nil && t.Done && len(t.Hands) == 0) {
		fr.drawBetting(info, spots)
	} else {
		fr.drawDealer(t.Dealer)
		fr.drawHands(t, spots)
		fr.drawSideBets(t.Side, spots)
	}

	// Prompts and notices: right of the dealer during a round (never over
	// the rules line, the dealer or a hand), in the empty middle of the
	// felt while betting.
	round := func(msg string, c color.RGBA) Rect {
		r := fr.drawNoticeAt(msg, roundNotice, c)
		fr.roundBottom = r.Y + r.H
		return r
	}
	result := !pending && t != nil && t.Done && (callout(t) != "" || t.Paid > 0)
	switch {
	case result:
		// A settled round's result is never covered (issue 35): a notice
		// goes under it.
		below := func(msg string, c color.RGBA) {
			r := fr.drawNoticeAt(msg, Rect{roundNotice.X, fr.roundBottom + 8, roundNotice.W, 0}, c)
			fr.roundBottom = r.Y + r.H
		}
		// One notice, the call-out and the pay ("BLACKJACK! · Paid
		// 62.50"): a notice under it stays clear of the rules line.
		text, c := fr.trf("table.paid", fr.money(t.Paid)), colWin
		if co := callout(t); co != "" && t.Paid > 0 {
			text = fr.tr("callout."+co) + " · " + text
		} else if co != "" {
			text, c = fr.tr("callout."+co), colPush
		}
		round(text, c)
		if fr.msg() != "" {
			below(fr.word("msg", fr.msg()), colLose)
			fr.messageDrawn = true
		}
	case fr.msg() != "" && !pending:
		// A refusal during a round takes the prompt's place for a moment.
		round(fr.word("msg", fr.msg()), colLose)
		fr.messageDrawn = true
	case t != nil && t.Prompt == "insurance" && t.Offer > 0 && !pending:
		round(fr.trf("prompt.insurance_cost", fr.money(t.Offer)), colActive) // what it costs, asked
	case t != nil && t.Prompt != "" && !pending:
		round(fr.word("prompt", t.Prompt), colActive)
	case t != nil && !t.Done && !pending && insuranceLost(t):
		round(fr.tr("callout.insurance_lost"), colLose) // the peek found no blackjack
	case pending:
		fr.drawNotice(fr.tr("prompt.bet"), 320, colGold)
	}
	fr.drawNotices(feltNotice)
	if !fr.still {
		fr.drawFlying()
	}
	bet := betTotal(s.Bets)
	if !pending && t != nil {
		bet = t.Staked
	}
	fr.drawMeters(bet, true)
}

// drawNotices draws the recovered notice and the transient message, the
// message in the column msg (X, W; Y its top) the screen keeps for it.
func (fr *frame) drawNotices(msg Rect) {
	if fr.s.Recovered {
		r := recoveredNotice(fr.s.Game)
		if fr.s.Game != game.Duel {
			r.Y = max(r.Y, fr.roundBottom+8) // under the round's notices
		}
		fr.drawNoticeAt(fr.tr("msg.recovered"), r, colZap)
	}
	switch {
	case fr.msg() != "" && !fr.messageDrawn:
		fr.drawNoticeAt(fr.word("msg", fr.msg()), msg, colLose)
	case fr.s.Paid != nil:
		// The attendant's reset key paid a handpay: confirmed, with the
		// amount, where a refusal would go.
		fr.drawNoticeAt(fr.trf("paid."+fr.s.Paid.Kind, fr.money(fr.s.Paid.Amount)), msg, colWin)
	}
}

// recoveredNotice is where "game recovered" goes: at a blackjack table
// under the round's prompt, right of the dealer (clear of the legend strip,
// the limits, the dealer and the rules line); at Poker Duel, in the middle
// of the title bar (the felt's top holds the Baron and his label).
func recoveredNotice(id game.ID) Rect {
	if id == game.Duel {
		return Rect{ScreenW/2 - 300, 4, 600, 0}
	}
	return Rect{roundNotice.X, roundNotice.Y + 52, roundNotice.W, 0}
}

// feltNotice is the message column of a blackjack table while bets are
// placed: under the top of the felt, right of the table limits.
var feltNotice = Rect{260, 180, 760, 0}

// selectedCircle is the circle BET+ adds to (the snapshot's Spot and
// SpotBet): a spot's main bet or a side bet's circle; its centre and the
// radius of its ring.
func (fr *frame) selectedCircle(info view.GameInfo, spots int) (x, y, r float32, ok bool) {
	s := fr.s
	if s.SpotBet == "" || s.SpotBet == game.Main {
		if s.Spot < 0 || s.Spot >= spots {
			return 0, 0, 0, false
		}
		return spotCenterX(s.Spot, spots), betCircleY, betCircleR + 2, true
	}
	j := 0
	for _, si := range info.Side {
		if si.Kind == s.SpotBet {
			x, y, r := sideBetCenter(si.Kind, j, s.Spot, spots)
			return x, y, r + 3, true // outside the circle's own ring
		}
		if si.Kind != game.RoyalSide {
			j++
		}
	}
	return 0, 0, 0, false
}

// drawBetting draws the empty spots with the pending bets, the circle BET+
// adds to highlighted (a spot's or a side bet's), and at Royal Poker how
// its bet is staked.
func (fr *frame) drawBetting(info view.GameInfo, spots int) {
	x, y, r, sel := fr.selectedCircle(info, spots)
	if sel {
		rl.DrawCircleV(v2(x, y), r+10, fade(colActive, 0.3)) // under the circle; its ring goes over it, last
		defer rl.DrawRing(v2(x, y), r, r+4, 0, 360, 48, mix(colActive, colWhite, fr.pulse(1)*0.5))
	}
	for _, si := range info.Side {
		if si.Kind == game.RoyalSide && fr.pendingSide(0, game.RoyalSide) == 0 {
			// The Royal Poker bet has one circle, between the spots: the
			// table says how to reach it (issue 35).
			fr.centered(fr.tr("table.royal_howto"), ScreenW/2, 410, 17, colGold, true, 760)
		}
	}
	for sp := range spots {
		cx := spotCenterX(sp, spots)
		rl.DrawRing(v2(cx, betCircleY), betCircleR+2, betCircleR+5, 0, 360, 48, fade(colFeltLine, 0.9))
		fr.centered(fr.trf("table.spot", sp+1), cx, betCircleY-betCircleR-28, 16, colFeltLine, true, 0)
		var amt money.Cents
		for _, b := range fr.s.Bets {
			if b.Spot == sp && b.Kind == game.Main {
				amt += b.Amount
			}
		}
		if amt > 0 {
			fr.drawStack(amt, cx, betCircleY)
		}
		j := 0
		for _, si := range info.Side {
			if si.Kind == game.RoyalSide {
				continue
			}
			fr.drawSideSpot(si.Kind, sp, j, spots, fr.pendingSide(sp, si.Kind), "", "", 0)
			j++
		}
	}
	for _, si := range info.Side {
		if si.Kind == game.RoyalSide {
			fr.drawSideSpot(si.Kind, 0, 0, spots, fr.pendingSide(0, si.Kind), "", "", 0)
		}
	}
}

func (fr *frame) pendingSide(spot int, kind game.BetKind) money.Cents {
	var t money.Cents
	for _, b := range fr.s.Bets {
		if b.Kind == kind && (b.Spot == spot || kind == game.RoyalSide) {
			t += b.Amount
		}
	}
	return t
}

// drawStack draws the chips making up amt (largest first, at most 5 high).
func (fr *frame) drawStack(amt money.Cents, x, y float32) {
	denoms := []money.Cents{100000, 10000, 2500, 1000, 500, 100, 50, 10, 1}
	var chips []money.Cents
	rest := amt
	for _, d := range denoms {
		for rest >= d && len(chips) < 5 {
			chips = append(chips, d)
			rest -= d
		}
	}
	if len(chips) == 0 {
		chips = []money.Cents{amt}
	}
	for i := len(chips) - 1; i >= 0; i-- {
		fr.drawChip(chips[i], x, y-float32(len(chips)-1-i)*5, betCircleR-4)
	}
	fr.badge(fr.money(amt), x, y+betCircleR-2, 14, colWhite, fade(colInk, 0.8))
}

// drawSideSpot draws one side-bet circle with its amount and result.
func (fr *frame) drawSideSpot(kind game.BetKind, spot, j, spots int, amt money.Cents, outcome game.Outcome, hand string, win money.Cents) {
	x, y, r := sideBetCenter(kind, j, spot, spots)
	if kind == game.RoyalSide {
		rl.DrawCircleV(v2(x, y), r+6, fade(colGold, 0.25))
	}
	rl.DrawRing(v2(x, y), r, r+2.5, 0, 360, 40, colFeltLine)
	fr.centered(fr.tr("bet."+string(kind)), x, y-r-18, 12, colFeltLine, true, 100)
	if amt > 0 {
		fr.drawChip(amt, x, y, r-3)
	}
	if outcome != "" {
		label := fr.word("outcome", string(outcome))
		if s, ok := i18n.Lookup(fr.lang, "sidehand", hand); ok && hand != "" && i18n.Has(fr.lang, "sidehand."+hand) {
			label = s // the short form, where the full name is long
		} else if hand != "" {
			label = fr.word("hand", hand)
		}
		c := outcomeColor(outcome)
		b := fr.badge(label, x, y+r+2, 11, colInk, c)
		if win > 0 {
			fr.badge("+"+fr.money(win), x, b.Y+b.H+2, 11, colInk, colWin)
		}
	}
}

// drawDealer draws the dealer's hand.
func (fr *frame) drawDealer(d game.HandView) {
	area := dealerArea()
	n := len(d.Cards) + d.Hidden
	rs := CardRects(area, n, cardW, cardH, 0.62)
	// The hole card turning over (pace.go) is drawn by drawFlying, narrowing
	// and widening where it lies: its place stays empty meanwhile.
	turning := fr.fly != nil && fr.fly.Hand < 0 && fr.fly.Turn
	for i, r := range rs {
		switch {
		case i < len(d.Cards):
			fr.drawCard(d.Cards[i], r)
		case turning && i == len(d.Cards):
		default:
			fr.drawBack(r)
		}
	}
	left := area.X + area.W/2 - cardW/2
	if len(rs) > 0 {
		left = rs[0].X
	}
	label := fr.tr("table.dealer")
	fr.right(label, left-16, area.Y+8, 20, colFeltLine, true)
	total := d
	total.Outcome = "" // the dealer's total stays a number: its outcome has its own badge, under it
	if tt := fr.totalText(total); tt != "" {
		fr.badge(tt, left-16-fr.measure(label, 20, true)/2, area.Y+40, 20, colInk, colWhite)
	}
	switch {
	case d.Outcome != "":
		// The dealer's outcome in the player's colours: his blackjack
		// loses, his bust wins.
		c := colWin
		if d.Outcome == game.Blackjack {
			c = colLose
		}
		fr.badge(fr.word("outcome", string(d.Outcome)), left-16-fr.measure(label, 20, true)/2, area.Y+78, 15, colInk, c)
	case d.Note != "":
		fr.badge(fr.word("note", d.Note), left-16-fr.measure(label, 20, true)/2, area.Y+78, 15, colInk, colPush)
	}
}

// handHighlight is the frame around a hand's cards rs in area a.
func handHighlight(a Rect, rs []Rect, cw, ch float32) Rect {
	if len(rs) == 0 {
		return Rect{a.X + a.W/2 - 70, a.Y - 36, 140, ch + 76}
	}
	x0, x1 := rs[0].X, rs[len(rs)-1].X+cw
	w := max(x1-x0, 140)
	return Rect{(x0+x1)/2 - w/2 - 10, a.Y - 36, w + 20, ch + 76}
}

// activeHighlight is the active hand's frame, if a hand is being played.
func activeHighlight(t *game.Table, spots int) (Rect, bool) {
	if t == nil || t.Done || t.Active < 0 || t.Active >= len(t.Hands) {
		return Rect{}, false
	}
	a := HandAreas(t.Hands, spots)[t.Active]
	h := t.Hands[t.Active]
	sc := cardScale(len(t.Hands))
	cw, ch := cardW*sc, cardH*sc
	rs := CardRects(Rect{a.X, a.Y, a.W, ch}, len(h.Cards)+h.Hidden, cw, ch, 0.5)
	return handHighlight(a, rs, cw, ch), true
}

// drawHands draws the player's hands, the active one highlighted.
func (fr *frame) drawHands(t *game.Table, spots int) {
	areas := HandAreas(t.Hands, spots)
	sc := cardScale(len(t.Hands))
	cw, ch := cardW*sc, cardH*sc
	for i, h := range t.Hands {
		a := areas[i]
		active := i == t.Active && !t.Done
		cards := Rect{a.X, a.Y, a.W, ch}
		rs := CardRects(cards, len(h.Cards)+h.Hidden, cw, ch, 0.5)
		if active {
			p := fr.pulse(1)
			hl := handHighlight(a, rs, cw, ch)
			box(hl, 14, fade(colActive, 0.12+0.1*p))
			frameBox(hl, 14, 3, mix(colActive, colWhite, p*0.4))
		}
		for j, r := range rs {
			// A doubled hand's card lies sideways (face down while the
			// rules keep it hidden, Hidden counting it).
			sideways := h.Doubled && j == len(rs)-1 && j >= 2
			endSide := noop
			if sideways {
				// Recorded where it lies (ink.go), turned a quarter.
				cx, cy := r.Center()
				endSide = fr.inObject("card", Rect{cx - r.H/2, cy - r.W/2, r.H, r.W})
				rl.PushMatrix()
				rl.Translatef(r.X+r.W/2, r.Y+r.H/2, 0)
				rl.Rotatef(90, 0, 0, 1)
				r = Rect{-r.W / 2, -r.H / 2, r.W, r.H}
			}
			if j < len(h.Cards) {
				fr.drawCard(h.Cards[j], r)
			} else {
				fr.drawBack(r)
			}
			if sideways {
				rl.PopMatrix()
			}
			endSide()
		}
		cx := a.X + a.W/2
		fr.drawHandLabels(h, active, cx, a.Y-30, a.W)
		// Outcome and win under the cards.
		y := a.Y + ch + 4
		var pills []pill
		if h.Outcome != "" {
			pills = append(pills, pill{fr.word("outcome", string(h.Outcome)), outcomeColor(h.Outcome)})
		}
		if w := h.Win - h.InsuranceWin; w > 0 {
			pills = append(pills, pill{"+" + fr.money(w), colWin})
		}
		switch {
		case h.InsuranceWin > 0:
			pills = append(pills, pill{fr.tr("note.insured_paid") + " +" + fr.money(h.InsuranceWin), colWin})
		case h.Insurance == game.Lose:
			pills = append(pills, pill{fr.tr("note.insurance_lost"), colLose})
		}
		fr.pillRow(pills, cx, y, 15)
		// Money on the hand: chips, and a Free Bet token beside them.
		bx := cx
		if h.Token > 0 {
			bx = cx - 26
			fr.drawToken(cx+30, betCircleY, 24)
			fr.badge(fr.money(h.Token), cx+30, betCircleY+22, 12, colInk, colToken)
		}
		if h.Bet > 0 {
			fr.drawStack(h.Bet, bx, betCircleY)
		}
		if h.Doubled { // left of the chips, clear of them
			fr.badge("×2", bx-(betCircleR-4)-26, betCircleY-30, 13, colInk, colGold)
		}
		if h.Insured > 0 && h.Outcome == "" && h.Insurance == "" { // once the dealer has peeked, the pills say what it did
			fr.badge(fr.tr("note.insured")+" "+fr.money(h.Insured), cx, betCircleY-52, 11, colInk, colPush)
		}
	}
}

// drawHandLabels draws above a hand its note ("split", "zapped" with
// Zappit's bolt after it) and its total, side by side and centred on cx, or
// the note above the total when the hand's width w cannot hold both: however
// wide the words, they never overlap.
func (fr *frame) drawHandLabels(h game.HandView, active bool, cx, y, w float32) {
	const gap, noteSize, totalSize, boltW = 6, 13, 16, 22
	note, tt := "", fr.totalText(h)
	if h.Note != "" {
		note = fr.word("note", h.Note)
	}
	zapped := h.Note == "zapped"
	wNote, wTotal := float32(0), float32(0)
	if note != "" {
		wNote = fr.measure(note, noteSize, true) + 18
		if zapped {
			wNote += gap + boltW
		}
	}
	if tt != "" {
		wTotal = fr.measure(tt, totalSize, true) + 18
	}
	// x and y of the note and of the total.
	nx, ny := cx-(wNote+gap+wTotal)/2, y+(totalSize-noteSize)/2
	tx := nx + wNote + gap
	switch {
	case note == "":
		tx = cx - wTotal/2
	case tt == "":
		nx = cx - wNote/2
	case wNote+gap+wTotal > w:
		nx, ny, tx = cx-wNote/2, y-noteSize-14, cx-wTotal/2
	}
	if note != "" {
		bg := colDim
		bw := wNote
		if zapped {
			bg = colZap
			bw -= gap + boltW
			drawBolt(Rect{nx + bw + gap, ny - 4, boltW, noteSize + 14}, colZap)
		}
		fr.badge(note, nx+bw/2, ny, noteSize, colInk, bg)
	}
	if tt != "" {
		bg := colWhite
		if active {
			bg = colActive
		}
		fr.badge(tt, tx+wTotal/2, y, totalSize, colInk, bg)
	}
}

// pill is a result label and its colour.
type pill struct {
	text string
	bg   color.RGBA
}

// pillRow draws pills side by side, centred on cx, 6 px apart: they never
// overlap whatever their widths.
func (fr *frame) pillRow(pills []pill, cx, y, size float32) {
	const gap = 6
	total := float32(0)
	for i, p := range pills {
		if i > 0 {
			total += gap
		}
		total += fr.measure(p.text, size, true) + 18 // badge's width
	}
	x := cx - total/2
	for _, p := range pills {
		w := fr.measure(p.text, size, true) + 18
		fr.badge(p.text, x+w/2, y, size, colInk, p.bg)
		x += w + gap
	}
}

// drawSideBets draws the round's side bets with their results.
func (fr *frame) drawSideBets(side []game.SideView, spots int) {
	idx := map[string]int{}
	for _, sv := range side {
		key := fmt.Sprint(sv.Spot)
		j := idx[key]
		if sv.Kind != game.RoyalSide {
			idx[key]++
		}
		fr.drawSideSpot(sv.Kind, sv.Spot, j, spots, sv.Amount, sv.Outcome, sv.Hand, sv.Win)
	}
}

// drawJackpot draws the progressive meter.
func (fr *frame) drawJackpot(r Rect, big bool) {
	p := fr.pulse(1.6)
	defer fr.inPanel("jackpot", r)()
	box(r, r.H/2, color.RGBA{40, 10, 10, 255})
	frameBox(r, r.H/2, 3, mix(colGoldDark, colGold, p))
	label := fr.tr("meter.jackpot")
	size := r.H * 0.32
	if big {
		size = r.H * 0.22
	}
	amount := fr.money(fr.s.Jackpot)
	if big {
		fr.centered(label, r.X+r.W/2, r.Y+8, size, colDim, true, r.W-20)
		fr.centered(amount, r.X+r.W/2, r.Y+r.H*0.36, r.H*0.5, mix(colGold, colWhite, p*0.5), true, r.W-20)
		return
	}
	lw := fr.measure(label, size, true)
	as := fr.fit(amount, r.H*0.6, r.W-lw-50, true)
	aw := fr.measure(amount, as, true)
	x := r.X + (r.W-lw-aw-14)/2
	fr.text(label, x, r.Y+(r.H-size)/2, size, colDim, true)
	fr.text(amount, x+lw+14, r.Y+(r.H-as)/2, as, mix(colGold, colWhite, p*0.5), true)
}

// shoeRect is where dealt cards come from: the shoe, top right of the felt.
var shoeRect = Rect{ScreenW - cardW - 40, 64, cardW, cardH}

// drawFlying draws the card being dealt (pace.go): from the shoe to its
// place, face up (face down for the dealer's hole card); the hole card
// turning over where it lies.
func (fr *frame) drawFlying() {
	fr.drawChipsMoving()
	r, t := fr.fly, fr.s.Round
	if r == nil || t == nil {
		return
	}
	var to Rect
	if r.Hand < 0 {
		d := t.Dealer
		n := len(d.Cards) + d.Hidden
		if !r.Turn {
			n++
		}
		rs := CardRects(dealerArea(), n, cardW, cardH, 0.62)
		to = rs[min(len(d.Cards), n-1)]
		if !r.Turn && r.Hole {
			to = rs[n-1]
		}
	} else {
		if r.Hand >= len(t.Hands) {
			return
		}
		info, _ := fr.gameInfo(t.Game)
		a := HandAreas(t.Hands, max(info.Spots, 1))[r.Hand]
		h := t.Hands[r.Hand]
		sc := cardScale(len(t.Hands))
		cw, ch := cardW*sc, cardH*sc
		rs := CardRects(Rect{a.X, a.Y, a.W, ch}, len(h.Cards)+h.Hidden+1, cw, ch, 0.5)
		to = rs[len(h.Cards)]
	}
	f := fr.flyF * fr.flyF * (3 - 2*fr.flyF) // ease in and out
	if r.Turn {
		// The hole card turns where it lies: its back narrows, its face widens.
		w := to.W * float32(math.Abs(float64(1-2*f)))
		rr := Rect{to.X + (to.W-w)/2, to.Y, max(w, 1), to.H}
		if f < 0.5 {
			fr.drawBack(rr)
		} else {
			fr.drawCard(r.Face, rr)
		}
		return
	}
	at := Rect{shoeRect.X + (to.X-shoeRect.X)*f, shoeRect.Y + (to.Y-shoeRect.Y)*f,
		shoeRect.W + (to.W-shoeRect.W)*f, shoeRect.H + (to.H-shoeRect.H)*f}
	if r.Hole {
		fr.drawBack(at)
		return
	}
	fr.drawCard(r.Face, at)
}

// callout is the settled round's call-out, as the engine settled it: an
// insurance paid (the dealer's blackjack), a blackjack on any hand, the
// dealer's blackjack, the dealer's 22 that pushes (Free Bet, Zappit), or
// every hand pushed ("" for none).
func callout(t *game.Table) string {
	for _, h := range t.Hands {
		if h.InsuranceWin > 0 {
			return "insurance"
		}
	}
	push := len(t.Hands) > 0
	for _, h := range t.Hands {
		if h.Outcome == game.Blackjack {
			return "blackjack"
		}
		push = push && h.Outcome == game.Push
	}
	switch {
	case t.Dealer.Outcome == game.Blackjack:
		return "dealer_blackjack"
	case t.Dealer.Note == "dealer22":
		return "dealer22"
	case push:
		return "push"
	}
	return ""
}

// insuranceLost reports that the dealer peeked and an insurance was lost.
func insuranceLost(t *game.Table) bool {
	for _, h := range t.Hands {
		if h.Insurance == game.Lose {
			return true
		}
	}
	return false
}

// trayPoint is where the dealer's chips come from and go to: under the
// dealer's cards.
var trayPoint = rl.Vector2{X: ScreenW / 2, Y: dealerTop + cardH + 20}

// drawChipsMoving draws the settlement's chips (pace.go): a win travels
// from the dealer's tray to its spot, a lost stake from the spot to the
// tray.
func (fr *frame) drawChipsMoving() {
	t := fr.s.Round
	if len(fr.chips) == 0 || t == nil {
		return
	}
	info, _ := fr.gameInfo(t.Game)
	areas := HandAreas(t.Hands, max(info.Spots, 1))
	f := fr.chipF * fr.chipF * (3 - 2*fr.chipF) // ease in and out
	for _, c := range fr.chips {
		if c.Hand >= len(areas) {
			continue
		}
		spot := rl.Vector2{X: areas[c.Hand].X + areas[c.Hand].W/2, Y: betCircleY}
		from, to := trayPoint, spot
		if c.Lost {
			from, to = spot, trayPoint
		}
		fr.drawStack(c.Amount, from.X+(to.X-from.X)*f, from.Y+(to.Y-from.Y)*f)
	}
}
