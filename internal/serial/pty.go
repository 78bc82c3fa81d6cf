package serial

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// OpenPTY opens a new pseudo-terminal pair: its controlling (master) end,
// and the path of the other end, which Open takes as it takes a UART. The
// tests of the protocols drive their lines through it.
func OpenPTY() (*os.File, string, error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, "", fmt.Errorf("%w: open /dev/ptmx: %w", ErrTermios, err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, "", fmt.Errorf("%w: unlock pty: %w", ErrTermios, err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, "", fmt.Errorf("%w: pty number: %w", ErrTermios, err)
	}
	return m, fmt.Sprintf("/dev/pts/%d", n), nil
}
