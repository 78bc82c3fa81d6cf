package display

import (
	"image/color"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"cabinet/internal/hw"
	"cabinet/internal/i18n"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/selftest"
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// auditPages are the audit screens in tab order.
var auditPages = [...]string{"meters", "recall", "events", "tickets", "selftest", "program"}

func (fr *frame) techBackground() {
	f := feltArea()
	rl.DrawRectangleGradientV(int32(f.X), int32(f.Y), int32(f.W), int32(f.H), color.RGBA{22, 30, 48, 255}, color.RGBA{10, 14, 24, 255})
}

// drawAudit is the technician's audit screens (audit key).
func (fr *frame) drawAudit() {
	a := fr.s.Audit
	if a == nil {
		a = &view.AuditView{Page: "meters"}
	}
	fr.techBackground()
	title := fr.tr("audit.title") + " — " + fr.tr("audit."+a.Page)
	if fr.msg() != "" {
		// A key turn refused here says why (the reset key on a handpay), in
		// the title bar in place of the key hint: the pages below stay
		// readable.
		fr.drawTopBar(title, "")
		x := 18 + fr.measure(title, 28, true) + 16
		fr.drawNoticeAt(fr.word("msg", fr.msg()), Rect{x, 4, ScreenW - x - 8, 0}, colLose)
	} else {
		fr.drawTopBar(title, fr.tr("audit.key_hint"))
	}
	// Tabs.
	for i, p := range auditPages {
		r := Rect{20 + float32(i)*200, 60, 190, 34}
		bg, fg := color.RGBA{40, 48, 66, 255}, colDim
		if p == a.Page {
			bg, fg = colGold, colInk
		}
		end := fr.inPanel("tab", r)
		box(r, 8, bg)
		fr.inRect(fr.tr("audit."+p), r, 16, fg, true)
		end()
	}
	body := Rect{20, 104, ScreenW - 40, 430}
	switch a.Page {
	case "recall":
		fr.drawRecall(a.Recall, body)
	case "events":
		fr.drawEvents(a.Events, body)
	case "tickets":
		fr.drawTickets(a.Tickets, body)
	case "selftest":
		fr.drawKVGrid(a.Checks, body, "check", true)
	case "program":
		fr.text(fr.tr("audit.digest"), body.X+20, body.Y+30, 26, colGold, true)
		if a.Version != "" {
			fr.text(a.Version, body.X+20+fr.measure(fr.tr("audit.digest"), 26, true)+24, body.Y+34, 22, colWhite, false)
		}
		d := a.Digest
		for i := 0; i < len(d); i += 32 {
			fr.text(d[i:min(i+32, len(d))], body.X+20, body.Y+90+float32(i/32)*52, 40, colWhite, true)
		}
	default:
		fr.drawKVGrid(a.Meters, body, "meter", false)
	}
	// What this page's buttons do: those lit (the controller's table).
	nav := fr.tr("audit.nav_page")
	switch a.Page {
	case "recall":
		nav = fr.tr("audit.nav")
	case "events":
		nav = fr.tr("audit.nav_events")
	}
	fr.centered(nav, ScreenW/2, 580, 18, colDim, true, 1200)
	if a.Digest != "" && a.Page != "program" {
		// under the navigation line, clear of the simulator's legend strip
		fr.centered(versionLine(a)+"SHA-256 "+a.Digest, ScreenW/2, 603, 12, colDim, false, 1240)
	}
}

// drawKVGrid lays labelled values out in two columns.
func (fr *frame) drawKVGrid(kvs []view.KV, r Rect, namespace string, checks bool) {
	row, size, cols := float32(26), float32(17), 2
	if int(r.H/row)*2 < len(kvs) {
		row, size, cols = 20, 14, 3 // every meter on one page
	}
	perCol := int(r.H / row)
	colW := (r.W - 20*float32(cols-1)) / float32(cols)
	if over := len(kvs) - perCol*cols; over > 0 {
		// Never silently: the last cell says how many lines did not fit
		// and where they are read in full.
		kvs = kvs[:perCol*cols-1]
		x := r.X + float32(cols-1)*(colW+20)
		y := r.Y + float32(perCol-1)*row
		fr.text(fr.trf("audit.more_meters", over+1), x+8, y+2, fr.fit(fr.trf("audit.more_meters", over+1), size, colW-16, false), colLose, false)
	}
	for i, kv := range kvs {
		c := i / perCol
		x := r.X + float32(c)*(colW+20)
		y := r.Y + float32(i%perCol)*row
		if i%2 == 0 {
			rl.DrawRectangleRec(rec(Rect{x, y - 2, colW, row}), fade(colWhite, 0.04))
		}
		var label, value string
		switch {
		case checks && i18n.Has(fr.lang, "check.value."+kv.Value):
			label, value = fr.word(namespace, kv.Key), fr.tr("check.value."+kv.Value)
		case namespace != "meter":
			label, value = fr.word(namespace, kv.Key), kv.Value
		default:
			label, value = fr.meterLabel(kv.Key), fr.value(kv.Value)
			if n, err := strconv.ParseInt(kv.Value, 10, 64); err == nil {
				value = i18n.Number(fr.lang, n)
			}
		}
		vw := fr.measure(value, size, true)
		fr.text(label, x+8, y+2, fr.fit(label, size, colW-vw-24, false), colWhite, false)
		vc := colGold
		if checks {
			vc = colWin
			if !strings.EqualFold(kv.Value, "ok") {
				vc = colLose
			}
		}
		fr.right(value, x+colW-8, y+2, size, vc, true)
	}
}

// meterLabel names a meter as `cabinet audit meters` prints it
// (i18n.MeterLabel).
func (fr *frame) meterLabel(name string) string {
	l, ok := i18n.MeterLabel(fr.lang, name, fr.money)
	if !ok && fr.miss != nil {
		fr.miss("meter." + name)
	}
	return l
}

// drawEvents draws the event log, newest first as given.
func (fr *frame) drawEvents(evs []view.EventLine, r Rect) {
	const row = 20 // a page of the controller's 20 events fits the body
	cols := []float32{r.X + 8, r.X + 90, r.X + 330, r.X + 560}
	for i, h := range []string{"#", fr.tr("audit.time"), fr.tr("audit.kind"), fr.tr("audit.text")} {
		fr.text(h, cols[i], r.Y, 17, colGold, true)
	}
	for i, e := range evs {
		y := r.Y + 30 + float32(i)*row
		if y > r.Y+r.H-row {
			break
		}
		if i%2 == 0 {
			rl.DrawRectangleRec(rec(Rect{r.X, y - 2, r.W, row}), fade(colWhite, 0.04))
		}
		fr.text(itoa(int64(e.Seq)), cols[0], y, 16, colDim, false)
		fr.text(e.Time, cols[1], y, 16, colWhite, false)
		fr.text(fr.word("event", e.Kind), cols[2], y, 16, colActive, true)
		txt := fr.eventText(e)
		sz := fr.fit(txt, 16, r.X+r.W-cols[3], false)
		fr.text(txt, cols[3], y, sz, colWhite, false)
	}
}

// drawTickets is the tickets page: the four ticket meters (count and
// amount) in a row, then the last tickets out and the last tickets in,
// newest first, one line each: validation number as printed, amount,
// time, status, and the reprints and reason.
func (fr *frame) drawTickets(tv *view.TicketsView, r Rect) {
	if tv == nil {
		tv = &view.TicketsView{}
	}
	const gap = 12
	w := (r.W - 3*gap) / 4
	for i, m := range tv.Meters {
		b := Rect{r.X + float32(i)*(w+gap), r.Y, w, 58}
		end := fr.inPanel("ticket meter", b)
		box(b, 8, fade(colInk, 0.6))
		label := fr.tr("tickets.meter." + m.Key)
		fr.text(label, b.X+12, b.Y+6, fr.fit(label, 16, b.W-24, false), colDim, false)
		n := i18n.Number(fr.lang, m.Count)
		fr.text(n, b.X+12, b.Y+28, 22, colWhite, true)
		amount := fr.money(m.Amount)
		fr.right(amount, b.X+b.W-12, b.Y+28, fr.fit(amount, 22, b.W-36-fr.measure(n, 22, true), true), colGold, true)
		end()
	}
	y := r.Y + 72
	y = fr.drawTicketTable(fr.tr("tickets.out"), tv.Out, "out", r, y)
	fr.drawTicketTable(fr.tr("tickets.in"), tv.In, "in", r, y+8)
}

// drawTicketTable draws one table of tickets from y under title and
// returns where it ends.
func (fr *frame) drawTicketTable(title string, ts []view.TicketLine, dir string, r Rect, y float32) float32 {
	const row = 20
	cols := []float32{r.X + 8, r.X + 230, r.X + 350, r.X + 540, r.X + 700}
	fr.text(title, cols[0], y, 18, colGold, true)
	y += 26
	if len(ts) == 0 {
		fr.text(fr.tr("tickets.none"), cols[0], y, 16, colDim, false)
		return y + row
	}
	for i, h := range []string{fr.tr("tickets.validation"), fr.tr("tickets.amount"), fr.tr("audit.time"), fr.tr("tickets.status"), fr.tr("tickets.reason")} {
		if i == 1 {
			fr.right(h, cols[2]-20, y, 15, colDim, true)
			continue
		}
		fr.text(h, cols[i], y, 15, colDim, true)
	}
	y += row + 2
	for i, t := range ts {
		if i%2 == 0 {
			rl.DrawRectangleRec(rec(Rect{r.X, y - 2, r.W, row}), fade(colWhite, 0.04))
		}
		fr.text(t.Validation, cols[0], y, 16, colWhite, false)
		amount := fr.money(t.Amount)
		if t.Amount == 0 {
			amount = "—" // a ticket in before the casino system's answer
		}
		fr.right(amount, cols[2]-20, y, 16, colGold, true)
		fr.text(t.Time, cols[2], y, 16, colWhite, false)
		sc := colWin
		switch t.Status {
		case "uncertain", "rejected", "returned":
			sc = colLose
		case "pending", "escrow", "authorised", "voided":
			sc = colActive
		}
		st := fr.tr("tickets.status." + dir + "." + t.Status)
		if t.Reprints > 0 {
			st += " · " + fr.trf("tickets.reprints", t.Reprints)
		}
		fr.text(st, cols[3], y, fr.fit(st, 16, cols[4]-cols[3]-12, true), sc, true)
		why := t.Reason
		if t.Code != "" && i18n.Has(fr.lang, "msg.ticket_in_"+t.Code) {
			why = fr.tr("msg.ticket_in_" + t.Code)
		}
		if why != "" {
			fr.text(why, cols[4], y, fr.fit(why, 16, r.X+r.W-cols[4]-8, false), colWhite, false)
		}
		y += row
	}
	return y
}

// drawRecall redraws a stored round as a table picture at the recalled step.
func (fr *frame) drawRecall(rv *view.RecallView, r Rect) {
	if rv == nil {
		fr.centered(fr.tr("audit.none"), r.X+r.W/2, r.Y+160, 28, colDim, true, 0)
		return
	}
	info := Rect{r.X, r.Y, 330, r.H}
	box(info, 12, fade(colInk, 0.6))
	y := info.Y + 12
	line := func(label, value string, c color.RGBA) {
		fr.text(label, info.X+14, y, 15, colDim, false)
		fr.right(value, info.X+info.W-14, y, 15, c, true)
		y += 26
	}
	fr.text(fr.trf("audit.round", rv.Round), info.X+14, y, 24, colGold, true)
	y += 34
	fr.text(fr.tr("game."+string(rv.Game)), info.X+14, y, 17, colWhite, true)
	y += 30
	fr.text(fr.trf("audit.of", rv.Index+1, rv.Count), info.X+14, y, 13, colDim, false)
	y += 28
	line(fr.tr("audit.start"), rv.Start, colWhite)
	line(fr.tr("audit.end"), rv.End, colWhite)
	line(fr.trf("audit.step", rv.Step+1, rv.Steps), fr.word("action", rv.Action), colActive)
	line(fr.tr("audit.before"), fr.money(rv.Before), colGold)
	line(fr.tr("audit.after"), fr.money(rv.After), colGold)
	line(fr.tr("meter.staked"), fr.money(rv.Table.Staked), colWhite)
	line(fr.tr("meter.paid"), fr.money(rv.Table.Paid), colWin)

	// The table picture, scaled into the right-hand panel, above the
	// round's shoe.
	pic := Rect{r.X + 344, r.Y, r.W - 344, r.H}
	if rv.Shoe != nil {
		const shoeH = 190
		pic.H -= shoeH + 8
		fr.drawRecallShoe(rv.Shoe, Rect{pic.X, pic.Y + pic.H + 8, pic.W, shoeH})
	}
	zoom := min(pic.W/ScreenW, pic.H/float32(meterBar().Y+meterBar().H))
	s2 := *fr.s
	t := rv.Table
	s2.Mode, s2.Under, s2.Game, s2.Round = view.Table, "", rv.Game, &t
	s2.Bets, s2.Message, s2.Recovered, s2.DuelInput = nil, "", false, nil
	s2.Credits, s2.Win, s2.Chip = rv.After, t.Paid, 0
	sub := &frame{f: fr.f, s: &s2, lang: fr.lang, t: 0, miss: fr.miss}
	cam := rl.Camera2D{Offset: v2(pic.X, pic.Y), Zoom: zoom}
	rl.BeginScissorMode(int32(pic.X), int32(pic.Y), int32(ScreenW*zoom), int32((meterBar().Y+meterBar().H)*zoom))
	rl.BeginMode2D(cam)
	sub.drawScreen(view.Table)
	rl.EndMode2D()
	rl.EndScissorMode()
	frameBox(Rect{pic.X, pic.Y, ScreenW * zoom, (meterBar().Y + meterBar().H) * zoom}, 4, 2, colGold)
}

// drawOperator is the operator menu.
func (fr *frame) drawOperator() {
	o := fr.s.Operator
	right := fr.tr("operator.effective")
	if o != nil && o.Group != "" {
		right = fr.operatorGroup(o.Group)
		if o.Pages > 1 {
			right += "  ·  " + fr.trf("operator.page", o.Page+1, o.Pages)
		}
	}
	fr.techBackground()
	if fr.msg() != "" {
		// A press refused here says why (YES while the return computes, a
		// key that does nothing on this screen), in the title bar in place
		// of the group, as the audit screens do.
		title := fr.tr("operator.title")
		fr.drawTopBar(title, "")
		x := 18 + fr.measure(title, 28, true) + 16
		fr.drawNoticeAt(fr.word("msg", fr.msg()), Rect{x, 4, ScreenW - x - 8, 0}, colLose)
	} else {
		fr.drawTopBar(fr.tr("operator.title"), right)
	}
	if o == nil {
		return
	}
	fr.drawSettings(o, operatorList)
	// The reason of a refusal, the prompt and the confirmation go below
	// the list (msg.draft_refused says so), each with the return of the
	// change and the minimum when the change has one.
	switch rtp := o.RTP; {
	case o.Error != nil:
		e := o.Error
		fr.drawNotice(fr.trf("operator.refused", fr.settingLabel(e.Setting), fr.settingValue(e.Setting, e.Value), fr.allowedOf(e.Setting)), 494, colLose)
	case rtp != nil && rtp.Refused:
		fr.drawNotice(fr.trf("operator.rtp_refused", i18n.Percent(fr.lang, rtp.RTP), i18n.Percent(fr.lang, rtp.MinRTP), i18n.Percent(fr.lang, 10000)), 494, colLose)
	case rtp != nil && rtp.Computing:
		// The figure is being computed off the input path: YES is unlit
		// until it is shown.
		fr.drawNotice(fr.trf("operator.rtp_computing", fr.tr("game."+string(rtp.Game))), 494, colDim)
	case o.Confirm && rtp != nil:
		fr.drawNotice(fr.trf("operator.confirm_rtp", i18n.Percent(fr.lang, rtp.RTP), fr.returnBound(rtp)), 494, colGold)
	case o.Confirm:
		fr.drawNotice(fr.tr("operator.confirm"), 494, colGold)
	case o.Saved != nil && rtp != nil:
		fr.drawNotice(fr.trf("operator.saved_rtp", fr.settingLabel(*o.Saved), fr.settingValue(*o.Saved, o.Saved.Value),
			i18n.Percent(fr.lang, rtp.RTP), fr.returnBound(rtp)), 494, colWin)
	case o.Saved != nil:
		fr.drawNotice(fr.trf("operator.saved", fr.settingLabel(*o.Saved), fr.settingValue(*o.Saved, o.Saved.Value)), 494, colWin)
	case rtp != nil:
		fr.drawNotice(fr.trf("operator.rtp", fr.tr("game."+string(rtp.Game)), i18n.Percent(fr.lang, rtp.RTP), fr.returnBound(rtp)), 494, colGold)
	}
	fr.centered(fr.tr("operator.hint")+"  ·  "+fr.tr("operator.next_group"), ScreenW/2, 584, 17, colDim, true, 1240)
}

// capitalized is s with its first letter in upper case.
func capitalized(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// operatorList is where the operator menu's settings go: between the title
// bar and the notice line under them.
var operatorList = Rect{20, 62, ScreenW - 40, 424}

// drawSettings draws the page of settings o shows in r: a header, then
// one row per setting, one line high or as many as its longest cell needs
// (no label, value or allowed range is cut). The rows use the page's
// height: the largest text at which every row fits (issue 35: eight small
// rows left half the screen empty). On a game's page the label leaves out
// the game, which the title bar names.
func (fr *frame) drawSettings(o *view.OperatorView, r Rect) {
	cols := []float32{r.X + 16, r.X + 400, r.X + 760}
	widths := []float32{cols[1] - cols[0] - 12, cols[2] - cols[1] - 12, r.X + r.W - cols[2] - 8}
	type cell struct {
		lines []string
		size  float32
		bold  bool
	}
	type line struct {
		cells [3]cell
		draft []string // a draft's return, under its value
		h     float32
	}
	// A draft's row says, under its value, the return the change gives
	// and the minimum (issue 35: the figure was shown only with a refusal).
	draftW := r.X + r.W - cols[1] - 8
	layout := func(size float32) ([]line, float32, float32) {
		row, more := size+12, size+2
		var ls []line
		total := float32(0)
		for i, it := range o.Items {
			v := fr.settingValue(it, it.Value)
			if it.Draft { // a draft is marked as one until it is saved
				v += "  (" + fr.tr("operator.draft") + ")"
			}
			name := fr.settingLabel(it)
			if it.Game != "" && o.Group == "games."+string(it.Game) && len(it.Label) > 1 && it.Label[0] == "game."+string(it.Game) {
				short := it
				short.Label = it.Label[1:]
				name = capitalized(fr.settingLabel(short)) // "offered" → "Offered"
			}
			l := line{cells: [3]cell{{nil, size, i == o.Cursor}, {nil, size, true}, {nil, size - 2, false}}}
			n := 1
			for k, s := range []string{name, v, fr.allowedOf(it)} {
				l.cells[k].lines = fr.wrap(s, l.cells[k].size, widths[k], l.cells[k].bold)
				n = max(n, len(l.cells[k].lines))
			}
			if it.Draft && o.RTP != nil {
				l.draft = fr.wrap(fr.returnRow(o.RTP), size-2, draftW, true)
			}
			l.h = row + float32(n-1+len(l.draft))*more
			total += l.h
			ls = append(ls, l)
		}
		return ls, total, more
	}
	const head = 30
	avail := r.H - head
	var lines []line
	var more float32
	size := float32(24)
	for ; ; size-- {
		var total float32
		lines, total, more = layout(size)
		if total <= avail || size <= 16 {
			break
		}
	}
	for i, h := range []string{fr.tr("operator.setting"), fr.tr("operator.value"), fr.tr("operator.allowed")} {
		fr.text(h, cols[i], r.Y, size, colGold, true)
	}
	// Should the rows still not fit, those the cursor needs show, and the
	// others are reported cut (TestTextFits walks every page).
	first, used := o.Cursor, float32(0)
	for first >= 0 && first < len(lines) && used+lines[first].h <= avail {
		used += lines[first].h
		first--
	}
	first = max(first+1, 0)
	for i := 0; i < first; i++ {
		fr.cutOff(o.Items[i].Key)
	}
	y := r.Y + head
	for i := first; i < len(lines); i++ {
		l := lines[i]
		if y+l.h > r.Y+head+avail {
			fr.cutOff(o.Items[i].Key)
			continue
		}
		if i == o.Cursor {
			box(Rect{r.X, y - 4, r.W, l.h}, 6, fade(colActive, 0.85))
		} else if i%2 == 0 {
			rl.DrawRectangleRec(rec(Rect{r.X, y - 4, r.W, l.h}), fade(colWhite, 0.04))
		}
		ink, val := colWhite, colGold
		if i == o.Cursor {
			ink, val = colInk, colInk
		} else if o.Items[i].Draft {
			val = colLose
		}
		inks := [3]color.RGBA{ink, val, mix(ink, colDim, 0.4)}
		n := 1
		for k, c := range l.cells {
			ly := y
			if k == 2 {
				ly += 2
			}
			for _, t := range c.lines {
				fr.text(t, cols[k], ly, c.size, inks[k], c.bold)
				ly += more
			}
			n = max(n, len(c.lines))
		}
		for j, t := range l.draft {
			fr.text(t, cols[1], y+float32(n+j)*more+2, size-2, inks[1], true)
		}
		y += l.h
	}
}

// returnRow is a draft row's line: the return the change gives and the
// minimum, or that it is being computed.
func (fr *frame) returnRow(r *view.OperatorRTP) string {
	if r.Computing {
		return fr.tr("operator.rtp_row_computing")
	}
	return fr.trf("operator.rtp_row", i18n.Percent(fr.lang, r.RTP), fr.returnBound(r))
}

// returnBound is the bound a return is checked against: the minimum
// (min_rtp), or below 100 % without one.
func (fr *frame) returnBound(r *view.OperatorRTP) string {
	if r.MinRTP > 0 {
		return fr.trf("operator.rtp_min", i18n.Percent(fr.lang, r.MinRTP))
	}
	return fr.trf("operator.rtp_below", i18n.Percent(fr.lang, 10000))
}

// operatorGroup names a group of the operator menu ("cabinet", "bills",
// "jackpot", "games.<id>").
func (fr *frame) operatorGroup(g string) string {
	if id, ok := strings.CutPrefix(g, "games."); ok {
		return fr.trf("operator.group.game", fr.tr("game."+id))
	}
	return fr.tr("operator.group." + g)
}

// allowedOf says which values a setting takes, from its typed choices (in
// the cabinet's language: yes/no, amounts, words; first … last when there
// are many), its unit and its note.
//
// The range is the one the configuration accepts (it.Min, it.Max: the
// bounds its validation checks), never the first and last steps of BET+,
// which may stop short of it (issue 35); a few whole numbers that are the
// whole range are listed.
func (fr *frame) allowedOf(it view.Setting) string {
	var out string
	switch n := len(it.Choices); {
	case it.Min != "" && it.Max != "" && !listsRange(it):
		out = fr.settingValue(it, it.Min) + " … " + fr.settingValue(it, it.Max)
	case it.Min != "" && it.Max == "":
		out = fr.trf("operator.at_least", fr.settingValue(it, it.Min))
	case n == 0:
	case n > 4:
		out = fr.settingValue(it, it.Choices[0]) + " … " + fr.settingValue(it, it.Choices[n-1])
	default:
		vs := make([]string, n)
		for i, c := range it.Choices {
			vs[i] = fr.settingValue(it, c)
		}
		out = strings.Join(vs, " · ")
	}
	if it.Note != "" {
		if out != "" {
			out += " — "
		}
		out += fr.tr(it.Note)
	}
	return out
}

// listsRange reports whether it's choices are every whole number of its
// range, few enough to list (1 · 2 · 3).
func listsRange(it view.Setting) bool {
	lo, err1 := strconv.Atoi(it.Min)
	hi, err2 := strconv.Atoi(it.Max)
	n := len(it.Choices)
	return err1 == nil && err2 == nil && n <= 4 && hi-lo+1 == n && it.Choices[0] == it.Min && it.Choices[n-1] == it.Max
}

// settingLabel names an operator setting from its label keys.
func (fr *frame) settingLabel(it view.Setting) string {
	return fr.label(it.Label, it.LabelMoney)
}

// label joins translated message keys with " — "; a non-zero amount fills
// the last one's %s.
func (fr *frame) label(keys []string, m money.Cents) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		if i == len(keys)-1 && m != 0 {
			parts[i] = fr.trf(k, fr.money(m))
			continue
		}
		parts[i] = fr.tr(k)
	}
	return strings.Join(parts, " — ")
}

