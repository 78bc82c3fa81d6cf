package recovery

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/money"
	"cabinet/internal/sas"
)

// Tickets in and out (TITO, issue 30) and the note validator's escrow
// (ID-003, issue 29): the records the controller writes in its one commit
// path. Every Tx method here is a pure record transition: it checks that
// the record is in a state the transition starts from (a *TransitionError
// otherwise, wrapping ErrTicketState, and nothing is written) and writes
// the new record. Money is the caller's, in the same transaction:
//
//	IssueTicket        credits −= a; Meters.TicketIssued(a)
//	TicketPrintDone    Meters.TicketPrinted(a)
//	TicketVoid         Meters.TicketVoided(a) (the attendant pays a by hand)
//	TicketStacked      credits += a; Meters.TicketRedeemed(a)
//	NoteCredited       credits += v; BillsIn += v; Bills[v]++
//	ResolveNoteAtBoot  the same when it returns NoteCredit
//
// The tito/state record keeps the totals of those transitions; Update
// refuses to commit (ErrInvariant) a transaction after which they differ
// from the machine's ticket meters, or in which the outstanding ticket's
// amount is not what the meters say is outstanding — so a ticket is
// credited once, in the transaction that records it stacked, and a ticket
// out debits the credit meter once, when it is issued. Check verifies the
// same at boot.
//
// The buckets are optional, like the SAS bucket: a store made before
// tickets has none until the first ticket or note is recorded.
var (
	bTITO       = []byte("tito")        // kTITOState, kTITONote
	bTicketsOut = []byte("tickets_out") // ring of TicketOut by Seq
	bTicketsIn  = []byte("tickets_in")  // ring of TicketIn by Seq

	kTITOState = []byte("state")
	kTITONote  = []byte("note")
)

// TicketDepth is how many tickets out, and how many tickets in, the rings
// keep (the audit page; at least the 31 validation records SAS LP 4D
// reads). The unresolved ticket is always the newest, so it is never
// trimmed.
const TicketDepth = 64

// titoState is the tito/state record: sequence numbers, the unresolved
// tickets, the totals the ticket meters must equal, and the secure-enhanced
// validation state (SAS LP 4C).
type titoState struct {
	NextOut uint64 `json:"next_out"` // Seq of the last ticket out (0: none yet)
	NextIn  uint64 `json:"next_in"`  // Seq of the last ticket in (0: none yet)
	// OpenOut is the ticket out being printed or waiting for the
	// attendant (0: none); OpenIn the ticket in not yet stacked or
	// returned (0: none).
	OpenOut uint64 `json:"open_out,omitempty"`
	OpenIn  uint64 `json:"open_in,omitempty"`

	Issued       money.Cents `json:"issued"`
	IssuedCount  int64       `json:"issued_count"`
	Printed      money.Cents `json:"printed"`
	PrintedCount int64       `json:"printed_count"`
	Voided       money.Cents `json:"voided"`
	VoidedCount  int64       `json:"voided_count"`
	In           money.Cents `json:"in"`
	InCount      int64       `json:"in_count"`

	// Validation is the secure-enhanced validation state (sas.ValidationID).
	Validation validationState `json:"validation"`
	// Cashout is the last system-validation cash-out ID given (sas.Cashout.ID).
	Cashout uint64 `json:"cashout,omitempty"`
}

// validationState is sas.ValidationID with stable JSON names.
type validationState struct {
	MachineID uint32 `json:"machine_id"`
	Sequence  uint32 `json:"sequence"`
	SetID     uint32 `json:"set_id"`
	SetSeq    uint32 `json:"set_seq"`
}

// TicketOutStatus is where a cash-out ticket stands.
type TicketOutStatus string

// Ticket out statuses.
const (
	// TicketPending: recorded (its credits left the meter), being printed.
	TicketPending TicketOutStatus = "pending"
	// TicketUncertain: the printer reported a failure, or did not confirm
	// before a power cut: the ticket may or may not be in the player's
	// hand. Only the attendant resolves it (TicketReprint, TicketVoid).
	TicketUncertain TicketOutStatus = "uncertain"
	// TicketPrinted: the printer confirmed it (final).
	TicketPrinted TicketOutStatus = "printed"
	// TicketVoided: the attendant voided it and paid its amount by hand
	// (final; its validation number is not valid).
	TicketVoided TicketOutStatus = "voided"
)

