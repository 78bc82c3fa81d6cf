package desk

import (
	"time"

	"cabinet/internal/hw"
)

// TicketValidation is how ticket validation numbers are obtained (the
// [sas] validation key; sas.ValidationMode's values, kept apart so that
// the controller does not import the protocol).
type TicketValidation int

// Validation modes.
const (
	ValidateNone           TicketValidation = iota // no tickets: every cash-out is a handpay
	ValidateSystem                                 // the host numbers each ticket (exception 57, LP 57/58)
	ValidateSecureEnhanced                         // the cabinet numbers them after LP 4C
)

// TITO wires cash-out by ticket (Options.TITO; nil: every cash-out is a
// handpay).
type TITO struct {
	Printer    hw.TicketPrinter // nil: no printer (tcl.Device: a TCL printer)
	Validation TicketValidation
	// Wait is how long a cash-out waits for the host's validation number
	// under system validation, and a ticket in escrow for the host's LP 71
	// (0: 10 s).
	Wait time.Duration
	// StatusEvery is how often the printer's status is asked between
	// tickets (0: never; cmd/cabinet asks every 5 s): paper low, paper
	// out, a fault or a printer that does not answer is shown, logged and
	// raised to the host once per change, and a cash-out while the
	// printer cannot print is a handpay at once.
	StatusEvery time.Duration
	// TicketIn turns ticket redemption on (ticketin.go): the note
	// validator (Options.Validator) reads tickets, the casino system
	// redeems them over SAS (exception 67, LP 70/71).
	TicketIn bool
	// ExpiryDays is how long a ticket out can be redeemed (0: never
	// expires), recorded with it; the printer prints it in its heading.
	ExpiryDays int
}

// defaultWait is TITO.Wait's default: Monaco re-posts exception 57 every
// 800 ms, so a host has a dozen chances to answer.
const defaultWait = 10 * time.Second

// HostWait is TITO.Wait or its default: how long a cash-out waits for the
// host's validation number, and a ticket in escrow for its LP 71.
func (t *TITO) HostWait() time.Duration {
	if t == nil || t.Wait <= 0 {
		return defaultWait
	}
	return t.Wait
}
