package display

import (
	"strings"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/i18n"
	"cabinet/internal/view"
)

// TestOperatorReturnComputing: while a draft's return is computed off the
// input path, the operator screen's return row says so, in French and in
// English (issue 26: the screen showed the old figure with no sign of
// work).
func TestOperatorReturnComputing(t *testing.T) {
	o := offscreen(t)
	for _, lang := range []string{"fr", "en"} {
		s := screen(t, "operator-draft")
		s.Lang = lang
		if s.Operator == nil {
			t.Fatal("operator-draft has no operator view")
		}
		s.Operator.RTP = &view.OperatorRTP{Game: game.Classic, Computing: true}
		s.Operator.Confirm, s.Operator.Error, s.Operator.Saved = false, nil, nil
		var got []string
		o.seen = func(str string) { got = append(got, str) }
		_, err := o.image(s, 0, false, nil)
		o.seen = nil
		if err != nil {
			t.Fatal(err)
		}
		want := i18n.Tf(lang, "operator.rtp_computing", i18n.T(lang, "game.classic"))
		if !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("%s: %q not drawn; drew %q", lang, want, got)
		}
	}
}

// TestOperatorRefusalDrawn: a press refused on the operator screen (YES
// while the return is computing) says why on screen; the operator screen
// drew no notice at all before.
func TestOperatorRefusalDrawn(t *testing.T) {
	o := offscreen(t)
	for _, lang := range []string{"fr", "en"} {
		s := screen(t, "operator-draft")
		s.Lang = lang
		s.Message = "return_computing"
		var got []string
		o.seen = func(str string) { got = append(got, str) }
		_, err := o.image(s, 0, false, nil)
		o.seen = nil
		if err != nil {
			t.Fatal(err)
		}
		want := i18n.T(lang, "msg.return_computing")
		if !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("%s: the refusal %q not drawn; drew %q", lang, want, got)
		}
	}
}
