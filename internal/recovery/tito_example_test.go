package recovery_test

import (
	"fmt"
	"os"
	"path/filepath"

	"cabinet/internal/recovery"
)

// A cash-out to a ticket: the ticket is recorded pending and the credits
// leave the meter in one transaction, before anything is printed; the
// printer's confirmation marks it printed in another.
func ExampleTx_IssueTicket() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	st, err := recovery.Open(filepath.Join(dir, "cabinet.db"), recovery.Options{Init: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	var t recovery.TicketOut
	err = st.Update(func(tx *recovery.Tx) error {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		m.Credits, m.Meters.BillsIn = 2000, 2000 // a bill, for the example
		v, err := recovery.Validation(0, 6429188185446104)
		if err != nil {
			return err
		}
		if t, err = tx.IssueTicket(recovery.TicketRequest{Validation: v, Amount: m.Credits}); err != nil {
			return err
		}
		m.Credits -= t.Amount
		m.Meters.TicketIssued(t.Amount)
		return tx.PutMachine(m)
	})
	fmt.Println(t.Validation, t.Amount, t.Status, err)
	err = st.Update(func(tx *recovery.Tx) error {
		if t, err = tx.TicketPrintDone(t.Seq); err != nil {
			return err
		}
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		m.Meters.TicketPrinted(t.Amount)
		return tx.PutMachine(m)
	})
	fmt.Println(t.Status, err)
	// Output:
	// 006429188185446104 20.00 pending <nil>
	// printed <nil>
}

// After a power cut, the note validator's power-up status and the note
// record decide whether the note is credited.
func ExampleResolveAtBoot() {
	stacking := &recovery.Note{Value: 2000, Status: recovery.NoteStacking}
	credited := &recovery.Note{Value: 2000, Status: recovery.NoteCreditedAwaitingAck}
	fmt.Println(recovery.ResolveAtBoot(stacking, recovery.PowerUpBillInStacker))
	fmt.Println(recovery.ResolveAtBoot(credited, recovery.PowerUpBillInStacker))
	fmt.Println(recovery.ResolveAtBoot(stacking, recovery.PowerUpBillInAcceptor))
	// Output:
	// credit the note now
	// already credited
	// returned, not credited
}
