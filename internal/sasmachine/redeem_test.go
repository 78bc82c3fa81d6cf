package sasmachine

import (
	"cabinet/internal/cabinet"
	"path/filepath"
	"testing"

	"cabinet/internal/controller"
	"cabinet/internal/hw/sim"
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
