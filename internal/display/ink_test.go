package display

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/i18n"
	"cabinet/internal/scenario"
	"cabinet/internal/view"
)

// TestTextFits draws every screen of every game in both languages and
// measures every string with the real font: each must lie inside the box it
// is drawn in (a notice, a button, a badge, a help column, the screen), run
// into no other string, panel, card or chip, and nothing may be shortened
// with an ellipsis or left off a page. The screens are the scenario library
// and a walk through a real controller (the shipped configuration, a bbolt
// store in a temp dir): every help page of every game, rounds of every game
// autoplayed step by step (splits, zapped hands, the duel's draw and
// showdown), the audit pages, every setting of the operator menu, and a
// cabinet with a ticket printer (ticketShots).
func TestTextFits(t *testing.T) {
	o := offscreen(t)
	shots := textFitScreens(t)
	games := map[game.ID]bool{}
	for _, s := range shots {
		if s.snap.Mode == view.Table || s.snap.Mode == view.Help {
			games[s.snap.Game] = true
		}
	}
	if len(games) < 5 {
		t.Fatalf("tables and help seen for %v, want all five games", games)
	}
	failed := 0
	for _, sh := range shots {
		for _, lang := range []string{"fr", "en"} {
			for _, legend := range []bool{false, true} {
				s := *sh.snap
				s.Lang = lang
				l, err := o.inkOf(&s, legend)
				if err != nil {
					t.Fatal(err)
				}
				if len(l.texts) == 0 && s.Mode != view.Boot {
					t.Errorf("%s (%s): no text recorded", sh.name, lang)
				}
				if probs := inkProblems(l); len(probs) > 0 {
					failed++
					if failed <= 40 {
						t.Errorf("%s (%s, legend %v): %d problems:%s", sh.name, lang, legend, len(probs), list(probs, 8))
					}
				}
			}
		}
	}
	if failed > 40 {
		t.Errorf("… and %d more screens", failed-40)
	}
	t.Logf("%d screens × 2 languages × with and without the key legend", len(shots))
}

func list(ps []string, n int) string {
	out := ""
	for i, p := range ps {
		if i == n {
			return out + fmt.Sprintf("\n\t… %d more", len(ps)-n)
		}
		out += "\n\t" + p
	}
	return out
}

type namedShot struct {
	name string
	snap *view.Snapshot
}

