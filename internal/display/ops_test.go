package display

import (
	"strings"
	"testing"

	"cabinet/internal/config"
	"cabinet/internal/i18n"
)

// drawnText is every string drawn for the named scenario screen in lang,
// joined by " | ".
func drawnText(t *testing.T, name, lang string) string {
	t.Helper()
	return strings.Join(drawn(t, offscreen(t), name, lang), " | ")
}

// TestOperatorAllowedRanges: the operator menu's "Allowed" column shows the
// range the configuration accepts, in both languages (issue 35: it showed
// 500 … 5000 ms and 10 … 1000 rounds, the first and last steps of BET+,
// where 10000 is accepted).
func TestOperatorAllowedRanges(t *testing.T) {
	for _, lang := range i18n.Langs() {
		got := drawnText(t, "operator", lang)
		n := func(v int64) string { return i18n.Number(lang, v) }
		for _, want := range []string{
			n(config.MinResultHoldMS) + " " + i18n.T(lang, "unit.ms") + " … " + n(config.MaxResultHoldMS) + " " + i18n.T(lang, "unit.ms"),
			n(config.MinRecallDepth) + " " + i18n.T(lang, "unit.rounds") + " … " + n(config.MaxRecallDepth) + " " + i18n.T(lang, "unit.rounds"),
			"0 " + i18n.T(lang, "unit.ms") + " … " + n(config.MaxDealPaceMS) + " " + i18n.T(lang, "unit.ms"),
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: the operator menu does not show the allowed range %q; drew %s", lang, want, got)
			}
		}
	}
}
