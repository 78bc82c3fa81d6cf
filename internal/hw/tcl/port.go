package tcl

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// Port is the serial line to the printer: an RS-232 UART, a USB serial
// adapter (a printer's USB port in its CDC serial mode appears as
// /dev/ttyACM0), or the cabinet's end of a pseudo-terminal pair.
//
// TCL printers run 8 data bits, no parity, 1 stop bit at the speed set on
// the printer (DIP switches or its configuration ticket), commonly 9600 or
// 38400 baud. No flow control is set: the cabinet sends one command and
// then polls, so the printer's buffer never fills (its XOFF flag is still
// decoded).
type Port struct {
	fd   int
	name string
}

var bauds = map[int]uint32{
	9600:   unix.B9600,
	19200:  unix.B19200,
	38400:  unix.B38400,
	57600:  unix.B57600,
	115200: unix.B115200,
}

// OpenPort opens path raw at baud, 8N1, no flow control.
func OpenPort(path string, baud int) (*Port, error) {
	speed, ok := bauds[baud]
	if !ok {
		return nil, fmt.Errorf("%w: %d: 9600, 19200, 38400, 57600 or 115200", ErrBaud, baud)
	}
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: open %s: %w", ErrTermios, path, err)
	}
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
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return fail("read termios (not a serial port?)", err)
	}
	t.Iflag = 0 // no IXON/IXOFF, no CR/NL translation, no parity marks
	t.Oflag = 0
	t.Lflag = 0
	t.Cflag = unix.CS8 | unix.CREAD | unix.CLOCAL | speed
	t.Ispeed, t.Ospeed = speed, speed
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		return fail(fmt.Sprintf("set %d 8N1", baud), err)
	}
	if err := unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIOFLUSH); err != nil {
		return fail("flush", err)
	}
	return &Port{fd: fd, name: path}, nil
}

// Name is the port's path.
func (p *Port) Name() string { return p.name }

// Close closes the port.
func (p *Port) Close() error { return unix.Close(p.fd) }

// discard drops whatever has arrived and not been read: late replies to
// an earlier request.
func (p *Port) discard() error {
	if err := unix.IoctlSetInt(p.fd, unix.TCFLSH, unix.TCIFLUSH); err != nil {
		return fmt.Errorf("tcl: flush input %s: %w", p.name, err)
	}
	return nil
}

// read waits up to d for bytes and reads what is there (0 bytes on
// timeout). A pty whose other end is closed reads EIO or hangs up: that is
// no data, after the wait, as for a printer that is switched off.
func (p *Port) read(buf []byte, d time.Duration) (int, error) {
	if d < time.Millisecond {
		d = time.Millisecond
	}
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(d/time.Millisecond))
	if errors.Is(err, unix.EINTR) || n == 0 {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("tcl: poll %s: %w", p.name, err)
	}
	if fds[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0 && fds[0].Revents&unix.POLLIN == 0 {
		time.Sleep(d)
		return 0, nil
	}
	n, err = unix.Read(p.fd, buf)
	switch {
	case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EINTR):
		return 0, nil
	case errors.Is(err, unix.EIO):
		time.Sleep(d)
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("tcl: read %s: %w", p.name, err)
	}
	return n, nil
}

// writeTimeout bounds a write to a line that does not drain (a UART held
// by flow control, a pty nobody reads).
const writeTimeout = 2 * time.Second

// write sends b whole.
func (p *Port) write(b []byte) error {
	deadline := time.Now().Add(writeTimeout)
	for len(b) > 0 {
		n, err := unix.Write(p.fd, b)
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			if time.Now().After(deadline) {
				return fmt.Errorf("tcl: write %s: %d bytes not taken in %v", p.name, len(b), writeTimeout)
			}
			fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLOUT}}
			_, _ = unix.Poll(fds, 5)
			continue
		}
		if err != nil {
			return fmt.Errorf("tcl: write %s: %w", p.name, err)
		}
		b = b[n:]
	}
	return nil
}