// textFitScreens is every screen TestTextFits measures.
func textFitScreens(t *testing.T) []namedShot {
	var shots []namedShot
	// The longest refusal, in French (the longer language), for the
	// screens' message slots.
	long := ""
	for _, k := range []string{controller.NoticeMinBet, controller.NoticeMaxBet, controller.NoticeFunds,
		controller.NoticeSideNeedsMain, controller.NoticeRoyalNeedsBoth, controller.NoticeNoBet,
		controller.NoticeCreditLimit, controller.NoticeBillInhibited, controller.NoticeBillJammed,
		controller.NoticeBillRefused, controller.NoticeBillError, controller.NoticeOperatorRound,
		controller.NoticeResetInAudit, controller.NoticeStepFailed, controller.NoticeHostLocked, controller.NoticeHostGameOff,
		controller.NoticeResultShown, controller.NoticeDealAgain, controller.NoticeDealBets} {
		if len(i18n.T("fr", "msg."+k)) > len(i18n.T("fr", "msg."+long)) {
			long = k
		}
	}
	// The tickets' notices (cash-out, printer, ticket in) are refusals too.
	for _, key := range i18n.Keys("fr") {
		k, ok := strings.CutPrefix(key, "msg.")
		if ok && (strings.HasPrefix(k, "tito_") || strings.HasPrefix(k, "ticket_in_") || strings.HasPrefix(k, "printer_")) &&
			len(i18n.T("fr", key)) > len(i18n.T("fr", "msg."+long)) {
			long = k
		}
	}
	for _, name := range scenario.Screens() {
		s := screen(t, name)
		shots = append(shots, namedShot{name, s})
		if s.Mode == view.Boot || s.Mode == view.HwTest {
			continue
		}
		if s.Message == "" {
			// Every screen's place for a refusal holds the longest one.
			m := *s
			m.Message = long
			shots = append(shots, namedShot{name + " refused", &m})
		}
		if s.Mode == view.Table && !s.Recovered && s.Round != nil && !s.Round.Done && len(s.Bets) == 0 {
			// A round resumed after a power cut says so, clear of everything.
			r := *s
			r.Recovered = true
			shots = append(shots, namedShot{name + " recovered", &r})
		}
	}
	c, cfg, set := realController(t)
	snap := func(name string) {
		s := *c.Snapshot()
		shots = append(shots, namedShot{name, &s})
	}
	handle := func(in hw.Input) {
		t.Helper()
		if err := c.Handle(controller.HW(in)); err != nil {
			t.Fatalf("%v: %v (mode %s)", in, err, c.Snapshot().Mode)
		}
	}
	press := func(b hw.Button) { t.Helper(); handle(hw.Input{Kind: hw.ButtonPressed, Button: b}) }
	// Rounds of every game, every committed step.
	for _, id := range set.Games {
		start := c.Completed()
		for i := 0; c.Completed() < start+8; i++ {
			if i > 400 {
				t.Fatalf("%s: 8 rounds not played in 400 steps", id)
			}
			if err := c.Handle(controller.Input{Auto: &controller.AutoStep{Game: id}}); err != nil {
				t.Fatal(err)
			}
			if s := c.Snapshot(); s.Mode == view.Table {
				snap(fmt.Sprintf("real %s step %d", id, i))
			}
		}
	}
	// A hand's note beside its widest total: a zapped or split hand on a
	// soft 17 ("17 souple" beside "Zappée" was clipped, issue 26).
	for _, sh := range shots {
		if sh.snap.Round == nil || !strings.HasPrefix(sh.name, "real") {
			continue
		}
		for i, h := range sh.snap.Round.Hands {
			if h.Note == "" || h.Total < 0 {
				continue
			}
			s := *sh.snap
			t := *s.Round
			t.Hands = slices.Clone(t.Hands)
			t.Hands[i].Total, t.Hands[i].Soft, t.Hands[i].Outcome = 17, true, ""
			s.Round = &t
			shots = append(shots, namedShot{sh.name + " soft 17 " + h.Note, &s})
			break
		}
	}
	// Every help page of every game (the display pages at most 4 times), from the menu.
	// (SPOT on the menu may start from another game than the one shown
	// after autoplay: go round until every game's help is seen.)
	press(hw.Game)
	helped := map[game.ID]bool{}
	for i := 0; i < 2*len(set.Games) && len(helped) < len(set.Games); i++ {
		press(hw.Help)
		if id := c.Snapshot().Help.Game; !helped[id] {
			helped[id] = true
			for p := range 4 {
				snap(fmt.Sprintf("real help %s page %d", id, p))
				press(hw.Spot)
			}
		}
		press(hw.Game)
		press(hw.Spot)
	}
	if len(helped) < len(set.Games) {
		t.Fatalf("help seen for %v, want every game of %v", helped, set.Games)
	}
	// The audit pages.
	handle(hw.Input{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: true})
	for p := range auditPages {
		snap("real audit " + auditPages[p])
		press(hw.Spot)
	}
	handle(hw.Input{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: false})
	// Every setting of the operator menu under the cursor.
	handle(hw.Input{Kind: hw.SwitchChanged, Switch: hw.OperatorKey, On: true})
	for i := range len(cfg.Items(nil)) {
		snap(fmt.Sprintf("real operator setting %d", i))
		press(hw.Stand)
	}
	// A draft whose return is being computed off the input path (the
	// live window's state; headless computes at once): its return row.
	{
		s := *c.Snapshot()
		op := *s.Operator
		op.RTP = &view.OperatorRTP{Game: game.Classic, Computing: true}
		s.Operator = &op
		shots = append(shots, namedShot{"real operator return computing", &s})
	}
	// Any Pair turned off: its limits say they apply again once it is
	// offered, and its switch what turning it on restores (issue 26).
	for i := 0; ; i++ {
		op := c.Snapshot().Operator
		if op.Items[op.Cursor].Key == "games.freebet.anypair.offered" {
			break
		}
		if i > len(cfg.Items(nil)) {
			t.Fatal("no games.freebet.anypair.offered in the operator menu")
		}
		press(hw.Stand)
	}
	press(hw.BetPlus)
	press(hw.Yes)
	press(hw.Yes)
	snap("real operator anypair off")
	press(hw.Stand)
	if op := c.Snapshot().Operator; op.Items[op.Cursor].Note != "note.side_off_limit" {
		t.Fatalf("Any Pair's minimum while off: %+v, want noted as kept", op.Items[op.Cursor])
	}
	snap("real operator anypair off, its minimum")
	// A cabinet with a ticket printer: the tickets page full, the
	// printer's notices and handpay reasons.
	shots = append(shots, ticketShots(t)...)
	return shots
}

