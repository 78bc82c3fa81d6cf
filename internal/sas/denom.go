package sas

import "cabinet/internal/money"

// DenomCode returns the SAS denomination code (Table C-4) of an accounting
// denomination in cents; ok is false for a value SAS cannot express.
func DenomCode(c money.Cents) (code byte, ok bool) {
	code, ok = denomCodes[c]
	return code, ok
}

// Denoms lists the accounting denominations SAS can express, ascending.
func Denoms() []money.Cents {
	return []money.Cents{1, 2, 3, 5, 10, 20, 25, 40, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000}
}
