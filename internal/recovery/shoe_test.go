package recovery

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
)

func testShoe(t *testing.T, no uint64, g game.ID) *Shoe {
	t.Helper()
	cards := card.NewShoe(1).Cards
	if err := card.Shuffle(cards, card.NewSeeded(no)); err != nil {
		t.Fatal(err)
	}
	sec, err := card.NewSecret(card.NewSeeded(no + 1000))
	if err != nil {
		t.Fatal(err)
	}
	c, err := card.Commitment(sec, 0, cards)
	if err != nil {
		t.Fatal(err)
	}
	return &Shoe{No: no, Game: g, Commitment: c, Secret: sec.String(), Cards: cards, Committed: time.Unix(1, 0).UTC()}
}

// TestShoeRecords: a committed shoe is stored per game, revealed into the
// ring (which keeps 2×RecallDepth), and a record whose commitment does not
// match its secret and cards is refused.
func TestShoeRecords(t *testing.T) {
	s, _ := openTest(t, Options{Init: true, RecallDepth: MinRecallDepth})
	err := s.Update(func(tx *Tx) error {
		for i := range 2*MinRecallDepth + 3 {
			no, err := tx.NextShoeNo()
			if err != nil {
				return err
			}
			if no != uint64(i+1) {
				t.Errorf("NextShoeNo = %d, want %d", no, i+1)
			}
			sh := testShoe(t, no, game.Classic)
			if err := tx.PutShoe(sh); err != nil {
				return err
			}
			sh.Revealed, sh.Pos = time.Unix(2, 0).UTC(), 4
			if err := tx.RevealShoe(sh); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(func(tx *Tx) error {
		pending, err := tx.Shoes()
		if err != nil || len(pending) != 0 {
			t.Errorf("Shoes = %v, %v; want none once revealed", pending, err)
		}
		rev, err := tx.RevealedShoes(0)
		if err != nil || len(rev) != 2*MinRecallDepth || rev[0].No != 2*MinRecallDepth+3 || rev[0].Pos != 4 {
			t.Errorf("RevealedShoes: %d shoes, newest %+v, %v; want %d, newest %d", len(rev), rev[0].No, err, 2*MinRecallDepth, 2*MinRecallDepth+3)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	bad := testShoe(t, 99, game.Royal)
	bad.Cards[0], bad.Cards[1] = bad.Cards[1], bad.Cards[0]
	if err := s.Update(func(tx *Tx) error { return tx.PutShoe(bad) }); err == nil {
		t.Errorf("PutShoe with an order that does not hash to its commitment: no error")
	}
}

// TestCheckFindsAlteredShoe: a committed shoe whose order was changed and
// its record sealed again (a valid checksum) fails the boot check: the
// commitment is recomputed.
func TestCheckFindsAlteredShoe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	s, err := Open(path, Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(func(tx *Tx) error { return tx.PutShoe(testShoe(t, 1, game.Zappit)) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("Check = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// The record rewritten as someone who knows the format would.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	sh := testShoe(t, 1, game.Zappit)
	sh.Cards[0], sh.Cards[1] = sh.Cards[1], sh.Cards[0]
	err = db.Update(func(btx *bolt.Tx) error {
		raw, err := encode(bShoe, []byte(game.Zappit), sh)
		if err != nil {
			return err
		}
		return btx.Bucket(bShoe).Put([]byte(game.Zappit), raw)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.Check(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Check of a store with an altered shoe = %v, want ErrCorrupt", err)
	}
}

// TestVerifyRound: verified, not revealed, not committed, and the
// mismatches (the commitment, the order, the positions).
func TestVerifyRound(t *testing.T) {
	sh := testShoe(t, 7, game.Classic)
	dealt := sh.Cards[:4]
	var evs []game.Event
	for _, c := range dealt {
		evs = append(evs, game.Event{Kind: game.CardDealt, Card: c})
	}
	rec := func(ref *meters.ShoeRef) *meters.Recall {
		return &meters.Recall{Round: 3, Game: game.Classic, Steps: []meters.Step{{Events: evs}}, Shoe: ref}
	}
	ok := &meters.ShoeRef{No: 7, Commitment: sh.Commitment, From: 0, To: 4}
	if err := VerifyRound(rec(ok), sh); err != nil {
		t.Errorf("VerifyRound = %v", err)
	}
	if err := VerifyRound(rec(ok), nil); !errors.Is(err, ErrNotRevealed) {
		t.Errorf("VerifyRound without the revealed shoe = %v, want ErrNotRevealed", err)
	}
	if err := VerifyRound(rec(nil), nil); !errors.Is(err, ErrNotCommitted) {
		t.Errorf("VerifyRound of a round naming no shoe = %v, want ErrNotCommitted", err)
	}
	other := *ok
	other.Commitment = testShoe(t, 8, game.Classic).Commitment
	swapped := *sh
	swapped.Cards = append([]card.Card(nil), sh.Cards...)
	swapped.Cards[10], swapped.Cards[11] = swapped.Cards[11], swapped.Cards[10]
	shifted := *ok
	shifted.From, shifted.To = 1, 5
	for name, err := range map[string]error{
		"another commitment shown": VerifyRound(rec(&other), sh),
		"order altered":            VerifyRound(rec(ok), &swapped),
		"other positions":          VerifyRound(rec(&shifted), sh),
	} {
		if !errors.Is(err, ErrMismatch) {
			t.Errorf("%s: VerifyRound = %v, want ErrMismatch", name, err)
		}
	}
}
