package display

import (
	"cabinet/internal/cabinet"
	"context"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cabinet/internal/analysis/rtp"
	"cabinet/internal/config"
	"cabinet/internal/controller"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/i18n"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
	"cabinet/internal/settings"
	"cabinet/internal/view"
)

// TestRealScreensHaveWords renders the screens of a real controller (the
// shipped configuration, a bbolt store in a temp dir, 40 autoplayed rounds
// of every game, a door opened and closed) in both languages: the audit
// pages (meters, every recalled game, events), the menu, a help screen per
// game and the whole operator menu. No catalogue key may be missing: the samples alone cannot prove
// that what the controller writes has words.
func TestRealScreensHaveWords(t *testing.T) {
	o := offscreen(t)
	c, cfg, set := realController(t)
	for c.Completed() < 40 {
		if err := c.Handle(controller.Input{Auto: &controller.AutoStep{Game: set.Games[int(c.Completed())%len(set.Games)]}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, on := range []bool{true, false} {
		if err := c.Handle(controller.HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.MainDoor, On: on})); err != nil {
			t.Fatal(err)
		}
	}
	press := func(b hw.Button) {
		t.Helper()
		if err := c.Handle(controller.HW(hw.Input{Kind: hw.ButtonPressed, Button: b})); err != nil {
			t.Fatalf("press %s: %v (mode %s)", b, err, c.Snapshot().Mode)
		}
	}
	var shots []*view.Snapshot
	snap := func() { s := *c.Snapshot(); shots = append(shots, &s) }
	// Help of every game, from the menu.
	press(hw.Game)
	for range set.Games {
		snap() // the menu
		press(hw.Help)
		snap()
		press(hw.Game)
		press(hw.Spot)
	}
	// The audit pages: meters, recall (stepping through rounds of every game), events.
	if err := c.Handle(controller.HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: true})); err != nil {
		t.Fatal(err)
	}
	snap() // meters
	press(hw.Spot)
	for range 2 * len(set.Games) {
		snap() // a recalled round
		press(hw.Split)
		snap() // its next step
		press(hw.Hit)
	}
	press(hw.Spot)
	snap() // events
	// The operator menu, scrolled through every setting.
	for _, k := range []struct {
		s  hw.Switch
		on bool
	}{{hw.AuditKey, false}, {hw.OperatorKey, true}} {
		if err := c.Handle(controller.HW(hw.Input{Kind: hw.SwitchChanged, Switch: k.s, On: k.on})); err != nil {
			t.Fatal(err)
		}
	}
	items := len(cfg.Items(nil))
	if items < 20 {
		t.Fatalf("%d operator settings, want them all", items)
	}
	for i := range items {
		if i%8 == 0 {
			snap()
		}
		press(hw.Stand) // next setting
	}
	modes := map[view.Mode]int{}
	for _, s := range shots {
		modes[s.Mode]++
	}
	for _, m := range []view.Mode{view.Menu, view.Help, view.Audit, view.Operator} {
		if modes[m] == 0 {
			t.Fatalf("no %s screen captured (modes %v)", m, modes)
		}
	}
	for _, s := range shots {
		for _, lang := range []string{"fr", "en"} {
			s.Lang = lang
			var missing []string
			if _, err := o.image(s, 0, false, func(k string) {
				if !slices.Contains(missing, k) {
					missing = append(missing, k)
				}
			}); err != nil {
				t.Fatal(err)
			}
			page := ""
			if s.Audit != nil {
				page = s.Audit.Page
			}
			if len(missing) > 0 {
				t.Errorf("%s %s (%s, game %s): missing from the catalogue: %q", s.Mode, page, lang, s.Game, missing)
			}
		}
	}
}

// realController is the cabinet on the shipped configuration, a bbolt store
// in a temp dir and the sim backend.
func realController(t *testing.T) (*controller.Controller, *config.Config, controller.InForce) {
	t.Helper()
	cfg, err := config.Load(filepath.Join("..", "..", "configs", "cabinet.toml"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := settings.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := recoverytest.Open(t, filepath.Join(t.TempDir(), "real.db"), recovery.Options{})
	t.Cleanup(func() { st.Close() })
	// The return check of the rules in force, as `cabinet run` wires it:
	// help shows the figures.
	g := rtp.NewGuard()
	in, err := rtp.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Check(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: controller.InForce(set), Config: cfg, Returns: settings.New(cfg, g)}, Store: st, HW: sim.New(), RNG: controller.SeededRNG{Seed: 5}})
	if err != nil {
		t.Fatal(err)
	}
	return c, cfg, controller.InForce(set)
}

