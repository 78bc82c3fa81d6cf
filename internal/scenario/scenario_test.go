package scenario

import (
	"errors"
	"path/filepath"
	"testing"

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
