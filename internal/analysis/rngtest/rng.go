package rngtest

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"syscall"

	"cabinet/internal/game/card"
)

// Command implements
//
//	cabinet rng --bytes N
//	cabinet rng shuffle-test --decks D --shuffles N [--seed S]
//
// The first writes N raw bytes (0 = until the reader stops) from crypto/rand,
// the cabinet's production source, for external suites such as dieharder.
// The second shuffles D decks N times with card.Shuffle (the production
// shuffle) and prints chi-square tests of card-position uniformity and of
// pair adjacency with p-values; --seed uses the deterministic seeded source
// instead of crypto/rand.
func Command(ctxt context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "shuffle-test" {
		return shuffleTestCommand(ctxt, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("rng", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int64("bytes", 0, "number of random bytes to write (0 = until the reader closes the pipe)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("rng: %w: %w", ErrUsage, err)
	}
	if *n < 0 || fs.NArg() > 0 {
		return fmt.Errorf("rng: %w: cabinet rng --bytes N | cabinet rng shuffle-test --decks D --shuffles N [--seed S]", ErrUsage)
	}
	return writeRandom(ctxt, stdout, rand.Reader, *n)
}

// writeRandom copies n bytes (0 = unlimited) from src to w; a closed pipe
// ends an unlimited stream without error.
func writeRandom(ctxt context.Context, w io.Writer, src io.Reader, n int64) error {
	buf := make([]byte, 1<<16)
	for written := int64(0); n == 0 || written < n; {
		if err := ctxt.Err(); err != nil {
			return fmt.Errorf("rng: %w", err)
		}
		k := int64(len(buf))
		if n > 0 {
			k = min(k, n-written)
		}
		if _, err := io.ReadFull(src, buf[:k]); err != nil {
			return fmt.Errorf("rng: read random source: %w", err)
		}
		if _, err := w.Write(buf[:k]); err != nil {
			if n == 0 && errors.Is(err, syscall.EPIPE) {
				return nil
			}
			return fmt.Errorf("rng: write: %w", err)
		}
		written += k
	}
	return nil
}

// ShuffleTest is the result of the shuffle chi-square tests.
type ShuffleTest struct {
	Cards, Shuffles int
	Source          string
	// Position: label at position table (n×n). The raw Pearson statistic of a
	// random permutation matrix is asymptotically n/(n−1) times a chi-square
	// with (n−1)² df (the covariance of a permutation matrix has that single
	// eigenvalue on the space orthogonal to the row and column sums), so the
	// statistic reported is the raw one × (n−1)/n.
	PositionChi float64
	PositionDF  int
	PositionP   float64
	// Adjacency: label i directly followed by label j (i ≠ j), n(n−1) cells.
	// Each cell is an indicator per shuffle with mean 1/n, so the statistic's
	// null mean is (n−1)², the df used.
	AdjacencyChi float64
	AdjacencyDF  int
	AdjacencyP   float64
}

// RunShuffleTest shuffles decks×52 distinctly labelled cards shuffles times
// with card.Shuffle and src. Labels ride in the Card values (card.Shuffle
// only moves values), so every physical card of a multi-deck shoe is told
// apart: uniformity over labels implies uniformity over card faces.
func RunShuffleTest(ctxt context.Context, decks, shuffles int, src io.Reader, progress func(string)) (ShuffleTest, error) {
	n := 52 * decks
	res := ShuffleTest{Cards: n, Shuffles: shuffles}
	if decks < 1 || decks > 8 || shuffles < 1 {
		return res, fmt.Errorf("rng: shuffle-test --decks %d --shuffles %d: %w: want 1–8 decks and at least 1 shuffle", decks, shuffles, ErrUsage)
	}
	label := func(c card.Card) int { return int(c.Rank) | int(c.Suit)<<8 }
	base := make([]card.Card, n)
	for i := range base {
		base[i] = card.Card{Rank: card.Rank(i & 0xff), Suit: card.Suit(i >> 8)}
	}
	pos := make([]int64, n*n)
	adj := make([]int64, n*n)
	cs := make([]card.Card, n)
	for s := range shuffles {
		if s%1000 == 0 {
			if err := ctxt.Err(); err != nil {
				return res, fmt.Errorf("rng: shuffle-test: %w", err)
			}
			if progress != nil && s > 0 && s%20000 == 0 {
				progress(fmt.Sprintf("%d/%d shuffles", s, shuffles))
			}
		}
		copy(cs, base)
		if err := card.Shuffle(cs, src); err != nil {
			return res, fmt.Errorf("rng: shuffle-test: %w", err)
		}
		prev := -1
		for p, c := range cs {
			l := label(c)
			pos[p*n+l]++
			if prev >= 0 {
				adj[prev*n+l]++
			}
			prev = l
		}
	}
	e := float64(shuffles) / float64(n)
	var chi float64
	for _, o := range pos {
		d := float64(o) - e
		chi += d * d / e
	}
	res.PositionChi = chi * float64(n-1) / float64(n)
	res.PositionDF = (n - 1) * (n - 1)
	res.PositionP = ChiSquareSF(res.PositionChi, res.PositionDF)
	ea := float64(shuffles) / float64(n) // (n−1) adjacencies over n(n−1) cells per shuffle
	chi = 0
	for i := range n {
		for j := range n {
			if i == j {
				continue
			}
			d := float64(adj[i*n+j]) - ea
			chi += d * d / ea
		}
	}
	res.AdjacencyChi = chi
	res.AdjacencyDF = (n - 1) * (n - 1)
	res.AdjacencyP = ChiSquareSF(chi, res.AdjacencyDF)
	return res, nil
}

func shuffleTestCommand(ctxt context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rng shuffle-test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	decks := fs.Int("decks", 1, "decks in the shoe (1–8)")
	shuffles := fs.Int("shuffles", 100000, "number of shuffles")
	seed := fs.Uint64("seed", 0, "use the deterministic seeded source with this seed (default: crypto/rand)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("rng shuffle-test: %w: %w", ErrUsage, err)
	}
	var src io.Reader = bufio.NewReaderSize(rand.Reader, 1<<16)
	name := "crypto/rand (production source)"
	seeded := false
	fs.Visit(func(f *flag.Flag) { seeded = seeded || f.Name == "seed" })
	if seeded {
		src = card.NewSeeded(*seed)
		name = fmt.Sprintf("seeded ChaCha8, seed %d", *seed)
	}
	n := 52 * *decks
	if *shuffles < 5*n {
		fmt.Fprintf(stderr, "warning: %d shuffles give fewer than 5 expected counts per cell; use at least %d\n", *shuffles, 5*n)
	}
	res, err := RunShuffleTest(ctxt, *decks, *shuffles, src, func(s string) { fmt.Fprintln(stderr, s) })
	if err != nil {
		return err
	}
	res.Source = name
	fmt.Fprintf(stdout, "shuffle test: %d deck(s) = %d distinct cards, %d shuffles, source %s, card.Shuffle (Fisher–Yates, rejection sampling)\n",
		*decks, n, *shuffles, name)
	fmt.Fprintf(stdout, "position uniformity: chi-square %.1f  df %d  p = %.4f  (raw statistic × (n-1)/n)\n", res.PositionChi, res.PositionDF, res.PositionP)
	fmt.Fprintf(stdout, "pair adjacency:      chi-square %.1f  df %d  p = %.4f\n", res.AdjacencyChi, res.AdjacencyDF, res.AdjacencyP)
	verdict := "no evidence of bias (both p-values within 0.001–0.999)"
	for _, p := range []float64{res.PositionP, res.AdjacencyP} {
		if p < 0.001 || p > 0.999 {
			verdict = "SUSPICIOUS: a p-value outside 0.001–0.999; repeat with another run before concluding"
		}
	}
	fmt.Fprintln(stdout, verdict)
	return nil
}
