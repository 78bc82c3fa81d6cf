package config

import (
	"errors"
	"strings"
	"testing"
)

func TestMinRTP(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"75.00", 7500, true}, {"75", 7500, true}, {"92.5", 9250, true}, {"0.01", 1, true}, {"99.99", 9999, true},
		{"100.00", 0, false}, {"0", 0, false}, {"0.00", 0, false}, {"-5.00", 0, false}, {"75.001", 0, false},
		{"75.", 0, false}, {".5", 0, false}, {"abc", 0, false}, {"", 0, false}, {"+75", 0, false}, {"7 5", 0, false},
	} {
		got, err := minRTP("cabinet.min_rtp", tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("minRTP(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("minRTP(%q) error %v does not wrap ErrInvalid", tc.in, err)
		}
	}
}

func TestMinRTPFromFile(t *testing.T) {
	c, err := Parse([]byte(minimalHead))
	if err != nil {
		t.Fatal(err)
	}
	if c.MinRTP() != 7500 {
		t.Errorf("default MinRTP() = %d, want 7500", c.MinRTP())
	}
	c, err = Parse([]byte(strings.Replace(minimalHead, "[cabinet]\n", "[cabinet]\nmin_rtp = \"85.50\"\n", 1)))
	if err != nil || c.MinRTP() != 8550 {
		t.Fatalf("Parse(min_rtp = 85.50) = %v, %v; want 8550", c, err)
	}
	var ke *KeyError
	if _, err := Parse([]byte("[cabinet]\nmin_rtp = \"100\"\n")); !errors.As(err, &ke) || ke.Key != "cabinet.min_rtp" {
		t.Errorf("Parse(min_rtp = 100) error = %v, want a KeyError naming cabinet.min_rtp", err)
	}
}
