package sas

import (
	"fmt"
	"strings"

	"cabinet/internal/money"
)

// The ticket redemption cycle (SAS 6.02 §15, exceptions 67 and 68, LP 70
// and LP 71; docs/tito.md "Ticket in"), defined once: which step may follow
// which stage and status, and what each step writes (Redemption.Apply).
// The engine moves a record with the host's steps, the cabinet's store
// (recovery) with its own and checks the engine's (Redemption.StepTo), the
// SAS machine checks the steps it answers from memory the same way: no one
// else states a rule of the cycle.
//
//	step         by       from (stage, status)           to
//	insert       cabinet  idle (a final status, or none)  escrow 20, a new cycle
//	read         host     escrow 20, waiting 20           waiting 20 (LP 70)
//	authorise    host     waiting 20                      pending 40, code 00, amount > 0 (LP 71)
//	refuse       host     waiting 20                      done 80–86, the host's code and amount (LP 71)
//	credit       cabinet  pending 40                      done 00 (stacked and credited)
//	return       cabinet  escrow, waiting, pending        done 87–8B (the ticket given back)
//	acknowledge  host     done (a final status)           idle, the same status (LP 71 FF's ACK)
//
// Reading taken: a record whose stage and status do not go together (the
// status of a stage is the one the step into it wrote) allows no step; and
// a refusal's status must go with the host's transfer code as Redeem
// decides them (80 for a rejection code, 82 for another code the cabinet
// does not take, 81 and 83–86 for code 00), so a step no engine would send
// is refused rather than stored.

// Stage is where a ticket redemption stands.
type Stage byte

// Redemption stages.
const (
	StageIdle    Stage = iota // no ticket (the last one's final status was acknowledged)
	StageEscrow               // a ticket in escrow: exception 67 until LP 70 reads it
	StageWaiting              // LP 70 read it: waiting for the host's LP 71 (status 20)
	StagePending              // the host redeems it: the cabinet stacks it and credits Amount (status 40)
	StageDone                 // final Status: exception 68 until the host reads it (LP 71 FF)
)

func (s Stage) String() string {
	switch s {
	case StageIdle:
		return "idle"
	case StageEscrow:
		return "escrow"
	case StageWaiting:
		return "waiting for the host"
	case StagePending:
		return "pending"
	case StageDone:
		return "done, result unread by the host"
	}
	return fmt.Sprintf("stage %d", byte(s))
}

// Redemption is the cabinet's ticket redemption record (one ticket at a
// time, kept in the store). The cabinet creates it with Insert when a
// ticket is escrowed, stacks the ticket and credits Amount in one
// transaction with Complete when it reaches StagePending, and returns the
// ticket (with the reason, Status and Code, on screen) when it reaches
// StageDone refused. The engine moves it through LP 70 and LP 71.
type Redemption struct {
	Cycle  uint64 // the cabinet's count of tickets inserted (0: none yet)
	Stage  Stage
	Number uint64 // the 18 digits read from the ticket (system ID, then 16 digits)
	Status RedemptionStatus
	Code   TransferCode // the host's transfer code (its reason when it refuses)
	Amount money.Cents  // the host's transfer amount
}

// Step is one move of the redemption cycle.
type Step byte

// Redemption steps, in the cycle's order.
const (
	StepInsert      Step = iota + 1 // the cabinet escrows a ticket: a new cycle, exception 67
	StepRead                        // LP 70 reads the ticket
	StepAuthorise                   // LP 71 redeems it for the host's amount (status 40)
	StepRefuse                      // LP 71 refuses it: the host (80) or the machine's check (81–86)
	StepCredit                      // the cabinet stacked it and credited the amount (00)
	StepReturn                      // the cabinet gives it back for its own reason (87–8B)
	StepAcknowledge                 // the host read the final status (exception 68 stops)
)

// LastStep is the last Step: the steps are StepInsert to LastStep.
const LastStep = StepAcknowledge

// stepRule is what a step follows and what it must carry.
type stepRule struct {
	name    string
	from    uint8 // a bit per Stage it may follow
	host    bool  // the host's (the engine's), else the cabinet's
	carries string
}

func stages(s ...Stage) uint8 {
	var m uint8
	for _, x := range s {
		m |= 1 << x
	}
	return m
}

