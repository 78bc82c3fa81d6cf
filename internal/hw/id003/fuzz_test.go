package id003

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// FuzzDecode: any byte stream, decoded the way the driver and the emulator
// read the line (decode, drop what Decode says, repeat), never panics,
// always makes progress, yields only frames whose CRC and length are right,
// and gives every dropped byte a reason (sync, length or CRC).
func FuzzDecode(f *testing.F) {
	for _, k := range knownFrames {
		f.Add(k.want)
	}
	f.Add(MustEncode(byte(StEscrow), 0x63))
	f.Add(MustEncode(byte(StEscrow), append([]byte{TicketCode}, "001234567890123456"...)...))
	f.Add([]byte{0xFC, 0x06, 0x13, 0x63, 0x00, 0x00, 0xFC, 0x05, 0x11, 0x27, 0x56})
	f.Add([]byte{0xFC, 0x04, 0xFC, 0xFF, 0x00})
	f.Fuzz(func(t *testing.T, stream []byte) {
		b := stream
		for len(b) > 0 {
			fr, n, err := Decode(b)
			switch {
			case errors.Is(err, ErrShort):
				if n != 0 {
					t.Fatalf("ErrShort with n=%d", n)
				}
				return
			case err == nil:
				if n < MinFrame || n > len(b) || int(b[1]) != n || len(fr.Data) != n-MinFrame {
					t.Fatalf("frame %v from % X: n=%d", fr, b, n)
				}
				c := CRC(b[:n-2])
				if b[n-2] != byte(c) || b[n-1] != byte(c>>8) {
					t.Fatalf("frame % X accepted with a bad CRC", b[:n])
				}
				again, err := Encode(fr.Code, fr.Data)
				if err != nil || string(again) != string(b[:n]) {
					t.Fatalf("re-encoding %v = % X, %v; want % X", fr, again, err, b[:n])
				}
			case errors.Is(err, ErrSync), errors.Is(err, ErrLength), errors.Is(err, ErrCRC):
				if n != 1 || err.Error() == "" {
					t.Fatalf("error %v drops %d bytes, want 1", err, n)
				}
			default:
				t.Fatalf("Decode(% X): unclassified error %v", b, err)
			}
			b = b[n:]
		}
	})
}

// FuzzTicketNumber: whatever barcode a validator reports, the driver's
// check never panics, accepts exactly the 18-digit ones unchanged, and
// names what was read when it refuses.
func FuzzTicketNumber(f *testing.F) {
	for _, s := range []string{"001234567890123456", "", "00123456789012345", "0012345678901234567", "00123456789012345X", "0012345678\x001234567", "\xff\xfe"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := ticketNumber(b)
		digits := len(b) == TicketDigits && strings.Trim(string(b), "0123456789") == ""
		switch {
		case digits && (err != nil || n != string(b)):
			t.Fatalf("ticketNumber(%q) = %q, %v; want it accepted", b, n, err)
		case !digits && (err == nil || n != ""):
			t.Fatalf("ticketNumber(%q) = %q, %v; want it refused", b, n, err)
		case err != nil && !strings.Contains(err.Error(), strings.Trim(fmt.Sprintf("%q", b), `"`)):
			t.Fatalf("ticketNumber(%q): %v does not name what was read", b, err)
		}
	})
}
