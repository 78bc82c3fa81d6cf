package tcl

import (
	"time"

	"cabinet/internal/serial"
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
type Port = serial.Port

// writeTimeout bounds a write to a line that does not drain (a UART held
// by flow control, a pty nobody reads).
const writeTimeout = 2 * time.Second

// OpenPort opens path raw at baud (9600, 19200, 38400, 57600 or 115200),
// 8N1, no flow control.
func OpenPort(path string, baud int) (*Port, error) {
	return serial.Open(path, serial.Config{Baud: baud, Parity: serial.None, WriteTimeout: writeTimeout})
}
