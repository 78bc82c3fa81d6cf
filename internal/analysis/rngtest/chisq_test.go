package rngtest

import (
	"math"
	"testing"
)

// TestChiSquareSF compares with published table values (critical values of
// the chi-square distribution) and closed forms.
func TestChiSquareSF(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		df   int
		want float64
	}{
		{3.841459, 1, 0.05},
		{6.634897, 1, 0.01},
		{5.991465, 2, 0.05},   // df 2: exp(-x/2)
		{18.307038, 10, 0.05}, // tables
		{124.342113, 100, 0.05},
		{135.806723, 100, 0.01},
		{2, 2, math.Exp(-1)},
		{0, 5, 1},
	} {
		if got := ChiSquareSF(tc.x, tc.df); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("ChiSquareSF(%v, %d) = %.8f, want %.8f", tc.x, tc.df, got, tc.want)
		}
	}
	// Large df: the median is about df(1-2/(9df))^3; SF there ≈ 0.5.
	for _, df := range []int{2601, 172225} {
		k := float64(df)
		med := k * math.Pow(1-2/(9*k), 3)
		if got := ChiSquareSF(med, df); math.Abs(got-0.5) > 1e-3 {
			t.Errorf("ChiSquareSF(median %.1f, %d) = %.5f, want 0.5", med, df, got)
		}
	}
}
