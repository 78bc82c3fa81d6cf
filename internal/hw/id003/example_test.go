package id003_test

import (
	"fmt"

	"cabinet/internal/hw/id003"
)

// The status request, and a validator's answer: a note of escrow code 0x63
// in escrow.
func ExampleDecode() {
	fmt.Printf("% X\n", id003.MustEncode(byte(id003.CmdStatus)))
	line := append([]byte{0x00}, id003.MustEncode(byte(id003.StEscrow), 0x63)...) // a noise byte first
	for len(line) > 0 {
		f, n, err := id003.Decode(line)
		if err != nil {
			fmt.Println("dropped:", err)
		} else {
			fmt.Println(id003.Status(f.Code), f)
		}
		line = line[n:]
	}
	// Output:
	// FC 05 11 27 56
	// dropped: id003: no sync byte: got 0x00
	// escrow 13 63
}
