package sas_test

import (
	"fmt"

	"cabinet/internal/sas"
)

// The reference's example of a secure-enhanced validation number: machine
// validation ID 654321 hex, sequence number 1, printed after system ID 00.
func ExampleSecureEnhancedNumber() {
	n, err := sas.SecureEnhancedNumber(0x654321, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("00%016d\n", n)
	// Output: 006429188185446104
}

// A ticket's redemption as the cabinet and the engine move the record: the
// cabinet inserts it, LP 70 reads it, LP 71 redeems it, the cabinet stacks
// it and credits the amount, and the host's acknowledgement of the final
// status ends the cycle.
func ExampleRedemption() {
	var r sas.Redemption
	r, _ = r.Insert(1234567890123456)
	fmt.Println(r.Stage == sas.StageEscrow)
	r, _ = r.Read()
	fmt.Println(r.Status)
	r, st := r.Redeem(sas.RedeemRequest{Code: sas.TransferCashable, Amount: 2500, Number: 1234567890123456, HasNumber: true}, 1, 0)
	fmt.Println(st)
	r, _ = r.Complete(sas.RedeemedCashable)
	fmt.Println(r.Status, r.Amount)
	r = r.Acknowledge()
	fmt.Println(r.Stage == sas.StageIdle)
	// Output:
	// true
	// waiting for long poll 71
	// ticket redemption pending
	// cashable ticket redeemed 25.00
	// true
}
