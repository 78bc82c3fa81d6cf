package sas

import (
	"errors"
	"fmt"
	"testing"
)

// TestSecureEnhancedNumber: the reference's example of §15.14 (machine ID
// 654321 hex, sequence 1) and the two vectors at the ends of the sequence,
// as Aristocrat's Monaco tests them
// (SecureEnhancedValidationHandlerTests.IncrementValidationNumberOnHandPayCompleteTest:
// "Sas Secure Enhance Section 15.14 Example", the roll-over to 0, the
// largest sequence number).
func TestSecureEnhancedNumber(t *testing.T) {
	tests := []struct {
		id, seq uint32
		want    string // 18 digits as printed: system ID 00, then the number
	}{
		{0x654321, 1, "006429188185446104"},
		{0x654321, 0, "004580945669109504"},
		{0x654321, 0xFFFFFF, "007101753535986872"},
	}
	for _, tt := range tests {
		got, err := SecureEnhancedNumber(tt.id, tt.seq)
		if err != nil {
			t.Fatalf("SecureEnhancedNumber(%X, %X): %v", tt.id, tt.seq, err)
		}
		if s := fmt.Sprintf("00%016d", got); s != tt.want {
			t.Errorf("SecureEnhancedNumber(%X, %X) = %s, want %s", tt.id, tt.seq, s, tt.want)
		}
	}
	for _, bad := range [][2]uint32{{0x1000000, 1}, {1, 0x1000000}} {
		if _, err := SecureEnhancedNumber(bad[0], bad[1]); !errors.Is(err, ErrBadData) {
			t.Errorf("SecureEnhancedNumber(%X, %X) error = %v, want ErrBadData", bad[0], bad[1], err)
		}
	}
}

// TestSecureEnhancedNumberDigits: every number is 16 decimal digits whose
// two halves carry their check digit (the digit sum modulo 5, times 2, in
// the top digit's bits 1–3), so a host can tell a mistyped number.
func TestSecureEnhancedNumberDigits(t *testing.T) {
	for seq := uint32(0); seq < 5000; seq += 7 {
		n, err := SecureEnhancedNumber(0xA1B2C3, seq)
		if err != nil {
			t.Fatal(err)
		}
		if n >= 1e16 {
			t.Fatalf("sequence %d: %d has more than 16 digits", seq, n)
		}
		for _, h := range []uint64{n / 1e8, n % 1e8} {
			top := h / 1e7
			rest := h % 1e7
			sum := top & 1
			for d := rest; d > 0; d /= 10 {
				sum += d % 10
			}
			if top>>1 != sum%5 {
				t.Fatalf("sequence %d: half %08d: top digit %d, want check %d", seq, h, top, sum%5)
			}
		}
	}
}