var stepRules = [...]stepRule{
	StepInsert:      {"insert", stages(StageIdle), false, "a number of at most 18 digits"},
	StepRead:        {"LP 70 read", stages(StageEscrow, StageWaiting), true, ""},
	StepAuthorise:   {"LP 71 authorise", stages(StageWaiting), true, "transfer code 00 and an amount above 0"},
	StepRefuse:      {"LP 71 refuse", stages(StageWaiting), true, "status 80 with a rejection code, 82 with another code not 00, or 81, 83–86 with code 00"},
	StepCredit:      {"credit", stages(StagePending), false, ""},
	StepReturn:      {"return", stages(StageEscrow, StageWaiting, StagePending), false, "a status 87–8B"},
	StepAcknowledge: {"acknowledge", stages(StageDone), true, ""},
}

func (s Step) rule() (stepRule, bool) {
	if s < StepInsert || s > LastStep {
		return stepRule{}, false
	}
	return stepRules[s], true
}

func (s Step) String() string {
	if r, ok := s.rule(); ok {
		return r.name
	}
	return fmt.Sprintf("Step(%d)", byte(s))
}

// Host reports whether the step is the host's (LP 70, LP 71, the read of
// the final status: the engine's, committed through
// TicketRedeemer.UpdateRedemption) rather than the cabinet's.
func (s Step) Host() bool {
	r, _ := s.rule()
	return r.host
}

// From says which stages the step may follow, for messages.
func (s Step) From() string {
	r, ok := s.rule()
	if !ok {
		return "no stage"
	}
	var out []string
	for st := StageIdle; st <= StageDone; st++ {
		if r.from&(1<<st) != 0 {
			out = append(out, st.String())
		}
	}
	return strings.Join(out, " or ")
}

// endedBy is the step that ends a cycle with status s: StepCredit (00),
// StepRefuse (80–86: LP 71's refusals) or StepReturn (87–8B: the
// cabinet's); 0 for a status no cycle ends with.
func (s RedemptionStatus) endedBy() Step {
	switch {
	case s == RedeemedCashable:
		return StepCredit
	case s >= RedeemRejectedByHost && s <= RedeemAmountMismatch:
		return StepRefuse
	case s >= RedeemUnable && s <= RedeemValidatorFailed:
		return StepReturn
	}
	return 0
}

// ends reports whether a cycle can end with status s.
func (s RedemptionStatus) ends() bool { return s.endedBy() != 0 }

// Final reports whether the status ends a redemption cycle: credited (00),
// refused on LP 71 (80–86) or returned by the cabinet (87–8B). Reading
// taken: 01 and 02 (promotional tickets redeemed) are final in SAS but
// never written here, the cabinet taking cashable tickets only.
func (s RedemptionStatus) Final() bool { return s.ends() }

// Consistent reports whether r is a record the cycle reaches: its status
// is the one its stage was entered with (20 in escrow and waiting, 40
// pending, a final status done and idle), and a ticket's cycle is
// numbered. A record that is not allows no step.
func (r Redemption) Consistent() bool {
	switch r.Stage {
	case StageIdle:
		return r.Status.ends()
	case StageEscrow, StageWaiting:
		return r.Cycle != 0 && r.Status == RedeemWaiting
	case StagePending:
		return r.Cycle != 0 && r.Status == RedeemPending
	case StageDone:
		return r.Cycle != 0 && r.Status.ends()
	}
	return false
}

// EndedBy returns the step that ended r's cycle (StepCredit, StepRefuse
// or StepReturn, from its final status) once it is done or idle; 0 while
// the ticket is being redeemed, before the first ticket, or for a record
// the cycle does not reach.
func (r Redemption) EndedBy() Step {
	if r.Cycle == 0 || r.Stage != StageDone && r.Stage != StageIdle || !r.Consistent() {
		return 0
	}
	return r.Status.endedBy()
}

// Allows reports whether step s may follow r.
func (r Redemption) Allows(s Step) bool {
	rule, ok := s.rule()
	return ok && r.Stage <= StageDone && rule.from&(1<<r.Stage) != 0 && r.Consistent()
}

// Active reports whether a ticket is being redeemed: in escrow, waiting
// for the host or pending (the cabinet may still return it).
func (r Redemption) Active() bool { return r.Allows(StepReturn) }

// State describes r for messages: its stage, status, transfer code and
// amount.
func (r Redemption) State() string {
	return fmt.Sprintf("%s, status %02X, code %02X, %v", r.Stage, byte(r.Status), byte(r.Code), r.Amount)
}

// Move is a step and what it carries.
type Move struct {
	Step   Step
	Number uint64           // StepInsert: the 18 digits read from the ticket
	Status RedemptionStatus // StepRefuse (80–86), StepReturn (87–8B): the final status
	Code   TransferCode     // StepAuthorise, StepRefuse: the host's transfer code
	Amount money.Cents      // StepAuthorise, StepRefuse: the host's transfer amount
}

