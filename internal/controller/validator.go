package controller

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/id003"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// The serial note validator (JCM ID-003, platform.md §5 serial mode,
// docs/hardware.md). Its driver (internal/hw/id003) polls the validator on
// a goroutine of its own and calls the cabinet at escrow and at vend valid
// (id003.Cashbox), and reports what it sees (id003.Event). Validator is
// that seam: each call becomes a NoteRequest handed to Handle on the
// controller's goroutine (Run, or cabinet sim's loop, reads Requests), and
// the driver waits for the answer, so
//
//   - the escrow decision is taken on the committed state by the rules of
//     acceptance (credit limit, tilts, doors, handpay, audit, operator menu,
//     the host's disable and bill mask), and "stack" is answered only once
//     the order (recovery's tito/note record, NoteStacking) has committed;
//   - a note is credited at vend valid, or at power up with bill in
//     stacker, in one commit: the record to NoteCredited, the credits, the
//     bill meters, the event-log entry and the SAS bill exception; the
//     driver ACKs (or resets) only after that commit;
//   - a power-up status without a note in the stacker (40h, 41h) is
//     resolved with recovery.ResolveAtBoot in a commit before the driver
//     resets the validator.
//
// Requests go through one channel in the order the driver made them, so
// the ledger sees the validator's story in order.

// noteDesk owns the cabinet's side of the note validator: it answers the
// driver's calls (NoteRequest) on the controller's goroutine, deciding
// escrow by the rules of acceptance, crediting at vend valid, resolving
// power-up statuses, and turning the validator's faults into tilts. It
// writes only through the ledger. Of the rest of the cabinet it reads the
// settings in force (the bills enabled, the credit limit) and the
// screen's mode (the operator menu inhibits notes), wakes the screen from
// attract when a note is credited, and hands a returned or rejected note
// to the controller's hardware path (hardware), so the player's refusal
// notice is decided where a pulse acceptor's is.
type noteDesk struct {
	led      deskLedger
	log      *slog.Logger
	set      *InForce // the controller's settings in force
	scr      *screen
	hardware func(hw.Input) error
	tito     *TITO            // Options.TITO: ticket in (ticketin.go)
	now      func() time.Time // Options.Now

	// Of the validator's story (its events, in order): fresh is set when
	// it reports a new ticket in escrow, until the desk answers for it;
	// returning is the ticket the desk last told it to return (its
	// EvReturned is then the desk's own decision, shown already).
	fresh     bool
	returning string
}

// init wires the desk (before boot).
func (d *noteDesk) init(l deskLedger, log *slog.Logger, set *InForce, scr *screen, hardware func(hw.Input) error, tito *TITO, now func() time.Time) {
	d.led, d.log, d.set, d.scr, d.hardware, d.tito, d.now = l, log, set, scr, hardware, tito, now
}

// noteEscrow is the desk's escrow decision (validator_test.go asks it
// directly).
func (c *Controller) noteEscrow(n id003.Note) (id003.Decision, error) { return c.notes.escrow(n) }

// ErrNoCredits is returned by an autoplay step with a validator wired when
// the credits are short of the next round: autoplay inserts no bills of
// its own then; the caller waits for the validator's notes.
var ErrNoCredits = errors.New("cabinet: autoplay: credits short, waiting for a note")

// validatorTilts are the validator's faults in force: hardware facts,
// committed with their event-log entries like the jam, reported again by
// the validator after a restart.
type validatorTilts struct {
	stackerOpen bool // stacker (cash box) removed: ID-003 44h
	stackerFull bool // 43h
	failure     bool // failure 49h or a fraud attempt (cheated 48h)
	gone        bool // the validator stopped answering
}

// tilts are the reasons (message keys "tilt."+reason) in a fixed order.
func (v validatorTilts) tilts() []string {
	var t []string
	if v.stackerOpen {
		t = append(t, "stacker_open")
	}
	if v.stackerFull {
		t = append(t, "stacker_full")
	}
	if v.failure {
		t = append(t, "bill_error")
	}
	if v.gone {
		t = append(t, "validator_gone")
	}
	return t
}

// Validator connects a note validator's driver to the controller: it is
// the driver's id003.Cashbox and event function. Make it with
// NewValidator, put it in Options.Validator, build the driver on it, then
// Attach the driver.
type Validator struct {
	req  chan *NoteRequest
	stop chan struct{}
	once sync.Once

	mu     sync.Mutex
	driver *id003.Driver

	// driver's goroutine only: the power-up status reported before the
	// next Credit (42h: the credit is the power-up's resolution).
	powerUp id003.Status
}

