// Package sashost is a SAS 6.02 host (the casino management system's side)
// for tests: it drives a cabinet over a pseudo-terminal pair the way a
// casino system drives a machine over its serial loop.
//
// It is written from the reference (shared/spec/sas.md and the SAS 6.02
// layouts), not from the cabinet's code: it imports nothing of
// internal/sas, and has its own CRC (the nibble form of CRC-16/KERMIT the
// reference quotes) and its own marking of the wakeup bit, so a mistake
// shared by both sides cannot pass unnoticed.
//
// A pty cannot carry the 9th bit: the host writes the marked stream a Linux
// UART opened with PARMRK would deliver (FF 00 b: b with the wakeup bit;
// FF FF: a data FF), and reads the machine's plain bytes.
package sashost

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// CRC is CRC-16/KERMIT in the nibble form of the reference:
// q=(crc^b)&0xF; crc=(crc>>4)^(q*0x1081); then the high nibble alike.
func CRC(b []byte) uint16 { return CRCFrom(0, b) }

// CRCFrom continues the CRC from crc (LP 21's signature is the CRC of the
// program seeded with the host's seed).
func CRCFrom(crc uint16, b []byte) uint16 {
	for _, x := range b {
		q := (crc ^ uint16(x)) & 0xF
		crc = (crc >> 4) ^ (q * 0x1081)
		q = (crc ^ uint16(x>>4)) & 0xF
		crc = (crc >> 4) ^ (q * 0x1081)
	}
	return crc
}

// WithCRC appends the CRC of b, low byte first.
func WithCRC(b ...byte) []byte {
	c := CRC(b)
	return append(b, byte(c), byte(c>>8))
}

// CRCOK reports whether the last two bytes of b are the CRC of the rest.
func CRCOK(b []byte) bool {
	if len(b) < 3 {
		return false
	}
	c := CRC(b[:len(b)-2])
	return b[len(b)-2] == byte(c) && b[len(b)-1] == byte(c>>8)
}

// marked encodes msg as the PARMRK stream, the first byte with the wakeup
// bit.
func marked(msg []byte) []byte {
	var out []byte
	for i, x := range msg {
		switch {
		case i == 0:
			out = append(out, 0xFF, 0x00, x)
		case x == 0xFF:
			out = append(out, 0xFF, 0xFF)
		default:
			out = append(out, x)
		}
	}
	return out
}

// Host is the host end of a pty pair.
type Host struct {
	master *os.File
	slave  *os.File // held open so the pair survives the machine's restarts
	Slave  string   // the machine's end, e.g. /dev/pts/7

	mu   sync.Mutex
	in   []stamped // bytes received, with their arrival time
	cond *sync.Cond
	err  error
}

type stamped struct {
	b  byte
	at time.Time
}

// Open creates a pty pair and starts reading the machine's bytes.
func Open() (*Host, error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, fmt.Errorf("sashost: open /dev/ptmx: %w", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, fmt.Errorf("sashost: unlock pty: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("sashost: pty number: %w", err)
	}
	name := fmt.Sprintf("/dev/pts/%d", n)
	s, err := os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("sashost: open %s: %w", name, err)
	}
	// Raw until the machine sets its own modes: no echo, no translation.
	t, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err != nil {
		m.Close()
		s.Close()
		return nil, fmt.Errorf("sashost: termios: %w", err)
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag = t.Cflag&^(unix.CSIZE|unix.PARENB) | unix.CS8
	if err := unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, t); err != nil {
		m.Close()
		s.Close()
		return nil, fmt.Errorf("sashost: set raw: %w", err)
	}
	h := &Host{master: m, slave: s, Slave: name}
	h.cond = sync.NewCond(&h.mu)
	go h.read()
	return h, nil
}

