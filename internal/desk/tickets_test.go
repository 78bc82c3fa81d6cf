package desk

import (
	"testing"

	"cabinet/internal/recovery"
)

// TestTicketNotice: what the player reads of tickets is a function of the
// committed values alone (the end-to-end tests, with the printer and the
// SAS engine, are internal/sasmachine's tito_test.go).
func TestTicketNotice(t *testing.T) {
	tk := func(s recovery.TicketOutStatus) *recovery.TicketOut { return &recovery.TicketOut{Seq: 1, Status: s} }
	for _, tc := range []struct {
		name string
		t    Tickets
		m    recovery.Machine
		want string
	}{
		{"nothing", Tickets{}, recovery.Machine{}, ""},
		{"waiting for the host", Tickets{cashout: &waitingCashout{id: 3, amount: 500}}, recovery.Machine{}, NoticeTicketWait},
		{"printing", Tickets{ticket: tk(recovery.TicketPending)}, recovery.Machine{}, NoticeTicketPrinting},
		{"uncertain", Tickets{ticket: tk(recovery.TicketUncertain)}, recovery.Machine{}, NoticeTicketUncertain},
		{"printed, nothing left", Tickets{ticket: tk(recovery.TicketPrinted)}, recovery.Machine{}, NoticeTicketPrinted},
		{"printed, credits again", Tickets{ticket: tk(recovery.TicketPrinted)}, recovery.Machine{Credits: 500}, ""},
		{"voided", Tickets{ticket: tk(recovery.TicketVoided)}, recovery.Machine{}, ""},
		{"handpay with a reason", Tickets{reason: ticketHostTimeout}, recovery.Machine{Credits: 500, Handpay: 500, HandpayKind: HandpayCashout},
			"tito_host_timeout"},
		{"reason after the handpay is paid", Tickets{reason: ticketHostTimeout}, recovery.Machine{}, ""},
	} {
		if got := tc.t.Notice(tc.m, false); got != tc.want {
			t.Errorf("%s: Notice = %q, want %q", tc.name, got, tc.want)
		}
		busy := tc.t.Busy() != ""
		wantBusy := tc.t.cashout != nil || tc.t.ticket != nil && tc.t.ticket.Unresolved()
		if busy != wantBusy {
			t.Errorf("%s: Busy = %q, want busy %v", tc.name, tc.t.Busy(), wantBusy)
		}
	}
}
