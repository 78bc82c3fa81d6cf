package sas

import "cabinet/internal/serial"

// Port is the serial line to the host: a UART (the Pi's PL011, a USB
// adapter) or the machine's end of a pseudo-terminal pair, at 19200 baud
// with the wakeup (9th) bit as the parity bit (serial.Wakeup: SPACE parity
// with PARMRK on a UART, raw on a pty). Both streams are decoded by one
// Unmarker.
type Port = serial.Port

// OpenPort opens path as the SAS line.
func OpenPort(path string) (*Port, error) {
	return serial.Open(path, serial.Config{Baud: 19200, Parity: serial.Wakeup})
}
