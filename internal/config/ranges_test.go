package config

import (
	"strconv"
	"testing"

	"cabinet/internal/money"
	"cabinet/internal/view"
)

// TestMenuRangesAccepted: the allowed range the operator menu shows for a
// setting (view.Setting.Min, Max) is what the configuration accepts: its
// bounds are taken, a value past either is refused, and BET+ reaches both
// (issue 35: the menu showed 500 … 5000 ms and 10 … 1000 rounds where 10000
// is accepted).
func TestMenuRangesAccepted(t *testing.T) {
	base := loadShipped(t)
	ranged := 0
	for _, it := range base.Items(nil) {
		if it.Min == "" && it.Max == "" {
			if it.Kind == view.KindMoney || it.Kind == view.KindCount || it.Kind == view.KindPercent {
				t.Errorf("%s (%s): no allowed range", it.Key, it.Kind)
			}
			continue
		}
		ranged++
		// A bound set by another setting (min_bet at most max_bet) is the
		// note's: only the setting's own bounds are probed.
		cross := it.Note == "note.at_most_max_bet" || it.Note == "note.at_least_min_bet" || it.Note == "note.at_most_max" || it.Note == "note.at_least_min" || it.Note == "note.at_least_bills"
		for _, b := range []struct {
			v    string
			want bool
		}{{it.Min, true}, {step(t, it, it.Min, -1), false}, {it.Max, true}, {step(t, it, it.Max, +1), false}} {
			if b.v == "" || cross && b.want {
				continue
			}
			_, err := base.With(map[string]string{it.Key: b.v})
			if (err == nil) != b.want {
				t.Errorf("With(%s = %s) = %v, want accepted %v (shown allowed %q … %q)", it.Key, b.v, err, b.want, it.Min, it.Max)
			}
		}
		if it.Kind == view.KindCount || it.Kind == view.KindPercent && it.Max != "" {
			if it.Choices[0] != it.Min && it.Key != "jackpot.rate" || it.Choices[len(it.Choices)-1] != it.Max && it.Key != "jackpot.rate" {
				t.Errorf("%s: BET+ steps %v, want from %s to %s", it.Key, it.Choices, it.Min, it.Max)
			}
		}
	}
	if ranged < 10 {
		t.Errorf("%d settings with an allowed range, want every amount and count", ranged)
	}
}

// step is v moved by one of its smallest units (a cent, one, 0.00001 %);
// "" for no bound.
func step(t *testing.T, it view.Setting, v string, d int64) string {
	t.Helper()
	if v == "" {
		return ""
	}
	switch {
	case it.Kind == view.KindMoney:
		c, err := money.Parse(v)
		if err != nil {
			t.Fatal(err)
		}
		if c+money.Cents(d) < 0 {
			return "-0.01"
		}
		return (c + money.Cents(d)).String()
	case it.Key == "jackpot.rate":
		r, err := rateE7(it.Key, v)
		if err != nil {
			t.Fatal(err)
		}
		if r+d < 0 {
			return "-1"
		}
		return FormatRateE7(r + d)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.Itoa(n + int(d))
}
