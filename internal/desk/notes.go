package desk

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"cabinet/internal/hostev"
	"cabinet/internal/hw"
	"cabinet/internal/ledger"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// The serial note validator (platform.md §5 serial mode,
// docs/hardware.md). Its driver (internal/hw/id003, whose Seam translates
// ID-003's codes into the cabinet's words) polls the validator on a
// goroutine of its own, calls the cabinet at escrow and at vend valid and
// reports what it sees: each call is an hw.NoteCall handed to Handle on
// the controller's goroutine (Run, or cabinet sim's loop, reads
// NoteValidator.Calls), and the driver waits for the answer, so
//
//   - the escrow decision is taken on the committed state by the rules of
//     acceptance (credit limit, tilts, doors, handpay, audit, operator menu,
//     the host's disable and bill mask), and "stack" is answered only once
//     the order (recovery's tito/note record, NoteStacking) has committed;
//   - a note is credited at vend valid, or at power up with bill in
//     stacker, in one commit: the record to NoteCredited, the credits, the
//     bill meters, the event-log entry and the SAS bill exception; the
//     driver ACKs (or resets) only after that commit;
//   - a power up without a note in the stacker (ID-003 40h, 41h) is
//     resolved with recovery.ResolveAtBoot in a commit before the driver
//     resets the validator.
//
// Requests go through one channel in the order the driver made them, so
// the ledger sees the validator's story in order.

// NoteDesk owns the cabinet's side of the note validator: it answers the
// driver's calls (hw.NoteCall) on the controller's goroutine, deciding
// escrow by the cabinet's rules of acceptance (NoteCabinet.BillRefusal,
// TicketRefusal: the controller decides acceptance, in one place),
// crediting at vend valid, resolving power-up statuses, turning the
// validator's faults into tilts, and redeeming tickets in. It writes only
// through its Ledger, and of the committed state it reaches the money and
// its own Notes. A returned or rejected note goes to the controller's
// hardware path (NoteCabinet.Refused), so the player's refusal notice is
// decided where a pulse acceptor's is.
type NoteDesk struct {
	led  Ledger[Notes]
	cab  NoteCabinet
	log  *slog.Logger
	tito *TITO            // the controller's Options.TITO: ticket in (ticketin.go)
	now  func() time.Time // Options.Now

	// Of the validator's story (its events, in order): fresh is set when
	// it reports a new ticket in escrow, until the desk answers for it;
	// returning is the ticket the desk last told it to return (its
	// NoteReturned is then the desk's own decision, shown already).
	fresh     bool
	returning string
}

// NoteCabinet is what the note desk asks of the rest of the cabinet.
type NoteCabinet interface {
	// BillRefusal is why a note of value v in escrow is returned now, in
	// the words of the refusal notices, "" if it may be stacked.
	BillRefusal(v money.Cents) string
	// TicketRefusal is why no ticket may come in now (a TicketIn reason),
	// "" if one may.
	TicketRefusal() string
	// Refused is a note the validator returned, rejected or could not
	// credit, as the pulse acceptor's hw.Input (shown and logged there).
	Refused(in hw.Input) error
	// BillJam starts (on) or ends the acceptor's jam tilt.
	BillJam(on bool, why string) error
	// Credited: money came in (the screen wakes from attract).
	Credited()
	// Say shows message "msg."+key on the screen.
	Say(key string)
}

// NewNoteDesk is the note desk over l, asking cab (before boot). tito
// is Options.TITO (nil: no tickets in).
func NewNoteDesk(l Ledger[Notes], cab NoteCabinet, log *slog.Logger, tito *TITO, now func() time.Time) *NoteDesk {
	return &NoteDesk{led: l, cab: cab, log: log, tito: tito, now: now}
}

// Notes are the note desk's committed values, held as one field of the
// controller's committed state and changed only through its commits: the
// validator's tilts and the newest ticket in.
type Notes struct {
	Val      ValidatorTilts
	ticketIn *recovery.TicketIn // as committed (nil: none yet)
}

// Load reads at boot, in the controller's boot commit, the newest ticket in.
func (n *Notes) Load(tx *recovery.Tx) error {
	ts, err := tx.TicketsIn(1)
	if len(ts) > 0 {
		n.ticketIn = &ts[0]
	}
	return err
}

// TicketIn is the newest ticket in as committed, if any.
func (n Notes) TicketIn() (recovery.TicketIn, bool) {
	if n.ticketIn == nil {
		return recovery.TicketIn{}, false
	}
	return *n.ticketIn, true
}

// Redemption is the newest ticket in's SAS redemption record as
// committed (zero before the first).
func (n Notes) Redemption() recovery.Redemption {
	if n.ticketIn == nil {
		return recovery.Redemption{}
	}
	return n.ticketIn.Redemption()
}

