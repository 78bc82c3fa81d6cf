package recovery

import (
	"errors"
	"fmt"
	"time"

	"cabinet/internal/money"
	"cabinet/internal/sas"
)

// TicketInStatus is where a ticket inserted stands.
type TicketInStatus string

// Ticket in statuses.
const (
	// TicketInEscrow: the validator holds it; the host is asked (SAS
	// exception 67, LP 70, LP 71).
	TicketInEscrow TicketInStatus = "escrow"
	// TicketInAuthorised: the host redeems it for Amount (LP 71 status 40):
	// the cabinet stacks it.
	TicketInAuthorised TicketInStatus = "authorised"
	// TicketInStacked: stacked and credited, in one transaction (final).
	TicketInStacked TicketInStatus = "stacked"
	// TicketInRejected: the host refused it (Reason); returned (final).
	TicketInRejected TicketInStatus = "rejected"
	// TicketInReturned: not stacked for the cabinet's own reason (host
	// timeout, link down, validator failure, power cut); returned (final).
	TicketInReturned TicketInStatus = "returned"
)

// TicketIn is one ticket inserted. It also carries the SAS redemption
// cycle of the ticket (Redemption, UpdateRedemption): the newest ticket in
// is the one the host reads.
type TicketIn struct {
	Seq        uint64         `json:"seq"` // also the SAS redemption cycle
	Validation string         `json:"validation"`
	Status     TicketInStatus `json:"status"`
	// Amount is the host's transfer amount: what it authorised (0 before
	// its answer; a rejection keeps the amount it sent).
	Amount money.Cents `json:"amount,omitempty"`
	// Reason is why it was rejected or returned, as the player is shown it.
	Reason   string    `json:"reason,omitempty"`
	Inserted time.Time `json:"inserted"`
	Resolved time.Time `json:"resolved,omitzero"`
	// The SAS redemption record (sas.Redemption): stage, the machine's
	// status, the host's transfer code.
	Stage     sas.Stage            `json:"stage"`
	SASStatus sas.RedemptionStatus `json:"sas_status"`
	Code      sas.TransferCode     `json:"code"`
}

// Unresolved reports whether the ticket is still in the validator: in
// escrow or authorised, not yet stacked or returned (its redemption is
// active: sas.Redemption.Active).
func (t TicketIn) Unresolved() bool { return t.Redemption().Active() }

// ticketInStatus is the status a ticket in has at redemption record r,
// the one mapping from the SAS cycle (sas.Redemption) to the cabinet's
// words: authorised while the cabinet may credit it (pending), in escrow
// while it is otherwise being redeemed, and once the cycle ended, stacked,
// rejected or returned as the step that ended it. "" for a record the
// cycle does not reach.
func ticketInStatus(r sas.Redemption) TicketInStatus {
	switch {
	case r.Allows(sas.StepCredit):
		return TicketInAuthorised
	case r.Active():
		return TicketInEscrow
	}
	switch r.EndedBy() {
	case sas.StepCredit:
		return TicketInStacked
	case sas.StepRefuse:
		return TicketInRejected
	case sas.StepReturn:
		return TicketInReturned
	}
	return ""
}

// stepRefused is the store's refusal of a redemption step the cycle's
// rules (sas.Redemption.Apply, StepTo) refused with err, on ticket in
// cycle, for op: a *TransitionError (ErrTicketState) naming the record's
// state and what the step follows, or ErrBadTicket for a step that
// carries what it may not write.
func stepRefused(cycle uint64, op string, err error) error {
	var se *sas.StepError
	if !errors.As(err, &se) {
		return err
	}
	if se.Carried {
		return fmt.Errorf("recovery: ticket in %d: %s: %w: %w", cycle, op, ErrBadTicket, err)
	}
	return &TransitionError{Record: fmt.Sprintf("ticket in %d", cycle), Op: op, From: se.Record.State(), Allowed: se.Needs, Kind: ErrTicketState}
}

// Redemption is the SAS redemption record the store keeps with each
// ticket in (sas.Redemption), named here so that the store's users carry
// it without speaking the protocol.
type Redemption = sas.Redemption

// RedemptionStatus is the machine's SAS status of a ticket in
// (sas.RedemptionStatus); the statuses of a ticket the cabinet returns
// for its own reason (TicketReturned) are named here too.
type RedemptionStatus = sas.RedemptionStatus

// Statuses of a ticket the cabinet returns (TicketReturned).
const (
	ReturnUnable          = sas.RedeemUnable          // 87: cannot take it now (power cut, given back)
	ReturnTimeout         = sas.RedeemTimeout         // 88: no LP 71 in time
	ReturnLinkDown        = sas.RedeemLinkDown        // 89: the casino system's link is down
	ReturnValidatorFailed = sas.RedeemValidatorFailed // 8B: the validator rejected it
)

