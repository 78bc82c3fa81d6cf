package recovery

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
)

// Committed shoes (issue 38, docs/verify.md). Two buckets, created by their
// first write (a store made before them has neither):
//
//	shoe/<game>    the game's committed shoe: shuffled and committed before
//	               the player can bet on it, dealt from by the next round
//	               (a continuous shoe: by every round until its cut card);
//	               its secret is not shown until the shoe is finished
//	shoe/seq       the number of the last shoe committed (8 bytes)
//	shoes/#<seq>   revealed shoes, finished (or retired unused), in the
//	               order revealed; the ring keeps 2×RecallDepth of them
//
// A finished shoe's record is final: it holds what the cabinet reveals
// (commitment, secret, cut card, order) and how far it was dealt.
var (
	bShoe    = []byte("shoe")
	bShoes   = []byte("shoes")
	kShoeSeq = []byte("seq")
)

// Shoe is a committed shoe.
type Shoe struct {
	// No numbers the shoes of the cabinet (1, 2, …), in the order committed.
	No   uint64  `json:"no"`
	Game game.ID `json:"game"`
	// Commitment is C (card.Commitment of Secret, Cut, Cards), hex.
	Commitment string `json:"commitment"`
	// Secret is the commitment's secret, hex (card.Secret.String).
	Secret string      `json:"secret"`
	Cards  []card.Card `json:"cards"`
	Cut    int         `json:"cut,omitempty"`
	// Pos is the next card to deal: 0 until a round dealt from it; a
	// continuous shoe's rounds advance it, and a revealed shoe keeps how
	// far it was dealt.
	Pos       int       `json:"pos"`
	Committed time.Time `json:"committed"`
	// Revealed: when the shoe was finished (or retired) and revealed; zero
	// while it is committed and not revealed.
	Revealed time.Time `json:"revealed,omitzero"`
	// Retired says why a shoe was revealed before it was finished (the
	// rules it was shuffled for changed), "" for a finished shoe.
	Retired string `json:"retired,omitempty"`
}

// check verifies a shoe record: its commitment recomputed from its secret,
// cut card and cards, its position within the shoe.
func (s *Shoe) check() error {
	if !s.Game.Valid() {
		return fmt.Errorf("shoe %d of unknown game %q", s.No, s.Game)
	}
	sec, err := card.ParseSecret(s.Secret)
	if err != nil {
		return fmt.Errorf("shoe %d: %w", s.No, err)
	}
	if err := card.CheckCommitment(s.Commitment, sec, s.Cut, s.Cards); err != nil || len(s.Commitment) != 64 {
		return fmt.Errorf("shoe %d: commitment %q does not match its secret and cards (%v)", s.No, s.Commitment, err)
	}
	if s.Pos < 0 || s.Pos > len(s.Cards) {
		return fmt.Errorf("shoe %d: position %d of %d cards", s.No, s.Pos, len(s.Cards))
	}
	return nil
}

// Shoes returns the committed shoes not yet revealed, by game.
func (tx *Tx) Shoes() (map[game.ID]*Shoe, error) {
	out := map[game.ID]*Shoe{}
	b := tx.tx.Bucket(bShoe)
	if b == nil {
		return out, nil
	}
	err := b.ForEach(func(k, raw []byte) error {
		if bytes.Equal(k, kShoeSeq) {
			return nil
		}
		s := new(Shoe)
		if err := decode(bShoe, k, raw, s); err != nil {
			return err
		}
		if string(k) != string(s.Game) {
			return corrupt(bShoe, k, "holds a shoe of %q", s.Game)
		}
		out[s.Game] = s
		return nil
	})
	return out, err
}

// NextShoeNo returns the number of the next shoe to commit and records it
// as taken.
func (tx *Tx) NextShoeNo() (uint64, error) {
	b, err := tx.titoBucket(bShoe)
	if err != nil {
		return 0, err
	}
	var n uint64
	if raw := b.Get(kShoeSeq); raw != nil {
		if err := decode(bShoe, kShoeSeq, raw, &n); err != nil {
			return 0, err
		}
	}
	n++
	return n, tx.put(bShoe, kShoeSeq, n)
}

// PutShoe writes game s.Game's committed shoe.
func (tx *Tx) PutShoe(s *Shoe) error {
	if err := s.check(); err != nil {
		return fmt.Errorf("recovery: put shoe: %w", err)
	}
	if !s.Revealed.IsZero() {
		return fmt.Errorf("recovery: put shoe %d: it is revealed (RevealShoe)", s.No)
	}
	if _, err := tx.titoBucket(bShoe); err != nil {
		return err
	}
	return tx.put(bShoe, []byte(s.Game), s)
}

// RevealShoe ends game s.Game's committed shoe: it leaves shoe/<game> and
// joins the ring of revealed shoes (which keeps 2×RecallDepth of them,
// oldest first out: every round of the recall ring dealt from one of them
// unless more than RecallDepth shoes were retired unused meanwhile).
func (tx *Tx) RevealShoe(s *Shoe) error {
	if err := s.check(); err != nil {
		return fmt.Errorf("recovery: reveal shoe: %w", err)
	}
	if s.Revealed.IsZero() {
		return fmt.Errorf("recovery: reveal shoe %d: no time of revelation", s.No)
	}
	if b := tx.tx.Bucket(bShoe); b != nil {
		var cur Shoe
		if raw := b.Get([]byte(s.Game)); raw != nil && decode(bShoe, []byte(s.Game), raw, &cur) == nil && cur.No == s.No {
			if err := b.Delete([]byte(s.Game)); err != nil {
				return fmt.Errorf("recovery: reveal shoe %d: %w", s.No, err)
			}
		}
	}
	if _, err := tx.titoBucket(bShoes); err != nil {
		return err
	}
	return tx.push(bShoes, 2*tx.s.opt.RecallDepth, func(uint64) any { return s })
}

