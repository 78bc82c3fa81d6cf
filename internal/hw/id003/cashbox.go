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

func (n Note) String() string { return fmt.Sprintf("%s (code 0x%02X)", n.Value, n.Code) }

// Decision is the cabinet's answer to a note in escrow.
type Decision struct {
	Stack  bool   // stack it (Escrow has recorded the order); false: return it
	Reason string // why it is returned, shown and logged as today's refusals
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
}
