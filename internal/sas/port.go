package sas

import (
	"fmt"

	"cabinet/internal/serial"
)

// Port is the serial line to the host: a UART (the Pi's PL011, a USB
// adapter) or the machine's end of a pseudo-terminal pair, at 19200 baud
// with the wakeup (9th) bit as the parity bit (serial.Wakeup: SPACE parity
// with PARMRK on a UART, raw on a pty) or, on an emulated line, marked in
// band by the host (serial.Marked). Every stream is decoded by one
// Unmarker.
type Port = serial.Port

// Line is how the host's wakeup bit reaches the port ([sas] line).
type Line byte

// Lines.
const (
	// LineUART: a real SAS loop, the wakeup bit sent as the parity bit
	// (SPACE parity, INPCK|PARMRK, the chirp sent with MARK parity). A
	// pty opened so is raw: its host writes the marked stream itself.
	LineUART Line = iota
	// LineMarked: a tty whose peer already writes the marked stream (FF 00
	// b for a wakeup byte, FF FF for a data FF) because the line carries
	// no parity bit: an emulated UART (QEMU's PL011) bridged to a test
	// host. Raw 8N1, read verbatim, the chirp the plain address byte.
	// Never a real SAS loop: a real host's wakeup bit would be lost.
	LineMarked
)

func (l Line) String() string {
	switch l {
	case LineUART:
		return "uart"
	case LineMarked:
		return "marked"
	}
	return fmt.Sprintf("Line(%d)", byte(l))
}

// OpenPort opens path as the SAS line of a real SAS loop (LineUART).
func OpenPort(path string) (*Port, error) { return OpenLine(path, LineUART) }

// OpenLine opens path as the SAS line, the wakeup bit arriving as l says.
func OpenLine(path string, l Line) (*Port, error) {
	p := serial.Wakeup
	if l == LineMarked {
		p = serial.Marked
	}
	return serial.Open(path, serial.Config{Baud: 19200, Parity: p})
}
