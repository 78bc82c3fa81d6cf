package duel

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"sync"

	"cabinet/internal/game/duel"
)

// Pairing is one measured match-up: A is the side whose result is shown.
type Pairing struct {
	A, B         string
	MustBeat     bool // the acceptance criterion of games.md §5 (the hard opponent beats the reference players)
	aStrat, bStr duel.Strategy
}

// Pairings lists the match-ups of the evaluation: the hard level against
// every reference player and the easy level (each must be beaten), and the
// easy level against the reference players (for information).
func Pairings() []Pairing {
	hard, easy := duel.HardStrategy{}, duel.EasyStrategy{Rev: duel.CurrentAIRev}
	return []Pairing{
		{"hard", "always-call", true, hard, AlwaysCall{}},
		{"hard", "threshold", true, hard, Threshold{}},
		{"hard", "random", true, hard, Random{}},
		{"hard", "easy", true, hard, easy},
		{"easy", "always-call", false, easy, AlwaysCall{}},
		{"easy", "threshold", false, easy, Threshold{}},
		{"easy", "random", false, easy, Random{}},
	}
}

// Evaluate plays every pairing on deck with deals deals each (rounded up to
// pairs), in parallel, and returns the results in Pairings order.
func Evaluate(ctx context.Context, deck, deals int, seed uint64) ([]Result, error) {
	ps := Pairings()
	out := make([]Result, len(ps))
	errs := make([]error, len(ps))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i], errs[i] = Match(ctx, p.aStrat, p.bStr, p.A, p.B, deck, (deals+1)/2, mixSeed(seed, uint64(i), 99))
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// EvalCommand implements `cabinet duel-eval --deals N --seed S [--deck 32|52|both]`.
// It returns an error when a required match-up is not won with a margin
// outside its interval.
func EvalCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel-eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	deals := fs.Int("deals", 20000, "deals per match-up (played as mirrored pairs)")
	seed := fs.Uint64("seed", 1, "seed of the shoes and of the players' randomness")
	deckF := fs.String("deck", "both", "deck: 32, 52 or both")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", ErrUsage, err)
	}
	if *deals < 2 || fs.NArg() > 0 {
		return fmt.Errorf("%w: want --deals of at least 2 and no other arguments", ErrUsage)
	}
	var decks []int
	switch *deckF {
	case "32":
		decks = []int{32}
	case "52":
		decks = []int{52}
	case "both":
		decks = []int{52, 32}
	default:
		return fmt.Errorf("%w: --deck %q: want 32, 52 or both", ErrUsage, *deckF)
	}
	fmt.Fprintf(stdout, "Poker Duel opponent evaluation: %d deals per match-up (mirrored pairs), seed %d, 95%% intervals\n", *deals, *seed)
	var failed []string
	for _, deck := range decks {
		res, err := Evaluate(ctx, deck, *deals, *seed)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\n%d-card deck\n%-6s %-12s %8s %18s %22s  %s\n", deck, "A", "B", "deals", "A win rate", "A chips/deal", "verdict")
		for i, r := range res {
			verdict := "A wins"
			switch {
			case r.Beats():
			case r.Chips+r.ChipsCI < 0:
				verdict = "A loses"
			default:
				verdict = "no clear winner"
			}
			if Pairings()[i].MustBeat {
				if r.Beats() {
					verdict += " (required: ok)"
				} else {
					verdict += " (required: FAILED)"
					failed = append(failed, fmt.Sprintf("%s vs %s (%d cards)", r.A, r.B, deck))
				}
			}
			fmt.Fprintf(stdout, "%-6s %-12s %8d %8.2f%% ± %5.2f %+10.3f ± %7.3f  %s\n",
				r.A, r.B, r.Deals, 100*r.WinRate, 100*r.WinCI, r.Chips, r.ChipsCI, verdict)
		}
	}
	fmt.Fprintln(stdout, "\nchips/deal: A's mean net result per deal, antes included (the criterion: required match-ups must keep the whole interval above 0).")
	fmt.Fprintln(stdout, "win rate: share of pots A took; mirrored pairs hold it at 50 % against a player who never folds.")
	if len(failed) > 0 {
		return fmt.Errorf("duel-eval: the hard level does not clearly beat %v", failed)
	}
	return nil
}
