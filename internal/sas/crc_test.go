package sas

import (
	"encoding/hex"
	"strings"
	"testing"
)

// TestCRCVectors checks the CRC against shared/spec/sas.md's vectors and the
// nibble algorithm the public hosts use (an independent oracle).
func TestCRCVectors(t *testing.T) {
	if got := CRC(0, []byte("123456789")); got != 0x2189 {
		t.Fatalf(`CRC("123456789") = %#04x, want 0x2189`, got)
	}
	tests := []struct{ msg, crc string }{
		{"01 01", "51 08"},
		{"01 02", "ca 3a"},
		{"01 21 00 00", "5c 45"},
		{"01 2F 06 98 76 0C 05 1B 0D", "06 5e"},
		{"01 2F 17 98 76 0C 00001234 05 00005678 1B 00009012 0D 0000006789", "d2 53"},
		{"01 1A 00 00 02 50", "f6 9d"},
	}
	for _, tt := range tests {
		msg := unhex(t, tt.msg)
		want := unhex(t, tt.crc)
		got := AppendCRC(append([]byte(nil), msg...))
		if g := got[len(msg):]; g[0] != want[0] || g[1] != want[1] {
			t.Errorf("AppendCRC(%s) ends % x, want % x", tt.msg, g, want)
		}
		if !CheckCRC(got) {
			t.Errorf("CheckCRC(% x) = false, want true", got)
		}
		got[0] ^= 0x01
		if CheckCRC(got) {
			t.Errorf("CheckCRC(% x) with a flipped bit = true, want false", got)
		}
		if n := nibbleCRC(msg); n != CRC(0, msg) {
			t.Errorf("nibble CRC(%s) = %#04x, table CRC %#04x", tt.msg, n, CRC(0, msg))
		}
	}
}

// nibbleCRC is the form published by the open SAS hosts (sas.md).
func nibbleCRC(b []byte) uint16 {
	var crc uint16
	for _, x := range b {
		q := (crc ^ uint16(x)) & 0xF
		crc = crc>>4 ^ q*0x1081
		q = (crc ^ uint16(x>>4)) & 0xF
		crc = crc>>4 ^ q*0x1081
	}
	return crc
}

func TestBCD(t *testing.T) {
	tests := []struct {
		v    int64
		n    int
		want string
	}{
		{0, 4, "00000000"},
		{1234, 4, "00001234"},
		{6789, 5, "0000006789"},
		{99999999, 4, "99999999"},
		{123456789, 4, "23456789"}, // a meter rolls over in 4 bytes
	}
	for _, tt := range tests {
		got := AppendBCD(nil, tt.v, tt.n)
		if h := hex.EncodeToString(got); h != tt.want {
			t.Errorf("AppendBCD(%d, %d) = %s, want %s", tt.v, tt.n, h, tt.want)
		}
		back, err := ParseBCD(got)
		if err != nil || back != tt.v%pow100(tt.n) {
			t.Errorf("ParseBCD(%s) = %d, %v; want %d", tt.want, back, err, tt.v%pow100(tt.n))
		}
	}
	if _, err := ParseBCD([]byte{0x1A}); err == nil {
		t.Errorf("ParseBCD(1a) = nil error, want ErrBCD")
	}
}

func pow100(n int) int64 {
	p := int64(1)
	for range n {
		p *= 100
	}
	return p
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
