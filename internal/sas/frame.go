package sas

// maxMsg bounds a message being collected (an unknown poll with no wakeup
// byte after it cannot grow without end).
const maxMsg = 260

// pollLen returns the length on the wire (address to CRC) of the long poll
// in m (m[0] the address, m[1] the command): n > 0 when known, 0 when more
// bytes are needed to tell (a length byte), -1 for a poll this machine
// does not implement (its length is not known; it ends at the next wakeup
// byte and gets no answer).
func pollLen(m []byte) int {
	if len(m) < 2 {
		return 0
	}
	switch c := m[1]; {
	case c >= 0x01 && c <= 0x07, c == 0x0A, c == 0x0B:
		return 4
	case c == 0x08:
		return 9
	case c == 0x09:
		return 7
	case c == 0x0E:
		return 5
	case c == 0x21, c == 0x52, c == 0x53, c == 0xA0:
		return 6
	case c == 0x7F:
		return 11
	case c == 0x4C: // machine ID (3), sequence number (3)
		return 10
	case c == 0x4D: // function code
		return 5
	case c == 0x58: // validation system ID (1 BCD), number (8 BCD)
		return 13
	case c == 0x71:
		if len(m) < 3 {
			return 0
		}
		return 3 + int(m[2]) + 2
	case c == 0x2F:
		if len(m) < 3 {
			return 0
		}
		return 3 + int(m[2]) + 2
	case c >= 0x0F && c <= 0x20 && c != 0x1D,
		c >= 0x31 && c <= 0x4A && c != 0x3D,
		c == 0x51, c == 0x54, c == 0x55, c == 0x56, c == 0x57, c == 0x70, c == 0x7E:
		return 2
	}
	return -1
}

// Framer cuts the decoded byte stream into messages. Every host message
// starts with a wakeup byte; bytes without it are either the rest of the
// message being collected or someone else's traffic (ignored).
//
// Feed returns a complete message: a general poll (one byte 0x80|a, any
// address), a one-byte message naming another address (a long poll to
// another machine or a broadcast, whose data is skipped), a whole long
// poll addressed to this machine (checked for its CRC by the engine), or
// the address and command of a poll to this machine that it does not
// implement (answered with silence).
//
// A long poll to this machine that a wakeup byte interrupts before its
// length is complete is damaged: the next Cut returns it (the host has
// moved on; it is counted as a line error, not answered). One that the
// line leaves incomplete is returned by Flush once the line is silent
// (Serve: CutAfter), for the engine to NACK.
type Framer struct {
	Addr byte
	buf  []byte
	on   bool
	cut  []byte
}

// mine reports a long poll to this machine being collected.
func (f *Framer) mine() bool { return f.on && len(f.buf) > 0 && f.buf[0] == f.Addr && f.Addr != 0 }

// Pending reports a long poll to this machine begun and not complete.
func (f *Framer) Pending() bool { return f.mine() }

// Flush ends the long poll to this machine being collected and returns
// it, incomplete (nil: none).
func (f *Framer) Flush() []byte {
	if !f.mine() {
		return nil
	}
	f.on = false
	return append([]byte(nil), f.buf...)
}

// Cut returns the long poll to this machine that a wakeup byte cut short
// since the last Cut (nil: none).
func (f *Framer) Cut() []byte {
	c := f.cut
	f.cut = nil
	return c
}

// Feed takes one byte and returns a complete message, or nil.
//
// A broadcast (address 00 with the wakeup bit) is returned at once as the
// one byte 00 (an implied ACK and the sync rule, like any message to
// another address) and then collected: a complete broadcast LP 7F (date
// and time) is returned whole, 00 7F … CRC, for the engine to apply
// without answering.
func (f *Framer) Feed(b Byte) []byte {
	if b.Wakeup {
		if f.mine() {
			f.cut = append([]byte(nil), f.buf...)
		}
		f.on = false
		f.buf = f.buf[:0]
		if b.B == 0x00 {
			f.on = true
			f.buf = append(f.buf, 0x00)
			return []byte{0x00}
		}
		if b.B&0x80 != 0 || b.B != f.Addr {
			return []byte{b.B}
		}
		f.on = true
		f.buf = append(f.buf, b.B)
		return nil
	}
	if !f.on {
		return nil
	}
	f.buf = append(f.buf, b.B)
	n := pollLen(f.buf)
	if n < 0 {
		// A poll this machine does not implement: the rest of it, whose
		// length only its own definition knows, is skipped up to the next
		// wakeup byte. Addressed to this machine it is returned as its
		// address and command, so that the engine takes it as the host's
		// implied ACK of the last reply (anything different acknowledges
		// it) and answers it with silence; a broadcast was returned as 00
		// when it began.
		f.on = false
		if f.buf[0] == 0x00 {
			return nil
		}
		return append([]byte(nil), f.buf...)
	}
	if len(f.buf) >= maxMsg {
		if f.mine() {
			f.cut = append([]byte(nil), f.buf...)
		}
		f.on = false
		return nil
	}
	if n > 0 && len(f.buf) >= n {
		f.on = false
		return append([]byte(nil), f.buf...)
	}
	return nil
}
