package sas

// Byte is one received byte and its wakeup (9th) bit.
type Byte struct {
	B      byte
	Wakeup bool
}

// Unmarker decodes the marked byte stream Linux produces for a UART set to
// space parity with INPCK|PARMRK (and that a host writes itself on a pty):
// FF 00 b is the byte b with the wakeup bit, FF FF is a data FF, any other
// byte is itself. FF followed by anything else is not produced by the
// kernel; it is read as a data FF and the byte that follows (lenient).
// FF 00 00 may also be a BREAK; it reads as a wakeup 00 (a broadcast
// address), which the engine never answers.
type Unmarker struct {
	state int // 0 plain, 1 after FF, 2 after FF 00
}

// Feed decodes one stream byte, appending any decoded bytes to out.
func (u *Unmarker) Feed(out []Byte, x byte) []Byte {
	switch u.state {
	case 1:
		switch x {
		case 0xFF:
			u.state = 0
			return append(out, Byte{B: 0xFF})
		case 0x00:
			u.state = 2
			return out
		default:
			u.state = 0
			return append(out, Byte{B: 0xFF}, Byte{B: x})
		}
	case 2:
		u.state = 0
		return append(out, Byte{B: x, Wakeup: true})
	}
	if x == 0xFF {
		u.state = 1
		return out
	}
	return append(out, Byte{B: x})
}

// Mark encodes bytes as the marked stream (the host side of a pty, and
// tests): the first byte with the wakeup bit when wakeup is set.
func Mark(dst []byte, msg []byte, wakeup bool) []byte {
	for i, x := range msg {
		switch {
		case i == 0 && wakeup:
			dst = append(dst, 0xFF, 0x00, x)
		case x == 0xFF:
			dst = append(dst, 0xFF, 0xFF)
		default:
			dst = append(dst, x)
		}
	}
	return dst
}
