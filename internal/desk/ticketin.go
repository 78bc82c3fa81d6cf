package desk

import (
	"errors"
	"fmt"

	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// Tickets in (TITO in, docs/tito.md). The note validator reads a ticket's
// barcode and holds the ticket in escrow; its driver asks the desk at each
// poll what to do with it (Validator.Ticket: hold, stack or return). The
// money rule: a ticket is credited once, for the amount the casino system
// authorised, in the transaction that records it stacked:
//
//  1. A new ticket in escrow, acceptable now (ticketRefusal), is recorded
//     in escrow (recovery TicketInserted): the SAS link raises exception
//     67; the driver holds the ticket.
//  2. The host reads it (LP 70) and redeems it (LP 71): the SAS machine
//     answers from memory and hands the step to Handle (HostRequest
//     Redemption), which commits it (recovery UpdateRedemption): the ticket
//     authorised for the host's amount, or rejected with the host's reason.
//  3. Authorised: the order to stack it (recovery TicketStacking, the note
//     record with the ticket's number) commits before the driver is told
//     to stack. At vend valid one commit records it stacked, credits the
//     amount and counts the ticket-in meters (TicketStacked, the order
//     credited); the driver acknowledges after it. The SAS link reports 68.
//  4. Rejected by the host, or no answer within TITO.Wait (status 88),
//     or the validator gave it back (87, 8B) or lost power with it (87):
//     recorded returned, nothing credited; the screen says why in the
//     host's words.
//
// Reading taken: a ticket that reaches the stacker authorised but with no
// order (impossible with this driver, which orders first) is credited, as
// recovery.ResolveTicketInAtBoot says: the host redeemed that amount for
// it. One that reaches the stacker unauthorised is recorded returned (87:
// the host keeps it valid) and never credited; the attendant takes it out.

// HostRedemption is a step of the host's ticket redemption (LP 70 read,
// LP 71 answer, the read of the final status) that the SAS link answered
// from memory: the ledger commits Next in place of Cur.
type HostRedemption struct {
	Cur, Next recovery.Redemption
}

// Ticket reasons: why a ticket in escrow is returned, as the screen shows
// it ("msg.ticket_in_"+reason) when no record says it (the records carry
// the host's transfer code or the machine's SAS status: ticketInReason).
const (
	TicketInOff         = "tickets_off"  // ticket in not configured, or the link is off
	TicketInInhibited   = "inhibited"    // a tilt, a door, the audit key, a handpay, a ticket out
	TicketInCreditLimit = "credit_limit" // the credit meter is at its limit
	TicketInBusy        = "busy"         // the last ticket's result is not yet read by the host
	TicketInBadBarcode  = "bad_barcode"  // the validator read no 18-digit number
	TicketInHostDown    = "status_89"    // the SAS link is down: the casino system is offline
)

// ticketInReason is the screen's reason key of a ticket in's final
// status: the host's transfer code when it rejected the ticket, else the
// machine's SAS status (88 timeout, 87 unable, 8B validator…).
func TicketInReason(t recovery.TicketIn) string {
	if t.HostRejected() {
		return fmt.Sprintf("host_%02x", byte(t.Code))
	}
	return fmt.Sprintf("status_%02x", byte(t.SASStatus))
}

// ticket answers the driver for the ticket number in escrow (or held).
func (d *NoteDesk) ticket(number string) (hw.NoteAnswer, error) {
	fresh := d.fresh
	d.fresh = false
	if d.led.Cur().Failed {
		// The store is evidence: nothing is recorded, the ticket goes back
		// (a record left open stays for the memory clear's boot to see).
		return d.refuseTicket(number, TicketInInhibited, "memory error")
	}
	last := d.led.Cur().Own.ticketIn
	if last != nil && last.Validation == number && (last.Unresolved() || !fresh) {
		return d.ticketHeld(*last)
	}
	if last != nil && last.Unresolved() {
		// The validator escrows another ticket while one is open: it gave
		// the first back without saying so; settled() records it.
		return d.refuseTicket(number, TicketInBusy, "ticket "+last.Validation+" is still being redeemed")
	}
	if why := d.cab.TicketRefusal(); why != "" {
		return d.refuseTicket(number, why, "")
	}
	var t recovery.TicketIn
	err := d.led.Commit("ticket inserted", func(tx *recovery.Tx, b *Books[Notes]) error {
		var err error
		if t, err = tx.TicketInserted(number); err != nil {
			return err
		}
		b.Own.ticketIn = &t
		return b.Log(meters.KindTicketIn, fmt.Sprintf("ticket %s inserted: asking the casino system (exception 67)", number),
			"ticket_in_inserted", meters.TextArg(number))
	})
	switch {
	case errors.Is(err, recovery.ErrTicketState):
		return d.refuseTicket(number, TicketInBusy, err.Error())
	case errors.Is(err, recovery.ErrBadTicket):
		return d.refuseTicket(number, TicketInBadBarcode, err.Error())
	case err != nil:
		return hw.NoteAnswer{}, err
	}
	d.cab.Say("ticket_in_validating")
	return hw.NoteAnswer{Ticket: hw.TicketHold}, nil
}

// ticketHeld answers for the ticket in t's record, still in the
// validator.
func (d *NoteDesk) ticketHeld(t recovery.TicketIn) (hw.NoteAnswer, error) {
	switch t.Status {
	case recovery.TicketInEscrow:
		status, why := recovery.ReturnTimeout, "no answer from the casino system within "+d.tito.HostWait().String()
		switch {
		case d.led.HostDown():
			status, why = recovery.ReturnLinkDown, "the SAS link went down: casino system offline"
		case d.now().Sub(t.Inserted) < d.tito.HostWait():
			return hw.NoteAnswer{Ticket: hw.TicketHold}, nil
		}
		r, err := d.returnTicket(t.Seq, status, why)
		if err != nil {
			return hw.NoteAnswer{}, err
		}
		return d.ticketBack(r), nil
	case recovery.TicketInAuthorised:
		err := d.led.Commit("order ticket stacked", func(tx *recovery.Tx, b *Books[Notes]) error {
			rec, err := tx.Note()
			if err != nil {
				return err
			}
			if rec != nil && rec.Ticket == t.Seq && rec.Status == recovery.NoteStacking {
				return errNothing // ordered already (a stack the validator did not act on)
			}
			if err := closeNote(tx); err != nil {
				return err
			}
			return tx.TicketStacking(t.Seq)
		})
		if err != nil && !errors.Is(err, errNothing) {
			return hw.NoteAnswer{}, fmt.Errorf("cabinet: order ticket %s stacked: %w", t.Validation, err)
		}
		return hw.NoteAnswer{Ticket: hw.TicketStack}, nil
	case recovery.TicketInStacked:
		return d.refuseTicket(t.Validation, TicketInBusy, "ticket "+t.Validation+" was stacked and credited already")
	}
	return d.ticketBack(t), nil
}

// ticketBack returns the ticket whose record t is final (rejected or
// returned), its reason on screen.
func (d *NoteDesk) ticketBack(t recovery.TicketIn) hw.NoteAnswer {
	d.cab.Say("ticket_in_" + TicketInReason(t))
	d.returning = t.Validation
	return hw.NoteAnswer{Ticket: hw.TicketReturn, Reason: t.Reason}
}

// refuseTicket returns a ticket with no record of it (why: the screen's
// reason key), logged.
func (d *NoteDesk) refuseTicket(number, why, detail string) (hw.NoteAnswer, error) {
	text := fmt.Sprintf("ticket %s returned: %s", number, why)
	if detail != "" {
		text += " (" + detail + ")"
	}
	d.cab.Say("ticket_in_" + why)
	d.returning = number
	err := d.led.LogOnly(meters.KindTicketIn, text, "ticket_in_refused", meters.TextArg(number), meters.KeyArg("msg.ticket_in_"+why))
	return hw.NoteAnswer{Ticket: hw.TicketReturn, Reason: text}, err
}

// returnTicket records open ticket seq returned for the cabinet's reason
// (status 87–8B for the host), nothing credited.
func (d *NoteDesk) returnTicket(seq uint64, status recovery.RedemptionStatus, reason string) (recovery.TicketIn, error) {
	var r recovery.TicketIn
	err := d.led.Commit("return ticket", func(tx *recovery.Tx, b *Books[Notes]) error {
		var err error
		if r, err = tx.TicketReturned(seq, status, reason); err != nil {
			return err
		}
		b.Own.ticketIn = &r
		return d.logTicketReturned(b, r)
	})
	return r, err
}

func (d *NoteDesk) logTicketReturned(b *Books[Notes], r recovery.TicketIn) error {
	return b.Log(meters.KindTicketIn, fmt.Sprintf("ticket %s returned, not credited: %s (SAS status %02X)", r.Validation, r.Reason, byte(r.SASStatus)),
		"ticket_in_returned", meters.TextArg(r.Validation), meters.KeyArg("msg.ticket_in_"+TicketInReason(r)))
}

// creditTicket credits the ticket the order rec stacks, in tx, at vend
// valid (or a power up with it in the stacker): the order credited, the
// ticket stacked, its amount on the credit meter and the ticket-in
// meters, logged.
func (d *NoteDesk) creditTicket(tx *recovery.Tx, b *Books[Notes], seq uint64, at string) (money.Cents, error) {
	if _, err := tx.NoteCredited(); err != nil {
		return 0, err
	}
	t, err := tx.TicketStacked(seq)
	if err != nil {
		return 0, err
	}
	b.Own.ticketIn = &t
	b.M.Credits += t.Amount
	b.M.Meters.TicketRedeemed(t.Amount)
	return t.Amount, b.Log(meters.KindTicketIn, fmt.Sprintf("ticket %s stacked (%s): %v credited", t.Validation, at, t.Amount),
		"ticket_in_stacked", meters.TextArg(t.Validation), meters.MoneyArg(t.Amount))
}

// unorderedTicket settles the open ticket in when the validator reports
// something in its stacker with no order in the store: authorised, it
// is credited (ordered and credited in this transaction: fresh); in
// escrow, it is recorded returned (87) and never credited, and the
// attendant is told. ok is false when no ticket is open.
func (d *NoteDesk) unorderedTicket(tx *recovery.Tx, b *Books[Notes], at string) (v money.Cents, credited, ok bool, err error) {
	t, open, err := tx.OpenTicketIn()
	if err != nil || !open {
		return 0, false, false, err
	}
	// The store's rule for a ticket in the stacker (as at a power up with
	// 42h): authorised, credit it; in escrow, never.
	if recovery.ResolveTicketInAtBoot(&t, recovery.PowerUpBillInStacker) == recovery.TicketInCredit {
		if err := tx.TicketStacking(t.Seq); err != nil {
			return 0, false, true, err
		}
		v, err := d.creditTicket(tx, b, t.Seq, at+", with no order: the host authorised it")
		return v, true, true, err
	}
	r, err := tx.TicketReturned(t.Seq, recovery.ReturnUnable, "unauthorised ticket in the stacker: not credited, attendant to take it out")
	if err != nil {
		return 0, false, true, err
	}
	b.Own.ticketIn = &r
	return 0, false, true, d.logTicketReturned(b, r)
}

// ticketGone records the open ticket in returned when the validator shows
// it no longer holds it (at: idle, rejecting, returning; st its status in
// its own words) and no vend valid came: nothing credited. gone is false
// when no ticket was open.
func (d *NoteDesk) ticketGone(tx *recovery.Tx, b *Books[Notes], at hw.NotePlace, st string) (gone bool, err error) {
	t, open, err := tx.OpenTicketIn()
	if err != nil || !open {
		return false, err
	}
	status, why := recovery.ReturnUnable, "the validator gave the ticket back ("+st+")"
	if at == hw.NoteRejecting {
		status = recovery.ReturnValidatorFailed
	}
	r, err := tx.TicketReturned(t.Seq, status, why)
	if err != nil {
		return true, err
	}
	b.Own.ticketIn = &r
	return true, d.logTicketReturned(b, r)
}

// ticketPowerUp resolves the open ticket in at the validator's power up
// p without a note in the stacker (recovery TicketInAtBoot), in tx.
func (d *NoteDesk) ticketPowerUp(tx *recovery.Tx, b *Books[Notes], p recovery.PowerUp) (bool, error) {
	a, t, err := tx.TicketInAtBoot(p)
	if err != nil || a == recovery.TicketInNothing || a == recovery.TicketInWait {
		return false, err
	}
	b.Own.ticketIn = &t
	return true, d.logTicketReturned(b, t)
}

// HostRedemption commits a redemption step the SAS link answered. A step
// the record has moved past (the cabinet returned the ticket meanwhile)
// is not committed: the host hears the final status with exception 68.
func (d *NoteDesk) HostRedemption(h HostRedemption) error {
	before := d.led.Cur().Own.ticketIn
	err := d.led.Commit("host redemption", func(tx *recovery.Tx, b *Books[Notes]) error {
		if tx == nil {
			return errNothing
		}
		if err := tx.UpdateRedemption(h.Cur, h.Next); err != nil {
			return err
		}
		ts, err := tx.TicketsIn(1)
		if err != nil || len(ts) == 0 {
			return err
		}
		t := ts[0]
		b.Own.ticketIn = &t
		if before != nil && before.Seq == t.Seq && before.Status == t.Status {
			return nil // LP 70's read, or the host's read of the result
		}
		switch t.Status {
		case recovery.TicketInAuthorised:
			return b.Log(meters.KindTicketIn, fmt.Sprintf("ticket %s authorised by the casino system for %v (LP 71)", t.Validation, t.Amount),
				"ticket_in_authorised", meters.TextArg(t.Validation), meters.MoneyArg(t.Amount))
		case recovery.TicketInRejected:
			return b.Log(meters.KindTicketIn, fmt.Sprintf("ticket %s rejected by the casino system: %s (LP 71 code %02X, status %02X)", t.Validation, t.Reason, byte(t.Code), byte(t.SASStatus)),
				"ticket_in_rejected", meters.TextArg(t.Validation), meters.KeyArg("msg.ticket_in_"+TicketInReason(t)))
		}
		return nil
	})
	switch {
	case errors.Is(err, errNothing):
		return nil
	case errors.Is(err, recovery.ErrTicketState):
		d.log.Warn("host redemption step not committed: the ticket's record moved on", "err", err)
		return nil
	}
	return err
}

// ticketReturned is the driver's report of a ticket it returned: the
// desk's own decision (shown and logged already), or the driver's (a
// barcode that is no ticket number, tickets off in the validator),
// shown and logged here.
func (d *NoteDesk) ticketReturned(e hw.NoteEvent) error {
	if e.Ticket != "" && e.Ticket == d.returning {
		d.returning = ""
		return nil
	}
	why := TicketInBadBarcode
	if e.Ticket != "" && len(e.Ticket) == 18 {
		// Tickets were off in the validator: say why the cabinet turned
		// them off (its acceptance may have changed since: then "off").
		why = d.cab.TicketRefusal()
		if why == "" {
			why = TicketInOff
		}
	}
	d.cab.Say("ticket_in_" + why)
	return d.led.LogOnly(meters.KindTicketIn, fmt.Sprintf("ticket %q returned by the validator: %s", e.Ticket, e.Text),
		"ticket_in_refused", meters.TextArg(e.Ticket), meters.KeyArg("msg.ticket_in_"+why))
}
