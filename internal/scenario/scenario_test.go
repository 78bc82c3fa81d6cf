package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/controller"

	"cabinet/internal/view"
)

func opts(t *testing.T) Options {
	return Options{Config: filepath.Join("..", "..", "configs", "cabinet.toml"), Dir: t.TempDir(), Digest: "test-digest"}
}

// TestPlayAll: every screen of the library plays and is the mode its name says.
func TestPlayAll(t *testing.T) {
	all, err := PlayAll(opts(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range Screens() {
		s := all[n]
		if s == nil {
			t.Errorf("%s: no snapshot", n)
			continue
		}
		t.Logf("%-16s mode %-8s game %-8s credits %v", n, s.Mode, s.Game, s.Credits)
	}
	want := map[string]view.Mode{"attract": view.Attract, "menu": view.Menu, "royal": view.Table, "classic": view.Table,
		"tilt": view.Tilt, "handpay": view.Handpay, "audit-meters": view.Audit, "operator": view.Operator,
		"hwtest": view.HwTest, "help-royal": view.Help, "duel-buy": view.Table, "boot": view.Boot}
	for n, m := range want {
		if all[n] == nil || all[n].Mode != m {
			t.Errorf("%s: mode %v, want %s", n, all[n], m)
		}
	}
	if !all["recovered"].Recovered {
		t.Error("recovered: the round resumed after the power cut is not marked recovered")
	}
}

// TestDeterministic: the same scenario gives the same snapshot twice.
func TestDeterministic(t *testing.T) {
	a, err := Screen("classic", opts(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Screen("classic", opts(t))
	if err != nil {
		t.Fatal(err)
	}
	if a.Round == nil || b.Round == nil || len(a.Round.Hands) == 0 {
		t.Fatalf("classic: no round (%+v)", a.Round)
	}
	if a.Round.Hands[0].Cards[0] != b.Round.Hands[0].Cards[0] || a.Credits != b.Credits {
		t.Errorf("two plays differ: %v / %v", a.Round.Hands, b.Round.Hands)
	}
}

// TestRefusalsChecked: a refused input not marked "!" fails the play, and a
// "!" input the cabinet accepts fails it too.
func TestRefusalsChecked(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   error
	}{
		{"press deal", ErrRefused},                // no credits: attract refuses DEAL
		{"! press deal", nil},                     // … as the script says
		{"bill 20.00\n! press deal", ErrAccepted}, // credits: DEAL opens the table
		{"bill 20.00\npress deal", nil},
		{"frobnicate", nil}, // checked below: sim's own error
		{"shot", ErrScript},
	} {
		_, err := Play(Scenario{Name: "t", Script: tc.script}, opts(t))
		if tc.script == "frobnicate" {
			if err == nil {
				t.Errorf("%q: no error", tc.script)
			}
			continue
		}
		if !errors.Is(err, tc.want) && !(tc.want == nil && err == nil) {
			t.Errorf("%q: %v, want %v", tc.script, err, tc.want)
		}
	}
}

// TestRefusalNotices: every refusal the library plays leaves its typed
// notice in the snapshot the screen draws.
func TestRefusalNotices(t *testing.T) {
	all, err := PlayAll(opts(t))
	if err != nil {
		t.Fatal(err)
	}
	for shot, want := range RefusalShots {
		if got := all[shot]; got == nil || got.Message != want {
			t.Errorf("%s: message %q, want %q", shot, got.Message, want)
		}
	}
	for _, n := range []string{"menu", "royal", "classic-bet"} {
		if m := all[n].Message; m != "" {
			t.Errorf("%s: message %q after accepted inputs, want none", n, m)
		}
	}
}

// TestMinBetNotice: a table whose minimum is above the smallest chip
// refuses a deal below it, and says so.
func TestMinBetNotice(t *testing.T) {
	o := opts(t)
	b, err := os.ReadFile(o.Config)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i := strings.Index(text, "[games.classic]")
	j := i + strings.Index(text[i:], `min_bet = "1.00"`)
	if i < 0 || j < i {
		t.Fatal("shipped configuration has no classic min_bet 1.00")
	}
	text = text[:j] + `min_bet = "5.00"` + text[j+len(`min_bet = "1.00"`):]
	o.Config = filepath.Join(t.TempDir(), "cabinet.toml")
	if err := os.WriteFile(o.Config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	shots, err := Play(Scenario{Name: "minbet", Seed: 1, Script: `
		bill 20.00
		menu classic
		press deal
		press bet     # the 1.00 chip
		! press deal
		shot refused
	`}, o)
	if err != nil {
		t.Fatal(err)
	}
	if m := shots[0].Snap.Message; m != controller.NoticeMinBet {
		t.Errorf("message %q, want %q", m, controller.NoticeMinBet)
	}
}
