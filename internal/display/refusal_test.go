package display

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"cabinet/internal/controller"
	"cabinet/internal/game"
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

// TestResultNotCovered is issue 35's Free Bet round: a button refused once
// the round has settled says so under the round's result, never in its
// place: "Paid 2.00" and the notice both drawn, in both languages.
func TestResultNotCovered(t *testing.T) {
	o := offscreen(t)
	for _, lang := range []string{"fr", "en"} {
		s := screen(t, "result-notice")
		if s.Message != controller.NoticeDealAgain || s.Round == nil || s.Round.Paid == 0 {
			t.Fatalf("result-notice: message %q, round %+v; want %q on a paid round", s.Message, s.Round, controller.NoticeDealAgain)
		}
		got := strings.Join(drawn(t, o, "result-notice", lang), " ")
		for _, want := range []string{i18n.Tf(lang, "table.paid", i18n.Money(lang, s.Round.Paid, s.Currency)), i18n.T(lang, "msg."+s.Message)} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: %q not drawn; drew %q", lang, want, got)
			}
		}
	}
}

// TestRefusalFades: a refusal's notice shows for view.RefusalMS from its
// own press (a new refusal starts again), then the standing notice under
// it; a standing notice never fades.
func TestRefusalFades(t *testing.T) {
	var c refusalClock
	for _, tc := range []struct {
		now     float64
		refusal uint64
		want    bool
	}{{10, 4, false}, {12.9, 4, false}, {13, 4, true}, {14, 5, false}, {16.9, 5, false}, {17, 5, true}, {30, 0, false}} {
		s := &view.Snapshot{Message: "deal_again", Refusal: tc.refusal, Standing: "host_locked"}
		if got := c.faded(s, tc.now); got != tc.want {
			t.Errorf("faded(refusal %d at %vs) = %v, want %v", tc.refusal, tc.now, got, tc.want)
		}
	}
	s := &view.Snapshot{Message: "deal_again", Refusal: 1, Standing: "host_locked"}
	for faded, want := range map[bool]string{false: "deal_again", true: "host_locked"} {
		if got := (&frame{s: s, faded: faded}).msg(); got != want {
			t.Errorf("msg() faded %v = %q, want %q", faded, got, want)
		}
	}
}

// TestOutcomesNamed is issue 35's outcomes, each through the real
// controller and named on screen in both languages: the insurance's cost
// in its offer, its loss after the peek (the insured tag gone), its pay
// with the dealer's blackjack, the dealer's blackjack, and Free Bet's
// dealer 22 that pushes.
func TestOutcomesNamed(t *testing.T) {
	o := offscreen(t)
	for _, tc := range []struct {
		shot string
		want func(lang string) []string
		not  []string // keys whose text must not be drawn
	}{
		{"insurance-offer", func(l string) []string {
			return []string{i18n.Tf(l, "prompt.insurance_cost", i18n.Money(l, 500, "€"))}
		}, nil},
		{"insurance-lost", func(l string) []string {
			return []string{i18n.T(l, "callout.insurance_lost"), i18n.T(l, "note.insurance_lost")}
		}, []string{"note.insured"}},
		{"insurance-pays", func(l string) []string {
			return []string{i18n.T(l, "callout.insurance"), i18n.T(l, "note.insured_paid")}
		}, []string{"note.insured"}},
		{"dealer-blackjack", func(l string) []string { return []string{i18n.T(l, "callout.dealer_blackjack")} }, nil},
		{"dealer22", func(l string) []string {
			return []string{i18n.T(l, "callout.dealer22"), i18n.T(l, "note.dealer22")}
		}, nil},
	} {
		for _, lang := range []string{"fr", "en"} {
			got := drawn(t, o, tc.shot, lang)
			all := strings.Join(got, " ")
			for _, want := range tc.want(lang) {
				if !strings.Contains(all, want) {
					t.Errorf("%s (%s): %q not drawn; drew %q", tc.shot, lang, want, got)
				}
			}
			for _, k := range tc.not {
				if slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, i18n.T(lang, k)+" ") }) {
					t.Errorf("%s (%s): %q still drawn; drew %q", tc.shot, lang, i18n.T(lang, k), got)
				}
			}
		}
	}
}

// TestRoyalSideFindable is issue 35's Royal Poker side bet: with SPOT on
// its circle, that circle (not a spot's) is drawn highlighted, and the
// table says how the bet is staked, in both languages.
func TestRoyalSideFindable(t *testing.T) {
	o := offscreen(t)
	s := screen(t, "royal-side")
	if s.SpotBet != game.RoyalSide {
		t.Fatalf("royal-side: SpotBet %q, want %q (the position SPOT chose)", s.SpotBet, game.RoyalSide)
	}
	img, err := o.image(s, 0, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	info := view.GameInfo{}
	for _, g := range s.Games {
		if g.ID == s.Game {
			info = g
		}
	}
	x, y, r := sideBetCenter(game.RoyalSide, 0, 0, info.Spots)
	ring := px(img, x+r+3+2, y) // in the highlight's ring, right of the circle
	if !near(ring, colActive, 60) {
		t.Errorf("Royal Poker circle's ring at (%v, %v) = %v, want the highlight %v", x+r+5, y, ring, colActive)
	}
	for sp := range info.Spots {
		if c := px(img, spotCenterX(sp, info.Spots)+betCircleR+4, betCircleY); near(c, colActive, 40) {
			t.Errorf("spot %d's ring = %v: highlighted, but SPOT is on the Royal Poker circle", sp+1, c)
		}
	}
	for _, lang := range []string{"fr", "en"} {
		if got := drawn(t, o, "royal-side", lang); !slices.Contains(got, i18n.T(lang, "table.royal_howto")) {
			t.Errorf("%s: %q not drawn; drew %q", lang, i18n.T(lang, "table.royal_howto"), got)
		}
	}
}

// TestDuelFoldNamed: at Poker Duel the player's own fold is named with the
// deal's result, and DRAW during the betting says to bet first, in both
// languages (issue 35).
func TestDuelFoldNamed(t *testing.T) {
	o := offscreen(t)
	for _, lang := range []string{"fr", "en"} {
		fold := i18n.T(lang, "duel.say.you_pass") + " — " + i18n.T(lang, "msg.computer_wins")
		if got := drawn(t, o, "duel-fold", lang); !slices.Contains(got, fold) {
			t.Errorf("duel-fold (%s): %q not drawn; drew %q", lang, fold, got)
		}
		early := i18n.T(lang, "msg.duel_bet_first")
		if got := strings.Join(drawn(t, o, "duel-draw-early", lang), " "); !strings.Contains(got, early) {
			t.Errorf("duel-draw-early (%s): %q not drawn; drew %q", lang, early, got)
		}
	}
}
