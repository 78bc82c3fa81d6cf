package recovery

import (
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
// escrow or authorised, not yet stacked or returned.
func (t TicketIn) Unresolved() bool {
	return t.Status == TicketInEscrow || t.Status == TicketInAuthorised
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
	var last sas.Redemption
	if st.NextIn != 0 {
		t, ok, err := tx.ticketIn(st.NextIn)
		if err != nil {
			return TicketIn{}, err
		}
		if !ok {
			return TicketIn{}, corrupt(bTITO, kTITOState, "last ticket in %d not in the ring", st.NextIn)
		}
		if t.Unresolved() || t.Stage != sas.StageIdle {
			why := "stage " + stageName(t.Stage)
			if t.Unresolved() {
				why = string(t.Status)
			}
			return TicketIn{}, &TransitionError{Record: fmt.Sprintf("ticket in %d", t.Seq), Op: "insert ticket " + validation,
				From: why, Allowed: "no ticket in the validator and the last result read by the host", Kind: ErrTicketState}
		}
		last = t.Redemption()
	}
	r, err := last.Insert(validationNumber(validation))
	if err != nil {
		return TicketIn{}, fmt.Errorf("recovery: insert ticket %s: %w: %w", validation, ErrTicketState, err)
	}
	st.NextIn++
	t := TicketIn{Seq: st.NextIn, Validation: validation, Status: TicketInEscrow, Inserted: tx.s.opt.Now(),
		Stage: r.Stage, SASStatus: r.Status, Code: r.Code}
	st.OpenIn = t.Seq
	if err := tx.pushTicket(bTicketsIn, t.Seq, t); err != nil {
		return TicketIn{}, err
	}
	return t, tx.putTITOState(st)
}

func stageName(s sas.Stage) string {
	switch s {
	case sas.StageIdle:
		return "idle"
	case sas.StageEscrow:
		return "escrow"
	case sas.StageWaiting:
		return "waiting for the host"
	case sas.StagePending:
		return "pending"
	case sas.StageDone:
		return "done, result unread by the host"
	}
	return fmt.Sprintf("stage %d", s)
}

// openIn returns ticket in seq if it is the open one in one of the
// statuses from.
func (tx *Tx) openIn(seq uint64, op string, from ...TicketInStatus) (TicketIn, titoState, error) {
	st, err := tx.titoState()
	if err != nil {
		return TicketIn{}, st, err
	}
	t, ok, err := tx.ticketIn(seq)
	if err != nil {
		return TicketIn{}, st, err
	}
	allowed := ""
	for i, s := range from {
		if i > 0 {
			allowed += " or "
		}
		allowed += string(s)
	}
	te := &TransitionError{Record: fmt.Sprintf("ticket in %d", seq), Op: op, From: "none", Allowed: allowed, Kind: ErrTicketState}
	if !ok {
		return TicketIn{}, st, te
	}
	te.From = string(t.Status)
	for _, s := range from {
		if t.Status == s {
			if st.OpenIn != seq {
				return TicketIn{}, st, corrupt(bTITO, kTITOState, "ticket in %d is %s but the open ticket is %d", seq, t.Status, st.OpenIn)
			}
			return t, st, nil
		}
	}
	return TicketIn{}, st, te
}

// TicketStacked records the validator's report that ticket seq is stacked
// (vend valid): authorised → stacked, SAS status 00. The caller credits
// t.Amount and counts Meters.TicketRedeemed(t.Amount) in this same
// transaction: the ticket is credited once, here.
func (tx *Tx) TicketStacked(seq uint64) (TicketIn, error) {
	t, st, err := tx.openIn(seq, "stacked", TicketInAuthorised)
	if err != nil {
		return TicketIn{}, err
	}
	r, err := t.Redemption().Complete(sas.RedeemedCashable)
	if err != nil {
		return TicketIn{}, fmt.Errorf("recovery: ticket in %d stacked: %w: %w", seq, ErrTicketState, err)
	}
	t.Status, t.Resolved, t.Stage, t.SASStatus = TicketInStacked, tx.s.opt.Now(), r.Stage, r.Status
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
	if status < sas.RedeemUnable || status > sas.RedeemValidatorFailed {
		return TicketIn{}, fmt.Errorf("recovery: ticket in %d returned with status %02X: want 87–8B: %w", seq, byte(status), ErrBadTicket)
	}
	if reason == "" {
		reason = status.String()
	}
	t, st, err := tx.openIn(seq, "returned", TicketInEscrow, TicketInAuthorised)
	if err != nil {
		return TicketIn{}, err
	}
	r, err := t.Redemption().Complete(status)
	if err != nil {
		return TicketIn{}, fmt.Errorf("recovery: ticket in %d returned: %w: %w", seq, ErrTicketState, err)
	}
	t.Status, t.Reason, t.Resolved, t.Stage, t.SASStatus = TicketInReturned, reason, tx.s.opt.Now(), r.Stage, r.Status
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
// cur (sas.TicketRedeemer): LP 70's read (escrow → waiting), LP 71's
// answer (waiting → pending: the ticket becomes authorised for the host's
// amount; waiting → done with status 80–86: rejected with the host's
// reason) and the host's read of the final status (done → idle). cur must
// be the committed record, and next one of those steps from it
// (ErrTicketState otherwise, nothing written). Stacking and returning are
// the cabinet's (TicketStacked, TicketReturned), never the engine's.
func (tx *Tx) UpdateRedemption(cur, next sas.Redemption) error {
	have, err := tx.Redemption()
	if err != nil {
		return err
	}
	bad := func(why string) error {
		return &TransitionError{Record: fmt.Sprintf("ticket in %d", cur.Cycle),
			Op:   fmt.Sprintf("redemption %s/%s → %s/%s", stageName(cur.Stage), cur.Status, stageName(next.Stage), next.Status),
			From: fmt.Sprintf("%s/%s", stageName(have.Stage), have.Status), Allowed: why, Kind: ErrTicketState}
	}
	if have != cur {
		return bad("the committed record as cur")
	}
	if next == cur {
		return nil
	}
	if next.Cycle != cur.Cycle || next.Number != cur.Number || cur.Cycle == 0 {
		return bad("the same ticket")
	}
	t, ok, err := tx.ticketIn(cur.Cycle)
	if err != nil {
		return err
	}
	if !ok {
		return corrupt(bTITO, kTITOState, "last ticket in %d not in the ring", cur.Cycle)
	}
	now := tx.s.opt.Now()
	switch {
	case (cur.Stage == sas.StageEscrow || cur.Stage == sas.StageWaiting) && next.Stage == sas.StageWaiting &&
		next.Status == sas.RedeemWaiting && next.Code == cur.Code && next.Amount == cur.Amount:
		// LP 70 read it.
	case cur.Stage == sas.StageWaiting && next.Stage == sas.StagePending && next.Status == sas.RedeemPending &&
		next.Code == sas.TransferCashable && next.Amount > 0:
		t.Status, t.Amount = TicketInAuthorised, next.Amount
	case cur.Stage == sas.StageWaiting && next.Stage == sas.StageDone && next.Status >= sas.RedeemRejectedByHost &&
		next.Status <= sas.RedeemAmountMismatch:
		t.Status, t.Resolved = TicketInRejected, now
		t.Reason = next.Status.String()
		if next.Status == sas.RedeemRejectedByHost {
			t.Reason = next.Code.String()
		}
	case cur.Stage == sas.StageDone && next.Stage == sas.StageIdle && next.Status == cur.Status &&
		next.Code == cur.Code && next.Amount == cur.Amount:
		// The host read the final status.
	default:
		return bad("LP 70 read, LP 71 authorised or rejected, or the host's read of the final status")
	}
	t.Stage, t.SASStatus, t.Code, t.Amount = next.Stage, next.Status, next.Code, next.Amount
	if t.Status == TicketInRejected {
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
