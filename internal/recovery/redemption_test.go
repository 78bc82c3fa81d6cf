package recovery_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
	"cabinet/internal/sas"
)

// storeView is everything a redemption step could touch in the store.
type storeView struct {
	In         []recovery.TicketIn
	Redemption sas.Redemption
	Open       recovery.TicketIn
	OpenOK     bool
	Note       *recovery.Note
	Credits    money.Cents
	Meters     any
}

func viewStore(t *testing.T, st *recovery.Store) storeView {
	t.Helper()
	var v storeView
	if err := st.View(func(tx *recovery.Tx) error {
		var err error
		if v.In, err = tx.TicketsIn(0); err != nil {
			return err
		}
		if v.Redemption, err = tx.Redemption(); err != nil {
			return err
		}
		if v.Open, v.OpenOK, err = tx.OpenTicketIn(); err != nil {
			return err
		}
		if v.Note, err = tx.Note(); err != nil {
			return err
		}
		m, err := tx.Machine()
		v.Credits, v.Meters = m.Credits, m.Meters
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return v
}

// with returns r moved by hand to stage and status: what an engine with
// its own idea of the cycle might send.
func with(r sas.Redemption, stage sas.Stage, status sas.RedemptionStatus, code sas.TransferCode, amount money.Cents) sas.Redemption {
	r.Stage, r.Status, r.Code, r.Amount = stage, status, code, amount
	return r
}

// attempt is one way into the store of a step of the cycle.
type attempt struct {
	name string
	step sas.Step // the step it is; 0: no step writes it
	do   func(tx *recovery.Tx, cur sas.Redemption) error
	// next is the record an engine's attempt sends (nil for the
	// cabinet's): one equal to cur is a resend, no step.
	next func(cur sas.Redemption) sas.Redemption
}

// engine is an attempt of the engine's: UpdateRedemption to next(cur).
func engine(name string, step sas.Step, next func(sas.Redemption) sas.Redemption) attempt {
	return attempt{name, step, func(tx *recovery.Tx, cur sas.Redemption) error { return tx.UpdateRedemption(cur, next(cur)) }, next}
}

func attempts() []attempt {
	host := func(name string, step sas.Step, stage sas.Stage, status sas.RedemptionStatus, code sas.TransferCode, amount money.Cents) attempt {
		return engine(name, step, func(cur sas.Redemption) sas.Redemption { return with(cur, stage, status, code, amount) })
	}
	return []attempt{
		{name: "insert", step: sas.StepInsert, do: func(tx *recovery.Tx, _ sas.Redemption) error {
			_, err := tx.TicketInserted("009876543210987654")
			return err
		}},
		engine("LP 70 read", sas.StepRead, func(cur sas.Redemption) sas.Redemption {
			return with(cur, sas.StageWaiting, sas.RedeemWaiting, cur.Code, cur.Amount)
		}),
		host("LP 71 authorise", sas.StepAuthorise, sas.StagePending, sas.RedeemPending, sas.TransferCashable, 500),
		host("LP 71 refuse", sas.StepRefuse, sas.StageDone, sas.RedeemRejectedByHost, 0x84, 0),
		{name: "stacked", step: sas.StepCredit, do: func(tx *recovery.Tx, cur sas.Redemption) error {
			tk, err := tx.TicketStacked(cur.Cycle)
			if err != nil {
				return err
			}
			m, err := tx.Machine()
			if err != nil {
				return err
			}
			m.Credits += tk.Amount
			m.Meters.TicketRedeemed(tk.Amount)
			return tx.PutMachine(m)
		}},
		{name: "order to stack", step: sas.StepCredit, do: func(tx *recovery.Tx, cur sas.Redemption) error { return tx.TicketStacking(cur.Cycle) }},
		{name: "returned", step: sas.StepReturn, do: func(tx *recovery.Tx, cur sas.Redemption) error {
			_, err := tx.TicketReturned(cur.Cycle, sas.RedeemTimeout, "")
			return err
		}},
		engine("host's read of the result", sas.StepAcknowledge, func(cur sas.Redemption) sas.Redemption {
			return with(cur, sas.StageIdle, cur.Status, cur.Code, cur.Amount)
		}),
		// The cabinet's steps sent by the engine: never the engine's.
		host("engine credits", 0, sas.StageDone, sas.RedeemedCashable, sas.TransferCashable, 500),
		host("engine returns", 0, sas.StageDone, sas.RedeemTimeout, sas.TransferStatus, 0),
		// Refusals whose status does not go with the host's code: the
		// engine never writes them (sas.Redemption.Redeem).
		host("80 without a host's code", 0, sas.StageDone, sas.RedeemRejectedByHost, sas.TransferCashable, 500),
		host("81 with the host's refusal 85", 0, sas.StageDone, sas.RedeemNumberMismatch, 0x85, 0),
		host("82 for a cashable ticket", 0, sas.StageDone, sas.RedeemBadFunction, sas.TransferCashable, 500),
	}
}

// TestIllegalRedemptionStepsWriteNothing: at every stage a ticket in
// reaches, each step the cycle's rules refuse (sas.Redemption.Allows,
// StepTo), tried through the store's own API in a transaction that then
// commits, is refused with ErrTicketState (a *TransitionError) and writes
// nothing: the tickets in, the redemption record, the open ticket, the
// stacking order and the meters are as before.
func TestIllegalRedemptionStepsWriteNothing(t *testing.T) {
	const v = "001234567890123456"
	cashable := recoverytest.Redeem(sas.TransferCashable, 500)
	stages := []struct {
		name  string
		steps []recoverytest.Step
	}{
		{"no ticket yet", nil},
		{"escrow", []recoverytest.Step{recoverytest.Insert(v)}},
		{"waiting", []recoverytest.Step{recoverytest.Insert(v), recoverytest.Read()}},
		{"pending", []recoverytest.Step{recoverytest.Insert(v), recoverytest.Read(), cashable}},
		{"done", []recoverytest.Step{recoverytest.Insert(v), recoverytest.Read(), recoverytest.Return(sas.RedeemLinkDown)}},
		{"idle", []recoverytest.Step{recoverytest.Insert(v), recoverytest.Read(), recoverytest.Return(sas.RedeemLinkDown), recoverytest.Acknowledge()}},
	}
	refused := 0
	for _, sg := range stages {
		for _, a := range attempts() {
			t.Run(fmt.Sprintf("%s/%s", sg.name, a.name), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "cabinet.db")
				st := recoverytest.Open(t, path, recovery.Options{})
				recoverytest.Redemption(t, st, sg.steps...)
				before := viewStore(t, st)
				cur := before.Redemption
				if a.step != 0 && cur.Allows(a.step) {
					t.Skipf("%s may follow %s", a.step, cur.State())
				}
				if a.next != nil && a.next(cur) == cur {
					t.Skipf("%s sends the record in force: a resend, no step", a.name)
				}
				var stepErr error
				if err := st.Update(func(tx *recovery.Tx) error {
					stepErr = a.do(tx, cur)
					return nil // commit whatever the refused step wrote
				}); err != nil {
					t.Fatalf("commit after the refused step: %v", err)
				}
				var te *recovery.TransitionError
				if !errors.Is(stepErr, recovery.ErrTicketState) || !errors.As(stepErr, &te) {
					t.Errorf("%s at %s = %v, want a *TransitionError (ErrTicketState)", a.name, cur.State(), stepErr)
				}
				if d := cmp.Diff(before, viewStore(t, st)); d != "" {
					t.Errorf("%s at %s refused, yet the store changed (-before +after):\n%s", a.name, cur.State(), d)
				}
				refused++
			})
		}
	}
	if refused == 0 {
		t.Error("no step refused")
	}
}
