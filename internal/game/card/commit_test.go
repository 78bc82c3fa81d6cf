package card

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
)

// The worked example of docs/verify.md: secret 00 01 … 1f, no cut card,
// the 32-card deck in this order. The document gives these exact bytes and
// this commitment; a verifier written from the document alone must get
// them.
const (
	exampleOrder   = "7S 8H 9C 8S 9S AC QD AD QC AH 7H JC JD 10D KS 10S JH 8C 10C QS 9D KC JS 7C 7D KH KD 8D 9H QH 10H AS"
	exampleMessage = "636162696e65742d73686f652d76310a" + // "cabinet-shoe-v1\n"
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" + // secret
		"0020" + "0000" + // 32 cards, no cut card
		"7081938090e3c2e2c3e171b3b2a2d0a0b183a3c092d3b07372d1d28291c1a1e0"
	exampleC = "a3a3da7b59d2d2acb2aff5ee64f3c1d0186430a516e0614558dec5f4691e69c5"
)

func exampleSecret() Secret {
	var s Secret
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

func TestCommitWorkedExample(t *testing.T) {
	order := MustParse(exampleOrder)
	msg, err := CommitMessage(exampleSecret(), 0, order)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(msg); got != exampleMessage {
		t.Errorf("CommitMessage = %s, want %s", got, exampleMessage)
	}
	c, err := Commitment(exampleSecret(), 0, order)
	if err != nil || c != exampleC {
		t.Errorf("Commitment = %s, %v, want %s", c, err, exampleC)
	}
	if err := CheckCommitment(exampleC[:8], exampleSecret(), 0, order); err != nil {
		t.Errorf("CheckCommitment(the first 8 digits) = %v", err)
	}
}

func TestCardByte(t *testing.T) {
	for _, tc := range []struct {
		c    string
		want byte
	}{{"AS", 0xE0}, {"10D", 0xA2}, {"2C", 0x23}, {"KH", 0xD1}} {
		if got := CardByte(MustParse(tc.c)[0]); got != tc.want {
			t.Errorf("CardByte(%s) = %#x, want %#x", tc.c, got, tc.want)
		}
	}
}

// TestCommitmentBinds: any change of the secret, the cut card or the order
// (two cards swapped) gives another commitment, and CheckCommitment says
// mismatch.
func TestCommitmentBinds(t *testing.T) {
	order := MustParse(exampleOrder)
	swapped := append([]Card(nil), order...)
	swapped[3], swapped[4] = swapped[4], swapped[3]
	other := exampleSecret()
	other[31] ^= 1
	for name, err := range map[string]error{
		"secret":  CheckCommitment(exampleC, other, 0, order),
		"cut":     CheckCommitment(exampleC, exampleSecret(), 24, order),
		"order":   CheckCommitment(exampleC, exampleSecret(), 0, swapped),
		"shorter": CheckCommitment(exampleC, exampleSecret(), 0, order[:31]),
	} {
		if !errors.Is(err, ErrCommit) {
			t.Errorf("%s changed: CheckCommitment = %v, want a mismatch", name, err)
		}
	}
}

func TestCommitRejects(t *testing.T) {
	order := MustParse(exampleOrder)
	for name, err := range map[string]error{
		"no card":       func() error { _, err := CommitMessage(exampleSecret(), 0, nil); return err }(),
		"cut past":      func() error { _, err := CommitMessage(exampleSecret(), 33, order); return err }(),
		"invalid card":  func() error { _, err := CommitMessage(exampleSecret(), 0, []Card{{}}); return err }(),
		"short C":       CheckCommitment(exampleC[:7], exampleSecret(), 0, order),
		"secret digits": func() error { _, err := ParseSecret("00ff"); return err }(),
	} {
		if !errors.Is(err, ErrCommit) {
			t.Errorf("%s: err = %v, want ErrCommit", name, err)
		}
	}
}

func TestNewSecret(t *testing.T) {
	a, err := NewSecret(NewSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseSecret(a.String())
	if err != nil || a != b {
		t.Errorf("ParseSecret(%s) = %s, %v", a, b, err)
	}
	if _, err := NewSecret(bytes.NewReader(make([]byte, 31))); err == nil {
		t.Error("NewSecret from 31 bytes: no error")
	}
}
