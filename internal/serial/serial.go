// Package serial is the cabinet's serial line: a UART (the Pi's PL011, a
// USB RS-232 adapter) or one end of a pseudo-terminal pair (the emulators
// and test hosts), opened raw with the framing a device's protocol fixes,
// read with a deadline and written whole. The SAS link, the ID-003 note
// validator and the TCL ticket printer use it; each protocol package says
// its own framing (sas: 19200 with the wakeup bit as parity, or marked in
// band on an emulated line; id003: 9600 8E1; tcl: 8N1 at the printer's
// speed).
//
// It also has the CRC the SAS and ID-003 frames share (kermit.go).
package serial

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// ErrTermios is wrapped when the serial port cannot be opened or set up.
var ErrTermios = errors.New("serial port setup")

// ErrBaud is wrapped for a speed the port is not opened at.
var ErrBaud = errors.New("unsupported baud rate")

// Parity is the line's parity bit.
type Parity int

const (
	// None: 8N1.
	None Parity = iota
	// Even: 8E1. A byte received with a parity error is dropped by the
	// kernel (INPCK|IGNPAR): the frame it belonged to fails its length or
	// CRC and the protocol reports it.
	Even
	// Wakeup: SAS's 9th bit as the parity bit. On a UART the line is set to
	// SPACE parity (PARENB|CMSPAR) with INPCK|PARMRK, so the kernel marks
	// every byte whose parity bit is 1 (the host's wakeup bytes) as FF 00 b
	// and doubles a data FF as FF FF (shared/spec/sas.md, the wakeup bit on
	// Linux). On a pty there is no parity: the peer writes that marked
	// stream itself, so the pty is raw and read verbatim (PARMRK would
	// double the peer's own FF marks).
	Wakeup
	// Marked: SAS's 9th bit carried in band, for a line whose peer writes
	// the marked stream itself (FF 00 b, FF FF) because the line has no
	// parity bit to carry it: an emulated UART (QEMU's PL011) bridged to a
	// test host. The port is raw 8N1 without PARMRK (the kernel must not
	// double the peer's FF marks) and read verbatim, as a pty is with
	// Wakeup; WriteMarked sends the plain byte. Never a real SAS loop: a
	// real host sends the wakeup bit as parity, which this line ignores.
	Marked
)

func (p Parity) String() string {
	switch p {
	case None:
		return "8N1"
	case Even:
		return "8E1"
	case Wakeup:
		return "8 SPACE with PARMRK"
	case Marked:
		return "8N1 marked in band"
	}
	return fmt.Sprintf("Parity(%d)", int(p))
}

// Config is how a port is opened.
type Config struct {
	Baud   int // 9600, 19200, 38400, 57600 or 115200
	Parity Parity
	// WriteTimeout bounds a write to a line that does not drain (a UART held
	// by flow control, a pty nobody reads); 0: no bound.
	WriteTimeout time.Duration
}

var bauds = map[int]uint32{
	9600:   unix.B9600,
	19200:  unix.B19200,
	38400:  unix.B38400,
	57600:  unix.B57600,
	115200: unix.B115200,
}

// Port is an open serial line.
type Port struct {
	// mu guards the descriptor: every use holds it shared, Close holds it
	// alone, so a goroutine still reading or writing when another closes
	// the port never touches a descriptor number the process has given to
	// a newer file (it gets ErrClosed instead).
	mu     sync.RWMutex
	closed bool
	fd     int
	name   string
	pty    bool
	cfg    Config
	t      unix.Termios // the settings as opened
}

// isPTY: the character-device majors of Unix98 pty slaves
// (Documentation/admin-guide/devices.txt: 136–143).
func isPTY(rdev uint64) bool {
	major := unix.Major(rdev)
	return major >= 136 && major <= 143
}

// Open opens path raw with c's framing, no flow control, no translation,
// and flushes what the line held.
func Open(path string, c Config) (*Port, error) {
	speed, ok := bauds[c.Baud]
	if !ok {
		return nil, fmt.Errorf("%w: %d: 9600, 19200, 38400, 57600 or 115200", ErrBaud, c.Baud)
	}
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: open %s: %w", ErrTermios, path, err)
	}
	p := &Port{fd: fd, name: path, cfg: c}
	fail := func(step string, err error) (*Port, error) {
		unix.Close(fd)
		return nil, fmt.Errorf("%w: %s: %s: %w", ErrTermios, path, step, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fail("fstat", err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFCHR {
		return fail("check", errors.New("not a character device (a serial port or a pty is needed)"))
	}
	p.pty = isPTY(st.Rdev)
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return fail("read termios (not a serial port?)", err)
	}
	frame(t, c.Parity, speed, p.pty)
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		return fail(fmt.Sprintf("set %d %v", c.Baud, c.Parity), err)
	}
	if err := unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIOFLUSH); err != nil {
		return fail("flush", err)
	}
	p.t = *t
	return p, nil
}

