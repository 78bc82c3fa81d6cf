package sas

import (
	"errors"
	"testing"
)

// stepKey is one (stage, status, step) of the cycle.
type stepKey struct {
	stage  Stage
	status RedemptionStatus
	step   Step
}

// legalSteps is the cycle's table written out by hand (docs/tito.md
// "Ticket in"): every (stage, status, step) that is legal. Anything else
// is refused.
func legalSteps() map[stepKey]Stage {
	legal := map[stepKey]Stage{
		{StageEscrow, RedeemWaiting, StepRead}:       StageWaiting,
		{StageEscrow, RedeemWaiting, StepReturn}:     StageDone,
		{StageWaiting, RedeemWaiting, StepRead}:      StageWaiting,
		{StageWaiting, RedeemWaiting, StepRefuse}:    StageDone,
		{StageWaiting, RedeemWaiting, StepReturn}:    StageDone,
		{StagePending, RedeemPending, StepCredit}:    StageDone,
		{StagePending, RedeemPending, StepReturn}:    StageDone,
		{StageWaiting, RedeemWaiting, StepAuthorise}: StagePending,
	}
	finals := []RedemptionStatus{RedeemedCashable}
	for s := RedeemRejectedByHost; s <= RedeemValidatorFailed; s++ {
		finals = append(finals, s)
	}
	for _, f := range finals {
		legal[stepKey{StageIdle, f, StepInsert}] = StageEscrow
		legal[stepKey{StageDone, f, StepAcknowledge}] = StageIdle
	}
	return legal
}

// goodMove is a move of step s that carries what s may write.
func goodMove(s Step) Move {
	m := Move{Step: s}
	switch s {
	case StepInsert:
		m.Number = 123456789012345678
	case StepAuthorise:
		m.Code, m.Amount = TransferCashable, 2500
	case StepRefuse:
		m.Status, m.Code = RedeemRejectedByHost, 0x84
	case StepReturn:
		m.Status = RedeemTimeout
	}
	return m
}

// TestRedemptionStepTable: every (stage, status, step), stages and steps
// one past the last included, against the table written out by hand: a
// legal step is allowed, applied to the stage the table says, and found
// again by StepTo; an illegal one is refused with a *StepError
// (ErrBadData) and the record unchanged.
func TestRedemptionStepTable(t *testing.T) {
	legal := legalSteps()
	seen := 0
	for stage := StageIdle; stage <= StageDone+1; stage++ {
		for st := 0; st <= 0xFF; st++ {
			status := RedemptionStatus(st)
			for step := Step(0); step <= LastStep+1; step++ {
				r := Redemption{Cycle: 3, Stage: stage, Number: 77, Status: status, Code: TransferStatus}
				to, want := legal[stepKey{stage, status, step}]
				if got := r.Allows(step); got != want {
					t.Errorf("Redemption{%v, %02X}.Allows(%v) = %v, want %v", stage, st, step, got, want)
					continue
				}
				next, err := r.Apply(goodMove(step))
				if !want {
					var se *StepError
					if !errors.As(err, &se) || !errors.Is(err, ErrBadData) || next != r {
						t.Errorf("Redemption{%v, %02X}.Apply(%v) = %+v, %v; want it unchanged and a *StepError", stage, st, step, next, err)
					}
					continue
				}
				seen++
				if err != nil || next.Stage != to || !next.Consistent() {
					t.Errorf("Redemption{%v, %02X}.Apply(%v) = %+v, %v; want a consistent record at %v", stage, st, step, next, err, to)
					continue
				}
				if got, err := r.StepTo(next); err != nil || got != step {
					t.Errorf("Redemption{%v, %02X}.StepTo(%+v) = %v, %v; want %v", stage, st, next, got, err, step)
				}
				if to == StageDone && next.EndedBy() != step || to != StageDone && to != StageIdle && next.EndedBy() != 0 {
					t.Errorf("after %v: EndedBy() = %v, want %v when done, none while redeemed", step, next.EndedBy(), step)
				}
			}
		}
	}
	if seen != len(legal) {
		t.Errorf("%d legal steps seen, the table has %d", seen, len(legal))
	}
}

