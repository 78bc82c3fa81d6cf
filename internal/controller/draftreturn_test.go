package controller

import (
	"errors"
	"testing"

	"cabinet/internal/analysis/rtp"
	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/settings"
	"cabinet/internal/view"
)

// liveReturnsRig is returnsRig with a display (Options.Display): the
// cabinet as cmd/cabinet runs it in a window, where a draft's return is

// classicOneDeck is a configuration of Classic alone, one deck, dealer
// hits soft 17, European dealing: a return that operator changes move
// across 100 % (the tests of the live return and the guard).
var classicOneDeck = []byte("[cabinet]\ncurrency = \"EUR\"\n[games]\nenabled = [\"classic\"]\n[games.classic]\ndecks = 1\nhit_soft17 = true\ndealing = \"european\"\n")

// computed off the input path.
func liveReturnsRig(t testing.TB, cfg *config.Config) *rig {
	t.Helper()
	set, err := inForceFrom(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, 5)
	r.st.Close()
	r.c, r.st = testCabinet(t, Options{HW: r.be, RNG: SeededRNG{Seed: 5}, InForce: set,
		Settings: settings.New(cfg, rtp.NewGuard()), Operator: cfg, Display: NewPresentation()}, kitStore{path: r.path})
	return r
}

// computed waits for the next draft return the controller's worker
// reports (what Run hands to Handle), without handing it over.
func computed(r *rig) DraftReturn {
	<-r.c.scr.returns.ready
	return r.c.scr.returns.take()
}

// TestOperatorReturnOffInputPath (issue 26: the operator screen froze
// while the return of a draft was computed, and keys pressed meanwhile
// acted on a screen that did not show them): with a display, BET+ shows
// the draft at once with its return row "computing" and YES unlit, refused
// with that reason (nothing saved); the figure arrives as an input and is
// shown, refused or allowed exactly as before; a figure for a draft that
// has since changed is dropped.
func TestOperatorReturnOffInputPath(t *testing.T) {
	cfg, err := config.Parse(classicOneDeck)
	if err != nil {
		t.Fatal(err)
	}
	r := liveReturnsRig(t, cfg)
	r.set(hw.OperatorKey, true)
	cur := func() view.Setting { op := r.c.Snapshot().Operator; return op.Items[op.Cursor] }
	for i := 0; cur().Key != "games.classic.dealing"; i++ {
		if i > 100 {
			t.Fatal("no games.classic.dealing in the menu")
		}
		r.mustPress(hw.Stand)
	}
	computing := func(when string) {
		t.Helper()
		op := r.c.Snapshot().Operator
		if op.RTP == nil || !op.RTP.Computing || op.RTP.Game != game.Classic || op.RTP.Refused {
			t.Fatalf("%s: return row %+v, want classic computing", when, op.RTP)
		}
		if r.be.Lamps().Has(hw.Yes) {
			t.Fatalf("%s: YES lit while the return is computed", when)
		}
	}

	r.mustPress(hw.BetPlus)
	if v := cur(); v.Value != "american" || !v.Draft {
		t.Fatalf("after BET+ the list shows %+v, want the draft american at once", v)
	}
	computing("BET+ to american")
	for range 2 { // YES twice would have confirmed and saved
		if err := r.press(hw.Yes); !errors.Is(err, ErrNotNow) || r.c.Snapshot().Message != NoticeReturnComputing {
			t.Fatalf("YES while computing: %v, notice %q; want refused with %q", err, r.c.Snapshot().Message, NoticeReturnComputing)
		}
	}
	if op := r.c.Snapshot().Operator; op.Confirm || op.Saved != nil {
		t.Fatalf("YES while computing: confirm %v saved %+v", op.Confirm, op.Saved)
	}
	american := computed(r)
	if err := r.c.Handle(Input{Return: &american}); err != nil {
		t.Fatal(err)
	}
	op := r.c.Snapshot().Operator
	if op.RTP == nil || op.RTP.Computing || !op.RTP.Refused || op.RTP.RTP < 10000 || op.RTP.Game != game.Classic {
		t.Fatalf("american's figure arrived: row %+v, want classic refused at 100 %% or more", op.RTP)
	}
	if msg := r.c.Snapshot().Message; msg != "" {
		t.Fatalf("the figure is shown but the notice %q stays", msg)
	}
	if r.be.Lamps().Has(hw.Yes) {
		t.Fatal("YES lit on a refused draft")
	}
	if err := r.press(hw.Yes); !errors.Is(err, ErrNotNow) || r.c.Snapshot().Message != NoticeDraftRefused {
		t.Fatalf("YES on a refused draft: %v, notice %q", err, r.c.Snapshot().Message)
	}

	r.mustPress(hw.BetPlus) // back to european: a new draft, computing
	computing("BET+ to european")
	european := computed(r)
	if err := r.c.Handle(Input{Return: &american}); err != nil { // late, for the old draft
		t.Fatal(err)
	}
	computing("american's figure handed again")
	if err := r.c.Handle(Input{Return: &european}); err != nil {
		t.Fatal(err)
	}
	op = r.c.Snapshot().Operator
	if cur().Value != "european" || op.RTP == nil || op.RTP.Computing || op.RTP.Refused || op.RTP.RTP >= 10000 || op.RTP.RTP < 9900 {
		t.Fatalf("draft %q: return shown %+v, want an allowed figure in [99.00, 100.00)", cur().Value, op.RTP)
	}
	if !r.be.Lamps().Has(hw.Yes) {
		t.Fatal("YES unlit once an allowed figure is shown")
	}
	if o := r.storedOverrides(); len(o) != 0 {
		t.Fatalf("overrides stored before YES: %v", o)
	}
	r.mustPress(hw.Yes)
	r.mustPress(hw.Yes)
	if o := r.storedOverrides(); o["games.classic.dealing"] != "european" {
		t.Fatalf("saved overrides %v, want dealing european", o)
	}

	// A figure that arrives after the cursor moved on is dropped too.
	r.mustPress(hw.BetPlus)
	computing("BET+ again")
	late := computed(r)
	r.mustPress(hw.Stand)
	if err := r.c.Handle(Input{Return: &late}); err != nil {
		t.Fatal(err)
	}
	if op := r.c.Snapshot().Operator; op.RTP != nil {
		t.Fatalf("a figure for a draft dropped by a move is shown: %+v", op.RTP)
	}
}