// frame sets t raw (no flow control, no translation, VMIN 1) at speed with
// parity's framing on a UART, or on a pty when pty is set (a pty carries no
// parity: Wakeup is raw there).
func frame(t *unix.Termios, parity Parity, speed uint32, pty bool) {
	t.Iflag = 0 // no IGNPAR, ISTRIP, IXON, IXOFF, ICRNL, BRKINT
	t.Oflag = 0
	t.Lflag = 0
	t.Cflag = unix.CS8 | unix.CREAD | unix.CLOCAL | speed // CSTOPB clear: 1 stop bit
	switch parity {
	case Even:
		t.Iflag = unix.INPCK | unix.IGNPAR | unix.IGNBRK
		t.Cflag |= unix.PARENB // PARODD clear: even
	case Wakeup:
		if !pty {
			t.Iflag = unix.INPCK | unix.PARMRK
			t.Cflag |= unix.PARENB | unix.CMSPAR // PARODD clear: SPACE
		}
	}
	t.Ispeed, t.Ospeed = speed, speed
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
}

// Name is the port's path.
func (p *Port) Name() string { return p.name }

// PTY reports whether the port is a pseudo-terminal.
func (p *Port) PTY() bool { return p.pty }

// Close closes the port.
func (p *Port) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	return unix.Close(p.fd)
}

// ErrClosed is returned by a use of a port after its Close.
var ErrClosed = errors.New("serial: port closed")

// use holds the port for one operation (release it with the function
// returned); ErrClosed once it is closed.
func (p *Port) use() (func(), error) {
	p.mu.RLock()
	if p.closed {
		p.mu.RUnlock()
		return nil, fmt.Errorf("serial: %s: %w", p.name, ErrClosed)
	}
	return p.mu.RUnlock, nil
}

// Read waits up to d (at least a millisecond) for bytes and reads what is
// there: 0 bytes on timeout. A pty whose other end is gone (EIO, hang-up)
// reads as no data after the wait, as a device switched off does.
func (p *Port) Read(buf []byte, d time.Duration) (int, error) {
	done, err := p.use()
	if err != nil {
		return 0, err
	}
	defer done()
	if d < time.Millisecond {
		d = time.Millisecond
	}
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(d/time.Millisecond))
	if errors.Is(err, unix.EINTR) || n == 0 {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("serial: poll %s: %w", p.name, err)
	}
	if fds[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0 && fds[0].Revents&unix.POLLIN == 0 {
		time.Sleep(d)
		return 0, nil
	}
	n, err = unix.Read(p.fd, buf)
	switch {
	case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EINTR):
		return 0, nil
	case errors.Is(err, unix.EIO) && p.pty:
		time.Sleep(d)
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("serial: read %s: %w", p.name, err)
	}
	return n, nil
}

// Write sends b whole, back to back (one write call in the normal case, so
// the gaps between its bytes are the UART's own), within the configured
// WriteTimeout.
func (p *Port) Write(b []byte) error {
	done, err := p.use()
	if err != nil {
		return err
	}
	defer done()
	return p.write(b)
}

func (p *Port) write(b []byte) error {
	var deadline time.Time
	if p.cfg.WriteTimeout > 0 {
		deadline = time.Now().Add(p.cfg.WriteTimeout)
	}
	for len(b) > 0 {
		n, err := unix.Write(p.fd, b)
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			if !deadline.IsZero() && time.Now().After(deadline) {
				return fmt.Errorf("serial: write %s: %d bytes not taken in %v", p.name, len(b), p.cfg.WriteTimeout)
			}
			fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLOUT}}
			_, _ = unix.Poll(fds, 5)
			continue
		}
		if err != nil {
			return fmt.Errorf("serial: write %s: %w", p.name, err)
		}
		b = b[n:]
	}
	return nil
}

// Discard drops whatever the line has received and not yet read (a late
// answer to a request that timed out), so the next answer read is the
// answer to the next request.
func (p *Port) Discard() error {
	done, err := p.use()
	if err != nil {
		return err
	}
	defer done()
	if err := unix.IoctlSetInt(p.fd, unix.TCFLSH, unix.TCIFLUSH); err != nil {
		return fmt.Errorf("serial: flush input %s: %w", p.name, err)
	}
	return nil
}

// WriteMarked sends one byte with its parity bit set (SAS's wakeup bit):
// on a UART opened with Wakeup, MARK parity (PARODD) set after the output
// drained (TCSETSW), the byte, drained again, back to SPACE; on a pty or a
// Marked line the plain byte (a marked stream has no mark for the EGM's
// own bytes: the chirp is the plain address byte, shared/spec/sas.md).
func (p *Port) WriteMarked(b byte) error {
	done, err := p.use()
	if err != nil {
		return err
	}
	defer done()
	if p.pty || p.cfg.Parity != Wakeup {
		return p.write([]byte{b})
	}
	mark := p.t
	mark.Cflag |= unix.PARODD
	if err := unix.IoctlSetTermios(p.fd, unix.TCSETSW, &mark); err != nil {
		return fmt.Errorf("%w: %s: set MARK parity: %w", ErrTermios, p.name, err)
	}
	werr := p.write([]byte{b})
	derr := unix.IoctlSetInt(p.fd, unix.TCSBRK, 1) // tcdrain
	space := p.t
	if err := unix.IoctlSetTermios(p.fd, unix.TCSETS, &space); err != nil {
		return fmt.Errorf("%w: %s: back to SPACE parity: %w", ErrTermios, p.name, err)
	}
	return errors.Join(werr, derr)
}