// TestRedemptionStepCarries: a step that may follow the record but
// carries what it may not write is refused, and StepTo finds no step to a
// record no step writes.
func TestRedemptionStepCarries(t *testing.T) {
	idle := Redemption{}
	waiting := Redemption{Cycle: 1, Stage: StageWaiting, Number: 77, Status: RedeemWaiting, Code: TransferStatus}
	pending := Redemption{Cycle: 1, Stage: StagePending, Number: 77, Status: RedeemPending, Code: TransferCashable, Amount: 500}
	tests := []struct {
		name string
		r    Redemption
		m    Move
		ok   bool
	}{
		{"insert 18 digits", idle, Move{Step: StepInsert, Number: 999999999999999999}, true},
		{"insert 19 digits", idle, Move{Step: StepInsert, Number: 1e18}, false},
		{"authorise cashable", waiting, Move{Step: StepAuthorise, Code: TransferCashable, Amount: 1}, true},
		{"authorise restricted", waiting, Move{Step: StepAuthorise, Code: TransferRestricted, Amount: 500}, false},
		{"authorise zero", waiting, Move{Step: StepAuthorise, Code: TransferCashable}, false},
		{"refuse 80 host code", waiting, Move{Step: StepRefuse, Status: RedeemRejectedByHost, Code: 0x91}, true},
		{"refuse 80 code 00", waiting, Move{Step: StepRefuse, Status: RedeemRejectedByHost, Code: TransferCashable, Amount: 500}, false},
		{"refuse 81 code 00", waiting, Move{Step: StepRefuse, Status: RedeemNumberMismatch, Code: TransferCashable, Amount: 500}, true},
		{"refuse 81 host code", waiting, Move{Step: StepRefuse, Status: RedeemNumberMismatch, Code: 0x85}, false},
		{"refuse 82 restricted", waiting, Move{Step: StepRefuse, Status: RedeemBadFunction, Code: TransferRestricted, Amount: 500}, true},
		{"refuse 82 code 00", waiting, Move{Step: StepRefuse, Status: RedeemBadFunction, Code: TransferCashable, Amount: 500}, false},
		{"refuse 86", waiting, Move{Step: StepRefuse, Status: RedeemAmountMismatch, Code: TransferCashable, Amount: 500}, true},
		{"refuse 87 (the cabinet's)", waiting, Move{Step: StepRefuse, Status: RedeemUnable, Code: TransferCashable}, false},
		{"refuse 40", waiting, Move{Step: StepRefuse, Status: RedeemPending, Code: TransferCashable}, false},
		{"return 87", pending, Move{Step: StepReturn, Status: RedeemUnable}, true},
		{"return 8B", pending, Move{Step: StepReturn, Status: RedeemValidatorFailed}, true},
		{"return 86", pending, Move{Step: StepReturn, Status: RedeemAmountMismatch}, false},
		{"return 8C", pending, Move{Step: StepReturn, Status: 0x8C}, false},
		{"return 00", pending, Move{Step: StepReturn, Status: RedeemedCashable}, false},
	}
	for _, tt := range tests {
		next, err := tt.r.Apply(tt.m)
		var se *StepError
		switch {
		case tt.ok && err != nil:
			t.Errorf("%s: Apply(%+v) = %v, want it taken", tt.name, tt.m, err)
		case !tt.ok && (!errors.As(err, &se) || !se.Carried || next != tt.r):
			t.Errorf("%s: Apply(%+v) = %+v, %v; want refused for what it carries, the record unchanged", tt.name, tt.m, next, err)
		}
	}
	for _, next := range []Redemption{
		{Cycle: 1, Stage: StageDone, Number: 77, Status: RedeemRejectedByHost, Code: TransferCashable},        // 80 without a host's code
		{Cycle: 1, Stage: StageDone, Number: 77, Status: RedeemNumberMismatch, Code: 0x85},                    // 81 with the host's refusal
		{Cycle: 1, Stage: StageDone, Number: 77, Status: RedeemedCashable, Code: TransferStatus},              // credited without authorisation
		{Cycle: 1, Stage: StagePending, Number: 78, Status: RedeemPending, Code: TransferCashable, Amount: 5}, // another ticket
		{Cycle: 2, Stage: StageWaiting, Number: 77, Status: RedeemWaiting, Code: TransferStatus},              // another cycle
		{Cycle: 1, Stage: StageIdle, Number: 77, Status: RedeemWaiting, Code: TransferStatus},                 // idle before the end
	} {
		if s, err := waiting.StepTo(next); !errors.Is(err, ErrBadData) {
			t.Errorf("StepTo(%+v) = %v, %v; want no step (ErrBadData)", next, s, err)
		}
	}
}
