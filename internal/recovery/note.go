package recovery

import (
	"fmt"
	"time"

	"cabinet/internal/money"
	"cabinet/internal/sas"
)

// The note validator's escrow (JCM ID-003, issue 29). The validator holds
// a note in escrow and reports its value; the cabinet decides to stack it
// (Stack-1) or return it; the validator reports Vend Valid once the note
// cannot come back, repeats it until the cabinet ACKs, then reports
// Stacked. "Vend valid → credit → ACK" is made exactly-once across a power
// cut by one record, tito/note, written ahead of each step:
//
//	escrow, cabinet decides to stack   NoteStacking(v)   then send Stack-1
//	Vend Valid                         NoteCredited()    credit v in the same tx, then ACK
//	Stacked (after the ACK)            NoteDone()
//	Rejecting / Returning after Stack  NoteReturned()
//
// At boot, ResolveAtBoot tells from the record and the validator's
// power-up status what happened to the note (PowerUp, NoteAction), and
// ResolveNoteAtBoot applies it.

// NoteStatus is where the note the cabinet decided to stack stands.
type NoteStatus string

// Note statuses.
const (
	// NoteStacking: Stack-1 sent (or about to be); no Vend Valid yet.
	NoteStacking NoteStatus = "stacking"
	// NoteCreditedAwaitingAck: Vend Valid received and the note credited
	// in that transaction; the ACK (and the validator's Stacked) may not
	// have followed.
	NoteCreditedAwaitingAck NoteStatus = "credited"
)

// Note is the tito/note record (absent: no note between escrow and
// stacked).
type Note struct {
	Value  money.Cents `json:"value"`
	Status NoteStatus  `json:"status"`
	At     time.Time   `json:"at"` // when it was last changed
	// Ticket is the ticket in (its Seq) this order stacks, 0 for a note:
	// a barcode ticket the host authorised goes through the same order
	// (TicketStacking), so that its vend valid, repeated or met again at
	// a power-up, is credited exactly once as a note's is.
	Ticket uint64 `json:"ticket,omitempty"`
}

// PowerUp is the validator's status after a power-up, as the caller
// passes it to the boot resolutions (ID-003's power-up statuses).
type PowerUp byte

// Validator power-up statuses.
const (
	// PowerUpUnknown: the validator has not answered (absent, offline,
	// garbled): nothing is decided; the records wait and the acceptor stays
	// disabled.
	PowerUpUnknown PowerUp = iota
	// PowerUpEmpty: ID-003 40h, power up with no note inside.
	PowerUpEmpty
	// PowerUpBillInAcceptor: 41h, a note or ticket in the transport path:
	// it has not reached the stacker, and the validator returns it at
	// reset.
	PowerUpBillInAcceptor
	// PowerUpBillInStacker: 42h, a note or ticket in the stacker: past
	// the point of no return (the validator counts it stacked).
	PowerUpBillInStacker
)

func (p PowerUp) String() string {
	switch p {
	case PowerUpUnknown:
		return "validator status unknown"
	case PowerUpEmpty:
		return "power up (40h)"
	case PowerUpBillInAcceptor:
		return "power up with bill in acceptor (41h)"
	case PowerUpBillInStacker:
		return "power up with bill in stacker (42h)"
	}
	return fmt.Sprintf("PowerUp(%d)", byte(p))
}

// NoteAction is what the boot does about the note.
type NoteAction int

// Note actions at boot.
const (
	// NoteNothing: no note was between escrow and stacked.
	NoteNothing NoteAction = iota
	// NoteWait: the validator's status is unknown: keep the record, decide
	// when it answers.
	NoteWait
	// NoteCredit: the note reached the stacker but its Vend Valid was not
	// committed: credit its value now (once: the record goes in the same
	// transaction).
	NoteCredit
	// NoteAlreadyCredited: the note was credited at Vend Valid; do not
	// credit again.
	NoteAlreadyCredited
	// NoteReturnedToPlayer: the note never reached the stacker (the
	// validator returns it, or did before the cut): nothing credited.
	NoteReturnedToPlayer
	// NoteCreditedNotStacked: credited at Vend Valid, yet the validator
	// says a note is in its transport path: a validator fault. The credit
	// stands (the player saw it); the attendant is called to check the
	// note returned.
	NoteCreditedNotStacked
	// NoteUnknownInStacker: a note in the stacker the cabinet never
	// decided to stack: its value is not known, so nothing is credited; the
	// attendant is called.
	NoteUnknownInStacker
)

func (a NoteAction) String() string {
	switch a {
	case NoteNothing:
		return "nothing"
	case NoteWait:
		return "wait for the validator"
	case NoteCredit:
		return "credit the note now"
	case NoteAlreadyCredited:
		return "already credited"
	case NoteReturnedToPlayer:
		return "returned, not credited"
	case NoteCreditedNotStacked:
		return "credited, validator reports it in the acceptor: attendant"
	case NoteUnknownInStacker:
		return "note in stacker never stacked by the cabinet: attendant"
	}
	return fmt.Sprintf("NoteAction(%d)", int(a))
}