// settingValue shows a value of setting it by its kind.
func (fr *frame) settingValue(it view.Setting, v string) string {
	switch it.Kind {
	case view.KindPercent:
		return fr.percentText(v)
	case view.KindSwitch, view.KindWord:
		return fr.tr("val." + v)
	case view.KindMoney:
		if c, err := money.Parse(v); err == nil {
			return fr.money(c)
		}
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && it.Kind == view.KindCount {
		v = i18n.Number(fr.lang, n) // 10 000 ms, 10,000 rounds
	}
	if it.Unit != "" {
		return v + " " + fr.tr("unit."+it.Unit)
	}
	return v
}

// percentText shows a decimal percentage in the locale's form.
func (fr *frame) percentText(v string) string {
	if fr.lang != i18n.EN {
		return strings.Replace(v, ".", ",", 1) + " %"
	}
	return v + "%"
}

// drawHwTest is the hardware self-test screen.
func (fr *frame) drawHwTest() {
	h := fr.s.HwTest
	fr.techBackground()
	fr.drawTopBar(fr.tr("hwtest.title"), "")
	if h == nil {
		h = &view.HwTestView{}
	}
	lamp := ""
	if h.Lamp != "" {
		lamp = selftest.LampLabel(fr.lang, h.Lamp)
	}
	fr.text(fr.trf("hwtest.lamp", lamp), 30, 70, 22, colGold, true)
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		x := 70 + float32(b%8)*150
		y := 140 + float32(b/8)*90
		on := h.Lamp == b.String()
		c := colUnlit
		if on {
			c = colLit
			rl.DrawCircleV(v2(x, y), 34, fade(colLit, 0.3))
		}
		rl.DrawCircleV(v2(x, y), 26, c)
		rl.DrawCircleLinesV(v2(x, y), 26, colDim)
		fr.centered(fr.tr("btn."+b.String()), x, y+32, 14, colWhite, true, 140)
	}
	col := func(title string, items []view.TestLine, x float32) {
		fr.text(title, x, 330, 18, colGold, true)
		for i, it := range items {
			if i >= 8 {
				break
			}
			fr.text(selftest.LineText(fr.lang, fr.s.Currency, it), x, 360+float32(i)*22, 16, colWhite, false)
		}
	}
	col(fr.tr("hwtest.inputs"), h.Inputs, 40)
	col(fr.tr("hwtest.bills"), h.Bills, 680)
	fr.centered(fr.tr("hwtest.hint"), ScreenW/2, 584, 17, colDim, true, 1200)
}

