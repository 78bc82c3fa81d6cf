package controller

import "cabinet/internal/desk"

// Tickets out and in are the desks' (internal/desk: TicketDesk, NoteDesk);
// the controller's callers keep their names for the desks' types.

// TITO wires cash-out by ticket and ticket in (desk.TITO; Options.TITO).
type TITO = desk.TITO

// TicketValidation is how ticket validation numbers are obtained
// (desk.TicketValidation).
type TicketValidation = desk.TicketValidation

// Validation modes (desk's).
const (
	ValidateNone           = desk.ValidateNone
	ValidateSystem         = desk.ValidateSystem
	ValidateSecureEnhanced = desk.ValidateSecureEnhanced
)

// The ticket desk's events, the host's ticket requests and the ticket
// information the SAS link reads (desk's).
type (
	TicketEvent      = desk.TicketEvent
	HostValidation   = desk.HostValidation
	HostValidationID = desk.HostValidationID
	TITOInfo         = desk.TITOInfo
)

// Notices of tickets (desk's; the display translates "msg."+notice).
const (
	NoticeTicketWait      = desk.NoticeTicketWait
	NoticeTicketPrinted   = desk.NoticeTicketPrinted
	NoticeTicketUncertain = desk.NoticeTicketUncertain
)

// TicketEvents is the channel of printer results and validation timeouts
// that Run hands to Handle (a loop of its own must do the same). nil
// without Options.TITO.
func (c *Controller) TicketEvents() <-chan TicketEvent { return c.tickets.Events() }

// TITOInfo returns the last published ticket information.
func (c *Controller) TITOInfo() TITOInfo { return c.tickets.Info() }
