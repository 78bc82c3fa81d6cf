package id003

import "cabinet/internal/serial"

// Port is the serial line to the validator: a UART (the Pi's PL011, a USB
// RS-232 adapter) or the host's end of a pseudo-terminal (the emulator),
// at 9600 baud, 8 data bits, even parity, 1 stop bit, raw. A byte received
// with a parity error is dropped by the kernel: the frame it belonged to
// then fails its length or CRC and is reported as a garbled frame.
type Port = serial.Port

// OpenPort opens path as the validator's line.
func OpenPort(path string) (*Port, error) {
	return serial.Open(path, serial.Config{Baud: 9600, Parity: serial.Even})
}
