package sas

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"cabinet/internal/serial"
	"golang.org/x/sys/unix"
)

// lineRig serves a machine at address 1 on a pty and keeps its line
// fault reports.
type lineRig struct {
	t  *testing.T
	m  *os.File
	mu sync.Mutex
	rs []serial.FaultReport
}

func newLineRig(t *testing.T) *lineRig {
	m, slave := ptyPair(t)
	p, err := OpenPort(slave)
	if err != nil {
		t.Fatal(err)
	}
	r := &lineRig{t: t, m: m}
	e := &Engine{Cfg: Config{Address: 1, Denom: 1}, M: &fakeMachine{s: Snapshot{Credits: 1234}}, Q: &memQueue{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, p, e, LinkOptions{LineQuiet: 5, Line: func(f serial.FaultReport) {
			r.mu.Lock()
			r.rs = append(r.rs, f)
			r.mu.Unlock()
		}})
	}()
	t.Cleanup(func() { cancel(); <-done; p.Close() })
	exchange(t, m, []byte{0x82}, 30*time.Millisecond) // sync
	return r
}

// poll writes msg (marked) and waits up to a second for want bytes.
func (r *lineRig) poll(msg []byte, want int) []byte {
	r.t.Helper()
	if _, err := r.m.Write(Mark(nil, msg, true)); err != nil {
		r.t.Fatal(err)
	}
	return r.read(want)
}

func (r *lineRig) read(want int) []byte {
	var out []byte
	buf := make([]byte, 64)
	end := time.Now().Add(time.Second)
	for len(out) < want && time.Now().Before(end) {
		fds := []unix.PollFd{{Fd: int32(r.m.Fd()), Events: unix.POLLIN}}
		if n, _ := unix.Poll(fds, 5); n > 0 {
			k, _ := unix.Read(int(r.m.Fd()), buf)
			out = append(out, buf[:max(k, 0)]...)
		}
	}
	return out
}

// reports returns the line fault reports once there are want of them,
// or what there is after a second: the link reports a message's fault
// after writing its reply, so the reply read is no sign the report is in.
func (r *lineRig) reports(want int) []serial.FaultReport {
	for end := time.Now().Add(time.Second); ; time.Sleep(time.Millisecond) {
		r.mu.Lock()
		rs := append([]serial.FaultReport(nil), r.rs...)
		r.mu.Unlock()
		if len(rs) >= want || time.Now().After(end) {
			return rs
		}
	}
}

// TestServeCutShort: an LP 71 whose length byte is larger than the frame
// is malformed: NACKed once the line falls silent (sas.md: bad data ⇒
// NACK), and counted as a line error; cut short by the next message it
// is counted, and the next message is answered.
func TestServeCutShort(t *testing.T) {
	r := newLineRig(t)
	lp71 := AppendCRC([]byte{0x01, 0x71, 0x20, 0x00, 0x00, 0x00, 0x01, 0x00}) // length 0x20, 6 bytes follow
	if got := r.poll(lp71, 1); !bytes.Equal(got, []byte{0x81}) {
		t.Fatalf("LP 71 longer than its frame: % X, want the NACK 81", got)
	}
	rs := r.reports(1)
	if len(rs) != 1 || rs[0].Phase != serial.FaultBegan || !strings.Contains(rs[0].First, "long poll 71 cut short: 10 of the 37 bytes its length byte says (01 71 20") {
		t.Fatalf("reports %v, want the fault begun with the cut-short LP 71", rs)
	}
	// Cut by the next message: that one is answered, the cut one counted.
	msg := append(Mark(nil, lp71[:5], true), Mark(nil, []byte{0x01, 0x1A}, true)...)
	if _, err := r.m.Write(msg); err != nil {
		t.Fatal(err)
	}
	if got := r.read(8); !bytes.Equal(got, AppendCRC([]byte{0x01, 0x1A, 0, 0, 0x12, 0x34})) {
		t.Fatalf("LP 1A after a cut LP 71: % X", got)
	}
	for range 5 {
		r.poll([]byte{0x01, 0x1A}, 8)
	}
	rs = r.reports(2)
	if len(rs) != 2 || rs[1].Phase != serial.FaultCleared || rs[1].Count != 2 || !strings.Contains(rs[1].Last, "cut short by the next message: 5 bytes") {
		t.Errorf("reports %v, want the fault cleared after 2 errors, the last cut by the next message", rs)
	}
}

// TestServeGarblingHost: a host whose every long poll arrives with a bad
// CRC gets each one NACKed, and the link reports one line fault of a
// handful of reports carrying its count, however long it lasts.
func TestServeGarblingHost(t *testing.T) {
	r := newLineRig(t)
	bad := AppendCRC([]byte{0x01, 0x09, 0x00, 0x01, 0x00})
	bad[len(bad)-1] ^= 0x5A
	for i := range 1500 {
		bad[3] = byte(i) // not the same message twice (no resend)
		if got := r.poll(bad, 1); !bytes.Equal(got, []byte{0x81}) {
			t.Fatalf("garbled poll %d: % X, want the NACK 81", i, got)
		}
	}
	for range 5 {
		r.poll([]byte{0x01, 0x1A}, 8)
	}
	rs := r.reports(5)
	if len(rs) != 5 {
		t.Fatalf("%d reports for 1500 damaged polls, want 5 (began, 10, 100, 1000, cleared): %v", len(rs), rs)
	}
	if rs[0].Phase != serial.FaultBegan || !strings.Contains(rs[0].First, "long poll 09 with a bad CRC (01 09 00 00 00") ||
		rs[4].Phase != serial.FaultCleared || rs[4].Count != 1500 {
		t.Errorf("reports %v, want the fault begun with the first bytes and cleared after 1500", rs)
	}
}
