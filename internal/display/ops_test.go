package display

import (
	"strconv"
	"strings"
	"testing"

	"cabinet/internal/config"
	"cabinet/internal/controller"
	"cabinet/internal/hw"
	"cabinet/internal/i18n"
	"cabinet/internal/money"
	"cabinet/internal/view"
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

// TestOperatorReturnOnScreen: the return an operator change gives, with
// the minimum, is on the draft's row, in the "Save this change?" prompt
// and in the "Saved" line, in both languages (issue 35: the figure was
// shown only in a refusal, or alone under the list while drafting).
func TestOperatorReturnOnScreen(t *testing.T) {
	for _, lang := range i18n.Langs() {
		for _, tc := range []struct{ shot, key string }{
			{"operator-draft", "operator.rtp_row"},
			{"operator-confirm", "operator.confirm_rtp"},
			{"operator-saved", "operator.saved_rtp"},
		} {
			s := screen(t, tc.shot)
			r := s.Operator.RTP
			if r == nil || r.MinRTP == 0 {
				t.Fatalf("%s: return %+v, want a figure and a minimum", tc.shot, r)
			}
			figure, bound := i18n.Percent(lang, r.RTP), i18n.Tf(lang, "operator.rtp_min", i18n.Percent(lang, r.MinRTP))
			want := i18n.Tf(lang, tc.key, figure, bound)
			if tc.key == "operator.saved_rtp" {
				sv := s.Operator.Saved
				want = i18n.Tf(lang, tc.key, strings.Join(labels(lang, sv.Label), " — "), i18n.Money(lang, mustCents(t, sv.Value), s.Currency), figure, bound)
			}
			got := strings.Join(drawn(t, offscreen(t), tc.shot, lang), " ")
			if !strings.Contains(got, want) {
				t.Errorf("%s %s: %q not drawn; drew %s", lang, tc.shot, want, got)
			}
		}
	}
}

// TestDraftRefusedSaysWhere: YES on a refused draft says where the reason
// is, and it is there: the notice in the title bar, the reason below the
// list (issue 35: "the reason is shown above" while it was below).
func TestDraftRefusedSaysWhere(t *testing.T) {
	o := offscreen(t)
	below := map[string]string{i18n.EN: "below", i18n.FR: "plus bas"}
	for _, lang := range i18n.Langs() {
		s := screen(t, "operator-draft")
		s.Lang, s.Message = lang, "draft_refused"
		s.Operator.Error = &view.OperatorError{Setting: s.Operator.Items[s.Operator.Cursor], Value: s.Operator.Items[s.Operator.Cursor].Value}
		l, err := o.inkOf(s, false)
		if err != nil {
			t.Fatal(err)
		}
		msg := i18n.T(lang, "msg.draft_refused")
		reason, _, _ := strings.Cut(i18n.T(lang, "operator.refused"), "%s")
		var msgY, reasonY float32 = -1, -1
		for _, x := range l.texts {
			switch {
			case x.s == msg:
				msgY = x.ink.Y
			case strings.HasPrefix(x.s, reason):
				reasonY = x.ink.Y
			}
		}
		if msgY < 0 || reasonY < 0 {
			t.Fatalf("%s: notice at %v, reason at %v: want both drawn", lang, msgY, reasonY)
		}
		if reasonY <= msgY || !strings.Contains(msg, below[lang]) {
			t.Errorf("%s: %q at y %v, the reason at y %v: want the notice to say where the reason is (%q)", lang, msg, msgY, reasonY, below[lang])
		}
	}
}

func labels(lang string, keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = i18n.T(lang, k)
	}
	return out
}

