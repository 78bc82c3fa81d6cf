package sas

import "fmt"

// AppendBCD appends v as n bytes of packed BCD, most significant first. A
// value too large for n bytes keeps its low 2n digits (SAS meters roll over).
// Negative values are a bug in the caller.
func AppendBCD(b []byte, v int64, n int) []byte {
	if v < 0 {
		panic(fmt.Sprintf("BUG: sas: negative BCD value %d", v))
	}
	out := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		lo := v % 10
		v /= 10
		hi := v % 10
		v /= 10
		out[i] = byte(hi<<4 | lo)
	}
	return append(b, out...)
}

// ParseBCD decodes packed BCD, most significant first.
func ParseBCD(b []byte) (int64, error) {
	var v int64
	for _, x := range b {
		hi, lo := x>>4, x&0xF
		if hi > 9 || lo > 9 {
			return 0, fmt.Errorf("sas: parse BCD % X: %w", b, ErrBCD)
		}
		v = v*100 + int64(hi)*10 + int64(lo)
	}
	return v, nil
}
