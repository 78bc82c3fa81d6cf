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

// TestBurstBeforeShown is issue 26's burst as a script, with a window that
// reports what it shows: DEAL, then h s x p d y n z b h s before the
// window has shown the deal. Every key is consumed (the script marks each
// refused), the round stays at its deal, no lamp is lit meanwhile; once the
// deal is shown, the decisions light; and after the round the next deal
// waits for the result's hold.
func TestBurstBeforeShown(t *testing.T) {
	o := opts(t)
	o.Display = true
	burst := ""
	for _, k := range []string{"hit", "stand", "double", "split", "deal", "yes", "no", "special", "bet", "hit", "stand"} {
		burst += "! press " + k + "\n"
	}
	shots, err := Play(Scenario{Name: "burst", Seed: 3, Script: `
		bill 20.00
		shown
		press deal      # Royal Poker's table
		shown
		press bet       # 1.00 on spot 1
		shown
		press deal
		` + burst + `
		shot burst
		shown
		shot dealt
		press stand     # one hand: the dealer plays, the round settles
		! press deal    # before the settlement is shown: consumed
		shown
		! press deal    # shown, not yet held: refused, the result stays
		shot hold
		held
		press deal      # the bets again: round 2
		shot next
	`}, o)
	if err != nil {
		t.Fatal(err)
	}
	b, d, h, n := shots[0].Snap, shots[1].Snap, shots[2].Snap, shots[3].Snap
	if b.Round == nil || b.Round.Round != 1 || b.Round.Done || b.Lamps != 0 || b.Hurry != 11 {
		t.Errorf("after the burst: round %+v, lamps %v, hurry %d; want round 1 at its deal, nothing lit, 11 presses consumed", b.Round, b.Lamps, b.Hurry)
	}
	if b.Credits != 1900 {
		t.Errorf("credits after the burst %v, want 19.00 (one 1.00 deal)", b.Credits)
	}
	if d.Lamps == 0 || d.Present != b.Present {
		t.Errorf("deal shown: lamps %v present %d; want the decisions lit on the same picture %d", d.Lamps, d.Present, b.Present)
	}
	if h.Round == nil || !h.Round.Done || h.Round.Round != 1 || h.Message != controller.NoticeResultShown || h.HoldMS != 1000 {
		t.Errorf("during the hold: round %+v, message %q, HoldMS %d; want round 1 settled on screen, %q, 1000", h.Round, h.Message, h.HoldMS, controller.NoticeResultShown)
	}
	if n.Round == nil || n.Round.Round != 2 {
		t.Errorf("after the hold DEAL dealt round %+v, want round 2", n.Round)
	}
}

// TestOperatorReturnStated: the return of an operator change, with the
// minimum, is on the draft, the confirmation and the saved change (issue
// 35: it was dropped once the change was saved).
func TestOperatorReturnStated(t *testing.T) {
	all, err := PlayAll(opts(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"operator-draft", "operator-confirm", "operator-saved"} {
		s := all[n]
		if s == nil || s.Operator == nil {
			t.Fatalf("%s: no operator screen", n)
		}
		r := s.Operator.RTP
		if r == nil || r.Computing || r.Refused || r.RTP <= 0 || r.MinRTP <= 0 || r.Game == "" {
			t.Errorf("%s: return %+v, want the change's figure and the minimum", n, r)
		}
	}
	if s := all["operator-saved"]; s != nil && s.Operator != nil && (s.Operator.Saved == nil || s.Operator.Confirm) {
		t.Errorf("operator-saved: saved %+v, confirm %v; want the saved change", s.Operator.Saved, s.Operator.Confirm)
	}
}

// TestHandpayPaidConfirmed: the reset key that pays a handpay has the
// screen confirm it with the amount, through the key's release, until the
// next input (issue 35: the lock vanished without a word).
func TestHandpayPaidConfirmed(t *testing.T) {
	shots, err := Play(Scenario{Name: "paid", Seed: 1, Script: `
		bill 100.00
		bill 50.00
		press cashout
		switch reset_key on
		shot paid
		switch reset_key off
		shot released
		bill 20.00
		shot next
	`}, opts(t))
	if err != nil {
		t.Fatal(err)
	}
	want := view.Paid{Kind: "cashout", Amount: 15000}
	for _, s := range shots[:2] {
		if p := s.Snap.Paid; p == nil || *p != want || s.Snap.Handpay != 0 {
			t.Errorf("%s: paid %+v, handpay %v; want %+v confirmed", s.Name, p, s.Snap.Handpay, want)
		}
	}
	if p := shots[2].Snap.Paid; p != nil {
		t.Errorf("after the next input: paid %+v, want the confirmation gone", p)
	}
}