// drawTilt covers the whole frozen screen and says what is wrong.
func (fr *frame) drawTilt() {
	rl.DrawRectangle(0, 0, ScreenW, ScreenH, colTilt)
	fr.overlay()
	r := tiltRect
	defer fr.within(r)()
	box(r, 24, color.RGBA{30, 0, 0, 245})
	frameBox(r, 24, 4, mix(colLose, colWhite, fr.pulse(1)*0.5))
	fr.centered("⚠ "+fr.tr("tilt.title"), ScreenW/2, r.Y+26, 48, colWhite, true, r.W-40)
	y := r.Y + 110
	for _, k := range fr.s.Tilts {
		fr.centered(fr.word("tilt", k), ScreenW/2, y, 28, colActive, true, r.W-40)
		y += 42
	}
	fr.centered(fr.tr("tilt.call"), ScreenW/2, r.Y+r.H-90, 24, colWhite, true, r.W-40)
	if t := fr.s.Round; t != nil && !t.Done {
		fr.centered(fr.tr("tilt.frozen"), ScreenW/2, r.Y+r.H-50, 18, colDim, false, r.W-40)
	}
	fr.overlayMessage(r, r.Y+r.H-150)
}

// overlayMessage draws the transient message (a refused bill, key, button)
// inside an overlay at y: the screen below is dimmed, so its own notice is
// not readable there.
func (fr *frame) overlayMessage(box Rect, y float32) {
	if fr.msg() != "" {
		fr.drawNoticeAt(fr.word("msg", fr.msg()), Rect{box.X + 10, y, box.W - 20, 0}, colLose)
	}
}

