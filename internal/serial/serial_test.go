package serial

import (
	"errors"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns the controlling end of a new pty pair and its peer's path.
func openPTY(t *testing.T) (*os.File, string) {
	t.Helper()
	m, path, err := OpenPTY()
	if err != nil {
		t.Skipf("no ptys here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return m, path
}

func TestKermit(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want uint16
	}{
		{[]byte("123456789"), 0x2189},      // the catalogue's check value
		{[]byte{0xFC, 0x05, 0x11}, 0x5627}, // ID-003's status request FC 05 11 27 56
	} {
		if got := Kermit(0, c.in); got != c.want {
			t.Errorf("Kermit(% X) = %04X, want %04X", c.in, got, c.want)
		}
	}
	// Continued: the CRC of a whole equals the CRC of its second part
	// continued from the first's.
	b := []byte("cabinet serial line")
	if Kermit(Kermit(0, b[:7]), b[7:]) != Kermit(0, b) {
		t.Error("Kermit does not continue")
	}
}

// TestOpenEachFraming: every framing opens a pty, bytes go both ways
// verbatim, a read with nothing to read returns 0 after its wait.
func TestOpenEachFraming(t *testing.T) {
	for _, c := range []Config{
		{Baud: 9600, Parity: Even},
		{Baud: 19200, Parity: Wakeup},
		{Baud: 19200, Parity: Marked},
		{Baud: 38400, Parity: None, WriteTimeout: time.Second},
	} {
		t.Run(c.Parity.String(), func(t *testing.T) {
			m, path := openPTY(t)
			p, err := Open(path, c)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if !p.PTY() || p.Name() != path {
				t.Errorf("PTY() = %v, Name() = %q", p.PTY(), p.Name())
			}
			if tio, err := unix.IoctlGetTermios(p.fd, unix.TCGETS); err != nil || tio.Iflag&unix.PARMRK != 0 {
				t.Errorf("pty opened %v: iflag %#o, %v; want no PARMRK (a pty is read verbatim)", c.Parity, tio.Iflag, err)
			}
			out := []byte{0x01, 0xFF, 0x00, 0x80, 0x1B}
			if err := p.Write(out); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(out))
			if _, err := m.Read(got); err != nil {
				t.Fatal(err)
			}
			if string(got) != string(out) {
				t.Errorf("peer read % X, want % X", got, out)
			}
			if _, err := m.Write([]byte{0xFF, 0x00, 0x81}); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 16)
			n := 0
			for n < 3 {
				k, err := p.Read(buf[n:], 50*time.Millisecond)
				if err != nil {
					t.Fatal(err)
				}
				n += k
			}
			if string(buf[:n]) != "\xff\x00\x81" {
				t.Errorf("Read % X, want FF 00 81 (a pty is read verbatim)", buf[:n])
			}
			if k, err := p.Read(buf, 5*time.Millisecond); k != 0 || err != nil {
				t.Errorf("Read on a quiet line = %d, %v; want 0, nil", k, err)
			}
			if err := p.WriteMarked(0x01); err != nil {
				t.Fatal(err)
			}
			if _, err := m.Read(got[:1]); err != nil || got[0] != 0x01 {
				t.Errorf("WriteMarked on a pty: peer read %X, %v", got[0], err)
			}
			if err := p.Discard(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestFrame: the termios each framing sets, on a UART and on a pty. A
// Marked line (an emulated UART whose peer writes the marked stream) is raw
// 8N1 even on a UART: no PARENB (the line has no parity bit) and no PARMRK
// (the kernel would double the peer's FF marks); Wakeup on a UART is SPACE
// parity with INPCK|PARMRK. The project's machine has no UART to open, so
// the settings are checked as computed; the pty cases are also opened in
// TestOpenEachFraming.
func TestFrame(t *testing.T) {
	const raw8N1 = unix.CS8 | unix.CREAD | unix.CLOCAL | unix.B19200
	for _, c := range []struct {
		parity       Parity
		pty          bool
		iflag, cflag uint32
	}{
		{Wakeup, false, unix.INPCK | unix.PARMRK, raw8N1 | unix.PARENB | unix.CMSPAR},
		{Wakeup, true, 0, raw8N1},
		{Marked, false, 0, raw8N1},
		{Marked, true, 0, raw8N1},
		{Even, false, unix.INPCK | unix.IGNPAR | unix.IGNBRK, raw8N1 | unix.PARENB},
		{None, false, 0, raw8N1},
	} {
		var tio unix.Termios
		tio.Iflag, tio.Oflag, tio.Lflag = unix.ICRNL|unix.IXON|unix.ISTRIP, unix.OPOST, unix.ICANON|unix.ECHO
		tio.Cflag = unix.CSTOPB | unix.PARODD | unix.CRTSCTS
		frame(&tio, c.parity, unix.B19200, c.pty)
		if tio.Iflag != c.iflag || tio.Cflag != c.cflag || tio.Oflag != 0 || tio.Lflag != 0 {
			t.Errorf("%v (pty %v): iflag %#o cflag %#o oflag %#o lflag %#o; want iflag %#o cflag %#o, raw",
				c.parity, c.pty, tio.Iflag, tio.Cflag, tio.Oflag, tio.Lflag, c.iflag, c.cflag)
		}
		if tio.Ispeed != unix.B19200 || tio.Ospeed != unix.B19200 || tio.Cc[unix.VMIN] != 1 || tio.Cc[unix.VTIME] != 0 {
			t.Errorf("%v (pty %v): speed %d/%d, VMIN %d VTIME %d", c.parity, c.pty, tio.Ispeed, tio.Ospeed, tio.Cc[unix.VMIN], tio.Cc[unix.VTIME])
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	if _, err := Open("/dev/null", Config{Baud: 4800}); !errors.Is(err, ErrBaud) {
		t.Errorf("Open(4800 baud) = %v, want %v", err, ErrBaud)
	}
	if _, err := Open(t.TempDir(), Config{Baud: 9600}); !errors.Is(err, ErrTermios) {
		t.Errorf("Open(a directory) = %v, want %v", err, ErrTermios)
	}
	if _, err := Open("/dev/null", Config{Baud: 9600}); !errors.Is(err, ErrTermios) {
		t.Errorf("Open(/dev/null) = %v, want %v (not a serial port)", err, ErrTermios)
	}
	if _, err := Open("/nonexistent/tty", Config{Baud: 9600}); !errors.Is(err, ErrTermios) {
		t.Errorf("Open(missing) = %v, want %v", err, ErrTermios)
	}
}

// A port closed while another goroutine still uses it: that goroutine
// gets ErrClosed, never the descriptor number the process gives the next
// file it opens (before, a late Write on a closed port could land on the
// newer port that reused its number).
func TestClosedPortNeverTouchesANewerOne(t *testing.T) {
	_, path := openPTY(t)
	p, err := Open(path, Config{Baud: 9600})
	if err != nil {
		t.Fatal(err)
	}
	reading := make(chan error, 1)
	go func() {
		buf := make([]byte, 8)
		for {
			if _, err := p.Read(buf, 5*time.Millisecond); err != nil {
				reading <- err
				return
			}
		}
	}()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-reading; !errors.Is(err, ErrClosed) {
		t.Fatalf("read after close: %v, want ErrClosed", err)
	}
	m2, path2 := openPTY(t)
	q, err := Open(path2, Config{Baud: 9600}) // likely the closed port's descriptor number
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for _, op := range []func() error{
		func() error { return p.Write([]byte("late")) },
		func() error { return p.WriteMarked(0x01) },
		p.Discard,
	} {
		if err := op(); !errors.Is(err, ErrClosed) {
			t.Errorf("use after close: %v, want ErrClosed", err)
		}
	}
	if err := q.Write([]byte{0x42}); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 8)
	n, err := m2.Read(got)
	if err != nil || string(got[:n]) != "\x42" {
		t.Errorf("the newer port's peer read %q, %v; want only its own byte", got[:n], err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
