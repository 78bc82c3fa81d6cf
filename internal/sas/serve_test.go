package sas

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"cabinet/internal/serial"
	"golang.org/x/sys/unix"
)

// ptyPair opens a pty pair: the host's master end and the slave's path.
func ptyPair(t *testing.T) (*os.File, string) {
	t.Helper()
	m, path, err := serial.OpenPTY()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return m, path
}

type fakeMachine struct{ s Snapshot }

func (f *fakeMachine) Snapshot() (Snapshot, error) { return f.s, nil }
func (f *fakeMachine) Command(Command) error       { return nil }

type memQueue struct{ q []byte }

func (m *memQueue) Peek() (byte, bool, error) {
	if len(m.q) == 0 {
		return 0, false, nil
	}
	return m.q[0], true, nil
}
func (m *memQueue) Ack(code byte) error { m.q = m.q[1:]; return nil }

// exchange writes a host message (marked) and reads the reply bytes that
// arrive within d.
func exchange(t *testing.T, m *os.File, msg []byte, d time.Duration) []byte {
	t.Helper()
	if _, err := m.Write(Mark(nil, msg, true)); err != nil {
		t.Fatal(err)
	}
	return readFor(t, m, d)
}

func readFor(t *testing.T, m *os.File, d time.Duration) []byte {
	t.Helper()
	var out []byte
	buf := make([]byte, 64)
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		fds := []unix.PollFd{{Fd: int32(m.Fd()), Events: unix.POLLIN}}
		if n, _ := unix.Poll(fds, 5); n > 0 {
			k, _ := unix.Read(int(m.Fd()), buf)
			out = append(out, buf[:max(k, 0)]...)
		}
	}
	return out
}

// TestServeOverPTY serves a host on a pty opened as either line: a pty is
// read verbatim whatever [sas] line says.
func TestServeOverPTY(t *testing.T) {
	for _, l := range []Line{LineUART, LineMarked} {
		t.Run(l.String(), func(t *testing.T) { serveOverPTY(t, l) })
	}
}

func serveOverPTY(t *testing.T, l Line) {
	m, slave := ptyPair(t)
	p, err := OpenLine(slave, l)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !p.PTY() {
		t.Errorf("%s not recognised as a pty", slave)
	}
	q := &memQueue{q: []byte{0x17, 0x4F}}
	e := &Engine{Cfg: Config{Address: 1, Denom: 1}, M: &fakeMachine{s: Snapshot{Credits: 1234}}, Q: q}
	rom := []byte("the program")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, p, e, LinkOptions{ChirpAfter: 400 * time.Millisecond, ChirpEvery: 50 * time.Millisecond,
			ROM: func(seed uint16) (uint16, error) { return ROMSignature(bytes.NewReader(rom), seed) }})
	}()
	defer func() { cancel(); <-done }()

	wait := 60 * time.Millisecond
	if r := exchange(t, m, []byte{0x81}, wait); len(r) != 0 {
		t.Fatalf("answered % X before the sync", r)
	}
	exchange(t, m, []byte{0x82}, wait)
	if r := exchange(t, m, []byte{0x81}, wait); !bytes.Equal(r, []byte{0x17}) {
		t.Fatalf("GP = % X, want 17", r)
	}
	exchange(t, m, []byte{0x80}, wait) // implied ACK
	if r := exchange(t, m, []byte{0x01, 0x1A}, wait); !bytes.Equal(r, AppendCRC([]byte{0x01, 0x1A, 0, 0, 0x12, 0x34})) {
		t.Errorf("LP 1A = % X", r)
	}
	// A data byte FF inside a message travels as FF FF: an LP 21 seed of
	// FF FF checks the unmarking on the way in.
	lp21 := AppendCRC([]byte{0x01, 0x21, 0xFF, 0xFF})
	if r := exchange(t, m, lp21, wait); !bytes.Equal(r, []byte{0x01}) {
		t.Fatalf("LP 21 = % X, want ACK", r)
	}
	want, _ := ROMSignature(bytes.NewReader(rom), 0xFFFF)
	var got []byte
	for range 20 {
		exchange(t, m, []byte{0x80}, wait)
		if r := exchange(t, m, []byte{0x81}, wait); len(r) == 6 {
			got = r
			break
		}
	}
	if !bytes.Equal(got, AppendCRC([]byte{0x01, 0x21, byte(want), byte(want >> 8)})) {
		t.Errorf("ROM signature reply % X, want signature %04X", got, want)
	}
	// Silence: the link goes down and the machine chirps its address.
	chirp := readFor(t, m, 700*time.Millisecond)
	if len(chirp) < 3 || bytes.Count(chirp, []byte{0x01}) != len(chirp) {
		t.Errorf("chirps = % X, want 01 every 50 ms after 400 ms", chirp)
	}
	// After the loop break the sync rule applies again.
	if r := exchange(t, m, []byte{0x81}, wait); len(r) != 0 {
		t.Errorf("answered % X after a loop break, before the sync", r)
	}
}
