package controller

import (
	"slices"
	"testing"

	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/i18n"
	"cabinet/internal/settings"
	"cabinet/internal/view"
)

// Issue 26's tour, the findings that live in the controller.

// TestMenuSpotFollowsHighlight: after a restart that resumed a round of the
// fourth game, SPOT on the menu goes to the fifth (the highlight's next),
// not to the second (an index the restart had reset).
func TestMenuSpotFollowsHighlight(t *testing.T) {
	r := newRig(t, 3)
	set := testSettings()
	r.bill(2000)
	for r.c.Snapshot().Game != game.Classic {
		r.mustPress(hw.Spot)
	}
	r.mustPress(hw.Deal)
	r.mustPress(hw.BetPlus)
	r.mustPress(hw.Deal)
	if r.c.led.cur().open == nil {
		t.Skip("the deal settled at once: no round to resume")
	}
	r.boot()
	for r.c.led.cur().open != nil {
		r.mustPress(hw.Stand)
	}
	r.mustPress(hw.Game)
	if s := r.c.Snapshot(); s.Mode != view.Menu || s.Game != game.Classic {
		t.Fatalf("menu after the resumed round: mode %s, highlight %s; want menu on classic", s.Mode, s.Game)
	}
	r.mustPress(hw.Spot)
	if got, want := r.c.Snapshot().Game, set.Games[4]; got != want {
		t.Errorf("SPOT from classic (4th) highlights %s, want %s", got, want)
	}
	r.mustPress(hw.Deal)
	if s := r.c.Snapshot(); s.Mode != view.Table || s.Game != set.Games[4] {
		t.Errorf("DEAL from the menu: mode %s at %s, want the table of %s", s.Mode, s.Game, set.Games[4])
	}
}

// toDuel walks from the menu to the Poker Duel table and buys a session.
func toDuel(r *rig) {
	r.t.Helper()
	r.bill(5000)
	for r.c.Snapshot().Game != game.Duel {
		r.mustPress(hw.Spot)
	}
	r.mustPress(hw.Deal) // to the table
	r.mustPress(hw.Deal) // buy a session
	if r.c.Snapshot().Game != game.Duel || !duelSessionOpen(r.c.led.cur()) {
		r.t.Fatalf("no Poker Duel session after buying one (mode %s)", r.c.Snapshot().Mode)
	}
}

// TestDuelBeforeFirstDeal: a session bought, no card dealt yet: no "Deal
// over", and the card cursor and mark (SPOT, SPECIAL) are unlit and say why.
func TestDuelBeforeFirstDeal(t *testing.T) {
	r := newRig(t, 3)
	toDuel(r)
	s := r.c.Snapshot()
	if d := duelPicture(s.Round); d == nil || d.Phase == "duel."+string(duel.PhaseOver) {
		t.Errorf("before the first deal the table says phase %q, want none", d.Phase)
	}
	for _, b := range []hw.Button{hw.Spot, hw.Special} {
		if s.Lamps.Has(b) {
			t.Errorf("%s lit before the first deal (no card to move to or mark)", b)
		}
		if err := r.press(b); err == nil || r.c.Snapshot().Message != NoticeDuelNoCards {
			t.Errorf("press %s: %v, message %q; want refused with %q", b, err, r.c.Snapshot().Message, NoticeDuelNoCards)
		}
	}
	if !s.Lamps.Has(hw.Deal) {
		t.Errorf("DEAL unlit with a session bought: lamps %v", s.Lamps)
	}
}

// TestDuelSessionSurvivesAuditAndRestart: with a session open between two
// deals, a restart (with the audit key turned on and off after it) lands on
// the duel table, not the menu.
func TestDuelSessionSurvivesAuditAndRestart(t *testing.T) {
	r := newRig(t, 3)
	toDuel(r)
	r.boot()
	r.set(hw.AuditKey, true)
	r.set(hw.AuditKey, false)
	if s := r.c.Snapshot(); s.Mode != view.Table || s.Game != game.Duel {
		t.Errorf("after a restart and the audit: mode %s at %s, want the duel table", s.Mode, s.Game)
	}
	r.mustPress(hw.Help)
	r.mustPress(hw.Help)
	if s := r.c.Snapshot(); s.Mode != view.Table || s.Game != game.Duel {
		t.Errorf("back from help: mode %s at %s, want the duel table", s.Mode, s.Game)
	}
}