// ResolveAtBoot decides what happened to the note of rec (nil: none) from
// the validator's power-up status:
//
//	record \ power-up   unknown  40h (empty)        41h (in acceptor)        42h (in stacker)
//	none                nothing  nothing            nothing (returned)       unknown in stacker
//	stacking            wait     returned           returned                 credit now
//	credited            wait     already credited   credited, not stacked    already credited
//
// "stacking" with 40h: the note is neither inside nor in the stacker, so
// it went back to the player (a note that reached the stacker reports 42h
// until the cabinet has acknowledged its Vend Valid, and the cabinet
// commits the credit before that ACK).
func ResolveAtBoot(rec *Note, p PowerUp) NoteAction {
	if p == PowerUpUnknown || p > PowerUpBillInStacker {
		if rec == nil {
			return NoteNothing
		}
		return NoteWait
	}
	switch {
	case rec == nil && p == PowerUpBillInStacker:
		return NoteUnknownInStacker
	case rec == nil:
		return NoteNothing
	case rec.Status == NoteStacking && p == PowerUpBillInStacker:
		return NoteCredit
	case rec.Status == NoteStacking:
		return NoteReturnedToPlayer
	case p == PowerUpBillInAcceptor:
		return NoteCreditedNotStacked
	}
	return NoteAlreadyCredited
}

// Note returns the note record (nil: none).
func (tx *Tx) Note() (*Note, error) {
	b := tx.tx.Bucket(bTITO)
	if b == nil {
		return nil, nil
	}
	raw := b.Get(kTITONote)
	if raw == nil {
		return nil, nil
	}
	var n Note
	if err := decode(bTITO, kTITONote, raw, &n); err != nil {
		return nil, err
	}
	return &n, nil
}

func (tx *Tx) putNote(n *Note) error {
	b, err := tx.titoBucket(bTITO)
	if err != nil {
		return err
	}
	tx.titoTouched = true
	if n == nil {
		if err := b.Delete(kTITONote); err != nil {
			return fmt.Errorf("recovery: delete %s/%s: %w", bTITO, kTITONote, err)
		}
		return nil
	}
	return tx.put(bTITO, kTITONote, *n)
}

func (tx *Tx) noteIn(op string, want NoteStatus) (*Note, error) {
	n, err := tx.Note()
	if err != nil {
		return nil, err
	}
	if n == nil || n.Status != want {
		from := "none"
		if n != nil {
			from = string(n.Status)
		}
		return nil, &TransitionError{Record: "note", Op: op, From: from, Allowed: string(want), Kind: ErrTicketState}
	}
	return n, nil
}

// NoteStacking records the cabinet's decision to stack a note of value v
// held in escrow, before the stack command is sent. Refused while another
// note's record is open (ErrTicketState) or for a value not above 0
// (ErrBadTicket).
func (tx *Tx) NoteStacking(v money.Cents) error {
	if v <= 0 {
		return fmt.Errorf("recovery: note stacking of %v: want a value above 0: %w", v, ErrBadTicket)
	}
	n, err := tx.Note()
	if err != nil {
		return err
	}
	if n != nil {
		return &TransitionError{Record: "note", Op: "stack a note of " + v.String(), From: string(n.Status), Allowed: "no note open", Kind: ErrTicketState}
	}
	return tx.putNote(&Note{Value: v, Status: NoteStacking, At: tx.s.opt.Now()})
}

// TicketStacking records the cabinet's decision to stack ticket in seq,
// authorised by the host (TicketInAuthorised), before the stack command is
// sent: the order, as NoteStacking's, for the ticket's amount. Its vend
// valid then commits NoteCredited and TicketStacked together. Refused
// while another order is open, or for a ticket the cycle does not allow
// to be credited (sas.StepCredit: the open authorised one; ErrTicketState).
func (tx *Tx) TicketStacking(seq uint64) error {
	t, _, _, err := tx.openIn(seq, "order stacked", sas.Move{Step: sas.StepCredit})
	if err != nil {
		return err
	}
	n, err := tx.Note()
	if err != nil {
		return err
	}
	if n != nil {
		return &TransitionError{Record: "note", Op: fmt.Sprintf("stack ticket in %d", seq), From: string(n.Status), Allowed: "no note open", Kind: ErrTicketState}
	}
	return tx.putNote(&Note{Value: t.Amount, Status: NoteStacking, At: tx.s.opt.Now(), Ticket: seq})
}

// NoteCredited records the validator's Vend Valid: stacking → credited
// (awaiting the ACK), and returns the note's value for the caller to
// credit in this same transaction.
func (tx *Tx) NoteCredited() (money.Cents, error) {
	n, err := tx.noteIn("vend valid", NoteStacking)
	if err != nil {
		return 0, err
	}
	n.Status, n.At = NoteCreditedAwaitingAck, tx.s.opt.Now()
	return n.Value, tx.putNote(n)
}

