package sas

import (
	"testing"
	"time"
)

// FuzzEngine: any byte stream from the line, through the unmarking, the
// framing and the engine, never panics, never frames a message longer than
// maxMsg, and every reply is silence, one byte (an exception, ACK or NACK),
// busy (address 00) or a message whose CRC is right. The seed corpus is in
// testdata/fuzz/FuzzEngine (grown with `go test -fuzz=FuzzEngine`).
func FuzzEngine(f *testing.F) {
	f.Add(Mark(nil, []byte{0x82}, true))
	f.Add(append(Mark(nil, []byte{0x82}, true), Mark(nil, []byte{0x81}, true)...))
	f.Add(append(Mark(nil, []byte{0x80}, true), Mark(nil, AppendCRC([]byte{0x01, 0x2F, 0x05, 0x00, 0x00, 0x00, 0x05, 0xFF}), true)...))
	f.Add(append(Mark(nil, []byte{0x80}, true), Mark(nil, AppendCRC([]byte{0x00, 0x7F, 0x12, 0x31, 0x20, 0x26, 0x23, 0x59, 0x58}), true)...))
	f.Add(append(Mark(nil, []byte{0x80}, true), Mark(nil, AppendCRC([]byte{0x01, 0x09, 0x00, 0x03, 0x01}), true)...))
	f.Add([]byte{0xFF, 0x00, 0x01, 0x2F, 0xFF, 0xFF, 0xFF, 0x00})
	f.Fuzz(func(t *testing.T, stream []byte) {
		e := &Engine{Cfg: Config{Address: 1, Denom: 5, Serial: "X"}, M: &machine{s: snap()}, Q: &queue{q: []byte{0x11, 0x12, 0x17}}}
		var u Unmarker
		fr := Framer{Addr: 1}
		now := t0
		var bs []Byte
		for _, x := range stream {
			bs = u.Feed(bs[:0], x)
			for _, b := range bs {
				msg := fr.Feed(b)
				if msg == nil {
					continue
				}
				if len(msg) > maxMsg {
					t.Fatalf("framed %d bytes", len(msg))
				}
				now = now.Add(30 * time.Millisecond)
				r := e.Handle(now, msg)
				switch {
				case len(r) <= 1:
				case len(r) == 2 && r[0] == 0x01 && r[1] == 0x00:
				case r[0] != 0x01 || !CheckCRC(r):
					t.Fatalf("reply % X to % X: not silence, one byte, busy or a message with its CRC", r, msg)
				}
			}
		}
	})
}

// FuzzFramer: the framer never returns a message of this machine that its
// poll's length does not explain (an unknown poll: its address and command
// alone).
func FuzzFramer(f *testing.F) {
	f.Add([]byte{0x01, 0x2F, 0x03, 0x00, 0x00, 0x0C, 0x00, 0x00}, []byte{0})
	f.Add([]byte{0x01, 0x1A, 0x01, 0x7F}, []byte{0, 2})
	f.Fuzz(func(t *testing.T, data, wake []byte) {
		fr := Framer{Addr: 1}
		for i, x := range data {
			w := false
			for _, j := range wake {
				w = w || int(j) == i
			}
			msg := fr.Feed(Byte{B: x, Wakeup: w})
			if len(msg) <= 1 {
				continue
			}
			if n := pollLen(msg); n < 0 && (len(msg) != 2 || msg[0] != fr.Addr) || n == 0 || n > 0 && len(msg) != n {
				t.Fatalf("framed % X: poll length %d", msg, n)
			}
		}
	})
}