// NewValidator returns the seam, with no driver attached yet.
func NewValidator() *Validator {
	return &Validator{req: make(chan *NoteRequest, 16), stop: make(chan struct{})}
}

// Attach gives the seam its driver (acceptance, the self-test's Info).
func (v *Validator) Attach(d *id003.Driver) {
	v.mu.Lock()
	v.driver = d
	v.mu.Unlock()
}

// Close releases a driver waiting for an answer (it gets an error and
// tells the validator nothing, as a host that died). Call it once the
// controller's loop has stopped.
func (v *Validator) Close() { v.once.Do(func() { close(v.stop) }) }

// Requests is the channel of the driver's calls, for the loop that calls
// Handle (nil Validator: a nil channel, never ready).
func (v *Validator) Requests() <-chan *NoteRequest {
	if v == nil {
		return nil
	}
	return v.req
}

// Info is the validator's model, version and status for the self-test
// page and hwtest (zero before a driver is attached).
func (v *Validator) Info() id003.Info {
	if v == nil {
		return id003.Info{}
	}
	v.mu.Lock()
	d := v.driver
	v.mu.Unlock()
	if d == nil {
		return id003.Info{}
	}
	return d.Info()
}

func (v *Validator) setAcceptance(max money.Cents, tickets bool) {
	if v == nil {
		return
	}
	v.mu.Lock()
	d := v.driver
	v.mu.Unlock()
	if d != nil {
		d.SetAcceptance(max)
		d.SetTickets(tickets)
	}
}

// errStopped answers a driver whose controller has stopped.
var errStopped = errors.New("cabinet: the controller has stopped")

// call hands r to the controller's goroutine and waits for the answer
// (wait false: only queues it).
func (v *Validator) call(r *NoteRequest, wait bool) noteReply {
	if wait {
		r.reply = make(chan noteReply, 1)
	}
	select {
	case v.req <- r:
	case <-v.stop:
		return noteReply{err: errStopped}
	}
	if !wait {
		return noteReply{}
	}
	select {
	case a := <-r.reply:
		return a
	case <-v.stop:
		return noteReply{err: errStopped}
	}
}

// Escrow implements id003.Cashbox.
func (v *Validator) Escrow(n id003.Note) (id003.Decision, error) {
	a := v.call(&NoteRequest{kind: noteEscrow, note: n}, true)
	return a.dec, a.err
}

// Ticket implements id003.Cashbox: the desk's answer for a ticket in
// escrow (ticketin.go).
func (v *Validator) Ticket(number string) (id003.TicketDecision, error) {
	a := v.call(&NoteRequest{kind: noteTicket, ticket: number}, true)
	return a.ticket, a.err
}

// Credit implements id003.Cashbox.
func (v *Validator) Credit() (id003.Note, bool, error) {
	p := v.powerUp
	v.powerUp = 0
	a := v.call(&NoteRequest{kind: noteCredit, status: p}, true)
	return a.note, a.fresh, a.err
}

// Event is the driver's event function. A power-up status is resolved
// (committed) before it returns, so before the driver resets the
// validator; the other events are queued in order.
func (v *Validator) Event(e id003.Event) {
	if e.Kind == id003.EvPowerUp {
		if e.Status == id003.StPowerUpBillStacker {
			v.powerUp = e.Status // resolved by the Credit that follows
		} else {
			v.powerUp = 0
		}
		v.call(&NoteRequest{kind: noteEvent, event: e}, true)
		return
	}
	v.call(&NoteRequest{kind: noteEvent, event: e}, false)
}

type noteKind uint8

const (
	noteEscrow noteKind = iota + 1
	noteCredit
	noteEvent
	noteTicket
)

// NoteRequest is one call of the validator's driver, carried to Handle
// (Input.Note).
type NoteRequest struct {
	kind   noteKind
	note   id003.Note   // escrow: the note
	status id003.Status // credit: the power-up status before it (0: vend valid)
	event  id003.Event
	ticket string         // ticket: the barcode read
	reply  chan noteReply // nil: nobody waits
}

