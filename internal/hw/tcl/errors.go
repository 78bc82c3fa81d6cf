package tcl

import (
	"errors"

	"cabinet/internal/serial"
)

// Ticket errors: Print returns them before sending anything.

// ErrInvalidTicket is wrapped by a *TicketError: a ticket field is missing
// or out of range. Nothing was sent to the printer.
var ErrInvalidTicket = errors.New("tcl: invalid ticket")

// ErrAmount is returned by AmountWords for an amount outside 0 … MaxAmount.
var ErrAmount = errors.New("tcl: amount out of range")

// ErrLanguage is returned for a language other than i18n.EN and i18n.FR.
var ErrLanguage = errors.New("tcl: unknown ticket language")

// ErrBarcode is returned by BarcodeData for data that interleaved 2 of 5
// cannot encode (not digits, or an odd count of digits).
var ErrBarcode = errors.New("tcl: bad interleaved 2 of 5 data")

// Line and protocol errors.

// ErrTermios is wrapped when the serial port cannot be opened or set up.
var ErrTermios = serial.ErrTermios

// ErrBaud is returned by OpenPort for a speed TCL printers do not use.
var ErrBaud = serial.ErrBaud

// ErrBadStatus is wrapped by DecodeStatus for bytes that are not a TCL
// status reply (*S|unit|version|f1|f2|f3|f4|f5|Pt|*).
var ErrBadStatus = errors.New("tcl: bad status reply")

// ErrClosed: the Printer was closed (before or during the call); the
// line was not touched after Close.
var ErrClosed = errors.New("tcl: printer closed")

// ErrShortStatus is returned by DecodeStatus for the start of a status
// reply whose end has not arrived yet.
var ErrShortStatus = errors.New("tcl: incomplete status reply")

// Printer conditions: Print returns one of these (inside a *PrintError)
// when the printer cannot print or stops printing.

// ErrNoAnswer: no status reply decoded within Options.NoAnswer: the
// printer is off, unplugged, restarting or answering garbage.
var ErrNoAnswer = errors.New("tcl: printer does not answer")

// ErrPaperOut: the printer reports paper out.
var ErrPaperOut = errors.New("tcl: printer paper out")

// ErrHeadOpen: the print head (platen) is up or the printer chassis is open.
var ErrHeadOpen = errors.New("tcl: printer head open")

// ErrJam: the printer reports a paper jam.
var ErrJam = errors.New("tcl: printer paper jam")

// ErrOffline: the printer reports itself offline.
var ErrOffline = errors.New("tcl: printer offline")

// ErrPrinterReset: the printer reports a power-up reset during the print
// (it lost power or restarted), or its template memory was lost.
var ErrPrinterReset = errors.New("tcl: printer reset")

// ErrPrinterError: any other failure the printer reports (system, head,
// voltage, temperature, cutter, memory, flash, command or template data
// error), or a print that never started or never finished.
var ErrPrinterError = errors.New("tcl: printer error")
