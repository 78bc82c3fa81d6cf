package sas

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// Port is the serial line to the host: a UART (the Pi's PL011, a USB
// adapter) or the machine's end of a pseudo-terminal pair.
//
// On a UART the wakeup (9th) bit travels as the parity bit: the line is set
// to SPACE parity (PARENB|CMSPAR, PARODD clear) with INPCK|PARMRK, so the
// kernel marks every byte whose parity bit is 1 — the host's wakeup bytes —
// as FF 00 b, and doubles a data FF as FF FF (shared/spec/sas.md §Wakeup
// bit on Linux). On a pty there is no parity: the host writes that same
// marked stream itself, so the pty is set raw and read verbatim (PARMRK
// would double the host's own FF marks). Both are decoded by one Unmarker.
type Port struct {
	fd   int
	name string
	pty  bool
	t    unix.Termios // the SPACE-parity (or raw pty) settings
}

// ptyMajors are the character-device majors of Unix98 pty slaves
// (Documentation/admin-guide/devices.txt: 136–143).
func isPTY(rdev uint64) bool {
	major := unix.Major(rdev)
	return major >= 136 && major <= 143
}

// OpenPort opens path at 19200 baud, 8 data bits, the wakeup bit as SPACE
// parity with PARMRK (a UART) or raw (a pty).
func OpenPort(path string) (*Port, error) {
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: open %s: %w", ErrTermios, path, err)
	}
	p := &Port{fd: fd, name: path}
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
	t.Iflag = 0 // no IGNPAR, ISTRIP, IXON, IXOFF, ICRNL, BRKINT
	t.Oflag = 0
	t.Lflag = 0
	t.Cflag = unix.CS8 | unix.CREAD | unix.CLOCAL | unix.B19200
	if !p.pty {
		t.Iflag = unix.INPCK | unix.PARMRK
		t.Cflag |= unix.PARENB | unix.CMSPAR // PARODD clear: SPACE
	}
	t.Ispeed, t.Ospeed = unix.B19200, unix.B19200
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		return fail("set 19200 8 SPACE with PARMRK", err)
	}
	if err := unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIOFLUSH); err != nil {
		return fail("flush", err)
	}
	p.t = *t
	return p, nil
}

// Name is the port's path.
func (p *Port) Name() string { return p.name }

// PTY reports whether the port is a pseudo-terminal.
func (p *Port) PTY() bool { return p.pty }

// Close closes the port.
func (p *Port) Close() error { return unix.Close(p.fd) }

// read waits up to d for bytes and reads what is there (0 bytes on
// timeout). A pty whose other end is closed reads EIO: it is reported as
// no data (the host may reopen), after the wait.
func (p *Port) read(buf []byte, d time.Duration) (int, error) {
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(d/time.Millisecond))
	if errors.Is(err, unix.EINTR) || n == 0 {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sas: poll %s: %w", p.name, err)
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
		return 0, fmt.Errorf("sas: read %s: %w", p.name, err)
	}
	return n, nil
}

// write sends b whole, back to back (one write call in the normal case, so
// the gap between the reply's bytes is the UART's own).
func (p *Port) write(b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(p.fd, b)
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLOUT}}
			_, _ = unix.Poll(fds, 5)
			continue
		}
		if err != nil {
			return fmt.Errorf("sas: write %s: %w", p.name, err)
		}
		b = b[n:]
	}
	return nil
}

// chirp sends the machine's address with the wakeup bit: on a UART with
// MARK parity (PARODD), set after the output drained (TCSETSW), then
// drained again and back to SPACE; on a pty the plain address byte.
func (p *Port) chirp(a byte) error {
	if p.pty {
		return p.write([]byte{a})
	}
	mark := p.t
	mark.Cflag |= unix.PARODD
	if err := unix.IoctlSetTermios(p.fd, unix.TCSETSW, &mark); err != nil {
		return fmt.Errorf("%w: %s: set MARK parity: %w", ErrTermios, p.name, err)
	}
	werr := p.write([]byte{a})
	derr := unix.IoctlSetInt(p.fd, unix.TCSBRK, 1) // tcdrain
	space := p.t
	if err := unix.IoctlSetTermios(p.fd, unix.TCSETS, &space); err != nil {
		return fmt.Errorf("%w: %s: back to SPACE parity: %w", ErrTermios, p.name, err)
	}
	return errors.Join(werr, derr)
}