// StepError is a step the cycle's rules refuse. errors.Is matches
// ErrBadData.
type StepError struct {
	Record Redemption
	Step   Step       // 0 from StepTo: no step leads from Record to Next
	Next   Redemption // StepTo's record
	// Carried: the step may follow Record, but what it carries is out of
	// range (Needs says what it must carry); otherwise Needs says what the
	// step follows.
	Carried bool
	Needs   string
}

func (e *StepError) Error() string {
	if e.Step == 0 {
		return fmt.Sprintf("sas: ticket %d (%s): no step leads to %s: %s: %v",
			e.Record.Cycle, e.Record.State(), e.Next.State(), e.Needs, ErrBadData)
	}
	if e.Carried {
		return fmt.Sprintf("sas: ticket %d (%s): %s needs %s: %v", e.Record.Cycle, e.Record.State(), e.Step, e.Needs, ErrBadData)
	}
	return fmt.Sprintf("sas: ticket %d (%s): %s refused (allowed from %s): %v", e.Record.Cycle, e.Record.State(), e.Step, e.Needs, ErrBadData)
}

// Unwrap returns ErrBadData.
func (e *StepError) Unwrap() error { return ErrBadData }

// refusalFits reports whether an LP 71 refusal's status goes with the
// host's transfer code as Redeem decides them.
func refusalFits(s RedemptionStatus, c TransferCode) bool {
	switch {
	case s == RedeemRejectedByHost:
		return c.Rejected()
	case s == RedeemBadFunction:
		return !c.Rejected() && c != TransferCashable
	case s.endedBy() == StepRefuse:
		return c == TransferCashable // 81, 83–86: the machine's checks of a cashable ticket
	}
	return false
}

// maxNumber is the largest validation number a ticket carries (18 digits).
const maxNumber = 999999999999999999

// Apply returns the record after move m, the one definition of what each
// step writes (the table above). A *StepError (ErrBadData) when the step
// may not follow r, or when it carries what it may not write; r is then
// returned unchanged.
func (r Redemption) Apply(m Move) (Redemption, error) {
	rule, ok := m.Step.rule()
	if !r.Allows(m.Step) {
		needs := m.Step.From()
		if ok && !r.Consistent() {
			needs += ", in a record whose stage and status agree"
		}
		return r, &StepError{Record: r, Step: m.Step, Needs: needs}
	}
	carried := func(fits bool) (Redemption, error) {
		if !fits {
			return r, &StepError{Record: r, Step: m.Step, Carried: true, Needs: rule.carries}
		}
		return r, nil
	}
	next := r
	switch m.Step {
	case StepInsert:
		if m.Number > maxNumber {
			return carried(false)
		}
		next = Redemption{Cycle: r.Cycle + 1, Stage: StageEscrow, Number: m.Number, Status: RedeemWaiting, Code: TransferStatus}
	case StepRead:
		next.Stage, next.Status = StageWaiting, RedeemWaiting
	case StepAuthorise:
		if m.Code != TransferCashable || m.Amount <= 0 {
			return carried(false)
		}
		next.Stage, next.Status, next.Code, next.Amount = StagePending, RedeemPending, m.Code, m.Amount
	case StepRefuse:
		if !refusalFits(m.Status, m.Code) {
			return carried(false)
		}
		next.Stage, next.Status, next.Code, next.Amount = StageDone, m.Status, m.Code, m.Amount
	case StepCredit:
		next.Stage, next.Status = StageDone, RedeemedCashable
	case StepReturn:
		if m.Status.endedBy() != StepReturn {
			return carried(false)
		}
		next.Stage, next.Status = StageDone, m.Status
	case StepAcknowledge:
		next.Stage = StageIdle
	}
	return next, nil
}

// StepTo returns the step that takes r to next: the one whose Apply
// writes exactly next. A *StepError (ErrBadData) when none does; a next
// equal to r is LP 70's read of a ticket already waiting, or no step.
func (r Redemption) StepTo(next Redemption) (Step, error) {
	for s := StepInsert; s <= LastStep; s++ {
		if !r.Allows(s) {
			continue
		}
		n, err := r.Apply(Move{Step: s, Number: next.Number, Status: next.Status, Code: next.Code, Amount: next.Amount})
		if err == nil && n == next {
			return s, nil
		}
	}
	var can []string
	for s := StepInsert; s <= LastStep; s++ {
		if r.Allows(s) {
			can = append(can, s.String())
		}
	}
	needs := "no step may follow this record"
	if len(can) > 0 {
		needs = "a record that " + strings.Join(can, " or ") + " writes"
	}
	return 0, &StepError{Record: r, Next: next, Needs: needs}
}

