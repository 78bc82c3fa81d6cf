package id003

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// Port is the serial line to the validator: a UART (the Pi's PL011, a USB
// RS-232 adapter) or the host's end of a pseudo-terminal (the emulator).
// It is set to 9600 baud, 8 data bits, even parity, 1 stop bit, raw. A byte
// received with a parity error is dropped by the kernel (INPCK|IGNPAR): the
// frame it belonged to then fails its length or CRC and is reported as a
// garbled frame. On a pty the same settings apply and parity never fails.
type Port struct {
	fd   int
	name string
}

// OpenPort opens path as the validator's line.
func OpenPort(path string) (*Port, error) {
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
	t.Iflag = unix.INPCK | unix.IGNPAR | unix.IGNBRK // no PARMRK, ISTRIP, IXON, ICRNL
	t.Oflag = 0
	t.Lflag = 0
	t.Cflag = unix.CS8 | unix.CREAD | unix.CLOCAL | unix.PARENB | unix.B9600 // PARODD clear: even; CSTOPB clear: 1 stop bit
	t.Ispeed, t.Ospeed = unix.B9600, unix.B9600
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		return fail("set 9600 8E1", err)
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

// Read waits up to d for bytes and reads what is there (0 bytes on
// timeout). A pty whose other end is gone reads EIO: no data, after the
// wait, as a silent validator.
func (p *Port) Read(buf []byte, d time.Duration) (int, error) {
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(d/time.Millisecond))
	if errors.Is(err, unix.EINTR) || n == 0 {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("id003: poll %s: %w", p.name, err)
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
		return 0, fmt.Errorf("id003: read %s: %w", p.name, err)
	}
	return n, nil
}

// Write sends b whole.
func (p *Port) Write(b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(p.fd, b)
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLOUT}}
			_, _ = unix.Poll(fds, 5)
			continue
		}
		if err != nil {
			return fmt.Errorf("id003: write %s: %w", p.name, err)
		}
		b = b[n:]
	}
	return nil
}

// Discard drops whatever the line has received and not yet read (a late
// answer to a command that timed out), so the next answer read is the
// answer to the next command.
func (p *Port) Discard() error {
	if err := unix.IoctlSetInt(p.fd, unix.TCFLSH, unix.TCIFLUSH); err != nil {
		return fmt.Errorf("id003: flush %s: %w", p.name, err)
	}
	return nil
}
