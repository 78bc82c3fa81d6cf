package controller

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/i18n"
	"cabinet/internal/inforce"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
	"cabinet/internal/settings"
	"cabinet/internal/view"
)

func configRig(t *testing.T) (*rig, *config.Config) {
	t.Helper()
	cfg, err := config.Load("../../configs/cabinet.toml")
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, 11)
	set, err := inForceFrom(cfg)
	if err != nil {
		t.Fatal(err)
	}
	reboot := func() {
		r.st.Close()
		r.be = sim.New()
		r.c, r.st = testCabinet(t, Options{HW: r.be, RNG: SeededRNG{Seed: 11}, InForce: set,
			Settings: settings.New(cfg, nil), Operator: cfg}, kitStore{path: r.path})
	}
	reboot()
	return r, cfg
}

// TestOperatorMenu: the operator key opens the menu only between rounds; a
// change is a draft until YES, is stored as an override, logged old → new,
// and survives a reboot.
func TestOperatorMenu(t *testing.T) {
	r, cfg := configRig(t)
	r.set(hw.OperatorKey, true)
	s := r.c.Snapshot()
	if s.Mode != view.Operator || s.Operator == nil || len(s.Operator.Items) == 0 {
		t.Fatalf("operator key: mode %s view %+v", s.Mode, s.Operator)
	}
	// Find the Zappit cap setting: SPOT to the group, STAND through it.
	cur := func() view.Setting { op := r.c.Snapshot().Operator; return op.Items[op.Cursor] }
	for i := 0; r.c.Snapshot().Operator.Group != "games.zappit"; i++ {
		if i > 20 {
			t.Fatalf("no games.zappit group (at %q)", r.c.Snapshot().Operator.Group)
		}
		r.mustPress(hw.Spot)
	}
	for i := 0; !strings.Contains(cur().Key, "cap"); i++ {
		if i > 20 || r.c.Snapshot().Operator.Group != "games.zappit" {
			t.Fatalf("no zappit cap in its group (at %q)", cur().Key)
		}
		r.mustPress(hw.Stand)
	}
	idx := r.c.Snapshot().Operator.Cursor
	if it := cur(); it.Kind != "money" || len(it.Choices) < 2 || !slices.Contains(it.Choices, it.Value) {
		t.Fatalf("zappit cap: kind %q choices %v value %q, want money choices holding the value", it.Kind, it.Choices, it.Value)
	}
	old := r.c.Snapshot().Operator.Items[idx].Value
	oldCap := r.c.set.Rules[game.Zappit].WinCap
	r.mustPress(hw.BetPlus)
	draft := r.c.Snapshot().Operator.Items[idx].Value
	if draft == old || !r.c.Snapshot().Operator.Items[idx].Draft || r.c.set.Rules[game.Zappit].WinCap != oldCap {
		t.Fatalf("draft %q (old %q, marked %v) or the cap already changed", draft, old, r.c.Snapshot().Operator.Items[idx].Draft)
	}
	r.mustPress(hw.Yes) // asks to confirm: nothing saved yet
	if op := r.c.Snapshot().Operator; !op.Confirm || r.c.set.Rules[game.Zappit].WinCap != oldCap {
		t.Fatalf("first YES: confirm %v, cap %v (want the question, cap unchanged)", op.Confirm, r.c.set.Rules[game.Zappit].WinCap)
	}
	r.mustPress(hw.Yes)
	if op := r.c.Snapshot().Operator; op.Saved == nil || op.Saved.Key != cur().Key || op.Confirm || op.Items[idx].Draft {
		t.Fatalf("second YES: saved %+v confirm %v draft %v", op.Saved, op.Confirm, op.Items[idx].Draft)
	}
	newCap := r.c.set.Rules[game.Zappit].WinCap
	if newCap == oldCap {
		t.Fatalf("cap still %v after YES", newCap)
	}
	r.set(hw.OperatorKey, false)
	var evs []string
	_ = r.st.View(func(tx *recovery.Tx) error {
		e, err := tx.Events(10)
		for _, x := range e {
			evs = append(evs, x.Kind+" "+x.Text)
		}
		return err
	})
	found := false
	for _, e := range evs {
		if strings.Contains(e, old) && strings.Contains(e, draft) {
			found = true
		}
	}
	if !found {
		t.Fatalf("no config change %s → %s in the event log: %v", old, draft, evs)
	}
	// A reboot keeps the override.
	set, _ := inForceFrom(cfg)
	r.st.Close()
	var c *Controller
	c, r.st = testCabinet(t, Options{HW: sim.New(), InForce: set, Settings: settings.New(cfg, nil), Operator: cfg}, kitStore{path: r.path})
	if got := c.set.Rules[game.Zappit].WinCap; got != newCap {
		t.Fatalf("after reboot cap = %v, want %v", got, newCap)
	}
}