// Insert starts the redemption of a ticket read as the 18-digit number
// (exception 67 follows): StepInsert. ErrBadData (wrapped) while a ticket
// is being redeemed or its result is unread, or for a number of more than
// 18 digits.
func (r Redemption) Insert(number uint64) (Redemption, error) {
	return r.Apply(Move{Step: StepInsert, Number: number})
}

// Complete ends a redemption the cabinet's way: the ticket was stacked and
// the amount credited (status 00, StepCredit, once the host redeemed it),
// or it was not (status one of 87–8B, StepReturn, while it is being
// redeemed) and is returned. ErrBadData (wrapped) for any other stage or
// status.
func (r Redemption) Complete(s RedemptionStatus) (Redemption, error) {
	if s == RedeemedCashable {
		return r.Apply(Move{Step: StepCredit})
	}
	return r.Apply(Move{Step: StepReturn, Status: s})
}

// Read is LP 70 (StepRead): the ticket in escrow, now waiting for LP 71.
// ok is false when no ticket is in escrow or waiting.
func (r Redemption) Read() (next Redemption, ok bool) {
	next, err := r.Apply(Move{Step: StepRead})
	return next, err == nil
}

// RedeemRequest is the host's LP 71 (other than a status request).
type RedeemRequest struct {
	Code        TransferCode
	Amount      money.Cents
	ParsingCode byte
	Number      uint64 // the 18 digits, for parsing code 00
	HasNumber   bool   // false: the host sent the transfer code alone
	Expiration  int    // restricted expiration (not used: no restricted credits)
	Pool        uint16 // restricted pool ID (not used)
}

// Redeem is the host's LP 71 for the ticket: the new record and the status
// to answer. denom is the accounting denomination, limit the largest ticket
// the cabinet takes (0: no limit; negative: none, the credit meter is full).
//
// A ticket waiting for LP 71 is refused with the host's code (80), for a
// number that is not the ticket's (81), a transfer code the cabinet does
// not take (82: it plays cashable credits only), a zero amount (83), an
// amount over limit (84) or not a whole number of credits (85): StepRefuse;
// otherwise it becomes pending (40) for the cabinet to stack and credit:
// StepAuthorise. The same LP 71 again (a host resending after a lost reply
// or a restart) gets the current status and changes nothing; any other LP
// 71 is not compatible with the cycle (C0).
func (r Redemption) Redeem(q RedeemRequest, denom, limit money.Cents) (Redemption, RedemptionStatus) {
	if !r.Allows(StepAuthorise) {
		if r.Stage == StagePending || r.Stage == StageDone {
			if q.Code == r.Code && q.Amount == r.Amount && q.HasNumber && q.ParsingCode == 0 && q.Number == r.Number {
				return r, r.Status
			}
			if q.Code.Rejected() && q.Code == r.Code && r.Stage == StageDone {
				return r, r.Status
			}
		}
		return r, RedeemIncompatible
	}
	m := Move{Step: StepRefuse, Code: q.Code, Amount: q.Amount}
	switch {
	case q.Code.Rejected():
		m.Status = RedeemRejectedByHost
	case q.Code != TransferCashable:
		m.Status = RedeemBadFunction
	case !q.HasNumber || q.ParsingCode != 0 || q.Number != r.Number:
		m.Status = RedeemNumberMismatch
	case q.Amount <= 0:
		m.Status = RedeemBadAmount
	case limit != 0 && q.Amount > limit:
		m.Status = RedeemOverLimit
	case denom > 0 && q.Amount%denom != 0:
		m.Status = RedeemNotMultiple
	default:
		m.Step, m.Status = StepAuthorise, RedeemPending
	}
	next, err := r.Apply(m)
	if err != nil {
		panic("BUG: sas: Redeem decided a step the cycle refuses: " + err.Error())
	}
	return next, next.Status
}

// Acknowledge is the host's implied ACK of an LP 71 reply that carried the
// final status: the redemption is over (exception 68 stops):
// StepAcknowledge. A record not done is returned unchanged.
func (r Redemption) Acknowledge() Redemption {
	next, _ := r.Apply(Move{Step: StepAcknowledge})
	return next
}
