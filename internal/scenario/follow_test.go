package scenario

import (
	"testing"

	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/game/duel"
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
	shots, err := Play(Scenario{Name: "mash", Seed: 11, Script: `
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

// TestDuelFollows is issue 35's Poker Duel items through the real
// controller: each BET+ press steps the amount shown (two presses from the
// ante's 5 show 15, where the first press used to change nothing) and YES
// opens what is shown; DRAW during the betting says to bet first; the
// player's fold ends the deal; the next deal's amount starts again from
// the ante, not the last deal's 15.
func TestDuelFollows(t *testing.T) {
	all, err := PlayAll(opts(t))
	if err != nil {
		t.Fatal(err)
	}
	bet, early, fold, next := all["duel-bet"], all["duel-draw-early"], all["duel-fold"], all["duel-next"]
	if bet.DuelInput == nil || bet.DuelInput.Amount != 15 {
		t.Errorf("two BET+ from the ante: amount shown %+v, want 15", bet.DuelInput)
	}
	d := duel.PictureOf(*early.Round)
	if d == nil || len(d.Moves) == 0 || d.Moves[0].Baron || d.Moves[0].Kind != game.Open || d.Moves[0].Amount != 15 {
		t.Errorf("YES after 15 shown: moves %+v, want the player's open of 15 first", d)
	}
	if early.Message != controller.NoticeDuelBetFirst {
		t.Errorf("DRAW before answering: notice %q, want %q", early.Message, controller.NoticeDuelBetFirst)
	}
	if f := duel.PictureOf(*fold.Round); f == nil || f.Message != "duel.computer_wins" || f.Moves[len(f.Moves)-1].Kind != game.Pass {
		t.Errorf("NO: picture %+v, want the deal over on the player's pass", f)
	}
	if next.DuelInput == nil || next.DuelInput.Amount != 5 {
		t.Errorf("the next deal: amount shown %+v, want the ante, 5", next.DuelInput)
	}
}
