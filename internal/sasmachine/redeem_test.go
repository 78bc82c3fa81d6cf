package sasmachine

import (
	"errors"
	"path/filepath"
	"testing"

	"cabinet/internal/cabinet"
	"cabinet/internal/controller"
	"cabinet/internal/hw/sim"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
	"cabinet/internal/sas"
)

// The host's redemption steps are answered from memory: two steps in a
// row (LP 70, then LP 71 before the first is committed) chain on the
// committed record, and the chain stands while the ledger commits them one
// by one; the engine never sees the record go back.
func TestRedemptionStepsChainBeforeTheirCommits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cabinet.db")
	st := recoverytest.Open(t, path, recovery.Options{})
	defer st.Close()
	if err := st.Update(func(tx *recovery.Tx) error { _, err := tx.TicketInserted("001234567890123456"); return err }); err != nil {
		t.Fatal(err)
	}
	host := make(chan controller.HostRequest, 8)
	c, err := cabinet.New(cabinet.Parts{Rules: cabinet.Rules{InForce: settings()}, Store: st, HW: sim.New(), Exceptions: Exceptions, Host: host,
		RNG: controller.SeededRNG{Seed: 1}, TITO: &controller.TITO{TicketIn: true}})
	if err != nil {
		t.Fatal(err)
	}
	m := &Machine{Store: st, Cab: c, Host: host}
	step := func(f func(sas.Redemption) sas.Redemption) sas.Redemption {
		t.Helper()
		cur, err := m.Redemption()
		if err != nil {
			t.Fatal(err)
		}
		next := f(cur)
		if err := m.UpdateRedemption(cur, next); err != nil {
			t.Fatal(err)
		}
		return next
	}
	read := step(func(r sas.Redemption) sas.Redemption { n, _ := r.Read(); return n })
	pending := step(func(r sas.Redemption) sas.Redemption {
		n, _ := r.Redeem(sas.RedeemRequest{Code: sas.TransferCashable, Amount: 700, Number: r.Number, HasNumber: true}, 1, 0)
		return n
	})
	if read.Stage != sas.StageWaiting || pending.Stage != sas.StagePending {
		t.Fatalf("steps %+v then %+v", read, pending)
	}
	see := func(when string, want sas.Redemption) {
		t.Helper()
		if got, _ := m.Redemption(); got != want {
			t.Errorf("%s: the link sees %+v, want %+v", when, got, want)
		}
	}
	see("before any commit", pending)
	if got := c.TITOInfo().Redemption; got.Stage != sas.StageEscrow {
		t.Fatalf("committed %+v before the ledger ran", got)
	}
	for i, when := range []string{"after the first commit", "after the second"} {
		r := <-host
		if err := c.Handle(controller.Input{Host: &r}); err != nil {
			t.Fatal(err)
		}
		see(when, pending)
		if i == 1 && c.TITOInfo().Redemption != pending {
			t.Errorf("committed %+v, want %+v", c.TITOInfo().Redemption, pending)
		}
	}
	// A step from a record that is not the one in force is refused.
	if err := m.UpdateRedemption(read, pending); err == nil {
		t.Error("a step from a stale record was taken")
	}
}

// errRollback ends a transaction that only asks the store.
var errRollback = errors.New("test: roll back")

// TestRedemptionStepsAsTheStoreJudges: at every stage a ticket in
// reaches, every record an engine could send as the next one (each stage,
// status, transfer code and amount below), the machine takes a step
// exactly when the store would commit it (recovery UpdateRedemption, asked
// in a transaction rolled back): the cycle's rules are sas's, applied by
// both. A step refused leaves the machine's record the store's and hands
// the controller nothing, so the link never reports a record the store
// will not have.
func TestRedemptionStepsAsTheStoreJudges(t *testing.T) {
	in, read, ack := recoverytest.Insert("001234567890123456"), recoverytest.Read(), recoverytest.Acknowledge()
	lp71, refuse := recoverytest.Redeem(sas.TransferCashable, 500), recoverytest.Redeem(0x84, 0)
	reach := []struct {
		name  string
		steps []recoverytest.Step
	}{
		{"no ticket yet", nil},
		{"escrow", []recoverytest.Step{in}},
		{"waiting", []recoverytest.Step{in, read}},
		{"pending", []recoverytest.Step{in, read, lp71}},
		{"refused", []recoverytest.Step{in, read, refuse}},
		{"returned", []recoverytest.Step{in, read, lp71, recoverytest.Return(sas.RedeemTimeout)}},
		{"idle", []recoverytest.Step{in, read, refuse, ack}},
	}
	statuses := []sas.RedemptionStatus{sas.RedeemedCashable, sas.RedeemWaiting, sas.RedeemPending, sas.RedeemRejectedByHost,
		sas.RedeemNumberMismatch, sas.RedeemBadFunction, sas.RedeemOverLimit, sas.RedeemUnable, sas.RedeemTimeout, sas.RedeemIncompatible}
	codes := []sas.TransferCode{sas.TransferCashable, sas.TransferRestricted, 0x84, sas.TransferStatus}
	for _, rc := range reach {
		t.Run(rc.name, func(t *testing.T) {
			st := recoverytest.Open(t, filepath.Join(t.TempDir(), "cabinet.db"), recovery.Options{})
			recoverytest.Redemption(t, st, rc.steps...)
			pv, err := st.Proven()
			if err != nil {
				t.Fatal(err)
			}
			cur, taken := pv.Redemption, 0
			for stage := sas.StageIdle; stage <= sas.StageDone; stage++ {
				for _, status := range statuses {
					for _, code := range codes {
						for _, amount := range []money.Cents{0, 500} {
							next := cur
							next.Stage, next.Status, next.Code, next.Amount = stage, status, code, amount
							storeErr := st.Update(func(tx *recovery.Tx) error {
								if err := tx.UpdateRedemption(cur, next); err != nil {
									return err
								}
								return errRollback
							})
							stored := errors.Is(storeErr, errRollback)
							host := make(chan controller.HostRequest, 1)
							m := &Machine{Store: st, Host: host}
							err := m.UpdateRedemption(cur, next)
							if (err == nil) != stored {
								t.Errorf("from %+v to %+v: the machine says %v, the store %v", cur, next, err, storeErr)
								continue
							}
							got, rerr := m.Redemption()
							switch {
							case rerr != nil:
								t.Fatal(rerr)
							case stored && got != next:
								t.Errorf("from %+v to %+v taken: the link sees %+v", cur, next, got)
							case !stored && (got != cur || len(host) != 0):
								t.Errorf("from %+v to %+v refused: the link sees %+v, %d requests sent", cur, next, got, len(host))
							}
							if stored && next != cur {
								taken++
							}
						}
					}
				}
			}
			t.Logf("%s: %d steps taken", cur.State(), taken)
		})
	}
}