// TestOperatorKeyRefusedDuringRound: no operator menu while a round is open.
func TestOperatorKeyRefusedDuringRound(t *testing.T) {
	r, _ := configRig(t)
	for r.c.Round() == nil {
		if err := r.c.Handle(Input{Auto: &AutoStep{Game: game.Classic}}); err != nil {
			t.Fatal(err)
		}
	}
	r.set(hw.OperatorKey, true)
	if m := r.c.Snapshot().Mode; m == view.Operator {
		t.Fatal("operator menu opened during a round")
	}
}

// TestMemoryError: a damaged critical record tilts the cabinet at boot;
// play and bills are refused, nothing is written, the audit screens work,
// and only audit key + reset key + YES clears the memory.
func TestMemoryError(t *testing.T) {
	r := newRig(t, 2)
	r.bill(5000)
	r.st.Close()
	data, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, pat := range [][]byte{[]byte(`"credits":5000`)} {
		for i := bytes.Index(data, pat); i >= 0; i = bytes.Index(data, pat) {
			data[i+len(pat)-4] = '9' // 5000 → 9000 without fixing the checksum
			n++
		}
	}
	if n == 0 {
		t.Fatal("machine record not found in the file")
	}
	if err := os.WriteFile(r.path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	r.be = sim.New()
	c, st := testCabinet(t, Options{HW: r.be, InForce: testSettings()}, kitStore{path: r.path, damaged: true})
	r.c, r.st = c, st
	if s := c.Snapshot(); s.Mode != view.Tilt || s.Tilts[0] != "memory_error" || r.be.Acceptance() != 0 {
		t.Fatalf("memory error: mode %s tilts %v acceptance %v", s.Mode, s.Tilts, r.be.Acceptance())
	}
	before, _ := os.ReadFile(r.path)
	if err := c.Handle(HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.Deal})); !errors.Is(err, ErrNotNow) {
		t.Fatalf("DEAL during memory error = %v", err)
	}
	if err := c.Handle(HW(hw.Input{Kind: hw.BillStacked, Value: 500})); err == nil {
		t.Fatal("bill credited during memory error")
	}
	r.set(hw.MainDoor, true)
	r.set(hw.MainDoor, false)
	after, _ := os.ReadFile(r.path)
	if !bytes.Equal(before, after) {
		t.Fatal("store written during a memory error")
	}
	r.set(hw.AuditKey, true)
	if s := c.Snapshot(); s.Mode != view.Audit || s.Audit == nil || len(s.Audit.Checks) == 0 {
		t.Fatalf("audit during memory error: %+v", s.Audit)
	}
	if err := r.press(hw.Yes); err == nil {
		t.Fatal("memory clear without the reset key")
	}
	r.set(hw.ResetKey, true)
	r.mustPress(hw.Yes)
	r.set(hw.ResetKey, false)
	r.set(hw.AuditKey, false)
	if c.Err() != nil || c.Credits() != 0 {
		t.Fatalf("after memory clear: err %v credits %v", c.Err(), c.Credits())
	}
	r.bill(1000)
	if c.Credits() != 1000 {
		t.Fatal("play not re-enabled after the memory clear")
	}
}

