package controller

import (
	"testing"

	"cabinet/internal/recovery"
)

// TestTicketNotice: what the player reads of tickets is a function of the
// committed state alone (the end-to-end tests, with the printer and the
// SAS engine, are internal/sasmachine's tito_test.go: sasmachine imports
// this package).
func TestTicketNotice(t *testing.T) {
	tk := func(s recovery.TicketOutStatus) *recovery.TicketOut { return &recovery.TicketOut{Seq: 1, Status: s} }
	for _, tc := range []struct {
		name string
		s    state
		want string
	}{
		{"nothing", state{}, ""},
		{"waiting for the host", state{cashout: &waitingCashout{id: 3, amount: 500}}, NoticeTicketWait},
		{"printing", state{ticket: tk(recovery.TicketPending)}, NoticeTicketPrinting},
		{"uncertain", state{ticket: tk(recovery.TicketUncertain)}, NoticeTicketUncertain},
		{"printed, nothing left", state{ticket: tk(recovery.TicketPrinted)}, NoticeTicketPrinted},
		{"printed, credits again", state{ticket: tk(recovery.TicketPrinted), m: recovery.Machine{Credits: 500}}, ""},
		{"voided", state{ticket: tk(recovery.TicketVoided)}, ""},
		{"handpay with a reason", state{ticketReason: ticketHostTimeout, m: recovery.Machine{Credits: 500, Handpay: 500, HandpayKind: HandpayCashout}},
			"tito_host_timeout"},
		{"reason after the handpay is paid", state{ticketReason: ticketHostTimeout}, ""},
	} {
		if got := ticketNotice(tc.s); got != tc.want {
			t.Errorf("%s: ticketNotice = %q, want %q", tc.name, got, tc.want)
		}
		busy := tc.s.ticketBusy() != ""
		wantBusy := tc.s.cashout != nil || tc.s.ticket != nil && tc.s.ticket.Unresolved()
		if busy != wantBusy {
			t.Errorf("%s: ticketBusy = %q, want busy %v", tc.name, tc.s.ticketBusy(), wantBusy)
		}
	}
}
