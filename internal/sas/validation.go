package sas

import "fmt"

// MaxValidationSequence is the largest secure-enhanced sequence number (3
// bytes); the next one is 0.
const MaxValidationSequence = 0xFFFFFF

// SecureEnhancedNumber computes the 16-digit validation number of a ticket
// or handpay receipt under secure-enhanced validation from the machine's
// validation ID and the event's sequence number (both 24-bit, set by LP 4C;
// the sequence number is incremented before each event is given one).
//
// The algorithm is the reference's "secure enhanced validation algorithm"
// (SAS 6.02 §15.14 as two public implementations cite it: Aristocrat's
// Monaco, SecureEnhancedValidationHandler, and Kopachris' sas_validate.py,
// which agree):
//
//  1. A = the sequence number, 3 bytes LSB first, then the machine ID, 3
//     bytes LSB first.
//  2. B0 = A0, B1 = A1, B2 = A2^A0, B3 = A3^A1, B4 = A4^A0, B5 = A5^A1.
//  3. C = the SAS CRC (seed 0) of B0 B1, of B2 B3 and of B4 B5, each low
//     byte first.
//  4. C0 C1 C2 (LSB first) as 8 decimal digits are the lower half of the
//     number, C3 C4 C5 the upper half.
//  5. In each half, the sum of its 8 digits modulo 5, times 2, is ORed into
//     its most significant digit (at most 1 before, so the digit stays
//     decimal).
//
// The number is the upper half then the lower half. On a ticket it is
// printed after the system ID 00 (18 digits): 00 followed by the result,
// read as 16 decimal digits. The reference's own example (machine ID
// 654321 hex, sequence 1) gives 6429188185446104 (TestSecureEnhancedNumber).
func SecureEnhancedNumber(machineID, sequence uint32) (uint64, error) {
	if machineID > 0xFFFFFF || sequence > MaxValidationSequence {
		return 0, fmt.Errorf("sas: secure-enhanced validation number of machine ID %X, sequence %X: want 3-byte values (at most FFFFFF): %w",
			machineID, sequence, ErrBadData)
	}
	a := [6]byte{byte(sequence), byte(sequence >> 8), byte(sequence >> 16),
		byte(machineID), byte(machineID >> 8), byte(machineID >> 16)}
	b := [6]byte{a[0], a[1], a[2] ^ a[0], a[3] ^ a[1], a[4] ^ a[0], a[5] ^ a[1]}
	var c [6]byte
	for i := 0; i < 6; i += 2 {
		x := CRC(0, b[i:i+2])
		c[i], c[i+1] = byte(x), byte(x>>8)
	}
	half := func(x []byte) uint64 {
		v := uint64(x[0]) | uint64(x[1])<<8 | uint64(x[2])<<16
		sum := uint64(0)
		for d := v; d > 0; d /= 10 {
			sum += d % 10
		}
		// the most significant of the 8 digits (at most 1: v < 16777216)
		top := v / 10000000
		return (top|(sum%5)<<1)*10000000 + v%10000000
	}
	return half(c[3:6])*100000000 + half(c[0:3]), nil
}