// TestHelpPages: the help the controller sends for each shipped game, laid
// out in each language, takes 1 to 4 pages (TestTextFits walks 4) and no
// page is empty; the longer texts page rather than being cut (issue 26:
// Royal Poker's help ended mid-sentence).
func TestHelpPages(t *testing.T) {
	o := offscreen(t)
	c, _, set := realController(t)
	if err := c.Handle(controller.HW(hw.Input{Kind: hw.BillStacked, Value: 2000})); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for range set.Games {
		if err := c.Handle(controller.HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.Help})); err != nil {
			t.Fatal(err)
		}
		s := *c.Snapshot()
		h := s.Help
		if h == nil {
			t.Fatalf("no help view (mode %s)", s.Mode)
		}
		seen[string(h.Game)] = true
		for _, lang := range []string{"fr", "en"} {
			s.Lang = lang
			var l helpLayout
			if err := o.do(func() { l = newFrame(o.fonts, &s, 0, false).helpLayoutOf(h, h.Game) }); err != nil {
				t.Fatal(err)
			}
			if n := l.pages(); n < 1 || n > 4 {
				t.Errorf("%s (%s): %d help pages, want 1 to 4", h.Game, lang, n)
			}
			for p := range l.pages() {
				if (p >= len(l.rules) || len(l.rules[p]) == 0) && (p >= len(l.right) || len(l.right[p]) == 0) {
					t.Errorf("%s (%s): help page %d of %d is empty", h.Game, lang, p+1, l.pages())
				}
			}
			t.Logf("%s (%s): %d help pages", h.Game, lang, l.pages())
		}
		for _, b := range []hw.Button{hw.Game, hw.Spot} { // back to the menu, next game
			if err := c.Handle(controller.HW(hw.Input{Kind: hw.ButtonPressed, Button: b})); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(seen) != len(set.Games) {
		t.Errorf("help seen for %v, want every game of %v", seen, set.Games)
	}
}

// TestOperatorSettingsTranslated: every operator setting of the shipped
// configuration arrives described as data (label keys, kind, choices) and
// every word of that description is in both catalogues: the menu never
// shows a raw key, "on/off" or English inside French.
func TestOperatorSettingsTranslated(t *testing.T) {
	cfg, err := config.Load(filepath.Join("..", "..", "configs", "cabinet.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Langs() {
		for _, it := range cfg.Items(nil) {
			if len(it.Label) == 0 || it.Kind == "" || len(it.Choices) == 0 || it.Group == "" {
				t.Errorf("%s: described as %+v, want label keys, a kind, choices and a group", it.Key, it)
			}
			keys := append([]string(nil), it.Label...)
			if it.Note != "" {
				keys = append(keys, it.Note)
			}
			if it.Unit != "" {
				keys = append(keys, "unit."+it.Unit)
			}
			if it.Kind == view.KindSwitch || it.Kind == view.KindWord {
				for _, c := range it.Choices {
					keys = append(keys, "val."+c)
				}
			}
			for _, k := range keys {
				if !i18n.Has(lang, k) {
					t.Errorf("%s (%s): no %q in the catalogue", it.Key, lang, k)
				}
			}
		}
	}
}

// TestDisplayParsesNoText: the view contract is typed; the display takes
// neither configuration keys nor English sentences apart (no regexp, no
// splitting of a setting's key).
func TestDisplayParsesNoText(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for name, f := range p.Files {
			for _, im := range f.Imports {
				if path := strings.Trim(im.Path.Value, `"`); path == "regexp" || path == "cabinet/internal/config" {
					t.Errorf("%s imports %s", name, path)
				}
			}
		}
	}
	src, err := os.ReadFile("tech.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"it.Key", ".Allowed", "strings.Split(key"} {
		if strings.Contains(string(src), bad) {
			t.Errorf("tech.go reads %s: the operator screen must use the typed description", bad)
		}
	}
}