// TicketOut is one cash-out by ticket.
type TicketOut struct {
	Seq uint64 `json:"seq"`
	// Validation is the 18 digits printed: the validation system ID (00
	// for a number computed here under secure-enhanced validation, 01–99
	// the host's) then the 16-digit number.
	Validation string      `json:"validation"`
	Amount     money.Cents `json:"amount"`
	Created    time.Time   `json:"created"`
	// Expiry is when the ticket stops being redeemable (zero: the ticket
	// says it never expires).
	Expiry time.Time       `json:"expiry,omitzero"`
	Status TicketOutStatus `json:"status"`
	// Reason is why the ticket became uncertain (the printer's report, or
	// "power cut while printing"); kept after a reprint or void.
	Reason string `json:"reason,omitempty"`
	// Reprints counts the attendant's reprints (same validation number).
	Reprints int `json:"reprints,omitempty"`
	// Resolved is when it was printed or voided.
	Resolved time.Time `json:"resolved,omitzero"`
	// HostRead: the host read and acknowledged its validation record (LP 4D).
	HostRead bool `json:"host_read,omitempty"`
}

// Unresolved reports whether the ticket is pending or uncertain.
func (t TicketOut) Unresolved() bool { return t.Status == TicketPending || t.Status == TicketUncertain }

// Number returns the ticket's validation system ID and 16-digit number.
func (t TicketOut) Number() (systemID int, number uint64) {
	systemID, number, _ = splitValidation(t.Validation)
	return systemID, number
}

// TicketNumber is the ticket number printed on it (0–9999, SAS LP 4D).
func (t TicketOut) TicketNumber() int { return int(t.Seq % 10000) }

// TicketRequest is a cash-out to a ticket as IssueTicket records it.
type TicketRequest struct {
	Validation string      // 18 digits (Validation builds it)
	Amount     money.Cents // > 0
	Expiry     time.Time   // zero: never expires
}

// Validation formats a validation system ID (0–99) and 16-digit number as
// the 18 digits printed on a ticket.
func Validation(systemID int, number uint64) (string, error) {
	if systemID < 0 || systemID > 99 || number > 9999999999999999 {
		return "", fmt.Errorf("recovery: validation number system %d, number %d: want a system ID 0–99 and at most 16 digits: %w",
			systemID, number, ErrBadTicket)
	}
	return fmt.Sprintf("%02d%016d", systemID, number), nil
}

func splitValidation(v string) (int, uint64, error) {
	if err := checkValidation(v); err != nil {
		return 0, 0, err
	}
	sys, _ := strconv.Atoi(v[:2])
	n, _ := strconv.ParseUint(v[2:], 10, 64)
	return sys, n, nil
}

// validationNumber is the 18 digits as a number (SAS LP 70's 9 BCD bytes);
// v is checked already.
func validationNumber(v string) uint64 {
	n, _ := strconv.ParseUint(v, 10, 64)
	return n
}

func checkValidation(v string) error {
	if len(v) != 18 {
		return fmt.Errorf("recovery: validation number %q: want 18 digits, got %d characters: %w", v, len(v), ErrBadTicket)
	}
	for i := range len(v) {
		if v[i] < '0' || v[i] > '9' {
			return fmt.Errorf("recovery: validation number %q: character %d is %q, want digits only: %w", v, i+1, v[i], ErrBadTicket)
		}
	}
	return nil
}

// titoBucket returns bucket name, created in a read-write transaction; nil
// (no error) in a read-only one that has none yet.
func (tx *Tx) titoBucket(name []byte) (*bolt.Bucket, error) {
	if b := tx.tx.Bucket(name); b != nil || tx.ro {
		return b, nil
	}
	b, err := tx.tx.CreateBucket(name)
	if err != nil {
		return nil, fmt.Errorf("recovery: create bucket %s: %w", name, err)
	}
	return b, nil
}

func (tx *Tx) titoState() (titoState, error) {
	var st titoState
	b := tx.tx.Bucket(bTITO)
	if b == nil {
		return st, nil
	}
	if raw := b.Get(kTITOState); raw != nil {
		if err := decode(bTITO, kTITOState, raw, &st); err != nil {
			return titoState{}, err
		}
	}
	return st, nil
}

func (tx *Tx) putTITOState(st titoState) error {
	if _, err := tx.titoBucket(bTITO); err != nil {
		return err
	}
	tx.titoTouched = true
	return tx.put(bTITO, kTITOState, st)
}

// ticketOut reads ticket out seq (ok false: not in the ring).
func (tx *Tx) ticketOut(seq uint64) (TicketOut, bool, error) {
	var t TicketOut
	b := tx.tx.Bucket(bTicketsOut)
	if b == nil {
		return t, false, nil
	}
	raw := b.Get(seqKey(seq))
	if raw == nil {
		return t, false, nil
	}
	return t, true, decode(bTicketsOut, seqKey(seq), raw, &t)
}

