package rngtest

import (
	"bytes"
	"context"
	"io"
	"testing"

	"cabinet/internal/game/card"
)

func TestRNGBytes(t *testing.T) {
	var out bytes.Buffer
	if err := Command(context.Background(), []string{"--bytes", "100000"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 100000 {
		t.Fatalf("Command(--bytes 100000) wrote %d bytes, want 100000", out.Len())
	}
	// A crude sanity check that cannot be passed by a constant stream:
	// every byte value appears, none wildly often (expected 390.6 each).
	var counts [256]int
	for _, b := range out.Bytes() {
		counts[b]++
	}
	for v, c := range counts {
		if c < 250 || c > 550 {
			t.Errorf("byte %d appears %d times in 100000, want about 391", v, c)
		}
	}
	if err := Command(context.Background(), []string{"--bytes", "-1"}, io.Discard, io.Discard); err == nil {
		t.Errorf("Command(--bytes -1) succeeded, want a usage error")
	}
}

// TestShuffleTestSeeded runs the shuffle tests with fixed seeds: the
// production shuffle must pass, and a biased shuffle must fail both.
func TestShuffleTestSeeded(t *testing.T) {
	for _, tc := range []struct {
		decks, shuffles int
		seed            uint64
	}{{1, 20000, 1}, {2, 6000, 2}} {
		res, err := RunShuffleTest(context.Background(), tc.decks, tc.shuffles, card.NewSeeded(tc.seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: %+v", tc.seed, res)
		if res.PositionP < 1e-4 || res.AdjacencyP < 1e-4 {
			t.Errorf("seed %d, %d decks: p-values %.2g (position) %.2g (adjacency), want ≥ 1e-4", tc.seed, tc.decks, res.PositionP, res.AdjacencyP)
		}
	}
}

// biasedReader makes card.Shuffle biased: every fourth 64-bit word is zero,
// so index 0 is drawn far too often.
type biasedReader struct {
	r io.Reader
	k int
}

func (b *biasedReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	for i := 0; i+8 <= n; i += 8 {
		if b.k%4 == 0 {
			clear(p[i : i+8])
		}
		b.k++
	}
	return n, err
}

func TestShuffleTestDetectsBias(t *testing.T) {
	const seed = 3
	res, err := RunShuffleTest(context.Background(), 1, 20000, &biasedReader{r: card.NewSeeded(seed)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.PositionP > 1e-6 || res.AdjacencyP > 1e-6 {
		t.Errorf("seed %d: biased source: p-values %.2g (position) %.2g (adjacency), want < 1e-6", seed, res.PositionP, res.AdjacencyP)
	}
}
