package recovery_test

import (
	"fmt"
	"os"
	"path/filepath"

	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// A bill is credited with its meters and its event in ONE transaction; the
// commit verifies the meter invariant before anything is written.
func ExampleStore_Update() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	st, err := recovery.Open(filepath.Join(dir, "cabinet.db"), recovery.Options{Init: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	bill := money.Cents(2000)
	err = st.Update(func(tx *recovery.Tx) error {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		m.Credits += bill
		m.Meters.BillsIn += bill
		if err := tx.Log(meters.KindBillAccepted, "bill "+bill.String()); err != nil {
			return err
		}
		return tx.PutMachine(m)
	})
	fmt.Println("bill:", err)
	// Credits without a meter break the invariant: refused, nothing written.
	err = st.Update(func(tx *recovery.Tx) error {
		m, _ := tx.Machine()
		m.Credits += 100
		return tx.PutMachine(m)
	})
	fmt.Println("unmetered credit refused:", err != nil)
	_ = st.View(func(tx *recovery.Tx) error {
		m, _ := tx.Machine()
		fmt.Println("credits:", m.Credits)
		return nil
	})
	fmt.Println("check:", st.Check())
	// Output:
	// bill: <nil>
	// unmetered credit refused: true
	// credits: 20.00
	// check: <nil>
}