func (tx *Tx) ticketIn(seq uint64) (TicketIn, bool, error) {
	var t TicketIn
	b := tx.tx.Bucket(bTicketsIn)
	if b == nil {
		return t, false, nil
	}
	raw := b.Get(seqKey(seq))
	if raw == nil {
		return t, false, nil
	}
	return t, true, decode(bTicketsIn, seqKey(seq), raw, &t)
}

// pushTicket writes the new newest record of a ticket ring under seq and
// trims the ring to TicketDepth.
func (tx *Tx) pushTicket(bucket []byte, seq uint64, v any) error {
	b, err := tx.titoBucket(bucket)
	if err != nil {
		return err
	}
	if k, _ := b.Cursor().Last(); k != nil && (len(k) != 8 || binary.BigEndian.Uint64(k) >= seq) {
		return corrupt(bucket, k, "ring holds a ticket at or after the new one, %d", seq)
	}
	tx.titoTouched = true
	if err := tx.put(bucket, seqKey(seq), v); err != nil {
		return err
	}
	if seq <= TicketDepth {
		return nil
	}
	oldest := seq - TicketDepth
	c := b.Cursor()
	for k, _ := c.First(); k != nil && binary.BigEndian.Uint64(k) <= oldest; k, _ = c.Next() {
		if err := c.Delete(); err != nil {
			return fmt.Errorf("recovery: trim %s: %w", bucket, err)
		}
	}
	return nil
}

func (tx *Tx) putTicket(bucket []byte, seq uint64, v any) error {
	tx.titoTouched = true
	return tx.put(bucket, seqKey(seq), v)
}

// Under system validation a cash-out first waits for the host's number
// (SAS exception 57, LP 57/58) with its credits still on the meter
// (NextCashoutID names it); under secure-enhanced validation the caller
// computes the number (sas.ValidationID.Next) and stores the new state
// with PutValidationID in the transaction of IssueTicket. Either way the
// ticket is recorded with its number before it is printed.
//
// IssueTicket records a cash-out to a ticket as pending, before it is
// printed, and returns it (its Seq, Created). The caller takes the amount
// off the credit meter and counts Meters.TicketIssued in the same
// transaction. Refused (nothing written): a bad amount or validation
// number (ErrBadTicket), an expiry not after now, a validation number one
// of the kept tickets already carries (ErrBadTicket), and any new ticket
// while another is pending or uncertain (ErrTicketUnresolved): never a
// second valid ticket for the same credits.
func (tx *Tx) IssueTicket(r TicketRequest) (TicketOut, error) {
	if r.Amount <= 0 {
		return TicketOut{}, fmt.Errorf("recovery: issue ticket of %v: want an amount above 0: %w", r.Amount, ErrBadTicket)
	}
	if err := checkValidation(r.Validation); err != nil {
		return TicketOut{}, err
	}
	now := tx.s.opt.Now()
	if !r.Expiry.IsZero() && !r.Expiry.After(now) {
		return TicketOut{}, fmt.Errorf("recovery: issue ticket %s: expiry %s not after now %s: %w",
			r.Validation, r.Expiry.Format(time.DateTime), now.Format(time.DateTime), ErrBadTicket)
	}
	st, err := tx.titoState()
	if err != nil {
		return TicketOut{}, err
	}
	if st.OpenOut != 0 {
		open, _, err := tx.ticketOut(st.OpenOut)
		if err != nil {
			return TicketOut{}, err
		}
		return TicketOut{}, &TransitionError{Record: fmt.Sprintf("ticket out %d", st.OpenOut), Op: "issue a new ticket",
			From: string(open.Status), Allowed: "no ticket pending or uncertain", Kind: ErrTicketUnresolved}
	}
	kept, err := tx.TicketsOut(0)
	if err != nil {
		return TicketOut{}, err
	}
	for _, k := range kept {
		if k.Validation == r.Validation {
			return TicketOut{}, fmt.Errorf("recovery: issue ticket %s: validation number already on ticket %d (%s): %w",
				r.Validation, k.Seq, k.Status, ErrBadTicket)
		}
	}
	st.NextOut++
	t := TicketOut{Seq: st.NextOut, Validation: r.Validation, Amount: r.Amount, Created: now, Expiry: r.Expiry, Status: TicketPending}
	st.OpenOut = t.Seq
	st.Issued += t.Amount
	st.IssuedCount++
	if err := tx.pushTicket(bTicketsOut, t.Seq, t); err != nil {
		return TicketOut{}, err
	}
	return t, tx.putTITOState(st)
}

