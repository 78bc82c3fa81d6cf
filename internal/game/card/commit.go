package card

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The commitment of a shoe (issue 38, docs/verify.md): before the player can
// bet on a shoe, the cabinet shows C = SHA-256(CommitMessage(secret, cut,
// order)), where secret is 32 bytes fresh from the CSPRNG, drawn apart from
// the shuffle. After the shoe is finished the secret and the order are
// revealed, and anyone can recompute C. docs/verify.md defines the same
// bytes for readers who do not read Go; TestCommitWorkedExample pins its
// example.

// CommitTag opens every commitment message: the format's name and version.
const CommitTag = "cabinet-shoe-v1\n"

// SecretLen is the length of a shoe's secret in bytes.
const SecretLen = 32

// ErrCommit is returned by ParseSecret and CommitMessage for data that
// cannot form a commitment (a malformed secret, an invalid card, a shoe too
// long for the format).
var ErrCommit = errors.New("card: commitment")

// Secret is a shoe's commitment secret.
type Secret [SecretLen]byte

// NewSecret reads a fresh secret from r (crypto/rand.Reader in production).
func NewSecret(r io.Reader) (Secret, error) {
	var s Secret
	if _, err := io.ReadFull(r, s[:]); err != nil {
		return Secret{}, fmt.Errorf("card: commitment secret: %w", err)
	}
	return s, nil
}

// String is the secret in 64 lower-case hex digits.
func (s Secret) String() string { return hex.EncodeToString(s[:]) }

// ParseSecret reads 64 hex digits.
func ParseSecret(h string) (Secret, error) {
	var s Secret
	b, err := hex.DecodeString(strings.TrimSpace(h))
	if err != nil || len(b) != SecretLen {
		return Secret{}, fmt.Errorf("%w: secret %q: want %d hex digits", ErrCommit, h, 2*SecretLen)
	}
	copy(s[:], b)
	return s, nil
}

// CardByte is a card's byte in the commitment: the rank (2-14, ace high) in
// the high four bits, the suit (0 spades, 1 hearts, 2 diamonds, 3 clubs) in
// the low four; AS is 0xE0, 10D is 0xA2.
func CardByte(c Card) byte { return byte(c.Rank)<<4 | byte(c.Suit) }

// CommitMessage is the byte string a shoe's commitment hashes:
//
//	16 bytes  CommitTag, ASCII "cabinet-shoe-v1" and a line feed
//	32 bytes  the secret
//	 2 bytes  the number of cards N, big-endian
//	 2 bytes  the cut card's position, big-endian (0: no cut card)
//	 N bytes  the cards in dealing order, one CardByte each
func CommitMessage(secret Secret, cut int, order []Card) ([]byte, error) {
	if len(order) == 0 || len(order) > 0xFFFF {
		return nil, fmt.Errorf("%w: %d cards (want 1 to 65535)", ErrCommit, len(order))
	}
	if cut < 0 || cut > len(order) {
		return nil, fmt.Errorf("%w: cut card at %d of %d cards", ErrCommit, cut, len(order))
	}
	out := make([]byte, 0, len(CommitTag)+SecretLen+4+len(order))
	out = append(out, CommitTag...)
	out = append(out, secret[:]...)
	out = binary.BigEndian.AppendUint16(out, uint16(len(order)))
	out = binary.BigEndian.AppendUint16(out, uint16(cut))
	for i, c := range order {
		if !c.Valid() {
			return nil, fmt.Errorf("%w: card %d is not a card (%d/%d)", ErrCommit, i, c.Rank, c.Suit)
		}
		out = append(out, CardByte(c))
	}
	return out, nil
}

// Commitment is C for a shoe: SHA-256 of CommitMessage, in 64 lower-case
// hex digits.
func Commitment(secret Secret, cut int, order []Card) (string, error) {
	msg, err := CommitMessage(secret, cut, order)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(msg)
	return hex.EncodeToString(sum[:]), nil
}

// CheckCommitment recomputes C from a revealed shoe and compares it with
// the commitment shown (all 64 hex digits, or the leading digits a player
// noted, at least 8). It returns nil when they agree.
func CheckCommitment(shown string, secret Secret, cut int, order []Card) error {
	c, err := Commitment(secret, cut, order)
	if err != nil {
		return err
	}
	shown = strings.ToLower(strings.TrimSpace(shown))
	if len(shown) < 8 || len(shown) > 64 {
		return fmt.Errorf("%w: commitment %q: want 8 to 64 hex digits", ErrCommit, shown)
	}
	if !bytes.HasPrefix([]byte(c), []byte(shown)) {
		return fmt.Errorf("%w: mismatch: the revealed secret and order hash to %s, the commitment shown was %s", ErrCommit, c, shown)
	}
	return nil
}
