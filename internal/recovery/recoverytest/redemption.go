package recoverytest

import (
	"testing"

	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/sas"
)

// Step is a step of a ticket in's SAS redemption taken on the store as
// the cabinet or the engine takes it, from the committed record cur.
type Step func(tx *recovery.Tx, cur sas.Redemption) error

// Insert is the cabinet's ticket in escrow (TicketInserted).
func Insert(validation string) Step {
	return func(tx *recovery.Tx, _ sas.Redemption) error {
		_, err := tx.TicketInserted(validation)
		return err
	}
}

// Read is the host's LP 70.
func Read() Step {
	return func(tx *recovery.Tx, cur sas.Redemption) error {
		next, _ := cur.Read()
		return tx.UpdateRedemption(cur, next)
	}
}

// Redeem is the host's LP 71 for the ticket's number with transfer code
// code and amount (denomination 1 cent, no limit): authorised, or refused.
func Redeem(code sas.TransferCode, amount money.Cents) Step {
	return func(tx *recovery.Tx, cur sas.Redemption) error {
		next, _ := cur.Redeem(sas.RedeemRequest{Code: code, Amount: amount, Number: cur.Number, HasNumber: true}, 1, 0)
		return tx.UpdateRedemption(cur, next)
	}
}

// Return is the cabinet's return of the ticket with status (87–8B).
func Return(status sas.RedemptionStatus) Step {
	return func(tx *recovery.Tx, cur sas.Redemption) error {
		_, err := tx.TicketReturned(cur.Cycle, status, "")
		return err
	}
}

// Acknowledge is the host's read of the final status.
func Acknowledge() Step {
	return func(tx *recovery.Tx, cur sas.Redemption) error { return tx.UpdateRedemption(cur, cur.Acknowledge()) }
}

// Redemption takes steps on st in order, each in a transaction of its own
// from the record committed then; a step refused fails the test.
func Redemption(t testing.TB, st *recovery.Store, steps ...Step) {
	t.Helper()
	for i, step := range steps {
		if err := st.Update(func(tx *recovery.Tx) error {
			cur, err := tx.Redemption()
			if err != nil {
				return err
			}
			return step(tx, cur)
		}); err != nil {
			t.Fatalf("redemption step %d of %d: %v", i+1, len(steps), err)
		}
	}
}
