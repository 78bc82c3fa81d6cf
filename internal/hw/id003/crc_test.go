package id003

import (
	"bytes"
	"errors"
	"testing"
)

// Published frames (the ID-003 examples every implementation quotes): the
// status request, the ACK, the reset.
var knownFrames = []struct {
	code byte
	data []byte
	want []byte
}{
	{0x11, nil, []byte{0xFC, 0x05, 0x11, 0x27, 0x56}},
	{0x50, nil, []byte{0xFC, 0x05, 0x50, 0xAA, 0x05}},
	{0x40, nil, []byte{0xFC, 0x05, 0x40, 0x2B, 0x15}},
}

func TestCRCCheckValue(t *testing.T) {
	// The CRC-16/KERMIT catalogue check value.
	if got := CRC([]byte("123456789")); got != 0x2189 {
		t.Errorf("CRC(123456789) = %04X, want 2189", got)
	}
}

func TestEncodeKnownFrames(t *testing.T) {
	for _, k := range knownFrames {
		got, err := Encode(k.code, k.data)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, k.want) {
			t.Errorf("Encode(%02X) = % X, want % X", k.code, got, k.want)
		}
		f, n, err := Decode(k.want)
		if err != nil || n != len(k.want) || f.Code != k.code || len(f.Data) != 0 {
			t.Errorf("Decode(% X) = %v, %d, %v", k.want, f, n, err)
		}
	}
}

func TestDecodeReasons(t *testing.T) {
	escrow := MustEncode(byte(StEscrow), 0x63)
	bad := append([]byte(nil), escrow...)
	bad[3] ^= 0x01
	tests := []struct {
		name  string
		in    []byte
		want  error
		wantN int
	}{
		{"empty", nil, ErrShort, 0},
		{"noise", []byte{0x00, 0xFC}, ErrSync, 1},
		{"sync only", []byte{0xFC}, ErrShort, 0},
		{"length 4", []byte{0xFC, 0x04, 0x11, 0x00}, ErrLength, 1},
		{"length 0", []byte{0xFC, 0x00}, ErrLength, 1},
		{"half a frame", escrow[:4], ErrShort, 0},
		{"bad CRC", bad, ErrCRC, 1},
		{"good", escrow, nil, len(escrow)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, n, err := Decode(tt.in)
			if !errors.Is(err, tt.want) || n != tt.wantN {
				t.Fatalf("Decode(% X) = %v, %d, %v; want %v, %d", tt.in, f, n, err, tt.want, tt.wantN)
			}
			if err == nil && (f.Code != byte(StEscrow) || !bytes.Equal(f.Data, []byte{0x63})) {
				t.Errorf("Decode(% X) = %v, want 13 63", tt.in, f)
			}
		})
	}
}

func TestEncodeTooLong(t *testing.T) {
	if _, err := Encode(0x88, make([]byte, 251)); !errors.Is(err, ErrLength) {
		t.Errorf("Encode(251 data bytes) error = %v, want ErrLength", err)
	}
	if b, err := Encode(0x88, make([]byte, 250)); err != nil || len(b) != 255 || b[1] != 255 {
		t.Errorf("Encode(250 data bytes) = %d bytes, %v; want a 255-byte frame", len(b), err)
	}
}
