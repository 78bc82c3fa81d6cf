package config

import (
	"strconv"

	"cabinet/internal/money"
)

// intRange is the whole numbers a setting accepts. The file's validation
// checks a value against it and the operator menu shows it as the allowed
// range (view.Setting.Min, Max): one source, so the screen cannot promise
// less or more than the configuration takes (issue 35: the menu showed
// 500 … 5000 ms where 10000 is accepted).
type intRange struct{ lo, hi int }

// The ranges of the whole-number settings.
var (
	volumeRange        = intRange{0, 100}
	dealPaceRange      = intRange{0, MaxDealPaceMS}
	resultHoldRange    = intRange{MinResultHoldMS, MaxResultHoldMS}
	decisionPauseRange = intRange{MinDecisionPauseMS, MaxDecisionPauseMS}
	recallDepthRange   = intRange{MinRecallDepth, MaxRecallDepth}
	eventDepthRange    = intRange{MinEventDepth, MaxEventDepth}
	spotsRange         = intRange{1, 3}
	penetrationRange   = intRange{50, 90}
	maxHandsRange      = intRange{2, 3}
)

func (r intRange) has(v int) bool { return v >= r.lo && v <= r.hi }

// check is nil for a value in r, else the key's error: "want lo to hi
// what".
func (r intRange) check(key string, v int, what string) error {
	if r.has(v) {
		return nil
	}
	return bad(key, v, "%d to %d %s", r.lo, r.hi, what)
}

func (r intRange) min() string { return strconv.Itoa(r.lo) }
func (r intRange) max() string { return strconv.Itoa(r.hi) }

// The least amount of a money setting: an amount above zero, or zero too
// (0.00 meaning "none": no handpay lock, no cap, no reset). amount checks
// it and the operator menu shows it.
const (
	aboveZero money.Cents = 1
	zeroOK    money.Cents = 0
)

// maxRateE7 is the greatest progressive rate, 100 %, in parts per 10^7.
const maxRateE7 = 10_000_000
