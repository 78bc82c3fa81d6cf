package duel

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestHardBeatsEveryone is the acceptance criterion of games.md §5 (the hard opponent beats the reference players) at a modest
// size: the hard level wins chips against every reference player and the
// easy level with the whole 95 % interval above zero, on both decks. The
// long run is `cabinet duel-eval`.
func TestHardBeatsEveryone(t *testing.T) {
	const seed, deals = 20261122, 800
	t.Logf("seed %d, %d deals per match-up", seed, deals)
	for _, deck := range []int{52, 32} {
		for _, p := range Pairings() {
			if !p.MustBeat {
				continue
			}
			r, err := Match(context.Background(), p.aStrat, p.bStr, p.A, p.B, deck, deals/2, seed)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Beats() {
				t.Errorf("%d cards: %s vs %s: %+.2f ± %.2f chips per deal, want the interval above 0", deck, p.A, p.B, r.Chips, r.ChipsCI)
			}
		}
	}
}

// TestMatchDetectsLoser proves the criterion can fail: the random player
// loses to the threshold player with its whole interval below 0.
func TestMatchDetectsLoser(t *testing.T) {
	r, err := Match(context.Background(), Random{}, Threshold{}, "random", "threshold", 52, 300, 5)
	if err != nil {
		t.Fatal(err)
	}
	if r.Beats() || r.Chips+r.ChipsCI >= 0 {
		t.Errorf("random vs threshold: %+.2f ± %.2f chips per deal, want clearly negative", r.Chips, r.ChipsCI)
	}
}

func TestEvalCommandUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	for _, args := range [][]string{{"--deals", "1"}, {"--deck", "36"}, {"extra"}} {
		if err := EvalCommand(context.Background(), args, &out, &errOut); !errors.Is(err, ErrUsage) {
			t.Errorf("EvalCommand(%q) = %v, want ErrUsage", args, err)
		}
	}
	if err := EvalCommand(context.Background(), []string{"--deals", "40", "--deck", "32"}, &out, &errOut); err != nil && !strings.Contains(err.Error(), "does not clearly beat") {
		t.Fatalf("EvalCommand(--deals 40) = %v", err)
	}
	if !strings.Contains(out.String(), "hard   always-call") {
		t.Errorf("EvalCommand output lacks the table:\n%s", out.String())
	}
}
