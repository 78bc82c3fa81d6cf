package controller

import (
	"strings"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/recovery"
)

// TestDuelResumeAcrossPawn plays Poker Duel deals with the hard strategy,
// cutting the power after every committed step (a fresh boot on the same
// bbolt file), until the computer has pawned an item and a whole session has
// ended (counted from the committed events); every resumed deal must be the one that was cut (same table, same
// legal actions) and the recalled rounds must equal those of an uncut run.
func TestDuelResumeAcrossPawn(t *testing.T) {
	const seed, deals = 4, 120
	play := func(cut bool) (pawns, sessions int, recall []string) {
		r := newRig(t, seed)
		r.onCommit = func(_ game.ID, _ uint64, evs []game.Event) {
			for _, e := range evs {
				if e.Kind == game.Chips && strings.HasPrefix(e.Text, "pawn:") {
					pawns++
				}
				if e.Kind == game.Stake && e.Bet == game.Session {
					sessions++
				}
			}
		}
		r.boot() // with the hook
		for r.c.Completed() < deals {
			if err := r.c.Handle(Input{Auto: &AutoStep{Game: game.Duel}}); err != nil {
				t.Fatalf("AutoStep: %v", err)
			}
			if cut {
				var before string
				if r.c.Round() != nil {
					before = string(mustJSON(r.c.Round().Table())) + string(mustJSON(r.c.Round().Legal(r.c.Credits())))
				}
				r.boot()
				var after string
				if r.c.Round() != nil {
					after = string(mustJSON(r.c.Round().Table())) + string(mustJSON(r.c.Round().Legal(r.c.Credits())))
				}
				if after != before {
					t.Fatalf("deal %d: resume changed the deal:\n before %s\n after  %s", r.c.Completed(), before, after)
				}
			}
		}
		err := r.st.View(func(tx *recovery.Tx) error {
			recs, err := tx.Recall(deals)
			for _, rec := range recs {
				recall = append(recall, string(mustJSON(rec.Steps)))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		m := r.c.Machine()
		if err := m.Meters.Check(m.Credits); err != nil {
			t.Fatal(err)
		}
		return pawns, sessions, recall
	}
	pawns, sessions, uncut := play(false)
	if pawns == 0 || sessions < 2 {
		t.Fatalf("%d pawns and %d sessions in %d deals: the test needs a pawn and a finished session (change the seed)", pawns, sessions, deals)
	}
	_, _, cut := play(true)
	if len(cut) != len(uncut) {
		t.Fatalf("%d rounds recalled with power cuts, %d without", len(cut), len(uncut))
	}
	for i := range uncut {
		if cut[i] != uncut[i] {
			t.Fatalf("recalled round %d differs with power cuts:\n%s\n%s", i, cut[i], uncut[i])
		}
	}
	t.Logf("%d deals, %d sessions bought, %d pawns, identical with a power cut after every step", deals, sessions, pawns)
}
