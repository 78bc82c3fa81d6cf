package meters

import (
	"fmt"

	"cabinet/internal/money"
)

// Ticket meters (TITO, issue 30). The controller moves them in the
// transaction that records the ticket's transition (recovery's tickets.go),
// and the credit meter with them:
//
//	cash-out to a ticket (pending)   credits −= a; TicketIssued(a)
//	printer confirms the ticket      TicketPrinted(a)
//	attendant voids it, pays by hand TicketVoided(a)
//	ticket in stacked                credits += a; TicketRedeemed(a)
//
// A reprint moves no meter: it is the same ticket. Negative amounts are a
// bug in the caller and panic.

// TicketIssued counts a cash-out to a ticket of amount a (the credits left
// the meter in the same transaction).
func (m *Meters) TicketIssued(a money.Cents) {
	mustPositive("ticket issued", a)
	m.TicketsIssued += a
	m.TicketsIssuedCount++
}

// TicketPrinted counts a ticket the printer confirmed (SAS LP 2F cashable
// ticket out, codes 0E/86/12/38/87/16/2C).
func (m *Meters) TicketPrinted(a money.Cents) {
	mustPositive("ticket printed", a)
	m.TicketsOut += a
	m.TicketsOutCount++
}

// TicketVoided counts an issued ticket the attendant voided and paid by
// hand. It is not in HandpayCancelled: those credits left the meter when
// the ticket was issued (SAS's cancelled-credits meter is HandpayCancelled
// + TicketsVoided).
func (m *Meters) TicketVoided(a money.Cents) {
	mustPositive("ticket voided", a)
	m.TicketsVoided += a
	m.TicketsVoidedCount++
}

// TicketRedeemed counts a ticket stacked and credited (SAS LP 2F cashable
// ticket in, codes 0D/80/11/35/81/15/28/29).
func (m *Meters) TicketRedeemed(a money.Cents) {
	mustPositive("ticket redeemed", a)
	m.TicketsIn += a
	m.TicketsInCount++
}

// TicketsOutstanding returns the amount and count of tickets issued but
// neither printed nor voided: the ticket being printed or waiting for the
// attendant (at most one).
func (m *Meters) TicketsOutstanding() (money.Cents, int64) {
	return m.TicketsIssued - m.TicketsOut - m.TicketsVoided,
		m.TicketsIssuedCount - m.TicketsOutCount - m.TicketsVoidedCount
}

func mustPositive(what string, a money.Cents) {
	if a <= 0 {
		panic(fmt.Sprintf("BUG: meters: %s of %d cents", what, a))
	}
}
