package id003

import (
	"errors"
	"fmt"

	"cabinet/internal/money"
)

// Note is a note the validator reported: its escrow code and the value the
// configuration gives that code.
type Note struct {
	Code  byte
	Value money.Cents
}

// String is the value and the code; a ticket (TicketCode) is "ticket" and
// its amount.
func (n Note) String() string {
	if n.Code == TicketCode {
		return fmt.Sprintf("ticket %s", n.Value)
	}
	return fmt.Sprintf("%s (code 0x%02X)", n.Value, n.Code)
}

// Decision is the cabinet's answer to a note in escrow.
type Decision struct {
	Stack  bool   // stack it (Escrow has recorded the order); false: return it
	Reason string // why it is returned, shown and logged as today's refusals
}

// TicketAction is the cabinet's answer to a ticket in escrow.
type TicketAction uint8

const (
	// TicketHold keeps the ticket in escrow: the cabinet is still waiting
	// for the host's answer (SAS ticket validation). The driver sends
	// hold and asks again at the next poll.
	TicketHold TicketAction = iota + 1
	// TicketStack stacks it: Ticket has recorded the order durably.
	TicketStack
	// TicketReturn gives it back (Reason says why).
	TicketReturn
)

func (a TicketAction) String() string {
	switch a {
	case TicketHold:
		return "hold"
	case TicketStack:
		return "stack"
	case TicketReturn:
		return "return"
	}
	return fmt.Sprintf("ticket action %d", a)
}

// TicketDecision is the cabinet's answer to a ticket in escrow or held.
type TicketDecision struct {
	Action TicketAction
	Reason string // why it is returned, shown and logged
}

// ErrNotOrdered is returned by Cashbox.Credit when the store holds no note
// ordered stacked: the note in the stacker is none the cabinet decided, so
// it is never credited (the driver reports it, acknowledges it so the
// validator carries on, and the attendant reconciles it with the stacker).
var ErrNotOrdered = errors.New("id003: no note ordered stacked")

// Cashbox is what the driver needs from the cabinet: the escrow decision
// and the credit. The controller implements it on its store; the driver
// calls it from its poll loop, one call at a time.
//
// The money rule (platform.md §2, §5): a note is credited exactly once,
// when the validator says it is in the stacker — vend valid, or power up
// with bill in stacker — never on escrow, in one store transaction; the
// vend valid is acknowledged only after that transaction has committed. The
// store keeps one record, the order:
//
//	none → ordered(note) → credited(note) → (the next order replaces it)
//
// "credited" is "vend valid pending ACK": it is written in the credit's own
// transaction, so across any power cut or crash the store knows whether the
// note the validator still holds in vend valid, or reports in the stacker at
// power-up, has been credited. docs/hardware.md lists every case.
type Cashbox interface {
	// Escrow decides the note in escrow by the same rules as the inhibit
	// (credit limit, tilts, doors, audit, operator menu, the casino
	// system's disable). Before it answers Stack it records, durably, the
	// order for n (replacing any earlier record), so that a note that
	// reaches the stacker across a power cut is still credited once. An
	// error returns the note.
	Escrow(n Note) (Decision, error)
	// Credit credits the ordered note in one transaction that also marks
	// it credited, and returns it with fresh true. If the order is already
	// marked credited it changes nothing and returns it with fresh false
	// (the validator repeated vend valid after a crash, or reported power
	// up with bill in stacker after the credit). With no order it returns
	// ErrNotOrdered. Any other error means nothing was committed: the
	// driver does not acknowledge and asks again at the next poll.
	Credit() (n Note, fresh bool, err error)
	// Ticket decides the ticket whose barcode is number (TicketDigits
	// digits, checked by the driver) while it is in escrow or held: the
	// driver calls it at every poll until the answer is Stack or Return,
	// and sends hold for each Hold. Before it answers Stack the cabinet
	// has the host's authorisation committed (the amount to credit), and
	// records the order durably as Escrow does (a Note with Code
	// TicketCode and the ticket's amount as Value), so that Credit,
	// called at vend valid or at power up with bill in stacker as for a
	// note, credits the ticket once. An error returns the ticket, the
	// error as the reason.
	Ticket(number string) (TicketDecision, error)
}
