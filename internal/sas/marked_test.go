package sas

import (
	"slices"
	"testing"
)

func TestUnmarker(t *testing.T) {
	tests := []struct {
		name   string
		stream []byte
		want   []Byte
	}{
		{"wakeup address then data", []byte{0xFF, 0x00, 0x01, 0x2F, 0x03}, []Byte{{0x01, true}, {0x2F, false}, {0x03, false}}},
		{"data FF is doubled", []byte{0x01, 0xFF, 0xFF, 0x02}, []Byte{{0x01, false}, {0xFF, false}, {0x02, false}}},
		{"wakeup FF", []byte{0xFF, 0x00, 0xFF}, []Byte{{0xFF, true}}},
		{"lone FF before another byte is read as data", []byte{0xFF, 0x05}, []Byte{{0xFF, false}, {0x05, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u Unmarker
			var got []Byte
			for _, x := range tt.stream {
				got = u.Feed(got, x)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Feed(% x) = %v, want %v", tt.stream, got, tt.want)
			}
		})
	}
}

// FuzzMarkRoundTrip: whatever a host sends, marked then unmarked, comes back
// byte for byte with the wakeup bit on the first byte only.
func FuzzMarkRoundTrip(f *testing.F) {
	f.Add([]byte{0x01, 0x2F, 0xFF, 0x00}, true)
	f.Add([]byte{0xFF, 0xFF}, false)
	f.Fuzz(func(t *testing.T, msg []byte, wakeup bool) {
		var u Unmarker
		var got []Byte
		for _, x := range Mark(nil, msg, wakeup) {
			got = u.Feed(got, x)
		}
		if len(got) != len(msg) {
			t.Fatalf("round trip of % x (wakeup %v) gave %d bytes, want %d", msg, wakeup, len(got), len(msg))
		}
		for i, b := range got {
			if b.B != msg[i] || b.Wakeup != (wakeup && i == 0) {
				t.Fatalf("byte %d of % x (wakeup %v) = %+v", i, msg, wakeup, b)
			}
		}
	})
}