// ValidatorTilts are the validator's faults in force: hardware facts,
// committed with their event-log entries like the jam, reported again by
// the validator after a restart.
type ValidatorTilts struct {
	StackerOpen bool // stacker (cash box) removed: ID-003 44h
	StackerFull bool // 43h
	Failure     bool // failure 49h or a fraud attempt (cheated 48h)
	Gone        bool // the validator stopped answering
}

// Tilts are the reasons (message keys "tilt."+reason) in a fixed order.
func (v ValidatorTilts) Tilts() []string {
	var t []string
	if v.StackerOpen {
		t = append(t, "stacker_open")
	}
	if v.StackerFull {
		t = append(t, "stacker_full")
	}
	if v.Failure {
		t = append(t, "bill_error")
	}
	if v.Gone {
		t = append(t, "validator_gone")
	}
	return t
}

// Request handles one call of the driver and answers it.
func (d *NoteDesk) Request(r *hw.NoteCall) error {
	var a hw.NoteAnswer
	switch r.Kind {
	case hw.NoteEscrow:
		a, a.Err = d.escrow(r.Value)
	case hw.NoteTicket:
		a, a.Err = d.ticket(r.Ticket)
	case hw.NoteCredit:
		a, a.Err = d.credit(r.PowerUp)
	case hw.NoteReported:
		a.Err = d.event(r.Event)
	}
	if r.Reply != nil {
		r.Reply <- a
	}
	if errors.Is(a.Err, hw.ErrNotOrdered) {
		return nil // reported by the driver's uncredited event
	}
	return a.Err
}

// escrow decides the note in escrow. Stack is answered only once the
// order is committed; an order left by an earlier note is closed in the
// same transaction (credited: that note is done, as the validator is
// escrowing another; stacking: it never reached the stacker). The refusal
// is logged and shown when the driver reports the return (NoteReturned).
func (d *NoteDesk) escrow(v money.Cents) (hw.NoteAnswer, error) {
	if why := d.cab.BillRefusal(v); why != "" {
		return hw.NoteAnswer{Reason: why}, nil
	}
	err := d.led.Commit("order note stacked", func(tx *recovery.Tx, b *Books[Notes]) error {
		if err := closeNote(tx); err != nil {
			return err
		}
		return tx.NoteStacking(v)
	})
	if err != nil {
		return hw.NoteAnswer{}, fmt.Errorf("cabinet: order note %v stacked: %w", v, err)
	}
	return hw.NoteAnswer{Stack: true}, nil
}

// closeNote closes an open note record: the validator has moved on from
// its note (it idles or escrows another).
func closeNote(tx *recovery.Tx) error {
	rec, err := tx.Note()
	switch {
	case err != nil || rec == nil:
		return err
	case rec.Status == recovery.NoteCreditedAwaitingAck:
		return tx.NoteDone()
	}
	return tx.NoteReturned()
}

// credit credits the note in the stacker (vend valid, or power up with
// bill in stacker: powerUp). Which note, and whether it is still to
// credit, is the store's: recovery.ResolveAtBoot with the note in the
// stacker — an order stacking is credited now (the record goes to
// credited in the same transaction), an order credited is not credited
// again, no order is never credited (hw.ErrNotOrdered: the driver reports
// it and the attendant reconciles the stacker).
func (d *NoteDesk) credit(powerUp bool) (hw.NoteAnswer, error) {
	if d.led.Cur().Failed {
		return hw.NoteAnswer{}, fmt.Errorf("%w: note in the stacker during a memory error: not credited, not acknowledged", ledger.ErrMemory)
	}
	var n hw.NoteAnswer
	var unordered bool
	err := d.led.Commit("credit note", func(tx *recovery.Tx, b *Books[Notes]) error {
		rec, err := tx.Note()
		if err != nil {
			return err
		}
		at := "vend valid"
		if powerUp {
			at = "power up with bill in stacker"
		}
		switch recovery.ResolveAtBoot(rec, recovery.PowerUpBillInStacker) {
		case recovery.NoteCredit:
			if rec.Ticket != 0 {
				v, err := d.creditTicket(tx, b, rec.Ticket, at)
				n = hw.NoteAnswer{IsTicket: true, Value: v, Fresh: true}
				return err
			}
			v, err := tx.NoteCredited()
			if err != nil {
				return err
			}
			n = hw.NoteAnswer{Value: v, Fresh: true}
			return b.Bill(v, "validator, "+at)
		case recovery.NoteAlreadyCredited:
			n = hw.NoteAnswer{Value: rec.Value, IsTicket: rec.Ticket != 0}
			return errNothing
		}
		v, credited, ok, err := d.unorderedTicket(tx, b, at)
		switch {
		case err != nil:
			return err
		case credited:
			n = hw.NoteAnswer{IsTicket: true, Value: v, Fresh: true}
			return nil
		case ok:
			unordered = true // the ticket's return commits; the driver hears ErrNotOrdered
			return nil
		}
		return hw.ErrNotOrdered
	})
	if unordered {
		return hw.NoteAnswer{}, hw.ErrNotOrdered
	}
	switch {
	case errors.Is(err, errNothing):
		return n, nil
	case err != nil:
		return hw.NoteAnswer{}, err
	}
	d.cab.Credited()
	if n.Fresh && n.IsTicket {
		d.cab.Say("ticket_in_credited")
	}
	return n, nil
}

