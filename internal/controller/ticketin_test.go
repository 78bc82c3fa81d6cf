package controller

import (
	"slices"
	"testing"
	"time"

	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/sas"
)

// Tickets in, with the emulated validator on a real pty and a real store;
// the test plays the SAS link's part (the engine's steps on the
// redemption record, handed to Handle as sasmachine does): the money rule
// is that a ticket is credited once, for the host's amount, only when
// the validator says it is in the stacker.

const (
	tinA = "001234567890123456"
	tinB = "009876543210987654"
)

func newTinRig(t *testing.T, wait time.Duration) *vrig {
	return newVRigTITO(t, nil, &TITO{TicketIn: true, Wait: wait})
}

// insertTicket feeds a ticket once the validator idles and serves until
// the cabinet recorded it in escrow (exception 67 due).
func (r *vrig) insertTicket(number string) {
	r.t.Helper()
	r.serve("the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling })
	if err := r.emu.InsertTicket(number); err != nil {
		r.t.Fatal(err)
	}
	r.serve("ticket "+number+" in escrow", func() bool {
		t, ok := r.c.led.cur().notes.TicketIn()
		return ok && t.Validation == number && t.Status == recovery.TicketInEscrow
	})
}

// host moves the redemption record one step, as the SAS engine does
// (from memory), and hands it to the controller.
func (r *vrig) host(step func(sas.Redemption) sas.Redemption) {
	r.t.Helper()
	cur := r.c.TITOInfo().Redemption
	next := step(cur)
	if err := r.c.Handle(Input{Host: &HostRequest{Redemption: &HostRedemption{Cur: cur, Next: next}}}); err != nil {
		r.t.Fatal(err)
	}
}

// redeem is the host's LP 70 then LP 71 with code and amount.
func (r *vrig) redeem(code sas.TransferCode, amount money.Cents) {
	r.t.Helper()
	r.host(func(c sas.Redemption) sas.Redemption {
		n, ok := c.Read()
		if !ok {
			r.t.Fatalf("LP 70: no ticket in escrow: %+v", c)
		}
		return n
	})
	r.host(func(c sas.Redemption) sas.Redemption {
		q := sas.RedeemRequest{Code: code, Amount: amount, Number: c.Number, HasNumber: !code.Rejected()}
		n, _ := c.Redeem(q, 1, 0)
		return n
	})
}

// hostReads is the host's read of the final status (LP 71 FF acked).
func (r *vrig) hostReads() {
	r.t.Helper()
	r.host(func(c sas.Redemption) sas.Redemption { return c.Acknowledge() })
}

func (r *vrig) ticketsIn() []recovery.TicketIn {
	var ts []recovery.TicketIn
	if err := r.st.View(func(tx *recovery.Tx) (err error) { ts, err = tx.TicketsIn(0); return err }); err != nil {
		r.t.Fatal(err)
	}
	return ts
}

func TestTicketInCreditedOnce(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.insertTicket(tinA)
	if got := r.c.TITOInfo().Redemption; got.Stage != sas.StageEscrow || got.Number != 1234567890123456 {
		t.Fatalf("published redemption %+v, want the ticket in escrow", got)
	}
	r.redeem(sas.TransferCashable, 2550)
	r.serve("the ticket stacked and credited", func() bool {
		return len(r.emu.Snapshot().TicketsStacked) == 1 && r.c.led.cur().m.Credits == 2550 && r.note() == nil
	})
	tk := r.ticketsIn()[0]
	if tk.Status != recovery.TicketInStacked || tk.Amount != 2550 || tk.Stage != sas.StageDone || tk.SASStatus != sas.RedeemedCashable {
		t.Errorf("ticket in %+v, want stacked for 25.50, SAS done 00", tk)
	}
	if r.c.led.cur().m.Meters.BillsIn != 0 {
		t.Errorf("bills in %v: a ticket is no bill", r.c.led.cur().m.Meters.BillsIn)
	}
	if r.c.scr.message != "ticket_in_credited" {
		t.Errorf("message %q, want ticket_in_credited", r.c.scr.message)
	}
	// Until the host has read the result (exception 68), the next ticket
	// is returned: the SAS link carries one redemption at a time.
	r.serve("the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling })
	if err := r.emu.InsertTicket(tinB); err != nil {
		t.Fatal(err)
	}
	r.serve("ticket B returned", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	if r.c.scr.message != "ticket_in_busy" {
		t.Errorf("message %q, want ticket_in_busy", r.c.scr.message)
	}
	r.hostReads()
	r.insertTicket(tinB)
	r.redeem(sas.TransferCashable, 1000)
	r.serve("ticket B credited", func() bool { return r.c.led.cur().m.Credits == 3550 && r.note() == nil })
	if got := r.emu.Snapshot().TicketsStacked; len(got) != 2 || got[1] != tinB {
		t.Errorf("stacked %v, want A then B", got)
	}
}

// The host rejects: the ticket comes back with the host's reason on the
// screen; nothing is credited.
func TestTicketInHostRejects(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.insertTicket(tinA)
	r.redeem(0x84, 0) // already redeemed
	r.serve("the ticket returned", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	if r.c.led.cur().m.Credits != 0 || len(r.emu.Snapshot().TicketsStacked) != 0 {
		t.Fatalf("credits %v, stacked %v: want nothing", r.c.led.cur().m.Credits, r.emu.Snapshot().TicketsStacked)
	}
	tk := r.ticketsIn()[0]
	if tk.Status != recovery.TicketInRejected || !tk.HostRejected() || tk.Reason != "ticket already redeemed" {
		t.Errorf("ticket %+v, want rejected by the host: already redeemed", tk)
	}
	if r.c.scr.message != "ticket_in_host_84" {
		t.Errorf("message %q, want ticket_in_host_84", r.c.scr.message)
	}
}

// No LP 71 within the wait: returned with status 88 for the host.
func TestTicketInHostTimeout(t *testing.T) {
	r := newTinRig(t, time.Nanosecond)
	r.serve("the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling })
	if err := r.emu.InsertTicket(tinA); err != nil {
		t.Fatal(err)
	}
	r.serve("the ticket returned", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	tk := r.ticketsIn()[0]
	if tk.Status != recovery.TicketInReturned || tk.SASStatus != sas.RedeemTimeout || r.c.led.cur().m.Credits != 0 {
		t.Errorf("ticket %+v, credits %v; want returned 88, nothing credited", tk, r.c.led.cur().m.Credits)
	}
	// A late LP 71 finds the record moved on: nothing changes.
	r.host(func(c sas.Redemption) sas.Redemption {
		n, _ := c.Redeem(sas.RedeemRequest{Code: sas.TransferCashable, Amount: 500, Number: c.Number, HasNumber: true}, 1, 0)
		return n
	})
	if r.c.led.cur().m.Credits != 0 || r.ticketsIn()[0].Status != recovery.TicketInReturned {
		t.Errorf("a late authorisation changed the record: %+v", r.ticketsIn()[0])
	}
}

// The validator loses power instead of stacking the authorised ticket:
// the order is committed, the ticket in the transport (41h) is returned at
// the reset; recorded returned (87) for the host, nothing credited.
func TestTicketInPowerCutBeforeStacking(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.emu.Arm(id003emu.Trap{Command: id003.CmdStack1})
	r.insertTicket(tinA)
	r.redeem(sas.TransferCashable, 2000)
	r.serve("the ticket given back", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	r.serve("the record settled", func() bool { t := r.ticketsIn()[0]; return !t.Unresolved() && r.note() == nil })
	tk := r.ticketsIn()[0]
	if tk.Status != recovery.TicketInReturned || tk.SASStatus != sas.RedeemUnable || r.c.led.cur().m.Credits != 0 {
		t.Errorf("ticket %+v, credits %v; want returned 87, nothing credited", tk, r.c.led.cur().m.Credits)
	}
}

// A power cut as the ticket passes to the stacker: at power up 42h the
// order is credited once.
func TestTicketInPowerCutWhileStacking(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.emu.Arm(id003emu.Trap{Status: id003.StStacking, Silent: 1})
	r.insertTicket(tinA)
	r.redeem(sas.TransferCashable, 4000)
	r.serve("the ticket credited", func() bool { return r.c.led.cur().m.Credits == 4000 && r.note() == nil })
	if s := r.emu.Snapshot(); s.Cuts != 1 || len(s.TicketsStacked) != 1 {
		t.Errorf("cuts %d, stacked %v; want one cut and the ticket stacked", s.Cuts, s.TicketsStacked)
	}
}

// The cabinet dies after the credit's commit, before the ACK: the new
// process is not fooled into a second credit by the repeated vend valid.
func TestTicketInCabinetDiesBeforeAck(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.insertTicket(tinA)
	r.redeem(sas.TransferCashable, 1500)
	r.serve("the credit committed", func() bool { return r.c.led.cur().m.Credits == 1500 })
	r.stop()
	r.boot()
	r.serve("the validator idle", func() bool {
		s := r.emu.Snapshot()
		return s.Status == id003.StIdling && r.note() == nil
	})
	if r.c.led.cur().m.Credits != 1500 || len(r.emu.Snapshot().TicketsStacked) != 1 || r.c.led.cur().m.Meters.TicketsIn != 1500 {
		t.Errorf("credits %v, tickets in meter %v, stacked %v; want 15.00 once", r.c.led.cur().m.Credits, r.c.led.cur().m.Meters.TicketsIn, r.emu.Snapshot().TicketsStacked)
	}
}

// The cabinet restarts while the ticket waits for the host: the new
// driver does not know what the validator holds and returns it; the
// record is closed returned (87), nothing credited.
func TestTicketInCabinetRestartsWhileHeld(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.insertTicket(tinA)
	r.serve("the ticket held", func() bool { return r.emu.Snapshot().Status == id003.StHolding })
	r.stop()
	r.boot()
	r.serve("the ticket given back and recorded", func() bool {
		return len(r.emu.Snapshot().TicketsReturned) == 1 && !r.ticketsIn()[0].Unresolved()
	})
	if tk := r.ticketsIn()[0]; tk.Status != recovery.TicketInReturned || r.c.led.cur().m.Credits != 0 {
		t.Errorf("ticket %+v, credits %v; want returned, nothing credited", tk, r.c.led.cur().m.Credits)
	}
}

// Refusals the cabinet decides alone, with no record: tickets off in the
// cabinet's state (the audit key), a barcode that is not a number.
func TestTicketInRefusals(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.serve("the validator idling", func() bool { return r.emu.Snapshot().Status == id003.StIdling })
	if err := r.emu.InsertTicket("12345"); err != nil {
		t.Fatal(err)
	}
	r.serve("the bad ticket returned", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	r.serve("the message", func() bool { return r.c.scr.message == "ticket_in_bad_barcode" })
	if len(r.ticketsIn()) != 0 {
		t.Errorf("a record for a bad barcode: %+v", r.ticketsIn())
	}
}

// A memory error while a ticket waits for the host: the ticket goes back,
// nothing is written (the store is evidence), and no panic on the nil
// transaction of a commit under a memory error.
func TestTicketInMemoryError(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.insertTicket(tinA)
	r.c.led.fail(ErrMemory)
	r.serve("the ticket returned", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	if tk := r.ticketsIn()[0]; tk.Status != recovery.TicketInEscrow {
		t.Errorf("ticket %+v: the store was written under a memory error", tk)
	}
	if r.c.led.cur().m.Credits != 0 {
		t.Errorf("credits %v, want 0", r.c.led.cur().m.Credits)
	}
}

// The validator loses power after the host authorised the ticket, before
// the order to stack it: at the power up (the ticket in the transport) it
// is returned (87), nothing credited, whatever the order's state.
func TestTicketInPowerCutAfterAuthorisation(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.insertTicket(tinA)
	r.redeem(sas.TransferCashable, 3000)
	r.emu.PowerCycle() // the driver's next question is not answered yet
	r.serve("the record settled", func() bool {
		t := r.ticketsIn()[0]
		return !t.Unresolved() && r.note() == nil && r.emu.Snapshot().Status == id003.StIdling
	})
	tk := r.ticketsIn()[0]
	if tk.Status != recovery.TicketInReturned || tk.SASStatus != sas.RedeemUnable || r.c.led.cur().m.Credits != 0 {
		t.Errorf("ticket %+v, credits %v; want returned 87, nothing credited", tk, r.c.led.cur().m.Credits)
	}
	if s := r.emu.Snapshot(); len(s.TicketsStacked) != 0 || len(s.TicketsReturned) != 1 {
		t.Errorf("validator stacked %v, returned %v; want it given back", s.TicketsStacked, s.TicketsReturned)
	}
}

// Jammed after the stack command and freed by hand: no vend valid, so the
// ticket is not credited; its record is closed returned (87, the host
// keeps it valid) and the order's end logged for the attendant, who
// reconciles the stacker (as for a note).
func TestTicketInJamAfterStack(t *testing.T) {
	r := newTinRig(t, time.Minute)
	r.emu.Arm(id003emu.Trap{Status: id003.StStacking, Fault: id003.StStackerJam})
	r.insertTicket(tinA)
	r.redeem(sas.TransferCashable, 2500)
	r.serve("the jam", func() bool { return slices.Contains(r.c.led.cur().tilts(), "bill_jam") })
	r.emu.Clear()
	r.serve("the record closed", func() bool {
		return r.note() == nil && len(r.c.led.cur().tilts()) == 0 && !r.ticketsIn()[0].Unresolved()
	})
	tk := r.ticketsIn()[0]
	if tk.Status != recovery.TicketInReturned || r.c.led.cur().m.Credits != 0 || r.c.led.cur().m.Meters.TicketsIn != 0 {
		t.Errorf("ticket %+v, credits %v; want returned, nothing credited", tk, r.c.led.cur().m.Credits)
	}
	if !hasEvent(r.events(), meters.KindBillError, "ticket in 1 (25.00) ordered stacked, the validator") {
		t.Errorf("the order's end not logged: %v", r.events())
	}
}

// The SAS link goes down while a ticket waits for the host: returned at
// once with 89 (link down), not after the whole wait; a late change of
// state (an older Seq) changes nothing.
func TestTicketInLinkDownWhileHeld(t *testing.T) {
	r := newTinRig(t, time.Hour)
	r.insertTicket(tinA)
	link := func(up bool, seq uint64) {
		if err := r.c.Handle(Input{Host: &HostRequest{Link: &HostLink{Up: up, Seq: seq}}}); err != nil {
			t.Fatal(err)
		}
	}
	link(false, 2)
	link(true, 1) // older: ignored
	r.serve("the ticket returned", func() bool { return len(r.emu.Snapshot().TicketsReturned) == 1 })
	tk := r.ticketsIn()[0]
	if tk.Status != recovery.TicketInReturned || tk.SASStatus != sas.RedeemLinkDown || r.c.led.cur().m.Credits != 0 {
		t.Errorf("ticket %+v, credits %v; want returned 89, nothing credited", tk, r.c.led.cur().m.Credits)
	}
	if r.c.scr.message != "ticket_in_status_89" || !r.c.TITOInfo().HostDown {
		t.Errorf("message %q, host down %v; want the link down said", r.c.scr.message, r.c.TITOInfo().HostDown)
	}
}
