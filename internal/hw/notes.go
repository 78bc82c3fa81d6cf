package hw

import (
	"errors"
	"time"

	"cabinet/internal/money"
	"cabinet/internal/serial"
)

// A serial note validator and a ticket printer, as the cabinet speaks of
// them: money events (a note to credit, a ticket in escrow, a ticket to
// print) and the faults that stop them. The protocols' codes (ID-003,
// TCL) stay in their drivers (hw/id003, hw/tcl), which translate.

// NoteCallKind names a NoteCall.
type NoteCallKind uint8

// The calls of a note validator's driver.
const (
	NoteEscrow   NoteCallKind = iota + 1 // a note in escrow: stack or return it (Value)
	NoteCredit                           // the ordered note (or ticket) reached the stacker: credit it
	NoteTicket                           // a ticket in escrow or held: hold, stack or return it (Ticket)
	NoteReported                         // the validator reported something (Event)
)

// NoteCall is one call of a note validator's driver, answered on the
// cabinet's goroutine: the driver waits on Reply (nil: nobody waits).
type NoteCall struct {
	Kind   NoteCallKind
	Value  money.Cents // NoteEscrow: the note's value
	Ticket string      // NoteTicket: the barcode read
	// PowerUp: NoteCredit at the validator's power up with the note in
	// the stacker (else at vend valid).
	PowerUp bool
	Event   NoteEvent // NoteReported
	Reply   chan NoteAnswer
}

// String names the call for the program log.
func (c *NoteCall) String() string {
	switch c.Kind {
	case NoteEscrow:
		return "escrow " + c.Value.String()
	case NoteTicket:
		return "ticket " + c.Ticket
	case NoteCredit:
		if c.PowerUp {
			return "credit at power up with bill in stacker"
		}
		return "credit at vend valid"
	}
	return c.Event.Text
}

// NoteAnswer is the cabinet's answer to a NoteCall.
type NoteAnswer struct {
	Stack  bool   // NoteEscrow: stack it (the order is committed); false: return it
	Reason string // NoteEscrow, NoteTicket: why it goes back
	// NoteTicket: what to do with the ticket.
	Ticket TicketAction
	// NoteCredit: the note or ticket credited (IsTicket), and Fresh when
	// this call credited it (false: credited before, not again).
	Value    money.Cents
	IsTicket bool
	Fresh    bool
	Err      error
}

// TicketAction is the cabinet's answer to a ticket in escrow.
type TicketAction uint8

// Ticket actions.
const (
	TicketHold   TicketAction = iota + 1 // keep it in escrow: the casino system has not answered yet
	TicketStack                          // stack it: the order is committed
	TicketReturn                         // give it back (NoteAnswer.Reason)
)

// ErrNotOrdered answers a NoteCredit when the store holds no order for
// what reached the stacker: it is never credited (the driver reports it,
// the attendant reconciles the stacker).
var ErrNotOrdered = errors.New("hw: nothing ordered stacked")

// NoteEventKind names a NoteEvent.
type NoteEventKind uint8

// What a note validator reports.
const (
	// NotePowerUp: the validator powered up with the note At (NoteIdle:
	// none, NoteInAcceptor, NoteInStacker: the NoteCredit that follows
	// credits it).
	NotePowerUp NoteEventKind = iota + 1
	// NoteTicketEscrowed: a new ticket is in escrow (a NoteTicket call
	// follows).
	NoteTicketEscrowed
	// NoteSettled: the validator shows where its note went (At).
	NoteSettled
	// NoteReturned: it gave a note (Value) or a ticket (IsTicket, Ticket)
	// back.
	NoteReturned
	// NoteRejected: it rejected what was inserted (Text).
	NoteRejected
	// NoteUncredited: a note reached the stacker that the cabinet did not
	// credit, or the cabinet could not record it (Text).
	NoteUncredited
	// NoteLine: the line's fault began, goes on or cleared (Line):
	// garbled or unexpected frames, bytes skipped, coalesced.
	NoteLine
	// NoteGone, NoteBack: it stopped answering, and answers again.
	NoteGone
	NoteBack
	// NoteFault: a fault (Fault) starts (On) or ends.
	NoteFault
	// NoteInfo: nothing for the cabinet to do (Text): logged.
	NoteInfo
)

// NotePlace is where a validator's note is, or went.
type NotePlace uint8

// Places.
const (
	NoteIdle       NotePlace = iota + 1 // no note: idling or disabled
	NoteInAcceptor                      // power up with a note in the acceptor
	NoteInStacker                       // power up with a note in the stacker
	NoteStacked                         // stacked
	NoteRejecting                       // being rejected
	NoteReturning                       // being returned
)

// ValidatorFault is a fault a validator reports.
type ValidatorFault uint8

// Faults.
const (
	FaultStackerOpen ValidatorFault = iota + 1 // the stacker (cash box) removed
	FaultStackerFull
	FaultJam     // a note jammed in the acceptor or the stacker
	FaultFailure // a failure or a fraud attempt
	FaultPause   // the validator's own business (a second note pushed in)
)

// NoteEvent is one report of a note validator.
type NoteEvent struct {
	Kind     NoteEventKind
	At       NotePlace          // NotePowerUp, NoteSettled
	Fault    ValidatorFault     // NoteFault
	On       bool               // NoteFault: starts
	Value    money.Cents        // NoteReturned: the note
	Ticket   string             // NoteReturned: the ticket's barcode, if read
	IsTicket bool               // NoteReturned: a ticket
	Line     serial.FaultReport // NoteLine
	// Text is the validator's own words (its status, the reason), for the
	// event log's English record.
	Text string
}

// ValidatorHealth is a note validator as the self-test page shows it.
type ValidatorHealth struct {
	Model, Version, Status string
	OK                     bool
}

// TicketOut is what a cash-out ticket carries of its own; the printer's
// driver adds the heading (casino, machine, currency, language).
type TicketOut struct {
	Validation string
	Amount     money.Cents
	Issued     time.Time
	Number     int
}

// FormatValidation writes an 18-digit validation number in the groups a
// ticket prints and a screen shows (00-1234-5678-9012-3456); anything else
// as it is.
func FormatValidation(v string) string {
	if len(v) != 18 {
		return v
	}
	return v[0:2] + "-" + v[2:6] + "-" + v[6:10] + "-" + v[10:14] + "-" + v[14:18]
}

// PrinterCondition is a ticket printer's condition, as its status says.
type PrinterCondition uint8

// Conditions.
const (
	PrinterReady    PrinterCondition = iota
	PrinterPaperLow                  // prints, paper low
	PrinterPaperOut                  // cannot print: paper out
	PrinterFault                     // cannot print: a fault (PrinterStatus.Faults)
	PrinterNoAnswer                  // does not answer
)

// PrinterStatus is a ticket printer's status.
type PrinterStatus struct {
	Cond     PrinterCondition
	Faults   string // PrinterFault: the printer's flags, in its words
	PaperLow bool   // paper low, whatever the condition
}

// TicketPrinter prints cash-out tickets. Print and Status are called off
// the controller's goroutine, one at a time. A Print error's text is the
// attendant's record of how far the print got.
type TicketPrinter interface {
	Print(t TicketOut) (PrinterStatus, error)
	// Status asks the printer's status between tickets (an error: no
	// answer).
	Status() (PrinterStatus, error)
	// Max is the largest amount a ticket can carry.
	Max() money.Cents
}