// TestOperatorRTPLive: a draft that changes a game shows the game's return
// with the draft in force; a return of 100 % or more, or below the floor, is
// refused on screen (YES unlit and refused) with the figure; a change that
// stays inside is saved.
func TestOperatorRTPLive(t *testing.T) {
	cfg, err := config.Load("../../configs/cabinet.toml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := inForceFrom(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, 11)
	// A stand-in return that follows the setting: Zappit's return rises
	// with its win cap (the real figure is the rules engineer's).
	rtp := func(s InForce, id game.ID) (int64, error) {
		if id != game.Zappit {
			return 9950, nil
		}
		return 9700 + int64(s.Rules[game.Zappit].WinCap)/100, nil
	}
	r.c, _ = testCabinet(t, Options{Store: r.st, HW: r.be, RNG: SeededRNG{Seed: 11}, InForce: set,
		Settings: stubReturn{settings.New(cfg, nil), rtp, 9000}, Operator: cfg}, kitStore{})
	r.set(hw.OperatorKey, true)
	cur := func() view.Setting { op := r.c.Snapshot().Operator; return op.Items[op.Cursor] }
	for i := 0; r.c.Snapshot().Operator.Group != "games.zappit"; i++ {
		if i > 20 {
			t.Fatal("no games.zappit group")
		}
		r.mustPress(hw.Spot)
	}
	for i := 0; !strings.Contains(cur().Key, "cap"); i++ {
		if i > 20 {
			t.Fatal("no zappit cap")
		}
		r.mustPress(hw.Stand)
	}
	var saw, refused bool
	for i := 0; i < 40 && !refused; i++ {
		r.mustPress(hw.BetPlus)
		op := r.c.Snapshot().Operator
		if op.RTP == nil || op.RTP.Game != game.Zappit {
			t.Fatalf("draft %q: no live return shown (%+v)", cur().Value, op.RTP)
		}
		s, err := settings.New(cfg, nil).Apply(inforce.InForce(set), map[string]string{cur().Key: cur().Value})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := rtp(InForce(s), game.Zappit)
		if op.RTP.RTP != want {
			t.Fatalf("draft %q: return %d shown, want %d", cur().Value, op.RTP.RTP, want)
		}
		lit := r.be.Lamps().Has(hw.Yes)
		if op.RTP.Refused != (want >= 10000) || lit == op.RTP.Refused {
			t.Fatalf("draft %q return %d: refused %v, YES lit %v", cur().Value, want, op.RTP.Refused, lit)
		}
		if op.RTP.Refused {
			refused = true
			if err := r.press(hw.Yes); !errors.Is(err, ErrNotNow) {
				t.Fatalf("YES on a refused draft: %v", err)
			}
		} else {
			saw = true
		}
	}
	if !saw || !refused {
		t.Fatalf("the cap's values never crossed 100 %% (seen inside %v, refused %v)", saw, refused)
	}
}

// TestOperatorReturnsLive: with the analyser's return check wired (as
// cmd/cabinet wires it), the menu shows the return of a Classic draft live
// and refuses American dealing on screen (the player would have the
// advantage): YES unlit and refused, nothing stored.
func TestOperatorReturnsLive(t *testing.T) {
	cfg, err := config.Parse(classicOneDeck)
	if err != nil {
		t.Fatal(err)
	}
	r := returnsRig(t, cfg)
	r.set(hw.OperatorKey, true)
	cur := func() view.Setting { op := r.c.Snapshot().Operator; return op.Items[op.Cursor] }
	for i := 0; cur().Key != "games.classic.dealing"; i++ {
		if i > 100 {
			t.Fatal("no games.classic.dealing in the menu")
		}
		r.mustPress(hw.Stand)
	}
	r.mustPress(hw.BetPlus)
	op := r.c.Snapshot().Operator
	if cur().Value != "american" || op.RTP == nil || !op.RTP.Refused || op.RTP.RTP < 10000 || op.RTP.Game != game.Classic {
		t.Fatalf("draft %q: return shown %+v, want classic refused at 100 %% or more", cur().Value, op.RTP)
	}
	if r.be.Lamps().Has(hw.Yes) {
		t.Fatal("YES lit on a refused draft")
	}
	if err := r.press(hw.Yes); !errors.Is(err, ErrNotNow) {
		t.Fatalf("YES on a refused draft: %v", err)
	}
	r.mustPress(hw.BetPlus) // back to european
	op = r.c.Snapshot().Operator
	if cur().Value != "european" || op.RTP == nil || op.RTP.Refused || op.RTP.RTP >= 10000 || op.RTP.RTP < 9900 {
		t.Fatalf("draft %q: return shown %+v, want an allowed figure in [99.00, 100.00)", cur().Value, op.RTP)
	}
	if o := r.storedOverrides(); len(o) != 0 {
		t.Fatalf("overrides stored: %v", o)
	}
}

// TestOperatorFlowInBothLanguages: in each language the operator pages,
// drafts, confirms and saves a change; a change the configuration refuses
// names the setting it conflicts with, typed; the event log holds the
// change as typed details; and every word the screens will need for what
// was shown is in that language's catalogue.
func TestOperatorFlowInBothLanguages(t *testing.T) {
	for _, lang := range []string{"fr", "en"} {
		t.Run(lang, func(t *testing.T) {
			cfg, err := config.Load("../../configs/cabinet.toml")
			if err != nil {
				t.Fatal(err)
			}
			if cfg, err = cfg.With(map[string]string{"cabinet.language": lang}); err != nil {
				t.Fatal(err)
			}
			set, err := inForceFrom(cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := newRig(t, 5)
			r.st.Close()
			r.c, r.st = testCabinet(t, Options{HW: sim.New(), InForce: set, Settings: settings.New(cfg, nil), Operator: cfg}, kitStore{path: r.path})
			r.set(hw.OperatorKey, true)
			op := func() *view.OperatorView { return r.c.Snapshot().Operator }
			cur := func() view.Setting { o := op(); return o.Items[o.Cursor] }
			if r.c.Snapshot().Lang != lang {
				t.Fatalf("snapshot language %q", r.c.Snapshot().Lang)
			}
			// Every group and page, with what the screen needs to word it.
			groups := map[string]bool{}
			for range 200 {
				o := op()
				groups[o.Group] = true
				for _, it := range o.Items {
					for _, k := range append(append([]string(nil), it.Label...), "operator.group."+strings.SplitN(o.Group, ".", 2)[0]) {
						if !i18n.Has(lang, k) && !strings.HasPrefix(k, "operator.group.games") {
							t.Errorf("%s: %q missing in %s", it.Key, k, lang)
						}
					}
				}
				r.mustPress(hw.Stand)
				if o := op(); o.Cursor == 0 && o.Page == 0 && o.Group == "cabinet" {
					break
				}
			}
			if len(groups) < 5 {
				t.Errorf("groups seen %v", groups)
			}
			// Free Bet's minimum bet above its maximum: refused at once, as
			// drafted, naming the value edited (issue 26), typed; YES unlit
			// and saying why.
			for cur().Key != "games.freebet.min_bet" {
				r.mustPress(hw.Stand)
			}
			for range 12 { // past the 1000.00 maximum
				r.mustPress(hw.BetPlus)
			}
			draft := cur().Value
			if e := op().Error; e == nil || e.Setting.Key != "games.freebet.min_bet" || e.Value != draft || e.Setting.Kind != view.KindMoney || len(e.Setting.Label) != 2 {
				t.Fatalf("draft %s: refusal %+v, want the minimum bet %s refused at once, typed", draft, e, draft)
			}
			if err := r.press(hw.Yes); err == nil || r.c.Snapshot().Message != NoticeDraftRefused {
				t.Fatalf("YES on min bet %s above the maximum: %v, notice %q; want refused with %q", draft, err, r.c.Snapshot().Message, NoticeDraftRefused)
			}
			r.mustPress(hw.No)
			// A change saved: typed in the view and in the event log.
			for cur().Key != "games.freebet.penetration" {
				r.mustPress(hw.Stand)
			}
			old := cur().Value
			r.mustPress(hw.BetPlus)
			r.mustPress(hw.Yes)
			r.mustPress(hw.Yes)
			if s := op().Saved; s == nil || s.Key != "games.freebet.penetration" || s.Kind != view.KindPercent {
				t.Fatalf("saved %+v", s)
			}
			var evs []meters.Event
			if err := r.st.View(func(tx *recovery.Tx) error { var err error; evs, err = tx.Events(1); return err }); err != nil {
				t.Fatal(err)
			}
			e := evs[0]
			if e.Kind != meters.KindConfigChange || e.Detail != "setting_changed" || len(e.Args) != 3 ||
				e.Args[0] != (meters.Arg{Type: meters.ArgLabel, Value: "game.freebet|rule.penetration"}) ||
				e.Args[1] != (meters.Arg{Type: meters.ArgPercent, Value: old}) || e.Args[2].Type != meters.ArgPercent {
				t.Errorf("event %+v", e)
			}
			if !i18n.Has(lang, "detail."+e.Detail) {
				t.Errorf("detail.%s missing in %s", e.Detail, lang)
			}
		})
	}
}