// inkProblems lists what l says is wrong: a string outside its box or the
// screen, a string over another or over a panel or object it is not part
// of, two panels over each other, content shortened or left out.
func inkProblems(l *inkLog) []string {
	var out []string
	screen := Rect{0, 0, ScreenW, ScreenH}
	for _, c := range l.cut {
		out = append(out, fmt.Sprintf("shortened or left out: %q", c))
	}
	for _, x := range l.texts {
		switch {
		case !x.ink.Within(grow(screen, 0.5)):
			out = append(out, fmt.Sprintf("%q at %v leaves the screen", x.s, x.ink))
		case !x.ink.Within(grow(x.box, 1)):
			out = append(out, fmt.Sprintf("%q at %v overflows its box %v", x.s, x.ink, x.box))
		}
	}
	for _, p := range l.panels {
		if !p.object && !p.r.Within(grow(p.box, 1)) {
			out = append(out, fmt.Sprintf("%s at %v leaves its box %v", p.name, p.r, p.box))
		}
	}
	// inside reports whether panel index+1 = id lies in panel q's chain.
	inside := func(id, q int) bool {
		for id > 0 {
			if id == q {
				return true
			}
			id = l.panels[id-1].parent
		}
		return false
	}
	for i, a := range l.texts {
		for _, b := range l.texts[i+1:] {
			if a.layer != b.layer || !overlap(a.ink, b.ink) {
				continue
			}
			if a.s == b.s && abs32(a.ink.X-b.ink.X) <= 4 && abs32(a.ink.Y-b.ink.Y) <= 4 {
				continue // a shadow
			}
			out = append(out, fmt.Sprintf("%q at %v over %q at %v", a.s, a.ink, b.s, b.ink))
		}
		for j, p := range l.panels {
			if a.layer != p.layer || inside(a.panel, j+1) || !overlap(a.ink, p.r) {
				continue
			}
			out = append(out, fmt.Sprintf("%q at %v runs into %s at %v", a.s, a.ink, p.name, p.r))
		}
	}
	for i, a := range l.panels {
		for j := i + 1; j < len(l.panels); j++ {
			b := l.panels[j]
			if a.layer != b.layer || a.object && b.object || inside(j+1, i+1) || inside(i+1, j+1) || !overlap(a.r, b.r) {
				continue
			}
			out = append(out, fmt.Sprintf("%s at %v over %s at %v", a.name, a.r, b.name, b.r))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// overlap reports whether a and b share more than a one-pixel edge.
func overlap(a, b Rect) bool { return a.Inset(1).Overlaps(b.Inset(1)) }

func grow(r Rect, d float32) Rect { return r.Inset(-d) }

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