// The tilt and handpay boxes.
var (
	tiltRect    = Rect{240, 150, 800, 380}
	handpayRect = Rect{220, 160, 840, 360}
)

// drawHandpay is the handpay lock.
func (fr *frame) drawHandpay() {
	rl.DrawRectangle(0, 0, ScreenW, ScreenH, color.RGBA{0, 0, 0, 190})
	fr.overlay()
	r := handpayRect
	defer fr.within(r)()
	box(r, 24, color.RGBA{40, 28, 0, 250})
	frameBox(r, 24, 5, mix(colGoldDark, colGold, fr.pulse(1)))
	fr.centered(fr.tr("handpay.title"), ScreenW/2, r.Y+34, 52, colGold, true, r.W-40)
	key := "handpay.cashout"
	if fr.s.HandpayKind == "jackpot" {
		key = "handpay.jackpot"
	}
	fr.centered(fr.trf(key, fr.money(fr.s.Handpay)), ScreenW/2, r.Y+150, 44, colWhite, true, r.W-40)
	fr.centered(fr.tr("handpay.hint"), ScreenW/2, r.Y+r.H-70, 22, colDim, false, r.W-40)
	fr.overlayMessage(r, r.Y+r.H-130)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// eventText is an event's details in the cabinet's language, from the typed
// detail and its arguments. An event without them (a configuration change,
// the store's own proof and clear records, events written by an older
// program) shows its stored English record, which is what the command line
// exports too.
func (fr *frame) eventText(e view.EventLine) string {
	if e.Detail == "" {
		return e.Text
	}
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = fr.eventArg(a)
	}
	if e.Detail == "tilt" || e.Detail == "jam_cleared_still_tilted" {
		// every argument is a reason, joined into the message's one verb
		return fr.trf("detail."+e.Detail, strings.Join(args, ", "))
	}
	anys := make([]any, len(args))
	for i, a := range args {
		anys[i] = a
	}
	return fr.trf("detail."+e.Detail, anys...)
}

// eventArg formats one typed argument: money in the locale's format, a
// switch by its name, a message key translated, a count as is.
func (fr *frame) eventArg(a view.EventArg) string {
	switch a.Type {
	case meters.ArgMoney:
		if c, err := money.Parse(a.Value); err == nil {
			return fr.money(c)
		}
	case meters.ArgSwitch:
		return fr.tr("sw." + a.Value)
	case meters.ArgKey:
		return fr.tr(a.Value)
	case meters.ArgPercent:
		return fr.percentText(a.Value)
	case meters.ArgLabel:
		list, amount, _ := strings.Cut(a.Value, ":")
		var m money.Cents
		if amount != "" {
			m, _ = money.Parse(amount)
		}
		return fr.label(strings.Split(list, "|"), m)
	}
	return a.Value
}

// versionLine is the program's version followed by a separator, or nothing
// when the build has none.
func versionLine(a *view.AuditView) string {
	if a.Version == "" {
		return ""
	}
	return a.Version + "  ·  "
}
