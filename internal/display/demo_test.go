package display

import (
	"slices"
	"strings"
	"testing"

	"cabinet/internal/i18n"
	"cabinet/internal/view"
)

// TestAttractDemo: with no credit the attract screen takes turns with the
// demo round played through the real controller (scenario "demo"), each
// picture marked DEMONSTRATION with the attract screen's lamps and
// credits; with credits in there is no demo.
func TestAttractDemo(t *testing.T) {
	o := offscreen(t)
	attract := screen(t, "attract")
	var demo []*view.Snapshot
	for _, n := range []string{"demo-1", "demo-2", "demo-3", "demo-4"} {
		demo = append(demo, screen(t, n))
	}
	var d demoReel
	if got := d.pick(attract, demo, 1); got != nil {
		t.Error("a demo picture during the attract spell")
	}
	first := d.pick(attract, demo, attractSpell+0.1)
	second := d.pick(attract, demo, attractSpell+demoStep*1.5)
	if first == nil || second == nil {
		t.Fatal("no demo picture after the attract spell")
	}
	if !first.Demo || first.Lamps != attract.Lamps || first.Credits != attract.Credits || first.Mode != view.Table {
		t.Errorf("demo picture: demo %v lamps %v credits %v mode %s, want marked, the attract lamps %v and credits %v",
			first.Demo, first.Lamps, first.Credits, first.Mode, attract.Lamps, attract.Credits)
	}
	if second.Round == nil || len(second.Round.Hands) == 0 {
		t.Error("the second demo picture shows no dealt round")
	}
	// The demo round is nobody's (issue 26): no round number of its own
	// store, no win on the meter.
	if second.Round != nil && second.Round.Round != 0 || second.Win != 0 {
		t.Errorf("demo picture shows round %d, win %v; want neither", second.Round.Round, second.Win)
	}
	if got := d.pick(attract, demo, attractSpell+0.2); got != first {
		t.Error("the same demo picture is not the same snapshot (the frame cache would redraw it every frame)")
	}
	if got := d.pick(screen(t, "menu"), demo, attractSpell+0.1); got != nil {
		t.Error("demo shown with credits in")
	}
	// A notice of the cabinet on the attract screen is not covered by the
	// demo while it is shown (issue 35): a handpay paid, a bill returned.
	if paid := screen(t, "handpay-paid"); paid.Mode != view.Attract || d.pick(paid, demo, attractSpell+0.1) != nil {
		t.Errorf("handpay-paid (mode %s): the demo covers the handpay's confirmation", paid.Mode)
	}
	refused := *attract
	refused.Message = "bill_refused"
	if d.pick(&refused, demo, attractSpell+0.1) != nil {
		t.Error("the demo covers a bill's refusal on the attract screen")
	}
	for _, lang := range []string{"fr", "en"} {
		first.Lang = lang
		got := drawn(t, o, "demo-1", lang) // sanity: the demo table itself draws
		if len(got) == 0 {
			t.Fatal("demo table drew nothing")
		}
		var strs []string
		o.seen = func(s string) { strs = append(strs, s) }
		if _, err := o.image(first, 0, false, nil); err != nil {
			t.Fatal(err)
		}
		o.seen = nil
		want := i18n.T(lang, "attract.demo")
		if !slices.ContainsFunc(strs, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("%s: demo picture not marked %q", lang, want)
		}
		// The demonstration's round is no round of this cabinet: its
		// number is not shown (issue 26).
		second.Lang, strs = lang, nil
		o.seen = func(s string) { strs = append(strs, s) }
		if _, err := o.image(second, 0, false, nil); err != nil {
			t.Fatal(err)
		}
		o.seen = nil
		if n := i18n.Tf(lang, "meter.round", second.Round.Round); slices.Contains(strs, n) {
			t.Errorf("%s: demo picture shows its round number %q", lang, n)
		}
	}
}