// powerUp resolves the validator's power up with no note in the stacker
// (at: NoteIdle or NoteInAcceptor; text its own words) with the note
// record (recovery.ResolveNoteAtBoot), committed before the driver resets
// the validator.
func (d *NoteDesk) powerUp(at hw.NotePlace, text string) error {
	if d.led.Cur().Failed {
		// The store is evidence: nothing is resolved; the record stays
		// for the memory clear's boot to see.
		d.log.Error("note validator power up during a memory error: the note record is not resolved", "status", text)
		return nil
	}
	p := recovery.PowerUpEmpty
	if at == hw.NoteInAcceptor {
		p = recovery.PowerUpBillInAcceptor
	}
	err := d.led.Commit("resolve the note at the validator's power up", func(tx *recovery.Tx, b *Books[Notes]) error {
		a, n, err := tx.ResolveNoteAtBoot(p)
		if err != nil {
			return err
		}
		// A ticket in the validator went back to the player (its order,
		// if any, is the note record's: resolved above as a note's).
		tickets, err := d.ticketPowerUp(tx, b, p)
		if err != nil {
			return err
		}
		switch {
		case a == recovery.NoteReturnedToPlayer && n.Ticket == 0:
			return b.Log(meters.KindBillRefused, fmt.Sprintf("bill %v refused: the validator powered up (%s) before stacking it; not credited", n.Value, p),
				"bill_refused", meters.MoneyArg(n.Value), meters.KeyArg("bill_reason.refused"))
		case a == recovery.NoteCreditedNotStacked:
			text := fmt.Sprintf("note %v credited at vend valid, yet the validator reports %s: attendant to check the note returned", n.Value, p)
			if n.Ticket != 0 {
				text = fmt.Sprintf("ticket in %d (%v) credited at vend valid, yet the validator reports %s: attendant to check the ticket returned", n.Ticket, n.Value, p)
			}
			return b.Log(meters.KindBillError, text, "bill_error", meters.Arg{Type: meters.ArgText, Value: text})
		case a == recovery.NoteNothing && !tickets:
			return errNothing
		}
		return nil // already credited: the record went
	})
	if errors.Is(err, errNothing) {
		return nil
	}
	return err
}

// event turns a validator's report into the cabinet's: the record
// closed, tilts and their SAS exceptions, refusals shown and logged as
// today, errors logged with their reason.
func (d *NoteDesk) event(e hw.NoteEvent) error {
	switch e.Kind {
	case hw.NotePowerUp:
		d.log.Info("note validator power up", "status", e.Text)
		if e.At == hw.NoteInStacker {
			return nil // the credit that follows resolves it
		}
		return d.powerUp(e.At, e.Text)
	case hw.NoteTicketEscrowed:
		d.fresh = true // a new ticket: Ticket answers next
	case hw.NoteSettled:
		return d.settled(e.At, e.Text)
	case hw.NoteReturned:
		if e.IsTicket {
			return d.ticketReturned(e)
		}
		// The cabinet's decision, a code not accepted, or above the
		// acceptance: shown and logged as a pulse acceptor's refusal.
		return d.cab.Refused(hw.Input{Kind: hw.BillRefused, Value: e.Value, Err: "validator: " + e.Text})
	case hw.NoteRejected:
		return d.cab.Refused(hw.Input{Kind: hw.BillRefused, Err: e.Text})
	case hw.NoteUncredited:
		return d.cab.Refused(hw.Input{Kind: hw.BillError, Err: e.Text})
	case hw.NoteLine:
		return d.led.LineFault(deviceValidator, e.Line)
	case hw.NoteGone:
		return d.tilt(func(t *ValidatorTilts) *bool { return &t.Gone }, true, "note validator not answering: "+e.Text, hostev.ValidatorFailure)
	case hw.NoteBack:
		return d.tilt(func(t *ValidatorTilts) *bool { return &t.Gone }, false, "note validator answers again", 0)
	case hw.NoteFault:
		return d.fault(e)
	case hw.NoteInfo:
		d.log.Info("note validator", "event", e.Text)
	}
	return nil
}