// openOut returns ticket out seq if it is the unresolved one in one of the
// statuses from, or a *TransitionError.
func (tx *Tx) openOut(seq uint64, op string, from ...TicketOutStatus) (TicketOut, titoState, error) {
	st, err := tx.titoState()
	if err != nil {
		return TicketOut{}, st, err
	}
	t, ok, err := tx.ticketOut(seq)
	if err != nil {
		return TicketOut{}, st, err
	}
	allowed := ""
	for i, s := range from {
		if i > 0 {
			allowed += " or "
		}
		allowed += string(s)
	}
	te := &TransitionError{Record: fmt.Sprintf("ticket out %d", seq), Op: op, From: "none", Allowed: allowed, Kind: ErrTicketState}
	if !ok {
		return TicketOut{}, st, te
	}
	te.From = string(t.Status)
	for _, s := range from {
		if t.Status == s {
			if st.OpenOut != seq {
				return TicketOut{}, st, corrupt(bTITO, kTITOState, "ticket out %d is %s but the open ticket is %d", seq, t.Status, st.OpenOut)
			}
			return t, st, nil
		}
	}
	return TicketOut{}, st, te
}

// TicketPrintDone records the printer's confirmation: pending → printed.
// The caller counts Meters.TicketPrinted(t.Amount).
func (tx *Tx) TicketPrintDone(seq uint64) (TicketOut, error) {
	t, st, err := tx.openOut(seq, "print done", TicketPending)
	if err != nil {
		return TicketOut{}, err
	}
	t.Status, t.Resolved = TicketPrinted, tx.s.opt.Now()
	st.OpenOut = 0
	st.Printed += t.Amount
	st.PrintedCount++
	if err := tx.putTicket(bTicketsOut, seq, t); err != nil {
		return TicketOut{}, err
	}
	return t, tx.putTITOState(st)
}

// TicketPrintFailed records a print that failed or was not confirmed
// (reason: the printer's status, "no confirmation", "power cut while
// printing"): pending → uncertain, for the attendant. No meter moves.
func (tx *Tx) TicketPrintFailed(seq uint64, reason string) (TicketOut, error) {
	if reason == "" {
		return TicketOut{}, fmt.Errorf("recovery: ticket out %d print failed: empty reason: %w", seq, ErrBadTicket)
	}
	t, _, err := tx.openOut(seq, "print failed", TicketPending)
	if err != nil {
		return TicketOut{}, err
	}
	t.Status, t.Reason = TicketUncertain, reason
	return t, tx.putTicket(bTicketsOut, seq, t)
}

// ReasonPowerCut is the reason TicketOutAtBoot records.
const ReasonPowerCut = "power cut while printing"

// TicketOutAtBoot makes a ticket still pending at boot uncertain (the
// printer may have printed it or not: only the attendant decides) and
// returns it; ok is false when no ticket was pending. An uncertain ticket
// stays so.
func (tx *Tx) TicketOutAtBoot() (t TicketOut, ok bool, err error) {
	st, err := tx.titoState()
	if err != nil || st.OpenOut == 0 {
		return TicketOut{}, false, err
	}
	t, found, err := tx.ticketOut(st.OpenOut)
	if err != nil {
		return TicketOut{}, false, err
	}
	if !found || t.Status != TicketPending {
		return t, false, nil
	}
	t, err = tx.TicketPrintFailed(t.Seq, ReasonPowerCut)
	return t, err == nil, err
}

// TicketReprint is the attendant's reprint of an uncertain ticket:
// uncertain → pending with the same validation number, counted in
// Reprints. The caller prints it again (TicketPrintDone or
// TicketPrintFailed follow). No meter moves.
func (tx *Tx) TicketReprint(seq uint64) (TicketOut, error) {
	t, _, err := tx.openOut(seq, "attendant reprint", TicketUncertain)
	if err != nil {
		return TicketOut{}, err
	}
	t.Status = TicketPending
	t.Reprints++
	return t, tx.putTicket(bTicketsOut, seq, t)
}

// TicketVoid is the attendant's void of an uncertain ticket: uncertain →
// voided; its validation number is no longer valid and the attendant pays
// the amount by hand. The caller counts Meters.TicketVoided(t.Amount). A
// voided ticket never enters the validation records the host reads (LP
// 4D, printed tickets only), so a paper that did come out is never
// redeemable; a reprinted one carries the same number as the first, and
// the host redeems a number once.
func (tx *Tx) TicketVoid(seq uint64) (TicketOut, error) {
	t, st, err := tx.openOut(seq, "attendant void", TicketUncertain)
	if err != nil {
		return TicketOut{}, err
	}
	t.Status, t.Resolved = TicketVoided, tx.s.opt.Now()
	st.OpenOut = 0
	st.Voided += t.Amount
	st.VoidedCount++
	if err := tx.putTicket(bTicketsOut, seq, t); err != nil {
		return TicketOut{}, err
	}
	return t, tx.putTITOState(st)
}