// NoteDone records the validator's Stacked after the ACK: the record goes.
func (tx *Tx) NoteDone() error {
	if _, err := tx.noteIn("stacked", NoteCreditedAwaitingAck); err != nil {
		return err
	}
	return tx.putNote(nil)
}

// NoteReturned records a note the validator returned or rejected after
// the stack command, before Vend Valid: the record goes, nothing credited.
func (tx *Tx) NoteReturned() error {
	if _, err := tx.noteIn("returned", NoteStacking); err != nil {
		return err
	}
	return tx.putNote(nil)
}

// ResolveNoteAtBoot applies ResolveAtBoot to the note record and the
// validator's power-up status p: the record goes unless the action is
// NoteWait. It returns the action and the note (nil when there was none);
// on NoteCredit the caller credits note.Value in this same transaction.
// The validator repeats its power-up status until it is reset: the caller
// resets it only after this transaction has committed, so a cut in
// between finds the same status and the same record again.
func (tx *Tx) ResolveNoteAtBoot(p PowerUp) (NoteAction, *Note, error) {
	n, err := tx.Note()
	if err != nil {
		return 0, nil, err
	}
	a := ResolveAtBoot(n, p)
	if n != nil && a != NoteWait {
		if err := tx.putNote(nil); err != nil {
			return 0, nil, err
		}
	}
	return a, n, nil
}

// TicketInAction is what the boot does about a ticket in the validator.
type TicketInAction int

// Ticket in actions at boot.
const (
	// TicketInNothing: no ticket was in the validator.
	TicketInNothing TicketInAction = iota
	// TicketInWait: the validator's status is unknown: decide later.
	TicketInWait
	// TicketInCredit: the authorised ticket reached the stacker: it is
	// recorded stacked now; the caller credits it in this transaction.
	TicketInCredit
	// TicketInReturn: the ticket never reached the stacker: it is recorded
	// returned (status 87 for the host, which un-marks it).
	TicketInReturn
	// TicketInUnauthorisedInStacker: a ticket the host never authorised is
	// in the stacker: recorded returned (87: the host keeps it valid),
	// nothing credited, the attendant is called to take it out.
	TicketInUnauthorisedInStacker
)

func (a TicketInAction) String() string {
	switch a {
	case TicketInNothing:
		return "nothing"
	case TicketInWait:
		return "wait for the validator"
	case TicketInCredit:
		return "stacked: credit now"
	case TicketInReturn:
		return "returned, not credited"
	case TicketInUnauthorisedInStacker:
		return "unauthorised ticket in stacker: attendant"
	}
	return fmt.Sprintf("TicketInAction(%d)", int(a))
}

// ResolveTicketInAtBoot decides what happened to a ticket in (status
// escrow or authorised; anything else needs nothing) from the validator's
// power-up status:
//
//	ticket \ power-up   unknown  40h (empty)  41h (in acceptor)  42h (in stacker)
//	escrow              wait     return       return             unauthorised in stacker
//	authorised          wait     return       return             credit now
//
// As for notes, an authorised ticket with 40h went back to the player:
// one that reached the stacker reports 42h until its Vend Valid is ACKed,
// and the cabinet commits the credit (TicketStacked) before that ACK. A
// ticket stacked and credited needs nothing, whatever the status.
func ResolveTicketInAtBoot(t *TicketIn, p PowerUp) TicketInAction {
	switch {
	case t == nil || !t.Unresolved():
		return TicketInNothing
	case p == PowerUpUnknown || p > PowerUpBillInStacker:
		return TicketInWait
	case p != PowerUpBillInStacker:
		return TicketInReturn
	case t.Redemption().Allows(sas.StepCredit):
		return TicketInCredit
	}
	return TicketInUnauthorisedInStacker
}

// ReasonPowerCutTicketIn is the reason a ticket returned at boot records.
const ReasonPowerCutTicketIn = "power cut before the ticket was stacked"

// TicketInAtBoot applies ResolveTicketInAtBoot to the open ticket in: it
// records it stacked (TicketInCredit: the caller credits t.Amount and
// counts Meters.TicketRedeemed in this transaction) or returned with SAS
// status 87, and returns the action and the ticket. As for notes, the
// validator is reset only once this has committed.
func (tx *Tx) TicketInAtBoot(p PowerUp) (TicketInAction, TicketIn, error) {
	t, ok, err := tx.OpenTicketIn()
	if err != nil || !ok {
		return TicketInNothing, TicketIn{}, err
	}
	a := ResolveTicketInAtBoot(&t, p)
	switch a {
	case TicketInCredit:
		t, err = tx.TicketStacked(t.Seq)
	case TicketInReturn, TicketInUnauthorisedInStacker:
		t, err = tx.TicketReturned(t.Seq, sas.RedeemUnable, ReasonPowerCutTicketIn)
	}
	return a, t, err
}
