package scenario

import (
	"testing"

	"cabinet/internal/controller"
)

// Issue 35: a round a player can follow, played through the real
// controller with a window that reports what it shows.

// TestNoticeTellsWhatIsTrue is issue 35's Free Bet mash: STAND settles the
// round, then HIT is pressed again and again. During the result's hold the
// notice says the result is being shown (not "no round: bet and DEAL"
// with the bet on the table); after it, that DEAL plays the bet again.
// Each refusal is numbered, so the window can fade it (display/notice.go).
func TestNoticeTellsWhatIsTrue(t *testing.T) {
	o := opts(t)
	o.Display = true
	shots, err := Play(Scenario{Name: "mash", Seed: 1, Script: `
		bill 20.00
		shown
		menu freebet
		press deal
		shown
		press bet
		shown
		press deal
		shown
		press stand     # the dealer plays: the round settles (paid 2.00)
		! press hit     # during the reveal: consumed
		shown
		! press hit     # the result on screen, held
		shot hold
		! press hit
		shot hold2
		held
		! press hit     # the hold is over
		shot after
		press bet       # a chip placed
		! press hit
		shot placed
	`}, o)
	if err != nil {
		t.Fatal(err)
	}
	h, h2, a, p := shots[0].Snap, shots[1].Snap, shots[2].Snap, shots[3].Snap
	if h.Round == nil || !h.Round.Done || h.Round.Paid != 200 {
		t.Fatalf("hold: round %+v, want round 1 settled, paid 2.00", h.Round)
	}
	for _, tc := range []struct {
		name, got, want string
	}{
		{"during the hold", h.Message, controller.NoticeResultShown},
		{"after the hold, no chip placed", a.Message, controller.NoticeDealAgain},
		{"after the hold, a chip placed", p.Message, controller.NoticeDealBets},
	} {
		if tc.got != tc.want {
			t.Errorf("HIT %s: notice %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if h.Refusal == 0 || h2.Refusal <= h.Refusal || a.Refusal <= h2.Refusal {
		t.Errorf("refusal numbers %d, %d, %d: want each refusal numbered anew (the window fades each from its own press)", h.Refusal, h2.Refusal, a.Refusal)
	}
}
