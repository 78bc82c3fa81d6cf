package money

import "testing"

func TestString(t *testing.T) {
	tests := []struct {
		c    Cents
		want string
	}{
		{0, "0.00"}, {5, "0.05"}, {1250, "12.50"}, {-5, "-0.05"}, {-123456, "-1234.56"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("Cents(%d).String() = %q, want %q", int64(tt.c), got, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		c       Cents
		th, dec string
		want    string
	}{
		{123456, ",", ".", "1,234.56"},
		{123456, " ", ",", "1 234,56"},
		{100000000, ",", ".", "1,000,000.00"},
		{99, ",", ".", "0.99"},
		{-100000, ",", ".", "-1,000.00"},
	}
	for _, tt := range tests {
		if got := tt.c.Format(tt.th, tt.dec); got != tt.want {
			t.Errorf("Format(%d) = %q, want %q", int64(tt.c), got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	good := map[string]Cents{"12": 1200, "12.5": 1250, "12.50": 1250, "0.01": 1, "-3.10": -310}
	for in, want := range good {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1.234", "abc", ".5", "1.x", "--1"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) succeeded, want error", in)
		}
	}
}

func TestMul(t *testing.T) {
	if got := Cents(1005).Mul(3, 2); got != 1507 {
		t.Errorf("Mul(3,2) of 10.05 = %v, want 15.07 (rounded down)", got)
	}
}