// HostRejected reports whether the casino system refused the ticket (LP
// 71 with a rejection code: Code is its reason).
func (t TicketIn) HostRejected() bool {
	return t.Status == TicketInRejected && t.SASStatus == sas.RedeemRejectedByHost
}

// Redemption is the ticket's SAS redemption record.
func (t TicketIn) Redemption() Redemption {
	return sas.Redemption{Cycle: t.Seq, Stage: t.Stage, Number: validationNumber(t.Validation),
		Status: t.SASStatus, Code: t.Code, Amount: t.Amount}
}

// TicketInserted records a ticket the validator read and holds in escrow
// (the SAS redemption starts: exception 67). Refused (nothing written): a
// bad validation number (ErrBadTicket), another ticket not yet stacked or
// returned, or the last one's final status not yet read by the host (SAS
// LP 71 FF; ErrTicketState): the validator returns the new ticket.
func (tx *Tx) TicketInserted(validation string) (TicketIn, error) {
	if err := checkValidation(validation); err != nil {
		return TicketIn{}, err
	}
	st, err := tx.titoState()
	if err != nil {
		return TicketIn{}, err
	}
	last, err := tx.Redemption()
	if err != nil {
		return TicketIn{}, err
	}
	r, err := last.Insert(validationNumber(validation))
	if err != nil {
		return TicketIn{}, stepRefused(last.Cycle, "insert ticket "+validation, err)
	}
	if r.Cycle != st.NextIn+1 {
		return TicketIn{}, corrupt(bTITO, kTITOState, "ticket in %d follows cycle %d", st.NextIn+1, last.Cycle)
	}
	st.NextIn++
	t := TicketIn{Seq: st.NextIn, Validation: validation, Inserted: tx.s.opt.Now()}
	t.setRedemption(r)
	st.OpenIn = t.Seq
	if err := tx.pushTicket(bTicketsIn, t.Seq, t); err != nil {
		return TicketIn{}, err
	}
	return t, tx.putTITOState(st)
}

// setRedemption writes redemption record r into t: its SAS fields and
// the status they give (ticketInStatus).
func (t *TicketIn) setRedemption(r sas.Redemption) {
	t.Stage, t.SASStatus, t.Code, t.Amount = r.Stage, r.Status, r.Code, r.Amount
	t.Status = ticketInStatus(r)
}

// openIn returns ticket in seq and the record after move m, if the cycle
// allows m from the ticket's record (sas.Redemption.Apply): the ticket is
// then the open one. Nothing is written.
func (tx *Tx) openIn(seq uint64, op string, m sas.Move) (TicketIn, sas.Redemption, titoState, error) {
	st, err := tx.titoState()
	if err != nil {
		return TicketIn{}, sas.Redemption{}, st, err
	}
	t, ok, err := tx.ticketIn(seq)
	if err != nil {
		return TicketIn{}, sas.Redemption{}, st, err
	}
	if !ok {
		return TicketIn{}, sas.Redemption{}, st, &TransitionError{Record: fmt.Sprintf("ticket in %d", seq), Op: op, From: "none",
			Allowed: m.Step.From(), Kind: ErrTicketState}
	}
	r, err := t.Redemption().Apply(m)
	if err != nil {
		return TicketIn{}, sas.Redemption{}, st, stepRefused(seq, op, err)
	}
	if st.OpenIn != seq {
		return TicketIn{}, sas.Redemption{}, st, corrupt(bTITO, kTITOState, "ticket in %d is %s but the open ticket is %d", seq, t.Status, st.OpenIn)
	}
	return t, r, st, nil
}

// TicketStacked records the validator's report that ticket seq is stacked
// (vend valid): authorised → stacked, SAS status 00. The caller credits
// t.Amount and counts Meters.TicketRedeemed(t.Amount) in this same
// transaction: the ticket is credited once, here.
func (tx *Tx) TicketStacked(seq uint64) (TicketIn, error) {
	t, r, st, err := tx.openIn(seq, "stacked", sas.Move{Step: sas.StepCredit})
	if err != nil {
		return TicketIn{}, err
	}
	t.setRedemption(r)
	t.Resolved = tx.s.opt.Now()
	st.OpenIn = 0
	st.In += t.Amount
	st.InCount++
	if err := tx.putTicket(bTicketsIn, seq, t); err != nil {
		return TicketIn{}, err
	}
	return t, tx.putTITOState(st)
}