func (r *NoteRequest) String() string {
	switch r.kind {
	case noteEscrow:
		return "escrow " + r.note.String()
	case noteTicket:
		return "ticket " + r.ticket
	case noteCredit:
		if r.status != 0 {
			return "credit at " + r.status.String()
		}
		return "credit at vend valid"
	}
	return r.event.String()
}

type noteReply struct {
	dec    id003.Decision
	ticket id003.TicketDecision
	note   id003.Note
	fresh  bool
	err    error
}

// request handles one call of the driver and answers it.
func (d *noteDesk) request(r *NoteRequest) error {
	var a noteReply
	switch r.kind {
	case noteEscrow:
		a.dec, a.err = d.escrow(r.note)
	case noteTicket:
		a.ticket, a.err = d.ticket(r.ticket)
	case noteCredit:
		a.note, a.fresh, a.err = d.credit(r.status)
	case noteEvent:
		a.err = d.event(r.event)
	}
	if r.reply != nil {
		r.reply <- a
	}
	if errors.Is(a.err, id003.ErrNotOrdered) {
		return nil // reported by the driver's Uncredited event
	}
	return a.err
}

// refusal is why a note of value v in escrow is returned now, "" if
// it may be stacked: acceptance's rules, most specific first, in the words
// of the refusal notices (billReasons).
func (d *noteDesk) refusal(v money.Cents) string {
	cs := d.led.cur()
	switch {
	case cs.memErr != nil || len(cs.tilts()) > 0 || cs.m.Handpay > 0 || cs.switches[hw.AuditKey] || d.scr.mode == view.Operator || cs.host.BillsOff:
		return billReasons[NoticeBillInhibited].text
	case !slices.Contains(d.set.Bills, v) || !billAllowed(cs.host, v):
		return "not an enabled bill (" + v.String() + ")"
	case cs.m.Credits+v > d.set.CreditLimit:
		return billReasons[NoticeCreditLimit].text
	}
	return ""
}