func (h *Host) read() {
	buf := make([]byte, 256)
	for {
		n, err := h.master.Read(buf)
		now := time.Now()
		h.mu.Lock()
		for _, b := range buf[:n] {
			h.in = append(h.in, stamped{b, now})
		}
		if err != nil && !errors.Is(err, unix.EIO) {
			h.err = err
		}
		h.cond.Broadcast()
		h.mu.Unlock()
		if err != nil && !errors.Is(err, unix.EIO) {
			return
		}
		if err != nil {
			time.Sleep(time.Millisecond)
		}
	}
}

// Close closes both ends.
func (h *Host) Close() error {
	h.slave.Close()
	return h.master.Close()
}

// Drain forgets every byte received so far.
func (h *Host) Drain() {
	h.mu.Lock()
	h.in = nil
	h.mu.Unlock()
}

// Send writes one host message, its first byte with the wakeup bit, and
// returns the time its last byte was written.
func (h *Host) Send(msg ...byte) (time.Time, error) {
	if _, err := h.master.Write(marked(msg)); err != nil {
		return time.Time{}, fmt.Errorf("sashost: write: %w", err)
	}
	return time.Now(), nil
}

// Reply is what the machine answered to one message.
type Reply struct {
	Bytes []byte
	// Latency is from the end of the host's message to the first byte of
	// the reply (the 20 ms rule), MaxGap the longest pause between two of
	// its bytes (the 5 ms rule).
	Latency, MaxGap time.Duration
}

// Poll sends msg and collects the reply: the bytes received until want
// bytes arrived (want > 0) or no byte came for quiet. A reply that never
// starts within wait is silence (nil Bytes).
func (h *Host) Poll(msg []byte, want int, wait, quiet time.Duration) (Reply, error) {
	return h.PollUntil(msg, func(b []byte) bool { return want > 0 && len(b) >= want }, wait, quiet)
}

// PollFrame sends msg and collects a variable-length reply `a cmd len data
// CRC`: complete when the length byte's count and the CRC have arrived, or
// when no byte came for quiet (a busy or NACK reply, a short frame).
func (h *Host) PollFrame(msg []byte, wait, quiet time.Duration) (Reply, error) {
	return h.PollUntil(msg, func(b []byte) bool { return len(b) >= 3 && len(b) >= int(b[2])+5 }, wait, quiet)
}

// PollUntil sends msg and collects the reply until complete says it is
// whole or no byte came for quiet. A reply that never starts within wait
// is silence (nil Bytes).
func (h *Host) PollUntil(msg []byte, complete func([]byte) bool, wait, quiet time.Duration) (Reply, error) {
	h.Drain()
	sent, err := h.Send(msg...)
	if err != nil {
		return Reply{}, err
	}
	return h.collect(sent, complete, wait, quiet)
}

func (h *Host) collect(sent time.Time, complete func([]byte) bool, wait, quiet time.Duration) (Reply, error) {
	deadline := sent.Add(wait)
	var r Reply
	for {
		h.mu.Lock()
		in := append([]stamped(nil), h.in...)
		err := h.err
		h.mu.Unlock()
		if err != nil {
			return r, err
		}
		now := time.Now()
		if len(in) > 0 {
			r.Bytes = r.Bytes[:0]
			r.Latency = in[0].at.Sub(sent)
			for i, s := range in {
				r.Bytes = append(r.Bytes, s.b)
				if i > 0 {
					r.MaxGap = max(r.MaxGap, s.at.Sub(in[i-1].at))
				}
			}
			if complete(r.Bytes) || now.Sub(in[len(in)-1].at) >= quiet {
				return r, nil
			}
		} else if now.After(deadline) {
			return Reply{}, nil
		}
		time.Sleep(500 * time.Microsecond)
	}
}

// Listen collects whatever the machine sends on its own (a chirp) for d.
func (h *Host) Listen(d time.Duration) []byte {
	h.Drain()
	time.Sleep(d)
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]byte, len(h.in))
	for i, s := range h.in {
		out[i] = s.b
	}
	return out
}
