package card

import (
	"encoding/json"
	"math"
	"testing"
)

func TestParseFormatRoundTrip(t *testing.T) {
	var seen [52]bool
	for _, c := range Deck() {
		got, err := ParseCard(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCard(%q) = %v, %v; want %v", c.String(), got, err, c)
		}
		if i := c.Index(); i < 0 || i > 51 || seen[i] {
			t.Errorf("%v.Index() = %d: outside 0..51 or shared", c, i)
		} else {
			seen[i] = true
		}
	}
	cs := MustParse("AS KH 10D 2C td")
	if got, want := Format(cs), "AS KH 10D 2C 10D"; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"A", "1S", "AX", "11H", "S", "AS K"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) succeeded, want error", in)
		}
	}
}

func TestJSON(t *testing.T) {
	s := NewShoe(1)
	s.Pos, s.Cut = 3, 40
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Shoe
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if Format(back.Cards) != Format(s.Cards) || back.Pos != 3 || back.Cut != 40 {
		t.Errorf("shoe JSON round trip changed the shoe: %s", b)
	}
}

func TestShoeDraws(t *testing.T) {
	s := NewShoe(2)
	seen := map[Card]int{}
	s.Rand = NewSeeded(7)
	for s.Remaining() > 0 {
		c, err := s.Draw()
		if err != nil {
			t.Fatal(err)
		}
		seen[c]++
	}
	if _, err := s.Draw(); err != ErrEmpty {
		t.Errorf("Draw on empty shoe = %v, want ErrEmpty", err)
	}
	for _, c := range Deck() {
		if seen[c] != 2 {
			t.Errorf("card %v dealt %d times from two decks, want 2", c, seen[c])
		}
	}
}

func TestUniformRejects(t *testing.T) {
	// A reader that yields the maximal word first: for n=3 it is in the
	// incomplete block (2^64-1 >= 2^64 - 1), so it must be rejected.
	r := &fixedWords{words: []uint64{math.MaxUint64, 4}}
	v, err := Uniform(r, 3)
	if err != nil || v != 1 {
		t.Errorf("Uniform = %d, %v; want 1 (first word rejected)", v, err)
	}
}

type fixedWords struct{ words []uint64 }

func (f *fixedWords) Read(p []byte) (int, error) {
	w := f.words[0]
	f.words = f.words[1:]
	for i := range 8 {
		p[i] = byte(w >> (8 * i))
	}
	return 8, nil
}

// chiSquarePositions shuffles n cards many times and returns the chi-square
// statistic of the card-at-position table and its degrees of freedom.
func chiSquarePositions(t *testing.T, n, shuffles int, shuffle func([]Card)) (float64, int) {
	t.Helper()
	counts := make([][]int, n)
	for i := range counts {
		counts[i] = make([]int, n)
	}
	base := Deck()[:n]
	slot := map[Card]int{}
	for i, c := range base {
		slot[c] = i
	}
	cs := make([]Card, n)
	for range shuffles {
		copy(cs, base)
		shuffle(cs)
		for pos, c := range cs {
			counts[pos][slot[c]]++
		}
	}
	exp := float64(shuffles) / float64(n)
	var chi float64
	for pos := range n {
		for k := range n {
			d := float64(counts[pos][k]) - exp
			chi += d * d / exp
		}
	}
	return chi, (n - 1) * (n - 1)
}

// criticalChi returns the chi-square value exceeded with probability ~1e-4
// (Wilson–Hilferty approximation, z = 3.719).
func criticalChi(df int) float64 {
	k := float64(df)
	z := 3.719
	v := 1 - 2/(9*k) + z*math.Sqrt(2/(9*k))
	return k * v * v * v
}

func TestShuffleChiSquare(t *testing.T) {
	const seed = 20261122
	r := NewSeeded(seed)
	chi, df := chiSquarePositions(t, 52, 40000, func(cs []Card) {
		if err := Shuffle(cs, r); err != nil {
			t.Fatal(err)
		}
	})
	if crit := criticalChi(df); chi > crit {
		t.Errorf("seed %d: chi-square of card positions = %.1f (df %d), above %.1f: shuffle looks biased", seed, chi, df, crit)
	}
	// The same lazy draws (one Fisher–Yates step per card) must be uniform too.
	chi, df = chiSquarePositions(t, 52, 40000, func(cs []Card) {
		s := &Shoe{Cards: cs, Rand: r}
		for i := range cs {
			c, err := s.Draw()
			if err != nil {
				t.Fatal(err)
			}
			cs[i] = c
		}
	})
	if crit := criticalChi(df); chi > crit {
		t.Errorf("seed %d: chi-square of lazy draws = %.1f (df %d), above %.1f", seed, chi, df, crit)
	}
}

// TestChiSquareDetectsBias proves the statistic above can fail: the classic
// naive shuffle (swap each position with any position) is biased and must be
// caught with the same threshold.
func TestChiSquareDetectsBias(t *testing.T) {
	r := NewSeeded(1)
	chi, df := chiSquarePositions(t, 6, 200000, func(cs []Card) {
		for i := range cs {
			j, err := Uniform(r, uint64(len(cs)))
			if err != nil {
				t.Fatal(err)
			}
			cs[i], cs[j] = cs[j], cs[i]
		}
	})
	if crit := criticalChi(df); chi <= crit {
		t.Errorf("naive shuffle chi-square = %.1f (df %d), not above %.1f: the test cannot see bias", chi, df, crit)
	}
}

func BenchmarkShuffle6Decks(b *testing.B) {
	s := NewShoe(6)
	r := NewSeeded(1)
	for b.Loop() {
		if err := s.Shuffle(r); err != nil {
			b.Fatal(err)
		}
	}
}
