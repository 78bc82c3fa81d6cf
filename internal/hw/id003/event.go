package id003

import (
	"fmt"

	"cabinet/internal/serial"
)

// EventKind says what an Event reports.
type EventKind uint8

const (
	EvStatus         EventKind = iota + 1 // the validator's status changed (Status, Failure, Reject)
	EvPowerUp                             // a power-up status (Status says which); the driver resets
	EvVersion                             // the validator's model and version (Text)
	EvCredited                            // Note was credited (its transaction committed), then ACKed
	EvCreditRepeated                      // vend valid / bill in stacker for Note, already credited: nothing credited
	EvUncredited                          // a note reached the stacker that the cabinet had not ordered (Text): never credited
	EvReturned                            // the cabinet returned the note or ticket in escrow (Note, Ticket, Text: why)
	EvRejected                            // the validator refused a note (Reject)
	EvFault                               // an error status began (Status, Failure): acceptance stops
	EvFaultCleared                        // the error status ended (Status: the one that ended)
	EvLine                                // the line's fault began, goes on or cleared (Line): garbled or unexpected frames, bytes skipped, the validator's communication error, coalesced
	EvTimeout                             // the validator stopped answering (Text: what went unanswered)
	EvBack                                // the validator answers again after EvTimeout
	EvStoreError                          // the Cashbox failed (Text): nothing acknowledged, asked again
)

var eventNames = map[EventKind]string{
	EvStatus: "status", EvPowerUp: "power up", EvVersion: "version", EvCredited: "credited",
	EvCreditRepeated: "credit repeated", EvUncredited: "uncredited", EvReturned: "returned",
	EvRejected: "rejected", EvFault: "fault", EvFaultCleared: "fault cleared",
	EvLine: "line", EvTimeout: "timeout",
	EvBack: "back", EvStoreError: "store error",
}

func (k EventKind) String() string {
	if n, ok := eventNames[k]; ok {
		return n
	}
	return fmt.Sprintf("event(%d)", k)
}

// Event is one thing the driver reports.
type Event struct {
	Kind    EventKind
	Status  Status
	Note    Note
	Reject  RejectReason
	Failure FailureCode
	Text    string
	// Ticket is the barcode of a ticket (Note.Code is TicketCode), as
	// read: set on the status event of its escrow (and of its holding)
	// and on its Returned.
	Ticket string
	// Line is the line fault's report (EvLine).
	Line serial.FaultReport
}

// item is the note, or the ticket and its barcode as read.
func (e Event) item() string {
	if e.Note.Code == TicketCode {
		return fmt.Sprintf("ticket %q", e.Ticket)
	}
	return e.Note.String()
}

func (e Event) String() string {
	switch e.Kind {
	case EvStatus, EvFault:
		switch e.Status {
		case StFailure:
			return fmt.Sprintf("%s: %s: %s", e.Kind, e.Status, e.Failure)
		case StRejecting:
			return fmt.Sprintf("%s: %s: %s", e.Kind, e.Status, e.Reject)
		case StEscrow:
			return fmt.Sprintf("%s: %s: %s", e.Kind, e.Status, e.item())
		case StHolding:
			if e.Note.Code == TicketCode {
				return fmt.Sprintf("%s: %s: %s", e.Kind, e.Status, e.item())
			}
		}
		return fmt.Sprintf("%s: %s", e.Kind, e.Status)
	case EvPowerUp, EvFaultCleared:
		return fmt.Sprintf("%s: %s", e.Kind, e.Status)
	case EvCredited, EvCreditRepeated:
		return fmt.Sprintf("%s: %s", e.Kind, e.Note)
	case EvReturned:
		if e.Note.Code == 0 && e.Text != "" {
			return fmt.Sprintf("%s: %s", e.Kind, e.Text) // an item held by an earlier host
		}
		return fmt.Sprintf("%s: %s: %s", e.Kind, e.item(), e.Text)
	case EvRejected:
		return fmt.Sprintf("%s: %s", e.Kind, e.Reject)
	case EvBack:
		return e.Kind.String()
	case EvLine:
		return fmt.Sprintf("%s: %s", e.Kind, e.Line)
	}
	return fmt.Sprintf("%s: %s", e.Kind, e.Text)
}
