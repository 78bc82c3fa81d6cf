package id003

import "fmt"

// Sync is the first byte of every frame.
const Sync byte = 0xFC

// MinFrame is the shortest frame: sync, length, command, two CRC bytes.
const MinFrame = 5

// MaxFrame is the longest frame: the length byte counts the whole frame.
const MaxFrame = 255

// Frame is one decoded frame: the command (host→validator) or status
// (validator→host) byte and its data.
type Frame struct {
	Code byte
	Data []byte
}

func (f Frame) String() string {
	if len(f.Data) == 0 {
		return fmt.Sprintf("%02X", f.Code)
	}
	return fmt.Sprintf("%02X % X", f.Code, f.Data)
}

// Encode returns the frame FC, length, code, data, CRC (low byte first).
// The length counts the whole frame, sync and CRC included.
func Encode(code byte, data []byte) ([]byte, error) {
	n := MinFrame + len(data)
	if n > MaxFrame {
		return nil, fmt.Errorf("%w: %d data bytes for code 0x%02X (at most %d)", ErrLength, len(data), code, MaxFrame-MinFrame)
	}
	b := make([]byte, 0, n)
	b = append(b, Sync, byte(n), code)
	b = append(b, data...)
	c := CRC(b)
	return append(b, byte(c), byte(c>>8)), nil
}

// MustEncode is Encode for frames whose length is known to fit (the
// package's own commands and statuses).
func MustEncode(code byte, data ...byte) []byte {
	b, err := Encode(code, data)
	if err != nil {
		panic("BUG: " + err.Error())
	}
	return b
}

// Decode reads the frame at the start of b. It returns the frame and the
// number of bytes it used, or an error and the number of bytes to drop
// before trying again:
//   - ErrShort, 0: b holds the start of a frame; read more.
//   - ErrSync, 1: b[0] is not the sync byte (noise).
//   - ErrLength, 1: the length byte is below 5; the sync byte was noise.
//   - ErrCRC, 1: the CRC does not match; resynchronise after the sync byte
//     (the length itself may be the damaged byte).
//
// The frame's Data aliases b.
func Decode(b []byte) (Frame, int, error) {
	if len(b) == 0 {
		return Frame{}, 0, ErrShort
	}
	if b[0] != Sync {
		return Frame{}, 1, fmt.Errorf("%w: got 0x%02X", ErrSync, b[0])
	}
	if len(b) < 2 {
		return Frame{}, 0, ErrShort
	}
	n := int(b[1])
	if n < MinFrame {
		return Frame{}, 1, fmt.Errorf("%w: length byte %d (at least %d)", ErrLength, n, MinFrame)
	}
	if len(b) < n {
		return Frame{}, 0, ErrShort
	}
	want := CRC(b[:n-2])
	got := uint16(b[n-2]) | uint16(b[n-1])<<8
	if want != got {
		return Frame{}, 1, fmt.Errorf("%w: frame % X has CRC %04X, its bytes give %04X", ErrCRC, b[:n], got, want)
	}
	return Frame{Code: b[2], Data: b[3 : n-2]}, n, nil
}