// BenchmarkOperatorDraftPress measures how long BET+ on a Classic rule
// (surrender, shipped configuration) holds the controller's goroutine
// when the analyser has not seen the draft's rules (a fresh Guard per
// press): "inline" computes the figure on the input path (headless, and
// every cabinet before issue 26), "live" hands it to the worker and
// returns (the figure's own time is then not on the input path).
func BenchmarkOperatorDraftPress(b *testing.B) {
	cfg, err := config.Load("../../configs/cabinet.toml")
	if err != nil {
		b.Fatal(err)
	}
	for _, live := range []bool{false, true} {
		name := map[bool]string{false: "inline", true: "live"}[live]
		b.Run(name, func(b *testing.B) {
			r := liveReturnsRig(b, cfg)
			if !live {
				r.c.opt.Display = nil
			}
			r.set(hw.OperatorKey, true)
			for i := 0; ; i++ {
				op := r.c.Snapshot().Operator
				if op.Items[op.Cursor].Key == "games.classic.surrender" {
					break
				}
				if i > 200 {
					b.Fatal("no games.classic.surrender in the menu")
				}
				r.mustPress(hw.Stand)
			}
			for b.Loop() {
				b.StopTimer()
				r.c.opt.Settings = settings.New(cfg, rtp.NewGuard()) // nothing cached: the draft's rules are analysed
				b.StartTimer()
				r.mustPress(hw.BetPlus)
				b.StopTimer()
				if live {
					res := computed(r)
					if err := r.c.Handle(Input{Return: &res}); err != nil {
						b.Fatal(err)
					}
				}
				if op := r.c.Snapshot().Operator; op.RTP == nil || op.RTP.Computing {
					b.Fatalf("figure not shown: %+v", op.RTP)
				}
				b.StartTimer()
			}
		})
	}
}

// TestDraftRefusedAtOnceWithAWindow: with a window (the return computed
// off the input path) a draft the configuration refuses — Free Bet's
// minimum bet above its maximum — is refused as it is drafted, naming the
// value edited, with no result of the worker awaited (it was refused only
// when the figure arrived).
func TestDraftRefusedAtOnceWithAWindow(t *testing.T) {
	cfg, err := config.Load("../../configs/cabinet.toml")
	if err != nil {
		t.Fatal(err)
	}
	r := liveReturnsRig(t, cfg)
	r.set(hw.OperatorKey, true)
	op := func() *view.OperatorView { return r.c.Snapshot().Operator }
	cur := func() view.Setting { o := op(); return o.Items[o.Cursor] }
	for i := 0; cur().Key != "games.freebet.min_bet"; i++ {
		if i > 400 {
			t.Fatal("no games.freebet.min_bet in the menu")
		}
		if err := r.press(hw.Stand); err != nil {
			r.mustPress(hw.Spot) // the next group or page
		}
	}
	for range 12 { // past the maximum
		r.mustPress(hw.BetPlus)
	}
	draft := cur().Value
	if e := op().Error; e == nil || e.Setting.Key != "games.freebet.min_bet" || e.Value != draft {
		t.Fatalf("draft %s: refusal %+v, want the minimum bet %s refused at once", draft, e, draft)
	}
	if r.be.Lamps().Has(hw.Yes) {
		t.Fatal("YES lit on a draft the configuration refuses")
	}
}