// settled closes the note record when the validator shows where its
// note went: stacked or idle after vend valid (done), rejecting, returning
// or idle before it (returned).
func (d *NoteDesk) settled(at hw.NotePlace, st string) error {
	if d.led.Cur().Failed {
		return nil
	}
	err := d.led.Commit("close the note record", func(tx *recovery.Tx, b *Books[Notes]) error {
		rec, err := tx.Note()
		ticketGone := false
		if err == nil && at != hw.NoteStacked && (rec == nil || rec.Status == recovery.NoteStacking) {
			// A ticket the validator no longer holds, never stacked.
			ticketGone, err = d.ticketGone(tx, b, at, st)
		}
		switch {
		case err != nil:
			return err
		case rec == nil && ticketGone:
			return nil // the ticket's return
		case rec == nil:
			return errNothing
		case rec.Status == recovery.NoteCreditedAwaitingAck && (at == hw.NoteRejecting || at == hw.NoteReturning):
			return errNothing // not this note's: it is in the stacker
		case rec.Status == recovery.NoteStacking && at == hw.NoteStacked:
			return errNothing // vend valid decides (never seen without it)
		case rec.Status == recovery.NoteStacking:
			// Ordered stacked, and the validator shows no vend valid: the
			// note came back (rejected or returned after stack-1, or a
			// jam cleared by hand). Not credited; logged so the
			// attendant can check the stacker if the player disputes it.
			text := fmt.Sprintf("note %v ordered stacked, the validator %s without vend valid: not credited (returned; if disputed, check the stacker)", rec.Value, st)
			if rec.Ticket != 0 {
				text = fmt.Sprintf("ticket in %d (%v) ordered stacked, the validator %s without vend valid: not credited (returned; if disputed, check the stacker)", rec.Ticket, rec.Value, st)
			}
			if err := b.Log(meters.KindBillError, text, "bill_error", meters.Arg{Type: meters.ArgText, Value: text}); err != nil {
				return err
			}
		}
		return closeNote(tx)
	})
	if errors.Is(err, errNothing) {
		return nil
	}
	return err
}

// fault starts (e.On) or ends a tilt for a validator's fault.
func (d *NoteDesk) fault(e hw.NoteEvent) error {
	what := e.Text
	field := func(f func(*ValidatorTilts) *bool, host hostev.Kind) error {
		if !e.On {
			host = 0
			if e.Fault == hw.FaultStackerOpen {
				host = hostev.StackerInstalled
			}
			what += " cleared"
		}
		return d.tilt(f, e.On, "note validator "+what, host)
	}
	switch e.Fault {
	case hw.FaultStackerOpen:
		return field(func(t *ValidatorTilts) *bool { return &t.StackerOpen }, hostev.StackerRemoved)
	case hw.FaultStackerFull:
		return field(func(t *ValidatorTilts) *bool { return &t.StackerFull }, hostev.StackerFull)
	case hw.FaultJam:
		return d.cab.BillJam(e.On, "note validator "+what)
	case hw.FaultFailure:
		return field(func(t *ValidatorTilts) *bool { return &t.Failure }, hostev.ValidatorFailure)
	}
	// Pause (a second note pushed in): the validator's own business.
	d.log.Warn("note validator", "status", what, "on", e.On)
	return nil
}

// tilt sets one of the validator's tilts (f selects it) and logs
// it, with host's SAS exception if any, in one commit.
func (d *NoteDesk) tilt(f func(*ValidatorTilts) *bool, on bool, text string, host hostev.Kind) error {
	cur := d.led.Cur().Own.Val
	if *f(&cur) == on {
		return nil
	}
	return d.led.Commit("log "+text, func(tx *recovery.Tx, b *Books[Notes]) error {
		*f(&b.Own.Val) = on
		if host != 0 {
			if err := b.Emit(hostev.Event{Kind: host}); err != nil {
				return err
			}
		}
		t := b.Tilts()
		switch {
		case on:
			return b.Log(meters.KindTilt, fmt.Sprintf("tilt: %v (%s)", t, text), "tilt", meters.TiltArgs(t)...)
		case len(t) == 0:
			return b.Log(meters.KindTiltClear, "tilt cleared ("+text+")", "tilt_cleared")
		}
		return b.Log(meters.KindTiltClear, fmt.Sprintf("%s, still tilted: %v", text, t), "tilt", meters.TiltArgs(t)...)
	})
}
