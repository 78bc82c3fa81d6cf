package poker

import (
	"testing"

	"cabinet/internal/game/card"
)

// TestEvalEqualsEvalBits compares the table evaluator with the bit-counting
// one it replaced, over every hand: all C(52,5) hands with both deck rules
// (the 52-card deck's cards under short=true are never dealt, but Eval must
// still not differ) and, implicitly, all C(32,5) hands of the short deck.
func TestEvalEqualsEvalBits(t *testing.T) {
	for _, short := range []bool{false, true} {
		n, bad := 0, 0
		forEachHand(card.Deck(), func(h [5]card.Card) {
			n++
			if got, want := Eval(h, short), evalBits(h, short); got != want && bad < 10 {
				bad++
				t.Errorf("short=%v Eval(%s) = %v (%#x), evalBits = %v (%#x)", short, card.Format(h[:]), got, uint32(got), want, uint32(want))
			}
		})
		if n != 2598960 {
			t.Errorf("short=%v: compared %d hands, want 2598960", short, n)
		}
	}
}

// TestEvalEqualsEvalBits32 does the same over the 32-card deck alone and
// counts its categories, so the short deck's table is checked on its own.
func TestEvalEqualsEvalBits32(t *testing.T) {
	var got [9]int
	forEachHand(card.ShortDeck(), func(h [5]card.Card) {
		v := Eval(h, true)
		if w := evalBits(h, true); v != w {
			t.Fatalf("Eval(%s, short) = %v, evalBits = %v", card.Format(h[:]), v, w)
		}
		got[v.Category()]++
	})
	if want := formulaCounts(8, 5); got != want {
		t.Errorf("32-card category counts = %v, want %v", got, want)
	}
}

// TestRankKeysUnique proves what Eval's tables rest on: the rank key (the
// sum of the five ranks' weights) differs between any two multisets of five
// ranks with at most four of a rank, and fits in keyBits.
func TestRankKeysUnique(t *testing.T) {
	classes := rankClasses()
	if len(classes) != classCount {
		t.Errorf("%d rank multisets, want %d", len(classes), classCount)
	}
	seen := map[uint64]string{}
	for _, c := range classes {
		h := card.Format(c.hand[:])
		if c.key > keyMask {
			t.Errorf("ranks of %s: key %d does not fit in %d bits", h, c.key, keyBits)
		}
		if other, dup := seen[c.key]; dup {
			t.Errorf("ranks of %s and %s share key %d", h, other, c.key)
		}
		seen[c.key] = h
		if evalBits(c.hand, false).Category() == Flush {
			t.Errorf("representative hand %s is a flush", h)
		}
	}
}

// TestEvalTablesDeterministic rebuilds the tables and finds them unchanged.
func TestEvalTablesDeterministic(t *testing.T) {
	codes, ds, dd := cardCode, disp, decks
	buildTables()
	if codes != cardCode || ds != disp || dd != decks {
		t.Error("buildTables made different tables on a second run")
	}
}

func TestEvalAllocatesNothing(t *testing.T) {
	h := [5]card.Card(card.MustParse("AS KD 7C 7H 2S"))
	var sink Value
	if n := testing.AllocsPerRun(100, func() { sink ^= Eval(h, false) ^ Eval(h, true) }); n != 0 {
		t.Errorf("Eval allocates %v times per call, want 0", n)
	}
	_ = sink
}
