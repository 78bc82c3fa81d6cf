package sashost

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// slowSyncEnv runs TestSASRepliesWithSlowSyncs when set to 1.
const slowSyncEnv = "CABINET_SAS_SLOWSYNC"

// slowSyncDelay is what strace adds to every fdatasync of the cabinet, as
// an SD card's sync can take (issue 27).
const slowSyncDelay = 40 * time.Millisecond

// slowSyncCycles is how many rounds of exchanges runSlowSync makes: each
// reads and acknowledges slowSyncAcks exceptions (general polls every
// slowSyncPoll, as a host's polling cycle) and sends the seven host
// commands.
const (
	slowSyncCycles = 10
	slowSyncAcks   = 6
	slowSyncPoll   = 20 * time.Millisecond
)

// slowSync is the figure of one slow-sync run: replies that started more
// than 20 ms after the host's message, of all replies, and the slowest.
type slowSync struct {
	late, total int
	max         time.Duration
	acked       int // exceptions other than 00 read and acknowledged
	busy        int // busy replies to host commands (each polled again)
	commands    int // host commands sent
	refused     int // host commands still busy after slowSyncTries
}

// slowSyncTries is how often a host command answered busy is sent again
// before it counts as refused (busy is answered when the controller does
// not take a command within 12 ms; docs/sas.md).
const slowSyncTries = 20

func (f slowSync) String() string {
	return fmt.Sprintf("%d of %d replies after 20 ms (max %v) with every fdatasync delayed %v; %d exceptions acknowledged; %d busy replies, %d of %d host commands still busy after %d tries",
		f.late, f.total, f.max.Round(time.Millisecond), slowSyncDelay, f.acked, f.busy, f.refused, f.commands, slowSyncTries)
}

// runSlowSync runs `cabinet sim --sas` under strace, which delays each of
// its fdatasync calls (the store's and the proof's) by slowSyncDelay, and
// drives it as a casino system does: general polls whose exceptions are
// acknowledged by the next poll (an LP 1A, the implied ACK, so the reply
// that follows an acknowledgement is timed), and the host commands LP 01,
// 02, 06, 07, 08 and 09 (each acknowledged by an LP 1A). It skips when strace or a pty is missing.
func runSlowSync(tb testing.TB) slowSync {
	tb.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		tb.Skipf("strace is not installed (scripts/test installs it): %v", err)
	}
	h, err := Open()
	if err != nil {
		tb.Skipf("no pty here: %v", err)
	}
	defer h.Close()
	store := filepath.Join(tb.TempDir(), "sas.db")
	wrap := []string{strace, "-f", "-qq", "-o", "/dev/null", "--seccomp-bpf", "-e", "trace=fdatasync",
		"-e", fmt.Sprintf("inject=fdatasync:delay_enter=%d", slowSyncDelay.Microseconds()), "--"}
	sm := startSimUnder(tb, h, store, wrap, "--game", "classic", "--rounds", "100000", "--pace", "25ms", "--seed", "7")
	s := &session{t: tb, h: h}
	s.send(0x82) // synchronise: a poll to another address

	var f slowSync
	read := func() {
		time.Sleep(slowSyncPoll)
		r := s.poll(gp, 1)
		if len(r) != 1 {
			tb.Fatalf("general poll: reply % X, want one byte\n%s", r, sm.log())
		}
		s.long(8, addr, 0x1A) // acknowledges the exception (anything different)
		if r[0] != 0 {
			f.acked++
		}
	}
	// command sends a host command until it is acknowledged (busy: again,
	// after a different message), at most slowSyncTries times.
	command := func(msg ...byte) {
		f.commands++
		for range slowSyncTries {
			r := s.poll(WithCRC(msg...), 1)
			if len(r) == 1 && r[0] == addr {
				return
			}
			if len(r) != 2 || r[0] != addr || r[1] != 0 {
				tb.Fatalf("LP %02X: % X, want ACK %02X or busy %02X 00", msg[1], r, addr, addr)
			}
			f.busy++
			s.long(8, addr, 0x1A)
		}
		f.refused++
	}
	for range slowSyncCycles {
		for start, n := f.acked, 0; f.acked-start < slowSyncAcks; n++ {
			if n == 500 {
				tb.Fatalf("%d exceptions in 500 general polls: the sim hardly plays\n%s", f.acked-start, sm.log())
			}
			read()
		}
		command(addr, 0x01) // lock out play
		s.long(8, addr, 0x1A)
		command(addr, 0x02)                               // enable play
		command(addr, 0x07)                               // bill acceptor off
		command(addr, 0x06)                               // and on
		command(addr, 0x08, 0xFF, 0x0F, 0x00, 0x00, 0x01) // every bill, the acceptor stays on
		command(addr, 0x09, 0x00, 0x01, 0x00)             // Royal Poker disabled
		command(addr, 0x09, 0x00, 0x01, 0x01)             // and enabled
	}
	sm.stop(tb, syscall.SIGTERM)
	f.late, f.total = len(s.late), s.n
	if len(s.lat) > 0 {
		f.max = slices.Max(s.lat)
	}
	return f
}

// TestSASRepliesWithSlowSyncs: with every fdatasync of the cabinet delayed
// 40 ms, the host's replies still start within SAS's 20 ms (issue 27: the
// link never waits for storage; an acknowledgement and a host command
// commit after their reply). A loaded two-core machine may delay a few
// replies by itself, so up to one in twenty is allowed, as in
// CABINET_SAS_TIMING (report); the goal is none. Every host command is
// acknowledged (a busy reply is on time, but a command still busy after
// slowSyncTries is never applied). Run with
// CABINET_SAS_SLOWSYNC=1 (it takes about a minute and strace); the figure
// is also scripts/bench's sas_late_replies_40ms_sync.
func TestSASRepliesWithSlowSyncs(t *testing.T) {
	if os.Getenv(slowSyncEnv) != "1" {
		t.Skipf("set %s=1 to run: it plays a cabinet under strace for about a minute, and it fails "+
			"until the SAS link never waits for a store commit (issue 27, first bullet)", slowSyncEnv)
	}
	f := runSlowSync(t)
	t.Log(f)
	if f.late*20 > f.total {
		t.Errorf("%v: want at most one reply in twenty after 20 ms (goal: none)", f)
	}
	if f.refused > 0 {
		t.Errorf("%v: want every host command acknowledged", f)
	}
}

// BenchmarkSASSlowSync reports runSlowSync's figure (scripts/bench:
// sas_late_replies_40ms_sync, run with -benchtime 1x): late replies,
// all replies, and the slowest in ms, summed over the b.N runs.
func BenchmarkSASSlowSync(b *testing.B) {
	var sum slowSync
	for range b.N {
		f := runSlowSync(b)
		sum.late += f.late
		sum.total += f.total
		sum.max = max(sum.max, f.max)
		b.Log(f)
	}
	b.ReportMetric(float64(sum.late), "late")
	b.ReportMetric(float64(sum.total), "replies")
	b.ReportMetric(float64(sum.max.Microseconds())/1000, "max-ms")
}
