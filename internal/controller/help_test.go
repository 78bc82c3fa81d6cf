package controller

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cabinet/internal/desk"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/i18n"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// TestHelpVocabulary: every rule, value token, hand and payout the help
// screens get from the controller has a translation in both languages (or is
// a number, an amount or odds), so no screen shows a raw key or English on a
// French cabinet.
func TestHelpVocabulary(t *testing.T) {
	set := testSettings()
	odds := regexp.MustCompile(`^[0-9]+:[0-9]+$`)
	for _, id := range set.Games {
		r := newRig(t, 1)
		r.c.scr.game = id
		h := presenter{set: &r.c.set, figures: r.c.ReturnFigures}.helpView(&r.c.scr)
		if len(h.Rules) == 0 {
			t.Errorf("%s: no rules on the help screen", id)
		}
		for _, lang := range i18n.Langs() {
			for _, kv := range h.Rules {
				if !i18n.Has(lang, "rule."+kv.Key) {
					t.Errorf("%s %s: rule %q has no translation", id, lang, kv.Key)
				}
				if !valueShown(lang, kv.Value) {
					t.Errorf("%s %s: rule %s value %q is neither a translated word, a number nor an amount", id, lang, kv.Key, kv.Value)
				}
			}
			for _, p := range h.Pays {
				if !i18n.Has(lang, "hand."+p.Hand) && !i18n.Has(lang, "outcome."+p.Hand) {
					t.Errorf("%s %s: paytable hand %q has no translation", id, lang, p.Hand)
				}
				n, forOne := strings.CutSuffix(p.Pays, " for 1")
				pct, isPct := strings.CutSuffix(p.Pays, "%")
				switch {
				case forOne:
					if _, err := strconv.Atoi(n); err != nil {
						t.Errorf("%s: payout %q", id, p.Pays)
					}
				case isPct:
					if _, err := strconv.Atoi(pct); err != nil {
						t.Errorf("%s: payout %q", id, p.Pays)
					}
				case !odds.MatchString(p.Pays):
					t.Errorf("%s: payout %q is not odds, \"N for 1\" or a jackpot percentage", id, p.Pays)
				}
			}
		}
		checkPays(t, id, h)
	}
}

func valueShown(lang, v string) bool {
	if i18n.Has(lang, "val."+v) {
		return true
	}
	if _, err := strconv.Atoi(v); err == nil {
		return true
	}
	_, err := money.Parse(v)
	return err == nil && strings.Contains(v, ".")
}

// checkPays: the side-bet paytable lines are the rules' own pays, largest first.
func checkPays(t *testing.T, id game.ID, h *view.HelpView) {
	t.Helper()
	r, ok := testSettings().Rules[id]
	if !ok {
		return
	}
	for _, sr := range r.Side {
		var got []string
		for _, p := range h.Pays {
			if p.Bet == sr.Kind && !strings.HasSuffix(p.Pays, "%") {
				got = append(got, p.Hand)
			}
		}
		if len(got) != len(sr.Pays) {
			t.Errorf("%s %s: %d paytable lines, rules have %d", id, sr.Kind, len(got), len(sr.Pays))
		}
		for i := 1; i < len(got); i++ {
			if sr.Pays[got[i-1]] < sr.Pays[got[i]] {
				t.Errorf("%s %s: %s (%d) listed before %s (%d)", id, sr.Kind, got[i-1], sr.Pays[got[i-1]], got[i], sr.Pays[got[i]])
			}
		}
	}
}

// TestTiltReasonsTranslated: every reason the tilt screen can be given has
// words in both languages.
func TestTiltReasonsTranslated(t *testing.T) {
	// Every condition at once: tilts() gives exactly TiltReasons, so a new
	// reason cannot escape the list this test walks.
	var s state
	s.memErr, s.digestErr, s.jam = ErrMemory, ErrDigest, true
	s.switches[hw.MainDoor], s.switches[hw.CashDoor] = true, true
	s.notes.Val = desk.ValidatorTilts{StackerOpen: true, StackerFull: true, Failure: true, Gone: true}
	if got := s.tilts(); !slices.Equal(got, TiltReasons) {
		t.Fatalf("tilts() with every condition = %q, want TiltReasons %q", got, TiltReasons)
	}
	for _, r := range TiltReasons {
		for _, lang := range i18n.Langs() {
			if !i18n.Has(lang, "tilt."+r) {
				t.Errorf("tilt reason %q has no %s text", r, lang)
			}
		}
	}
}
