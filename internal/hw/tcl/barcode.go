package tcl

import (
	"fmt"

	"cabinet/internal/hw"
)

// BarcodeData checks digits for an interleaved 2 of 5 barcode and returns
// them as the printer takes them. Interleaved 2 of 5 encodes digits in
// pairs (one in the bars, one in the spaces), so the count must be even
// and nonzero; the 18-digit validation number of a TITO ticket fits with
// no padding and no check digit (the validation number carries its own).
func BarcodeData(digits string) (string, error) {
	if digits == "" {
		return "", fmt.Errorf("%w: no digits", ErrBarcode)
	}
	for i := range len(digits) {
		if c := digits[i]; c < '0' || c > '9' {
			return "", fmt.Errorf("%w: %q: byte %d (%q) is not a digit", ErrBarcode, digits, i, c)
		}
	}
	if len(digits)%2 != 0 {
		return "", fmt.Errorf("%w: %q: %d digits, interleaved 2 of 5 needs an even count", ErrBarcode, digits, len(digits))
	}
	return digits, nil
}

// FormatValidation writes an 18-digit validation number the way tickets
// print it, in groups 2-4-4-4-4: "00-1234-5678-9012-3456". Other input is
// returned unchanged.
func FormatValidation(v string) string { return hw.FormatValidation(v) }
