package rngtest_test

import (
	"fmt"

	"cabinet/internal/analysis/rngtest"
)

func ExampleChiSquareSF() {
	fmt.Printf("%.4f\n", rngtest.ChiSquareSF(3.841459, 1))
	// Output: 0.0500
}