// RevealedShoes returns up to n revealed shoes, newest first (n <= 0: all).
func (tx *Tx) RevealedShoes(n int) ([]Shoe, error) {
	if tx.tx.Bucket(bShoes) == nil {
		return nil, nil
	}
	var out []Shoe
	err := tx.ring(bShoes, n, func(k, raw []byte) error {
		var s Shoe
		if err := decode(bShoes, k, raw, &s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// checkShoes verifies the two shoe buckets (Check).
func checkShoes(tx *Tx, add func(error)) {
	if b := tx.tx.Bucket(bShoe); b != nil {
		_ = b.ForEach(func(k, raw []byte) error {
			if bytes.Equal(k, kShoeSeq) {
				var n uint64
				add(decode(bShoe, k, raw, &n))
				return nil
			}
			var s Shoe
			if err := decode(bShoe, k, raw, &s); err != nil {
				add(err)
				return nil
			}
			if string(k) != string(s.Game) {
				add(corrupt(bShoe, k, "holds a shoe of %q", s.Game))
			} else if err := s.check(); err != nil {
				add(corrupt(bShoe, k, "%v", err))
			}
			return nil
		})
	}
	if b := tx.tx.Bucket(bShoes); b != nil {
		var prev uint64
		_ = b.ForEach(func(k, raw []byte) error {
			if len(k) != 8 {
				add(corrupt(bShoes, k, "ring key is not an 8-byte sequence number"))
				return nil
			}
			if n := binary.BigEndian.Uint64(k); n <= prev {
				add(corrupt(bShoes, k, "sequence %d after %d", n, prev))
			} else {
				prev = n
			}
			var s Shoe
			if err := decode(bShoes, k, raw, &s); err != nil {
				add(err)
			} else if err := s.check(); err != nil {
				add(corrupt(bShoes, k, "%v", err))
			}
			return nil
		})
	}
}

// VerifyRound checks a recalled round against its revealed shoe s (nil:
// not found among the revealed ones): the round's commitment is the
// shoe's, the shoe's secret, cut card and order hash to it, and the cards
// the round dealt, in order, are the shoe's at the positions the round
// names. nil means verified; a round that dealt no card verifies
// trivially when it names no shoe.
func VerifyRound(rec *meters.Recall, s *Shoe) error {
	var dealt []card.Card
	for _, st := range rec.Steps {
		dealt = append(dealt, game.Drawn(st.Events)...)
	}
	ref := rec.Shoe
	switch {
	case ref == nil && len(dealt) == 0:
		return nil
	case ref == nil:
		return fmt.Errorf("round %d dealt %d cards: %w", rec.Round, len(dealt), ErrNotCommitted)
	case s == nil:
		return fmt.Errorf("round %d: shoe %d: %w", rec.Round, ref.No, ErrNotRevealed)
	case s.No != ref.No:
		panic("BUG: recovery.VerifyRound with another shoe")
	case s.Commitment != ref.Commitment:
		return fmt.Errorf("%w: round %d was shown commitment %s, shoe %d reveals commitment %s", ErrMismatch, rec.Round, ref.Commitment, s.No, s.Commitment)
	}
	sec, err := card.ParseSecret(s.Secret)
	if err != nil {
		return fmt.Errorf("%w: shoe %d: %w", ErrMismatch, s.No, err)
	}
	if err := card.CheckCommitment(ref.Commitment, sec, s.Cut, s.Cards); err != nil {
		return fmt.Errorf("%w: round %d, shoe %d: %w", ErrMismatch, rec.Round, s.No, err)
	}
	if ref.From < 0 || ref.From > ref.To || ref.To > len(s.Cards) || ref.To-ref.From != len(dealt) {
		return fmt.Errorf("%w: round %d dealt %d cards, its record names positions %d to %d of shoe %d (%d cards)",
			ErrMismatch, rec.Round, len(dealt), ref.From, ref.To, s.No, len(s.Cards))
	}
	for i, c := range dealt {
		if want := s.Cards[ref.From+i]; c != want {
			return fmt.Errorf("%w: round %d's card %d is %s, the committed shoe %d has %s at position %d",
				ErrMismatch, rec.Round, i+1, c, s.No, want, ref.From+i)
		}
	}
	return nil
}

// RevealText is a revealed shoe as the player's verifier reads it
// (docs/verify.md, docs/verify.html): one field a line.
func RevealText(s *Shoe, ref *meters.ShoeRef) string {
	var b strings.Builder
	fmt.Fprintf(&b, "commitment %s\nsecret %s\ncut %d\norder %s\n", s.Commitment, s.Secret, s.Cut, card.Format(s.Cards))
	if ref != nil {
		fmt.Fprintf(&b, "dealt %d %d\n", ref.From, ref.To)
	}
	return b.String()
}