func mustCents(t *testing.T, v string) money.Cents {
	t.Helper()
	c, err := money.Parse(v)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHandpayPaidOnScreen: a handpay paid by the reset key is confirmed on
// the screen that follows, with its amount, for a cash-out and a jackpot,
// in both languages (issue 35).
func TestHandpayPaidOnScreen(t *testing.T) {
	o := offscreen(t)
	for _, lang := range i18n.Langs() {
		for _, kind := range []string{"cashout", "jackpot"} {
			s := screen(t, "handpay-paid")
			if s.Paid == nil {
				t.Fatal("handpay-paid: nothing paid")
			}
			s.Lang, s.Paid.Kind = lang, kind
			got := drawnSnap(t, o, s)
			want := i18n.Tf(lang, "paid."+kind, i18n.Money(lang, s.Paid.Amount, s.Currency))
			if !strings.Contains(strings.Join(got, " "), want) {
				t.Errorf("%s %s: %q not drawn; drew %q", lang, kind, want, got)
			}
		}
	}
}

// TestArcBelowTitleBar: the table's printed arc stays on the felt, never
// over the title bar (issue 35: its ends crossed the game's name and the
// round number). The bar's rows under its texts are one colour across.
func TestArcBelowTitleBar(t *testing.T) {
	o := offscreen(t)
	for _, name := range []string{"royal", "classic", "freebet", "zappit"} {
		img, err := o.Image(screen(t, name), 0)
		if err != nil {
			t.Fatal(err)
		}
		bar := topBar()
		for y := int(bar.H) - 4; y < int(bar.H)-1; y++ { // below the texts and the jackpot, above the bar's line
			ref := img.RGBAAt(2, y)
			for x := 0; x < ScreenW; x++ {
				if jp := jackpotBar.Inset(-4); name == "royal" && float32(x) >= jp.X && float32(x) < jp.X+jp.W {
					continue // Royal Poker's jackpot meter is part of the bar
				}
				if c := img.RGBAAt(x, y); !near(c, ref, 6) {
					t.Errorf("%s: the title bar at (%d, %d) is %v, not its own %v: something is drawn over it", name, x, y, c, ref)
					break
				}
			}
		}
	}
}

// TestHelpButtonsLabelled: on the help pages the lit buttons say what they
// do there (next page, close help, play), in both languages (issue 35:
// they carried the table's words, Deal, Bet +, Spot, Games).
func TestHelpButtonsLabelled(t *testing.T) {
	o := offscreen(t)
	for _, lang := range i18n.Langs() {
		for _, name := range []string{"help-royal", "help-duel", "help-attract"} {
			s := screen(t, name)
			s.Lang = lang
			l, err := o.inkOf(s, false)
			if err != nil {
				t.Fatal(err)
			}
			labels := map[string][]string{}
			for _, x := range l.texts {
				if x.panel > 0 {
					labels[l.panels[x.panel-1].name] = append(labels[l.panels[x.panel-1].name], x.s)
				}
			}
			lit := 0
			for b := hw.Button(0); b < hw.NumButtons; b++ {
				if !s.Lamps.Has(b) {
					continue
				}
				lit++
				want := i18n.T(lang, "btn.helppage."+b.String())
				if !i18n.Has(lang, "btn.helppage."+b.String()) {
					t.Errorf("%s %s: %s is lit on help and has no help label", lang, name, b)
				}
				if got := strings.Join(labels["button "+b.String()], " "); got != want {
					t.Errorf("%s %s: %s reads %q, want %q", lang, name, b, got, want)
				}
			}
			if lit < 3 {
				t.Errorf("%s %s: %d buttons lit, want the help's", lang, name, lit)
			}
		}
	}
}

// TestOperatorPagesUseSpace: a page of the operator menu that another page
// of its group follows fills the list, and any page of six settings or more
// fills more than half of it, in both languages, with nothing cut (issue
// 35: pages of eight small rows left half the screen empty, and Free Bet
// took three pages).
func TestOperatorPagesUseSpace(t *testing.T) {
	o := offscreen(t)
	c, cfg, _ := realController(t)
	if err := c.Handle(controller.HW(hw.Input{Kind: hw.SwitchChanged, Switch: hw.OperatorKey, On: true})); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for range cfg.Items(nil) {
		s := c.Snapshot()
		op := s.Operator
		page := op.Group + " " + strconv.Itoa(op.Page)
		if !seen[page] && len(op.Items) >= 6 {
			seen[page] = true
			for _, lang := range i18n.Langs() {
				s.Lang = lang
				l, err := o.inkOf(s, false)
				if err != nil {
					t.Fatal(err)
				}
				bottom := float32(0)
				for _, x := range l.texts {
					if x.panel == 0 && x.ink.Y > operatorList.Y && x.ink.Y < operatorList.Y+operatorList.H {
						bottom = max(bottom, x.ink.Y+x.ink.H)
					}
				}
				// A page another of its group follows is full; a page of
				// six settings or more fills more than half of the list.
				want := 0.5
				if op.Page+1 < op.Pages {
					want = 0.8
				}
				used := (bottom - operatorList.Y) / operatorList.H
				t.Logf("%s, page %s: %d settings fill %.0f%%", lang, page, len(op.Items), used*100)
				if float64(used) < want {
					t.Errorf("%s, page %s (%d of %d): %d settings fill %.0f%% of the list's height, want %.0f%% or more", lang, page, op.Page+1, op.Pages, len(op.Items), used*100, want*100)
				}
				if len(l.cut) > 0 {
					t.Errorf("%s, page %s: cut %v", lang, page, l.cut)
				}
			}
		}
		if err := c.Handle(controller.HW(hw.Input{Kind: hw.ButtonPressed, Button: hw.Stand})); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) < 3 {
		t.Errorf("%d pages of six settings or more, want the cabinet's and the games'", len(seen))
	}
}