// escrow decides the note in escrow. Stack is answered only once the
// order is committed; an order left by an earlier note is closed in the
// same transaction (credited: that note is done, as the validator is
// escrowing another; stacking: it never reached the stacker). The refusal
// is logged and shown when the driver reports the return (EvReturned).
func (d *noteDesk) escrow(n id003.Note) (id003.Decision, error) {
	if why := d.refusal(n.Value); why != "" {
		return id003.Decision{Reason: why}, nil
	}
	err := d.led.commit("order note stacked", func(tx *recovery.Tx, s *state) error {
		if err := closeNote(tx); err != nil {
			return err
		}
		return tx.NoteStacking(n.Value)
	})
	if err != nil {
		return id003.Decision{}, fmt.Errorf("cabinet: order note %v stacked: %w", n.Value, err)
	}
	return id003.Decision{Stack: true}, nil
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
// bill in stacker: status). Which note, and whether it is still to
// credit, is the store's: recovery.ResolveAtBoot with the note in the
// stacker — an order stacking is credited now (the record goes to
// credited in the same transaction), an order credited is not credited
// again, no order is never credited (ErrNotOrdered: the driver reports it
// and the attendant reconciles the stacker).
func (d *noteDesk) credit(status id003.Status) (id003.Note, bool, error) {
	if d.led.cur().memErr != nil {
		return id003.Note{}, false, fmt.Errorf("%w: note in the stacker during a memory error: not credited, not acknowledged", ErrMemory)
	}
	var n id003.Note
	var fresh, unordered bool
	err := d.led.commit("credit note", func(tx *recovery.Tx, s *state) error {
		rec, err := tx.Note()
		if err != nil {
			return err
		}
		at := "vend valid"
		if status != 0 {
			at = status.String()
		}
		switch recovery.ResolveAtBoot(rec, recovery.PowerUpBillInStacker) {
		case recovery.NoteCredit:
			if rec.Ticket != 0 {
				v, err := d.creditTicket(tx, s, rec.Ticket, at)
				n, fresh = id003.Note{Code: id003.TicketCode, Value: v}, true
				return err
			}
			v, err := tx.NoteCredited()
			if err != nil {
				return err
			}
			n, fresh = id003.Note{Value: v}, true
			return d.led.creditBill(tx, s, v, d.set.CreditLimit, "validator, "+at)
		case recovery.NoteAlreadyCredited:
			n = id003.Note{Value: rec.Value}
			if rec.Ticket != 0 {
				n.Code = id003.TicketCode
			}
			return errNothing
		}
		v, credited, ok, err := d.unorderedTicket(tx, s, at)
		switch {
		case err != nil:
			return err
		case credited:
			n, fresh = id003.Note{Code: id003.TicketCode, Value: v}, true
			return nil
		case ok:
			unordered = true // the ticket's return commits; the driver hears ErrNotOrdered
			return nil
		}
		return id003.ErrNotOrdered
	})
	if unordered {
		return id003.Note{}, false, id003.ErrNotOrdered
	}
	switch {
	case errors.Is(err, errNothing):
		return n, false, nil
	case err != nil:
		return id003.Note{}, false, err
	}
	if d.scr.mode == view.Attract {
		d.scr.mode = view.Menu
	}
	if fresh && n.Code == id003.TicketCode {
		d.scr.message = "ticket_in_credited"
	}
	return n, fresh, nil
}

// powerUp resolves the validator's power-up status p (40h, 41h) with
// the note record (recovery.ResolveNoteAtBoot), committed before the
// driver resets the validator.
func (d *noteDesk) powerUp(st id003.Status) error {
	if d.led.cur().memErr != nil {
		// The store is evidence: nothing is resolved; the record stays
		// for the memory clear's boot to see.
		d.log.Error("note validator power up during a memory error: the note record is not resolved", "status", st.String())
		return nil
	}
	p := recovery.PowerUpEmpty
	if st == id003.StPowerUpBillAcceptor {
		p = recovery.PowerUpBillInAcceptor
	}
	err := d.led.commit("resolve the note at the validator's power up", func(tx *recovery.Tx, s *state) error {
		a, n, err := tx.ResolveNoteAtBoot(p)
		if err != nil {
			return err
		}
		// A ticket in the validator went back to the player (its order,
		// if any, is the note record's: resolved above as a note's).
		tickets, err := d.ticketPowerUp(tx, s, p)
		if err != nil {
			return err
		}
		switch {
		case a == recovery.NoteReturnedToPlayer && n.Ticket == 0:
			return d.led.logDetail(tx, meters.KindBillRefused, fmt.Sprintf("bill %v refused: the validator powered up (%s) before stacking it; not credited", n.Value, p),
				"bill_refused", argMoney(n.Value), argKey("bill_reason.refused"))
		case a == recovery.NoteCreditedNotStacked:
			text := fmt.Sprintf("note %v credited at vend valid, yet the validator reports %s: attendant to check the note returned", n.Value, p)
			if n.Ticket != 0 {
				text = fmt.Sprintf("ticket in %d (%v) credited at vend valid, yet the validator reports %s: attendant to check the ticket returned", n.Ticket, n.Value, p)
			}
			return d.led.logDetail(tx, meters.KindBillError, text, "bill_error", meters.Arg{Type: meters.ArgText, Value: text})
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

// event turns a driver event into the cabinet's: the record closed,
// tilts and their SAS exceptions, refusals shown and logged as today,
// errors logged with their reason.
func (d *noteDesk) event(e id003.Event) error {
	switch e.Kind {
	case id003.EvPowerUp:
		d.log.Info("note validator power up", "status", e.Status.String())
		if e.Status == id003.StPowerUpBillStacker {
			return nil // the Credit that follows resolves it
		}
		return d.powerUp(e.Status)
	case id003.EvStatus:
		if e.Status == id003.StEscrow && e.Ticket != "" {
			d.fresh = true // a new ticket: Ticket answers next
		}
		switch e.Status {
		case id003.StIdling, id003.StDisabled, id003.StStacked, id003.StRejecting, id003.StReturning:
			return d.settled(e.Status)
		}
		return nil
	case id003.EvReturned:
		if e.Note.Code == id003.TicketCode || e.Ticket != "" {
			return d.ticketReturned(e)
		}
		// The cabinet's decision, a code not accepted, or above the
		// acceptance: shown and logged as a pulse acceptor's refusal.
		return d.hardware(hw.Input{Kind: hw.BillRefused, Value: e.Note.Value, Err: "validator: " + e.Text})
	case id003.EvRejected:
		return d.hardware(hw.Input{Kind: hw.BillRefused, Err: "validator rejected it: " + e.Reject.String()})
	case id003.EvUncredited, id003.EvStoreError:
		return d.hardware(hw.Input{Kind: hw.BillError, Err: "validator: " + e.Text})
	case id003.EvBadFrame, id003.EvCommError:
		text := "validator: " + e.String()
		return d.led.logOnly(meters.KindBillError, "bill error: "+text, "bill_error", meters.Arg{Type: meters.ArgText, Value: text})
	case id003.EvTimeout:
		return d.tilt(func(t *validatorTilts) *bool { return &t.gone }, true, "note validator not answering: "+e.Text, HostValidatorFailure)
	case id003.EvBack:
		return d.tilt(func(t *validatorTilts) *bool { return &t.gone }, false, "note validator answers again", 0)
	case id003.EvFault:
		return d.fault(e, true)
	case id003.EvFaultCleared:
		return d.fault(e, false)
	case id003.EvVersion:
		d.log.Info("note validator", "version", e.Text)
	case id003.EvCredited, id003.EvCreditRepeated:
		d.log.Info("note validator", "event", e.String())
	}
	return nil
}

// settled closes the note record when the validator shows where its
// note went: stacked or idle after vend valid (done), rejecting, returning
// or idle before it (returned).
func (d *noteDesk) settled(st id003.Status) error {
	if d.led.cur().memErr != nil {
		return nil
	}
	err := d.led.commit("close the note record", func(tx *recovery.Tx, s *state) error {
		rec, err := tx.Note()
		ticketGone := false
		if err == nil && st != id003.StStacked && (rec == nil || rec.Status == recovery.NoteStacking) {
			// A ticket the validator no longer holds, never stacked.
			ticketGone, err = d.ticketGone(tx, s, st)
		}
		switch {
		case err != nil:
			return err
		case rec == nil && ticketGone:
			return nil // the ticket's return
		case rec == nil:
			return errNothing
		case rec.Status == recovery.NoteCreditedAwaitingAck && (st == id003.StRejecting || st == id003.StReturning):
			return errNothing // not this note's: it is in the stacker
		case rec.Status == recovery.NoteStacking && st == id003.StStacked:
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
			if err := d.led.logDetail(tx, meters.KindBillError, text, "bill_error", meters.Arg{Type: meters.ArgText, Value: text}); err != nil {
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

// fault starts (on) or ends a tilt for an error status.
func (d *noteDesk) fault(e id003.Event, on bool) error {
	what := e.Status.String()
	if e.Status == id003.StFailure && on {
		what += ": " + e.Failure.String()
	}
	field := func(f func(*validatorTilts) *bool, host HostEventKind) error {
		if !on {
			host = 0
			if e.Status == id003.StStackerOpen {
				host = HostStackerInstalled
			}
			what += " cleared"
		}
		return d.tilt(f, on, "note validator "+what, host)
	}
	switch e.Status {
	case id003.StStackerOpen:
		return field(func(t *validatorTilts) *bool { return &t.stackerOpen }, HostStackerRemoved)
	case id003.StStackerFull:
		return field(func(t *validatorTilts) *bool { return &t.stackerFull }, HostStackerFull)
	case id003.StAcceptorJam, id003.StStackerJam:
		return d.led.billJam(on, "note validator "+what)
	case id003.StFailure, id003.StCheated:
		return field(func(t *validatorTilts) *bool { return &t.failure }, HostValidatorFailure)
	}
	// Pause (a second note pushed in): the validator's own business.
	d.log.Warn("note validator", "status", what, "on", on)
	return nil
}

// tilt sets one of the validator's tilts (f selects it) and logs
// it, with host's SAS exception if any, in one commit.
func (d *noteDesk) tilt(f func(*validatorTilts) *bool, on bool, text string, host HostEventKind) error {
	cur := d.led.cur().val
	if *f(&cur) == on {
		return nil
	}
	return d.led.commit("log "+text, func(tx *recovery.Tx, s *state) error {
		*f(&s.val) = on
		if host != 0 {
			if err := d.led.emit(tx, HostEvent{Kind: host}); err != nil {
				return err
			}
		}
		t := s.tilts()
		switch {
		case on:
			return d.led.logDetail(tx, meters.KindTilt, fmt.Sprintf("tilt: %v (%s)", t, text), "tilt", argTilts(t)...)
		case len(t) == 0:
			return d.led.logDetail(tx, meters.KindTiltClear, "tilt cleared ("+text+")", "tilt_cleared")
		}
		return d.led.logDetail(tx, meters.KindTiltClear, fmt.Sprintf("%s, still tilted: %v", text, t), "tilt", argTilts(t)...)
	})
}
