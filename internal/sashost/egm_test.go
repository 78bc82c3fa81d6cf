package sashost

import (
	"errors"
	"os"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// egm is a small scripted machine on the far end of the host's pty: it
// decodes the marked stream (FF 00 b: b with the wakeup bit; FF FF: a data
// FF), frames each host message by its command's length, and writes back
// what answer returns (nil: silence). Its replies are frames the tests
// write by hand; it is no cabinet.
type egm struct {
	f      *os.File
	mu     sync.Mutex
	answer func(msg []byte) []byte
	got    [][]byte // every message received, in order
	done   chan struct{}
}

func newEGM(t *testing.T, h *Host, answer func(msg []byte) []byte) *egm {
	t.Helper()
	f, err := os.OpenFile(h.Slave, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	e := &egm{f: f, answer: answer, done: make(chan struct{})}
	go e.run()
	t.Cleanup(func() { f.Close(); <-e.done })
	return e
}

// messages returns a copy of the messages received.
func (e *egm) messages() [][]byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([][]byte(nil), e.got...)
}

type wbyte struct {
	b      byte
	wakeup bool
}

func (e *egm) run() {
	defer close(e.done)
	in := make(chan wbyte, 4096)
	go func() {
		defer close(in)
		buf := make([]byte, 256)
		var pend []byte
		for {
			n, err := e.f.Read(buf)
			pend = append(pend, buf[:n]...)
			for len(pend) > 0 {
				if pend[0] != 0xFF {
					in <- wbyte{pend[0], false}
					pend = pend[1:]
					continue
				}
				if len(pend) < 2 {
					break
				}
				if pend[1] == 0xFF {
					in <- wbyte{0xFF, false}
					pend = pend[2:]
					continue
				}
				if len(pend) < 3 {
					break
				}
				in <- wbyte{pend[2], true}
				pend = pend[3:]
			}
			if err != nil {
				return
			}
		}
	}()
	var msg []byte
	for x := range in {
		if x.wakeup {
			msg = []byte{x.b}
		} else if msg != nil {
			msg = append(msg, x.b)
		} else {
			continue // a data byte outside a message
		}
		if !whole(msg) {
			continue
		}
		m := msg
		msg = nil
		e.mu.Lock()
		e.got = append(e.got, m)
		answer := e.answer
		e.mu.Unlock()
		if r := answer(m); r != nil {
			if _, err := e.f.Write(r); err != nil && !errors.Is(err, os.ErrClosed) {
				return
			}
		}
	}
}

// whole reports whether msg is a complete host message: a general poll
// (one byte, high bit set), an R-type long poll (two bytes), or an S-type
// one by its command's length.
func whole(m []byte) bool {
	if m[0]&0x80 != 0 || m[0] == 0 {
		return true
	}
	if len(m) < 2 {
		return false
	}
	switch m[1] {
	case 0x71:
		return len(m) >= 3 && len(m) == int(m[2])+5
	case 0x58:
		return len(m) == 13
	case 0x4C:
		return len(m) == 10
	case 0x4D:
		return len(m) == 5
	}
	return true
}

// frame is a variable-length reply `a cmd len data CRC`.
func frame(a, cmd byte, data ...byte) []byte {
	return WithCRC(append([]byte{a, cmd, byte(len(data))}, data...)...)
}
