// Package money holds the cabinet's only money type: an integer number of cents.
//
// No floating point is used for money anywhere in the cabinet. Payout fractions
// (3:2, half-bet insurance, progressive percentages) are computed with integer
// arithmetic and round down to the cent, as games.md §0 requires.
package money

import (
	"fmt"
	"strconv"
)

// Cents is an amount of money in cents. It may be negative for deltas.
type Cents int64

// String formats c as a plain decimal amount with two decimals and no currency
// sign ("12.50", "-0.05"). Locale-aware display formatting lives in the display.
func (c Cents) String() string {
	sign := ""
	v := int64(c)
	if v < 0 {
		sign = "-"
		v = -v
		if v < 0 { // math.MinInt64
			return "-92233720368547758.08"
		}
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// Format formats c with a thousands separator and a decimal mark, e.g.
// Format(123456, ",", ".") = "1,234.56" and Format(123456, " ", ",") = "1 234,56".
func (c Cents) Format(thousands, decimal string) string {
	v := int64(c)
	sign := ""
	if v < 0 {
		sign = "-"
		v = -v
	}
	whole := strconv.FormatInt(v/100, 10)
	var out []byte
	for i := range len(whole) {
		if i > 0 && (len(whole)-i)%3 == 0 {
			out = append(out, thousands...)
		}
		out = append(out, whole[i])
	}
	return fmt.Sprintf("%s%s%s%02d", sign, out, decimal, v%100)
}

// Parse reads an amount written as "12", "12.5" or "12.50" (an optional leading
// minus sign) into cents. More than two decimals is an error: money is never
// rounded silently.
func Parse(s string) (Cents, error) {
	orig := s
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg = true
		s = s[1:]
	}
	whole, frac := s, ""
	for i := range len(s) {
		if s[i] == '.' {
			whole, frac = s[:i], s[i+1:]
			break
		}
	}
	if whole == "" || len(frac) > 2 {
		return 0, fmt.Errorf("money: parse %q: want digits with at most two decimals", orig)
	}
	w, err := strconv.ParseUint(whole, 10, 62)
	if err != nil {
		return 0, fmt.Errorf("money: parse %q: %w", orig, err)
	}
	for len(frac) < 2 {
		frac += "0"
	}
	f, err := strconv.ParseUint(frac, 10, 8)
	if err != nil {
		return 0, fmt.Errorf("money: parse %q: %w", orig, err)
	}
	if w > (1<<62)/100 {
		return 0, fmt.Errorf("money: parse %q: amount too large", orig)
	}
	v := Cents(w*100 + f)
	if neg {
		v = -v
	}
	return v, nil
}

// Mul returns c × num / den rounded down toward zero (den > 0). It is the one
// place payout ratios such as 3:2 are applied.
func (c Cents) Mul(num, den int64) Cents {
	if den <= 0 {
		panic("BUG: money.Mul with non-positive denominator")
	}
	return Cents(int64(c) * num / den)
}
