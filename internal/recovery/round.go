package recovery

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
)

// The open round is stored in parts (docs/recovery.md: a step used to rewrite the
// whole round, shoe and all earlier steps):
//
//	round/open        the header: OpenRound without its steps and without
//	                  the shoe's cards (Layout 2, StepCount, the shoe's
//	                  position and cut card stay here)
//	round/shoe        the shoe's cards, written when they change (once per
//	                  round, or at a reshuffle)
//	round/step<#n>    step n, written once (rewritten only if it differs)
//
// A store written before (Layout 0: everything in round/open) is still read;
// its next PutOpenRound writes the parts.
const roundLayout = 2

var kShoe = []byte("shoe")

// stepKey is "step" + the 8-byte step number.
func stepKey(n int) []byte {
	k := make([]byte, 12)
	copy(k, "step")
	binary.BigEndian.PutUint64(k[4:], uint64(n))
	return k
}

func isStepKey(k []byte) (int, bool) {
	if len(k) != 12 || !bytes.HasPrefix(k, []byte("step")) {
		return 0, false
	}
	return int(binary.BigEndian.Uint64(k[4:])), true
}

// roundHeader is round/open in the parts layout.
type roundHeader struct {
	OpenRound
	Layout    int `json:"layout"`
	StepCount int `json:"step_count"`
}

// roundIdent is what putRound reads of the stored header: which round it is
// and how many of its steps are stored.
type roundIdent struct {
	Game      game.ID   `json:"game"`
	Round     uint64    `json:"round"`
	Start     time.Time `json:"start"`
	Layout    int       `json:"layout"`
	StepCount int       `json:"step_count"`
}

// putRound writes o in parts, each only if its bytes changed; the steps of
// the same round already stored are kept as they are.
func (tx *Tx) putRound(o *OpenRound) error {
	b, err := tx.bucket(bRound)
	if err != nil {
		return err
	}
	putIfChanged := func(key []byte, v any) error {
		var raw []byte
		var err error
		if cards, ok := v.([]card.Card); ok {
			raw, err = encodeCards(bRound, key, cards)
		} else {
			raw, err = encode(bRound, key, v)
		}
		if err != nil {
			return err
		}
		if bytes.Equal(b.Get(key), raw) {
			return nil
		}
		tx.written += len(raw)
		if err := b.Put(key, raw); err != nil {
			return fmt.Errorf("recovery: put %s/%s: %w", bRound, keyString(key), err)
		}
		return nil
	}
	h := roundHeader{OpenRound: *o, Layout: roundLayout, StepCount: len(o.Steps)}
	h.Steps = nil
	if o.Shoe != nil {
		if err := putIfChanged(kShoe, o.Shoe.Cards); err != nil {
			return err
		}
		h.Shoe = &card.Shoe{Pos: o.Shoe.Pos, Cut: o.Shoe.Cut}
	} else if err := b.Delete(kShoe); err != nil {
		return fmt.Errorf("recovery: delete %s/shoe: %w", bRound, err)
	}
	// A committed step is history (write-ahead): steps already stored for
	// this same round are not encoded again to be compared (a round of n
	// steps would encode n(n+1)/2 of them).
	stored := 0
	var was roundIdent
	if raw := b.Get(kOpen); raw != nil && decode(bRound, kOpen, raw, &was) == nil &&
		was.Layout == roundLayout && was.Game == o.Game && was.Round == o.Round && was.Start.Equal(o.Start) {
		stored = min(was.StepCount, len(o.Steps))
	}
	for i, st := range o.Steps {
		if i < stored && b.Get(stepKey(i)) != nil {
			continue
		}
		if err := putIfChanged(stepKey(i), st); err != nil {
			return err
		}
	}
	// Steps beyond the round's (none in play; a shorter round replacing a
	// longer one) go.
	for n := len(o.Steps); b.Get(stepKey(n)) != nil; n++ {
		if err := b.Delete(stepKey(n)); err != nil {
			return fmt.Errorf("recovery: delete step %d: %w", n, err)
		}
	}
	return putIfChanged(kOpen, h)
}

