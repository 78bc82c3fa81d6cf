package recovery

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
)

func sampleOpen(steps int) *OpenRound {
	shoe := card.NewShoe(6)
	shoe.Pos, shoe.Cut = 12, 250
	o := &OpenRound{Game: game.Classic, Round: 7, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Rules: json.RawMessage(`{"decks":6}`), State: json.RawMessage(`{"x":1}`), Shoe: shoe, CreditsBefore: 500}
	for i := range steps {
		o.Steps = append(o.Steps, meters.Step{N: i, Action: game.Action{Kind: game.Hit},
			Events: []game.Event{{Kind: game.CardDealt, Card: card.MustParse("QS")[0]}}})
	}
	return o
}

// TestRoundPartsExact: the open round stored in parts reads back exactly;
// a further step writes the step and the header, not the shoe or the
// earlier steps (README, Performance); the shoe's cards are rewritten when they change.
func TestRoundPartsExact(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	o := sampleOpen(3)
	var first, next, reshuffled int
	put := func(o *OpenRound, n *int) {
		t.Helper()
		if err := s.Update(func(tx *Tx) error {
			err := tx.PutOpenRound(o)
			*n = tx.written
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var got *OpenRound
		_ = s.View(func(tx *Tx) error { var err error; got, err = tx.OpenRound(); return err })
		if !sameJSONTest(got, o) {
			t.Fatalf("OpenRound() = %+v, want %+v", got, o)
		}
	}
	put(o, &first)
	o.Steps = append(o.Steps, meters.Step{N: 3, Action: game.Action{Kind: game.Stand}})
	o.Shoe.Pos++
	put(o, &next)
	o.Shoe.Cards[0], o.Shoe.Cards[1] = o.Shoe.Cards[1], o.Shoe.Cards[0]
	put(o, &reshuffled)
	shoeBytes := len(seal(bRound, kShoe, mustJSON(t, o.Shoe.Cards)))
	if next >= first-shoeBytes || reshuffled < shoeBytes {
		t.Errorf("bytes written: first %d, next step %d, after a reshuffle %d (shoe %d): want the step alone small, the reshuffle to rewrite the shoe", first, next, reshuffled, shoeBytes)
	}
	// Closing the round removes every part.
	if err := s.Update(func(tx *Tx) error { return tx.CloseRound(sampleRecall(7)) }); err != nil {
		t.Fatal(err)
	}
	_ = s.View(func(tx *Tx) error {
		n := 0
		_ = tx.tx.Bucket(bRound).ForEach(func(_, _ []byte) error { n++; return nil })
		if n != 0 {
			t.Errorf("%d keys left in the round bucket after CloseRound", n)
		}
		return nil
	})
}

// TestRoundOldLayoutRead: a store written before the parts layout (the
// whole round in round/open) is read as it was; the next step writes parts.
// A missing step or shoe of the parts layout is corruption.
func TestRoundOldLayoutRead(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	o := sampleOpen(2)
	if err := s.Update(func(tx *Tx) error {
		m, _ := tx.Machine()
		m.NextRound = 8
		return tx.PutMachine(m)
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.bolt().Update(func(btx *bolt.Tx) error {
		raw, err := encode(bRound, kOpen, o) // the old layout: one record
		if err != nil {
			return err
		}
		return btx.Bucket(bRound).Put(kOpen, raw)
	}); err != nil {
		t.Fatal(err)
	}
	var got *OpenRound
	if err := s.View(func(tx *Tx) error { var err error; got, err = tx.OpenRound(); return err }); err != nil || !sameJSONTest(got, o) {
		t.Fatalf("old layout: OpenRound() = %+v, %v", got, err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("Check of the old layout = %v", err)
	}
	if err := s.Update(func(tx *Tx) error { return tx.PutOpenRound(o) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("Check after the switch to parts = %v", err)
	}
	// Damage: a step of the parts layout goes missing.
	if err := s.bolt().Update(func(btx *bolt.Tx) error { return btx.Bucket(bRound).Delete(stepKey(1)) }); err != nil {
		t.Fatal(err)
	}
	if err := s.View(func(tx *Tx) error { _, err := tx.OpenRound(); return err }); !errors.Is(err, ErrCorrupt) {
		t.Errorf("missing step: OpenRound() = %v, want ErrCorrupt", err)
	}
	if err := s.Check(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("missing step: Check() = %v, want ErrCorrupt", err)
	}
	s.failed = nil // the cleanup's Check would report it again
	if err := s.Update(func(tx *Tx) error { return tx.PutOpenRound(o) }); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEncodeCardsIsJSON: the shoe record's encoder makes the bytes encode
// (json.Marshal) makes, for shoes of every size, an empty and a nil slice,
// and refuses an invalid card as encode does.
func TestEncodeCardsIsJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, decks := range []int{0, 1, 2, 6, 8} {
		cards := card.NewShoe(max(decks, 1)).Cards
		if decks == 0 {
			cards = []card.Card{}
		}
		rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
		got, err := encodeCards(bRound, kShoe, cards)
		want, werr := encode(bRound, kShoe, cards)
		if err != nil || werr != nil || !bytes.Equal(got, want) {
			t.Errorf("%d decks: encodeCards = %q, %v; encode = %q, %v", decks, got, err, want, werr)
		}
	}
	var none []card.Card
	if got, want := mustEncodeCards(t, none), must(encode(bRound, kShoe, none)); !bytes.Equal(got, want) {
		t.Errorf("nil: %q, want %q", got, want)
	}
	if _, err := encodeCards(bRound, kShoe, []card.Card{{}}); err == nil {
		t.Error("an invalid card was encoded")
	}
}

func mustEncodeCards(t *testing.T, cs []card.Card) []byte {
	t.Helper()
	b, err := encodeCards(bRound, kShoe, cs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestRoundMarks: Poker Duel's draw marks are part of the open round's
// header: they read back as put, a change of marks writes the header alone
// (not the shoe or the steps), a record without them (written before they
// were committed) reads as no marks, marks that are not distinct ascending
// positions 0-4 are refused and write nothing, and such marks found in the
// store are corruption.
func TestRoundMarks(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	o := sampleOpen(3)
	if err := s.Update(func(tx *Tx) error {
		m, _ := tx.Machine()
		m.NextRound = 8
		return tx.PutMachine(m)
	}); err != nil {
		t.Fatal(err)
	}
	read := func() (*OpenRound, error) {
		var got *OpenRound
		err := s.View(func(tx *Tx) error { var err error; got, err = tx.OpenRound(); return err })
		return got, err
	}
	if err := s.Update(func(tx *Tx) error { return tx.PutOpenRound(o) }); err != nil {
		t.Fatal(err)
	}
	_ = s.bolt().View(func(btx *bolt.Tx) error {
		if raw := btx.Bucket(bRound).Get(kOpen); bytes.Contains(raw, []byte(`"marks"`)) {
			t.Errorf("a round without marks stored %q: want no marks field (as records before them)", raw)
		}
		return nil
	})
	if got, err := read(); err != nil || got.Marks != nil {
		t.Fatalf("no marks: OpenRound() marks %v, %v; want none", got.Marks, err)
	}
	o.Marks = []int{0, 2, 4}
	var written int
	if err := s.Update(func(tx *Tx) error { err := tx.PutOpenRound(o); written = tx.written; return err }); err != nil {
		t.Fatal(err)
	}
	if got, err := read(); err != nil || !sameJSONTest(got, o) {
		t.Fatalf("marks: OpenRound() = %+v, %v; want %+v", got, err, o)
	}
	if shoe := len(seal(bRound, kShoe, mustJSON(t, o.Shoe.Cards))); written >= shoe {
		t.Errorf("a change of marks wrote %d bytes, want the header alone (the shoe is %d)", written, shoe)
	}
	for _, bad := range [][]int{{5}, {-1}, {2, 0}, {1, 1}} {
		b := *o
		b.Marks = bad
		if err := s.Update(func(tx *Tx) error { return tx.PutOpenRound(&b) }); err == nil {
			t.Errorf("PutOpenRound with marks %v accepted", bad)
		}
		if got, err := read(); err != nil || !slices.Equal(got.Marks, o.Marks) {
			t.Errorf("after refusing marks %v: stored %v, %v; want %v", bad, got.Marks, err, o.Marks)
		}
	}
	// Damage with a valid checksum: a position beyond the hand.
	if err := s.bolt().Update(func(btx *bolt.Tx) error {
		h := roundHeader{OpenRound: *o, Layout: roundLayout, StepCount: len(o.Steps)}
		h.Steps, h.Shoe, h.Marks = nil, &card.Shoe{Pos: o.Shoe.Pos, Cut: o.Shoe.Cut}, []int{7}
		raw, err := encode(bRound, kOpen, h)
		if err != nil {
			return err
		}
		return btx.Bucket(bRound).Put(kOpen, raw)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := read(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("marks [7]: OpenRound() = %v, want ErrCorrupt", err)
	}
	if err := s.Check(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "draw marks [7]") {
		t.Errorf("marks [7]: Check() = %v, want ErrCorrupt naming the marks", err)
	}
	s.failed = nil // the cleanup's Check would report it again
	if err := s.Update(func(tx *Tx) error { return tx.PutOpenRound(o) }); err != nil {
		t.Fatal(err)
	}
}
