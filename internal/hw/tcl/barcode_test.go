package tcl_test

import (
	"errors"
	"fmt"
	"testing"

	"cabinet/internal/hw/tcl"
	"cabinet/internal/i18n"
)

func TestBarcodeData(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"001234567890123456", true}, // the 18-digit validation number
		{"12", true},
		{"00", true},
		{"1", false},                   // odd: interleaved 2 of 5 encodes pairs
		{"00123456789012345", false},   // 17 digits
		{"0012345678901234567", false}, // 19 digits
		{"", false},
		{"12A4", false},
		{"12 4", false},
	}
	for _, tt := range tests {
		got, err := tcl.BarcodeData(tt.in)
		if tt.ok && (err != nil || got != tt.in) {
			t.Errorf("BarcodeData(%q) = %q, %v; want it unchanged", tt.in, got, err)
		}
		if !tt.ok && !errors.Is(err, tcl.ErrBarcode) {
			t.Errorf("BarcodeData(%q) = %q, %v; want %v", tt.in, got, err, tcl.ErrBarcode)
		}
	}
}

func TestFormatValidation(t *testing.T) {
	if got, want := tcl.FormatValidation("001234567890123456"), "00-1234-5678-9012-3456"; got != want {
		t.Errorf("FormatValidation = %q, want %q", got, want)
	}
}

func ExampleAmountWords() {
	en, _ := tcl.AmountWords(123456, i18n.EN)
	fr, _ := tcl.AmountWords(123456, i18n.FR)
	fmt.Println(en)
	fmt.Println(fr)
	// Output:
	// ONE THOUSAND TWO HUNDRED THIRTY-FOUR AND 56/100
	// MILLE DEUX CENT TRENTE-QUATRE ET 56/100
}