// TicketReturned records a ticket in escrow or authorised that the
// cabinet returns for its own reason, told to the host as status (one of
// 87–8B: unable now, timeout, link down, disabled, validator failure);
// reason is what the player is shown. Nothing is credited.
func (tx *Tx) TicketReturned(seq uint64, status RedemptionStatus, reason string) (TicketIn, error) {
	if reason == "" {
		reason = status.String()
	}
	t, r, st, err := tx.openIn(seq, fmt.Sprintf("returned (%02X)", byte(status)), sas.Move{Step: sas.StepReturn, Status: status})
	if err != nil {
		return TicketIn{}, err
	}
	t.setRedemption(r)
	t.Reason, t.Resolved = reason, tx.s.opt.Now()
	st.OpenIn = 0
	if err := tx.putTicket(bTicketsIn, seq, t); err != nil {
		return TicketIn{}, err
	}
	return t, tx.putTITOState(st)
}

// Redemption returns the SAS redemption record: the newest ticket in's
// (zero, StageIdle, before the first ticket).
func (tx *Tx) Redemption() (sas.Redemption, error) {
	st, err := tx.titoState()
	if err != nil || st.NextIn == 0 {
		return sas.Redemption{}, err
	}
	t, ok, err := tx.ticketIn(st.NextIn)
	if err == nil && !ok {
		err = corrupt(bTITO, kTITOState, "last ticket in %d not in the ring", st.NextIn)
	}
	return t.Redemption(), err
}

// UpdateRedemption commits the engine's next redemption record in place of
// cur (sas.TicketRedeemer): one of the host's steps from it, as the
// cycle's rules find it (sas.Redemption.StepTo, sas.Step.Host): LP 70's
// read, LP 71's answer (authorised for the host's amount; rejected with
// its reason) and the host's read of the final status. cur must be the
// committed record and next what a host's step writes from it
// (ErrTicketState otherwise, nothing written). Stacking and returning are
// the cabinet's steps (TicketStacked, TicketReturned), never the engine's.
func (tx *Tx) UpdateRedemption(cur, next sas.Redemption) error {
	have, err := tx.Redemption()
	if err != nil {
		return err
	}
	op := fmt.Sprintf("redemption %s → %s", cur.State(), next.State())
	refuse := func(allowed string) error {
		return &TransitionError{Record: fmt.Sprintf("ticket in %d", cur.Cycle), Op: op, From: have.State(), Allowed: allowed, Kind: ErrTicketState}
	}
	if have != cur {
		return refuse("the committed record as cur")
	}
	if next == cur {
		return nil
	}
	step, err := cur.StepTo(next)
	if err != nil {
		return stepRefused(cur.Cycle, op, err)
	}
	if !step.Host() {
		return refuse(fmt.Sprintf("a host's step (%s is the cabinet's)", step))
	}
	t, ok, err := tx.ticketIn(cur.Cycle)
	if err != nil {
		return err
	}
	if !ok {
		return corrupt(bTITO, kTITOState, "last ticket in %d not in the ring", cur.Cycle)
	}
	t.setRedemption(next)
	if step == sas.StepRefuse {
		t.Resolved = tx.s.opt.Now()
		t.Reason = next.Status.String()
		if next.Status == sas.RedeemRejectedByHost {
			t.Reason = next.Code.String()
		}
		st, err := tx.titoState()
		if err != nil {
			return err
		}
		st.OpenIn = 0
		if err := tx.putTITOState(st); err != nil {
			return err
		}
	}
	return tx.putTicket(bTicketsIn, t.Seq, t)
}

// OpenTicketIn returns the ticket in escrow or authorised; ok is false
// when there is none.
func (tx *Tx) OpenTicketIn() (TicketIn, bool, error) {
	st, err := tx.titoState()
	if err != nil || st.OpenIn == 0 {
		return TicketIn{}, false, err
	}
	t, ok, err := tx.ticketIn(st.OpenIn)
	if err == nil && !ok {
		err = corrupt(bTITO, kTITOState, "open ticket in %d not in the ring", st.OpenIn)
	}
	return t, ok, err
}

// TicketsIn returns up to n tickets in, newest first (n <= 0: all kept).
func (tx *Tx) TicketsIn(n int) ([]TicketIn, error) {
	var out []TicketIn
	if tx.tx.Bucket(bTicketsIn) == nil {
		return nil, nil
	}
	err := tx.ring(bTicketsIn, n, func(k, raw []byte) error {
		var t TicketIn
		if err := decode(bTicketsIn, k, raw, &t); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	})
	return out, err
}
