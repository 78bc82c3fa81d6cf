package card

import (
	"io"
	"testing"
)

func TestHardValue(t *testing.T) {
	tests := []struct {
		card string
		want int
	}{
		{"AS", 1}, {"2H", 2}, {"9D", 9}, {"10C", 10}, {"JS", 10}, {"QH", 10}, {"KD", 10},
	}
	for _, tc := range tests {
		if got := MustParse(tc.card)[0].HardValue(); got != tc.want {
			t.Errorf("%s.HardValue() = %d, want %d", tc.card, got, tc.want)
		}
	}
}

func TestBlackjackTotal(t *testing.T) {
	tests := []struct {
		cards string
		total int
		soft  bool
	}{
		{"", 0, false},
		{"AS", 11, true},
		{"AS KD", 21, true},
		{"AS AH", 12, true},
		{"AS 6H", 17, true},
		{"AS 6H 10D", 17, false},
		{"AS AH AD AC 7S", 21, true},
		{"AS AH AD AC 8S", 12, false},
		{"10S 6H", 16, false},
		{"10S 6H 6D", 22, false},
		{"5S 5H AD", 21, true},
		{"AS AH 9D", 21, true},
		{"10S 10H 2D", 22, false},
		{"5S 6H", 11, false},
	}
	for _, tc := range tests {
		total, soft := BlackjackTotal(MustParse(tc.cards))
		if total != tc.total || soft != tc.soft {
			t.Errorf("BlackjackTotal(%s) = %d soft %v, want %d soft %v", tc.cards, total, soft, tc.total, tc.soft)
		}
	}
}

// TestSeededFastPathSameDraws: Uniform reads the seeded source (*ChaCha8)
// through its concrete Read (no allocation); the draws must be those of the
// same source read through io.Reader, interleaved sizes included.
func TestSeededFastPathSameDraws(t *testing.T) {
	direct := NewSeeded(5)
	hidden := struct{ io.Reader }{NewSeeded(5)} // not a *rand.ChaCha8: the generic path
	for i := range 2000 {
		n := uint64(i%97 + 1)
		if i%500 == 499 { // a read of odd size in between, on both
			var a, b [3]byte
			direct.Read(a[:])
			hidden.Read(b[:])
		}
		x, errX := Uniform(direct, n)
		y, errY := Uniform(hidden, n)
		if x != y || errX != nil || errY != nil {
			t.Fatalf("draw %d: Uniform = %d, %v by the fast path, %d, %v through io.Reader", i, x, errX, y, errY)
		}
	}
}
