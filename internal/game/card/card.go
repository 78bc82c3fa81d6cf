package card

import (
	"fmt"
	"strings"
)

// Suit is a card suit. Suits have no rank in any game of the cabinet.
type Suit uint8

// The four suits, in the order of a fresh deck.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
)

// Suits lists every suit.
var Suits = [4]Suit{Spades, Hearts, Diamonds, Clubs}

// Rank is a card rank, numbered so that Two..Ten equal their pip value.
type Rank uint8

// The ranks. Ace is numbered high (14); games that count it low handle that.
const (
	Two Rank = iota + 2
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// Card is one playing card. The zero Card is not a valid card.
type Card struct {
	Rank Rank
	Suit Suit
}

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c.Rank >= Two && c.Rank <= Ace && c.Suit <= Clubs }

var rankText = map[Rank]string{Two: "2", Three: "3", Four: "4", Five: "5", Six: "6", Seven: "7",
	Eight: "8", Nine: "9", Ten: "10", Jack: "J", Queen: "Q", King: "K", Ace: "A"}

const suitText = "SHDC"

// cardText is every valid card's fixture form, so String and AppendText
// neither look up a map nor allocate (the shoe record encodes 312 of them).
var cardText = func() (t [Ace + 1][4]string) {
	for r := Two; r <= Ace; r++ {
		for s := Spades; s <= Clubs; s++ {
			t[r][s] = rankText[r] + suitText[s:s+1]
		}
	}
	return t
}()

// String returns the fixture form: rank then suit letter, e.g. "AS", "10D", "QH".
func (c Card) String() string {
	if !c.Valid() {
		return fmt.Sprintf("?%d/%d", c.Rank, c.Suit)
	}
	return cardText[c.Rank][c.Suit]
}

// String returns the rank's fixture text ("A", "10", "K").
func (r Rank) String() string { return rankText[r] }

// String returns the suit letter (S, H, D, C).
func (s Suit) String() string {
	if s > Clubs {
		return "?"
	}
	return suitText[s : s+1]
}

// Index is the card's number 0..51 (rank-major), handy for tables and bitsets.
func (c Card) Index() int { return int(c.Rank-Two)*4 + int(c.Suit) }

// ParseCard reads one card in fixture form. "T" is accepted for ten.
func ParseCard(s string) (Card, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if len(u) < 2 {
		return Card{}, fmt.Errorf("card: parse %q: want rank then suit, e.g. AS or 10D", s)
	}
	rs, ss := u[:len(u)-1], u[len(u)-1]
	suit := strings.IndexByte(suitText, ss)
	if suit < 0 {
		return Card{}, fmt.Errorf("card: parse %q: unknown suit %q (want S, H, D or C)", s, ss)
	}
	if rs == "T" {
		rs = "10"
	}
	for r, txt := range rankText {
		if txt == rs {
			return Card{Rank: r, Suit: Suit(suit)}, nil
		}
	}
	return Card{}, fmt.Errorf("card: parse %q: unknown rank %q", s, rs)
}

// Parse reads a space-separated list of cards, e.g. "AS KH 10D".
func Parse(s string) ([]Card, error) {
	fields := strings.Fields(s)
	out := make([]Card, 0, len(fields))
	for _, f := range fields {
		c, err := ParseCard(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// MustParse is Parse for test fixtures; it panics on a malformed list.
func MustParse(s string) []Card {
	cs, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// Format writes cards in fixture form separated by spaces.
func Format(cs []Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

// MarshalText encodes the card in fixture form (used by the JSON encodings).
func (c Card) MarshalText() ([]byte, error) { return c.AppendText(nil) }

// AppendText appends the card's fixture form to b (encoding.TextAppender).
func (c Card) AppendText(b []byte) ([]byte, error) {
	if !c.Valid() {
		return b, fmt.Errorf("card: marshal invalid card %d/%d", c.Rank, c.Suit)
	}
	return append(b, cardText[c.Rank][c.Suit]...), nil
}

// UnmarshalText decodes the fixture form.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
