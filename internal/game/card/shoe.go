package card

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
)

// ErrEmpty is returned by Draw when no undealt card is left.
var ErrEmpty = errors.New("card: shoe is empty")

// Source gives cards to an engine, one per call. The engine records every
// card it draws in the step's events, so a replay uses a Stack of those cards.
type Source interface {
	Draw() (Card, error)
}

// Deck returns the 52 cards in a fixed order (spades 2..A, hearts, diamonds, clubs).
func Deck() []Card {
	out := make([]Card, 0, 52)
	for _, s := range Suits {
		for r := Two; r <= Ace; r++ {
			out = append(out, Card{Rank: r, Suit: s})
		}
	}
	return out
}

// ShortDeck returns the 32-card deck (7 to ace) used by Poker Duel.
func ShortDeck() []Card {
	out := make([]Card, 0, 32)
	for _, s := range Suits {
		for r := Seven; r <= Ace; r++ {
			out = append(out, Card{Rank: r, Suit: s})
		}
	}
	return out
}

// Shoe is N decks with a position: Cards[:Pos] are dealt, Cards[Pos:] are not.
// Its exported fields are its stable encoding (the store persists shoes).
//
// Rand is not persisted: the caller attaches the random source for the step
// being decided. With Rand set, Draw is DrawRandom (lazy Fisher–Yates); with
// Rand nil, Draw deals Cards[Pos] (a shoe shuffled up front).
type Shoe struct {
	Cards []Card    `json:"cards"`
	Pos   int       `json:"pos"`
	Cut   int       `json:"cut,omitempty"` // position of the cut card; 0 = none
	Rand  io.Reader `json:"-"`
}

// NewShoe returns an unshuffled shoe of n fresh decks.
func NewShoe(decks int) *Shoe {
	if decks < 1 {
		panic("BUG: card.NewShoe with fewer than one deck")
	}
	cards := make([]Card, 0, 52*decks)
	for range decks {
		cards = append(cards, Deck()...)
	}
	return &Shoe{Cards: cards}
}

// Remaining is the number of undealt cards.
func (s *Shoe) Remaining() int { return len(s.Cards) - s.Pos }

// CutReached reports whether the cut card has come out (dealing has passed it).
func (s *Shoe) CutReached() bool { return s.Cut > 0 && s.Pos >= s.Cut }

// Draw deals the next card; see the Shoe doc for the two modes.
func (s *Shoe) Draw() (Card, error) {
	if s.Rand != nil {
		return s.DrawRandom(s.Rand)
	}
	if s.Pos >= len(s.Cards) {
		return Card{}, ErrEmpty
	}
	c := s.Cards[s.Pos]
	s.Pos++
	return c, nil
}

// DrawRandom performs one Fisher–Yates step: it picks one undealt card
// uniformly at random (rejection sampling), swaps it to Pos and deals it.
func (s *Shoe) DrawRandom(r io.Reader) (Card, error) {
	n := s.Remaining()
	if n <= 0 {
		return Card{}, ErrEmpty
	}
	j, err := Uniform(r, uint64(n))
	if err != nil {
		return Card{}, fmt.Errorf("card: draw: %w", err)
	}
	k := s.Pos + int(j)
	s.Cards[s.Pos], s.Cards[k] = s.Cards[k], s.Cards[s.Pos]
	c := s.Cards[s.Pos]
	s.Pos++
	return c, nil
}

// Shuffle shuffles every card of the shoe (dealt or not), resets Pos to 0 and
// keeps Cut. It is the classic Fisher–Yates, each index chosen by Uniform.
func (s *Shoe) Shuffle(r io.Reader) error {
	s.Pos = 0
	return Shuffle(s.Cards, r)
}

// Clone returns a deep copy without the random source.
func (s *Shoe) Clone() *Shoe {
	return &Shoe{Cards: append([]Card(nil), s.Cards...), Pos: s.Pos, Cut: s.Cut}
}

// Shuffle permutes cs uniformly at random (Fisher–Yates with rejection sampling).
func Shuffle(cs []Card, r io.Reader) error {
	for i := len(cs) - 1; i > 0; i-- {
		j, err := Uniform(r, uint64(i+1))
		if err != nil {
			return fmt.Errorf("card: shuffle: %w", err)
		}
		cs[i], cs[j] = cs[j], cs[i]
	}
	return nil
}

// Uniform returns an integer uniformly distributed in [0, n) using 64-bit
// words from r, rejecting words from the incomplete last block so that no
// value is favoured (no modulo bias). n must be > 0.
func Uniform(r io.Reader, n uint64) (uint64, error) {
	if n == 0 {
		panic("BUG: card.Uniform(0)")
	}
	// limit is the largest multiple of n that fits in 2^64; words >= limit are rejected.
	limit := -(-n % n) // == 2^64 - (2^64 mod n), computed in uint64 arithmetic (0 means 2^64)
	for {
		v, err := word(r)
		if err != nil {
			return 0, fmt.Errorf("random source: %w", err)
		}
		if limit == 0 || v < limit {
			return v % n, nil
		}
	}
}

// word reads the next 8 bytes of r as a little-endian word. The seeded
// source (*rand.ChaCha8, NewSeeded) is read through its concrete Read, the
// same bytes, with the buffer on the stack: through io.Reader the buffer
// escapes to the heap, one allocation per card in the simulator's loop.
func word(r io.Reader) (uint64, error) {
	if c, ok := r.(*rand.ChaCha8); ok {
		var buf [8]byte
		c.Read(buf[:]) // always fills buf, never fails (math/rand/v2)
		return binary.LittleEndian.Uint64(buf[:]), nil
	}
	var buf [8]byte
	if _, err := io.ReadFull(r, buf[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(buf[:]), nil
}

// NewSeeded returns a deterministic byte stream (ChaCha8) for tests and the
// seeded simulator. Never used for real play.
func NewSeeded(seed uint64) io.Reader {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	copy(key[8:], "cabinet seeded reader")
	return rand.NewChaCha8(key)
}

// Stack is a Source that deals a fixed list of cards in order: stacked shoes
// in tests and the replay of recorded steps.
type Stack struct {
	Cards []Card
}

// NewStack returns a Stack dealing cs in order.
func NewStack(cs ...Card) *Stack { return &Stack{Cards: append([]Card(nil), cs...)} }

// Draw deals the next stacked card or ErrEmpty.
func (s *Stack) Draw() (Card, error) {
	if len(s.Cards) == 0 {
		return Card{}, ErrEmpty
	}
	c := s.Cards[0]
	s.Cards = s.Cards[1:]
	return c, nil
}