// encodeCards is encode of a slice of cards without reflection: the same
// bytes json.Marshal makes (["AS","10H",...]; a card's text needs no
// escaping), written for the shoe record, which every step compares with the
// stored one (312 cards in a 6-deck shoe).
func encodeCards(bucket, key []byte, cards []card.Card) ([]byte, error) {
	if cards == nil {
		return encode(bucket, key, cards) // null
	}
	out := make([]byte, headerLen, headerLen+2+len(cards)*6)
	out = append(out, '[')
	var err error
	for i, c := range cards {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		if out, err = c.AppendText(out); err != nil {
			return nil, fmt.Errorf("recovery: encode %s/%s: %w", bucket, keyString(key), err)
		}
		out = append(out, '"')
	}
	out = append(out, ']')
	out[0] = recordVersion
	binary.BigEndian.PutUint32(out[1:5], sum(bucket, key, recordVersion, out[headerLen:]))
	return out, nil
}

// getRound reads the open round in either layout.
func (tx *Tx) getRound() (*OpenRound, error) {
	b, err := tx.bucket(bRound)
	if err != nil {
		return nil, err
	}
	raw := b.Get(kOpen)
	if raw == nil {
		return nil, nil
	}
	var h roundHeader
	if err := decode(bRound, kOpen, raw, &h); err != nil {
		return nil, err
	}
	if err := checkMarks(h.Marks); err != nil {
		return nil, err
	}
	o := h.OpenRound
	switch h.Layout {
	case 0: // the whole round in one record (stores before the parts layout)
		return &o, nil
	case roundLayout:
	default:
		return nil, corrupt(bRound, kOpen, "open round layout %d, want %d or 0", h.Layout, roundLayout)
	}
	if h.Shoe != nil {
		var cards []card.Card
		sraw := b.Get(kShoe)
		if sraw == nil {
			return nil, corrupt(bRound, kShoe, "the open round has a shoe, its cards are missing")
		}
		if err := decode(bRound, kShoe, sraw, &cards); err != nil {
			return nil, err
		}
		o.Shoe = &card.Shoe{Cards: cards, Pos: h.Shoe.Pos, Cut: h.Shoe.Cut}
	}
	o.Steps = make([]meters.Step, h.StepCount)
	for i := range h.StepCount {
		sraw := b.Get(stepKey(i))
		if sraw == nil {
			return nil, corrupt(bRound, stepKey(i), "step %d of %d missing", i, h.StepCount)
		}
		if err := decode(bRound, stepKey(i), sraw, &o.Steps[i]); err != nil {
			return nil, err
		}
	}
	return &o, nil
}

// checkMarks verifies the open round's draw marks (OpenRound.Marks):
// distinct card positions 0-4 in ascending order.
func checkMarks(marks []int) error {
	for i, m := range marks {
		if m < 0 || m > 4 || (i > 0 && m <= marks[i-1]) {
			return corrupt(bRound, kOpen, "draw marks %v: want distinct card positions 0-4, ascending", marks)
		}
	}
	return nil
}

// clearRound deletes every part of the open round.
func clearRound(b *bolt.Bucket) error {
	var keys [][]byte
	_ = b.ForEach(func(k, _ []byte) error { keys = append(keys, bytes.Clone(k)); return nil })
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// checkRoundKey verifies one key of the round bucket (Check).
func checkRoundKey(k, raw []byte) error {
	switch {
	case bytes.Equal(k, kOpen):
		var h roundHeader
		if err := decode(bRound, k, raw, &h); err != nil {
			return err
		}
		return checkMarks(h.Marks)
	case bytes.Equal(k, kShoe):
		var cards []card.Card
		return decode(bRound, k, raw, &cards)
	default:
		if _, ok := isStepKey(k); ok {
			var s meters.Step
			return decode(bRound, k, raw, &s)
		}
		return corrupt(bRound, k, "unexpected key")
	}
}
