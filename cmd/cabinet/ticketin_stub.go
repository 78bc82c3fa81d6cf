package main

import "cabinet/internal/hw/id003"

// Ticket implements id003.Cashbox for the self-test: it configures no
// tickets, so one escrowed anyway is returned before this is asked; if
// asked, it returns it too (never stacked). Kept apart so the ticket-in
// work (issue 30) can replace it at merge.
func (b hwtestBox) Ticket(string) (id003.TicketDecision, error) {
	return id003.TicketDecision{Action: id003.TicketReturn, Reason: "self-test: tickets are read, never stacked"}, nil
}