// OpenTicketOut returns the ticket out pending or uncertain; ok is false
// when there is none.
func (tx *Tx) OpenTicketOut() (TicketOut, bool, error) {
	st, err := tx.titoState()
	if err != nil || st.OpenOut == 0 {
		return TicketOut{}, false, err
	}
	t, ok, err := tx.ticketOut(st.OpenOut)
	if err == nil && !ok {
		err = corrupt(bTITO, kTITOState, "open ticket out %d not in the ring", st.OpenOut)
	}
	return t, ok, err
}

// TicketsOut returns up to n tickets out, newest first (n <= 0: all kept).
func (tx *Tx) TicketsOut(n int) ([]TicketOut, error) {
	var out []TicketOut
	if tx.tx.Bucket(bTicketsOut) == nil {
		return nil, nil
	}
	err := tx.ring(bTicketsOut, n, func(k, raw []byte) error {
		var t TicketOut
		if err := decode(bTicketsOut, k, raw, &t); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

// ValidationRecords returns the validation records SAS LP 4D reads (the
// last 31 tickets printed, oldest first): cashable tickets, numbered by
// the ticket's Seq.
func (tx *Tx) ValidationRecords() ([]sas.ValidationRecord, error) {
	ts, err := tx.TicketsOut(0)
	if err != nil {
		return nil, err
	}
	var out []sas.ValidationRecord
	for _, t := range ts {
		if t.Status != TicketPrinted {
			continue
		}
		sys, n := t.Number()
		out = append(out, sas.ValidationRecord{Seq: t.Seq, Type: sas.ValCashableTicket, Time: t.Resolved,
			SystemID: sys, Number: n, Amount: t.Amount, Ticket: t.TicketNumber(), Acked: t.HostRead})
		if len(out) == sas.MaxValidationRecords {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// AckValidationRecord marks ticket seq's validation record read by the
// host (LP 4D). A repeated acknowledgement does nothing; a ticket that is
// not printed, or no longer kept, is ErrTicketState.
func (tx *Tx) AckValidationRecord(seq uint64) error {
	t, ok, err := tx.ticketOut(seq)
	if err != nil {
		return err
	}
	if !ok || t.Status != TicketPrinted {
		from := "none"
		if ok {
			from = string(t.Status)
		}
		return &TransitionError{Record: fmt.Sprintf("ticket out %d", seq), Op: "host read its validation record",
			From: from, Allowed: string(TicketPrinted), Kind: ErrTicketState}
	}
	if t.HostRead {
		return nil
	}
	t.HostRead = true
	return tx.putTicket(bTicketsOut, seq, t)
}

// ValidationID returns the secure-enhanced validation state (zero: LP 4C
// never received).
func (tx *Tx) ValidationID() (sas.ValidationID, error) {
	st, err := tx.titoState()
	v := st.Validation
	return sas.ValidationID{MachineID: v.MachineID, Sequence: v.Sequence, SetID: v.SetID, SetSeq: v.SetSeq}, err
}

// PutValidationID stores the secure-enhanced validation state: after LP
// 4C (ValidationID.Apply) and, in the transaction of the ticket it
// numbers, after ValidationID.Next. Values over 3 bytes are ErrBadTicket.
func (tx *Tx) PutValidationID(v sas.ValidationID) error {
	for _, x := range []uint32{v.MachineID, v.Sequence, v.SetID, v.SetSeq} {
		if x > 0xFFFFFF {
			return fmt.Errorf("recovery: put validation ID %+v: %X over 3 bytes (FFFFFF): %w", v, x, ErrBadTicket)
		}
	}
	st, err := tx.titoState()
	if err != nil {
		return err
	}
	st.Validation = validationState{MachineID: v.MachineID, Sequence: v.Sequence, SetID: v.SetID, SetSeq: v.SetSeq}
	return tx.putTITOState(st)
}

// NextCashoutID gives a system-validation cash-out its identity
// (sas.Cashout.ID): a new one each call, never reused across power cuts,
// so a late LP 58 for an abandoned cash-out never numbers a new one.
func (tx *Tx) NextCashoutID() (uint64, error) {
	st, err := tx.titoState()
	if err != nil {
		return 0, err
	}
	st.Cashout++
	return st.Cashout, tx.putTITOState(st)
}
