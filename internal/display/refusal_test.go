package display

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"cabinet/internal/i18n"
	"cabinet/internal/scenario"
	"cabinet/internal/view"
)

// drawn renders the named screen in lang and returns every string drawn.
func drawn(t *testing.T, o *Offscreen, name, lang string) []string {
	t.Helper()
	s := screen(t, name)
	s.Lang = lang
	return drawnSnap(t, o, s)
}

// drawnSnap renders s and returns every string drawn.
func drawnSnap(t *testing.T, o *Offscreen, s *view.Snapshot) []string {
	t.Helper()
	var out []string
	o.seen = func(str string) { out = append(out, str) }
	defer func() { o.seen = nil }()
	if _, err := o.image(s, 0, false, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRefusalsOnScreen: every refusal the scenarios play (a bet over the
// credits or the maximum, a side bet without its main bet, the Royal Poker
// bet without both spots, a bill over the credit limit, refused while the
// acceptor is off or jammed, the operator key mid-round) draws its reason,
// translated, in French and in English (on one line of its notice or two).
func TestRefusalsOnScreen(t *testing.T) {
	o := offscreen(t)
	for shot, notice := range scenario.RefusalShots {
		for _, lang := range []string{"fr", "en"} {
			key := "msg." + notice
			if !i18n.Has(lang, key) {
				t.Errorf("%s: %s has no %s text", shot, key, lang)
				continue
			}
			want := i18n.T(lang, key)
			// A long reason may be drawn on two lines of its notice.
			if got := drawn(t, o, shot, lang); !strings.Contains(strings.Join(got, " "), want) {
				t.Errorf("%s (%s): reason %q not drawn; drew %q", shot, lang, want, got)
			}
		}
	}
}

// rawKey is what an untranslated catalogue key looks like on screen.
var rawKey = regexp.MustCompile(`^[a-z0-9_+]+(\.[a-z0-9_+]+)+$`)

// TestFrenchScreensHaveNoEnglish: no string drawn on a French scenario
// screen is a raw catalogue key or an English catalogue text that French
// words differently.
func TestFrenchScreensHaveNoEnglish(t *testing.T) {
	o := offscreen(t)
	english := map[string]string{}
	for _, k := range i18n.Keys(i18n.EN) {
		en, fr := i18n.T(i18n.EN, k), i18n.T(i18n.FR, k)
		if en != fr && !strings.Contains(en, "%") && len(en) > 2 {
			english[en] = k
		}
	}
	for _, name := range scenario.Screens() {
		for _, s := range drawn(t, o, name, "fr") {
			if rawKey.MatchString(s) {
				t.Errorf("%s (fr): raw key %q drawn", name, s)
			}
			if k, ok := english[s]; ok {
				t.Errorf("%s (fr): English %q drawn (catalogue %s)", name, s, k)
			}
		}
	}
}

// TestBlackjackCallout: a blackjack dealt through the real controller reads
// "Blackjack" on the hand (not "21") and the table calls it out with the
// pay, in both languages.
func TestBlackjackCallout(t *testing.T) {
	o := offscreen(t)
	for _, lang := range []string{"fr", "en"} {
		got := drawn(t, o, "classic-blackjack", lang)
		for _, key := range []string{"table.blackjack", "callout.blackjack"} {
			want := i18n.T(lang, key)
			if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, want) }) {
				t.Errorf("%s: %q (%s) not drawn; drew %q", lang, want, key, got)
			}
		}
		if slices.Contains(got, "21") {
			t.Errorf("%s: the blackjack reads 21", lang)
		}
	}
}