// TestEveryRefusalSaysWhy presses every button on every screen a player or
// an attendant meets — attract, menu, help, the betting table, a round
// after a hit, a tilt, a handpay, the audit and the operator screens — and
// finds every refused press named by a notice that is not "not now" and
// that has words in both languages (issue 26: no bare "Not now").
func TestEveryRefusalSaysWhy(t *testing.T) {
	r := newRig(t, 6) // seed 6: the classic hand takes a third card and plays on
	seen := map[string]bool{}
	sweep := func(where string, skip ...hw.Button) {
		t.Helper()
		lit := r.c.Snapshot().Lamps
		for b := range hw.NumButtons {
			if lit.Has(b) || slices.Contains(skip, b) {
				continue
			}
			if err := r.press(b); err == nil {
				t.Errorf("%s: unlit %s accepted", where, b)
				continue
			}
			m := r.c.Snapshot().Message
			if m == "" || m == NoticeStepFailed {
				t.Errorf("%s: %s refused with notice %q, want a reason", where, b, m)
			}
			seen[m] = true
		}
	}
	sweep("attract")
	r.bill(5000)
	sweep("menu")
	r.mustPress(hw.Help)
	sweep("help")
	r.mustPress(hw.Help)
	for r.c.Snapshot().Game != game.Classic {
		r.mustPress(hw.Spot)
	}
	r.mustPress(hw.Deal)
	sweep("betting table")
	r.mustPress(hw.BetPlus)
	r.mustPress(hw.Deal)
	for r.c.led.cur().open != nil && !r.c.Snapshot().Lamps.Has(hw.Hit) {
		r.mustPress(hw.No) // the insurance question
	}
	if r.c.led.cur().open == nil {
		t.Fatal("seed 6: the classic round settled at the deal; the test needs a hit")
	}
	r.mustPress(hw.Hit)
	if r.c.led.cur().open != nil && len(r.c.led.cur().round.Table().Hands[0].Cards) == 3 {
		if err := r.press(hw.Double); err == nil || r.c.Snapshot().Message != NoticeDoubleTwoCards {
			t.Errorf("DOUBLE on three cards: %v, notice %q, want %q", err, r.c.Snapshot().Message, NoticeDoubleTwoCards)
		}
		sweep("round after a hit")
	}
	for r.c.led.cur().open != nil {
		r.mustPress(hw.Stand)
	}
	r.set(hw.MainDoor, true)
	if err := r.press(hw.Deal); err == nil || r.c.Snapshot().Message != NoticeTiltPrefix+"main_door" {
		t.Errorf("DEAL during the main door tilt: %v, notice %q, want %q", err, r.c.Snapshot().Message, NoticeTiltPrefix+"main_door")
	}
	sweep("tilt")
	r.set(hw.MainDoor, false)
	r.set(hw.AuditKey, true)
	sweep("audit")
	r.set(hw.AuditKey, false)
	r.mustPress(hw.Game)
	if err := r.press(hw.Hit); err == nil || r.c.Snapshot().Message != NoticeMenuKey {
		t.Errorf("HIT in the menu: %v, notice %q, want %q", err, r.c.Snapshot().Message, NoticeMenuKey)
	}
	r.mustPress(hw.CashOut) // above the handpay limit? then a handpay
	if r.c.Snapshot().Mode == view.Handpay {
		sweep("handpay")
	}
	for _, n := range []string{NoticeDoubleTwoCards, NoticeTiltPrefix + "main_door", NoticeMenuKey, NoticeAttractKey, NoticeHelpKey, NoticeNoRound, NoticeAuditKey} {
		if !seen[n] {
			t.Errorf("notice %q never seen: a screen was not swept (seed?)", n)
		}
	}
	for n := range seen {
		for _, lang := range []string{"en", "fr"} {
			if _, ok := i18n.Lookup(lang, "msg", n); !ok {
				t.Errorf("notice %q has no words in %s", n, lang)
			}
		}
	}
}

// TestWinStaysAtItsTable: the win of the last round is on its table's
// meter, not on the menu's, help's or another game's table (issue 26).
func TestWinStaysAtItsTable(t *testing.T) {
	r := newRig(t, 3)
	for r.c.led.cur().win == 0 || r.c.led.cur().open != nil || r.c.led.cur().m.Handpay > 0 {
		if err := r.c.Handle(Input{Auto: &AutoStep{Game: game.Classic}}); err != nil {
			t.Fatal(err)
		}
		if r.c.Completed() > 200 {
			t.Fatal("no win in 200 rounds")
		}
	}
	won := r.c.led.cur().win
	if s := r.c.Snapshot(); s.Mode != view.Table || s.Win != won {
		t.Fatalf("at the table after a win: mode %s, win %v; want %v", s.Mode, s.Win, won)
	}
	r.mustPress(hw.Help)
	if s := r.c.Snapshot(); s.Win != 0 {
		t.Errorf("help shows win %v, want none", s.Win)
	}
	r.mustPress(hw.Help)
	r.mustPress(hw.Game)
	if s := r.c.Snapshot(); s.Mode != view.Menu || s.Win != 0 {
		t.Errorf("menu: mode %s, win %v; want the menu without a win", s.Mode, s.Win)
	}
	for r.c.Snapshot().Game == game.Classic {
		r.mustPress(hw.Spot)
	}
	r.mustPress(hw.Deal)
	if s := r.c.Snapshot(); s.Win != 0 {
		t.Errorf("%s's table shows classic's win %v", s.Game, s.Win)
	}
}

// TestOperatorSpotPages: SPOT shows a group's next page before the next
// group (issue 26: Free Bet's group said "Page 1 of 3" and SPOT skipped
// pages 2 and 3).
func TestOperatorSpotPages(t *testing.T) {
	cfg, err := config.Load("../../configs/cabinet.toml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := inForceFrom(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, 5)
	r.c, _ = testCabinet(t, Options{Store: r.st, HW: sim.New(), InForce: set, Settings: settings.New(cfg, nil), Operator: cfg}, kitStore{})
	r.set(hw.OperatorKey, true)
	op := func() *view.OperatorView { return r.c.Snapshot().Operator }
	paged := false
	for range 40 {
		o := op()
		if o.Pages > 1 && o.Page+1 < o.Pages {
			group, page := o.Group, o.Page
			r.mustPress(hw.Spot)
			if n := op(); n.Group != group || n.Page != page+1 || n.Cursor != 0 {
				t.Errorf("SPOT on page %d of %d of %s: group %s page %d cursor %d; want the next page's first setting",
					page+1, o.Pages, group, n.Group, n.Page+1, n.Cursor)
			}
			paged = true
			continue
		}
		r.mustPress(hw.Spot)
		if o := op(); o.Group == "cabinet" && o.Page == 0 {
			break
		}
	}
	if !paged {
		t.Fatal("no group of the shipped configuration has two pages: nothing tested")
	}
}
