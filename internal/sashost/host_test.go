package sashost

import (
	"bytes"
	"testing"
)

// The reference's vectors (shared/spec/sas.md §CRC-16).
func TestCRCVectors(t *testing.T) {
	if got := CRC([]byte("123456789")); got != 0x2189 {
		t.Errorf("CRC(123456789) = %04X, want 2189", got)
	}
	for _, tc := range []struct{ msg, wire []byte }{
		{[]byte{0x01, 0x01}, []byte{0x01, 0x01, 0x51, 0x08}},
		{[]byte{0x01, 0x02}, []byte{0x01, 0x02, 0xca, 0x3a}},
		{[]byte{0x01, 0x21, 0x00, 0x00}, []byte{0x01, 0x21, 0x00, 0x00, 0x5c, 0x45}},
		{[]byte{0x01, 0x1A, 0x00, 0x00, 0x02, 0x50}, []byte{0x01, 0x1A, 0x00, 0x00, 0x02, 0x50, 0xf6, 0x9d}},
	} {
		if got := WithCRC(tc.msg...); !bytes.Equal(got, tc.wire) {
			t.Errorf("WithCRC(% X) = % X, want % X", tc.msg, got, tc.wire)
		}
		if !CRCOK(tc.wire) {
			t.Errorf("CRCOK(% X) = false", tc.wire)
		}
	}
}

func TestMarked(t *testing.T) {
	if got, want := marked([]byte{0x01, 0xFF, 0x00}), []byte{0xFF, 0x00, 0x01, 0xFF, 0xFF, 0x00}; !bytes.Equal(got, want) {
		t.Errorf("marked = % X, want % X", got, want)
	}
}
