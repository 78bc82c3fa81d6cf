package config

import (
	"strconv"
	"strings"
)

// DefaultMinRTP is the default of [cabinet] min_rtp: the usual per-wager
// floor of a jurisdiction (platform.md §6).
const DefaultMinRTP = "75.00"

// ZappitMaxBet is the default Zappit maximum bet. The engine's preset says
// 1000.00, but with the rule book's 100.00 win cap on three spots the
// return at that bet is about 57 % and the return check refuses it; at
// 25.00 its floor is 98.40 % (a proven lower bound, see par.WithFloor).
const ZappitMaxBet = "25.00"

// minRTP parses [cabinet] min_rtp, a percentage string with at most two
// decimals ("75.00"), into hundredths of a percent. It must lie between
// 0.01 and 99.99: a game must return something and the house must keep
// something (every wager returning 100 % or more is refused anyway).
//
// The value is a floor applied to each wager separately (main bet, each side
// bet, insurance) by the return check of the rules in force
// (internal/analysis/rtp); this package only reads it.
func minRTP(key, s string) (int64, error) {
	const allowed = `a percentage from "0.01" to "99.99" with at most two decimals, e.g. "75.00"`
	whole, frac, dot := strings.Cut(strings.TrimSpace(s), ".")
	if whole == "" || len(frac) > 2 || (dot && frac == "") {
		return 0, bad(key, s, allowed)
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil || w < 0 || f < 0 || strings.ContainsAny(whole+frac, "+-") {
		return 0, bad(key, s, allowed)
	}
	bp := w*100 + f
	if bp < 1 || bp > 9999 {
		return 0, bad(key, s, allowed)
	}
	return bp, nil
}

// MinRTP is [cabinet] min_rtp in hundredths of a percent (7500 = 75.00 %).
func (c *Config) MinRTP() int64 { return c.Cabinet.MinRTP }

// DefaultMinRTPBP is DefaultMinRTP in hundredths of a percent (what a
// configuration without min_rtp gets).
func DefaultMinRTPBP() int64 {
	bp, err := minRTP("cabinet.min_rtp", DefaultMinRTP)
	if err != nil {
		panic("BUG: DefaultMinRTP does not parse: " + err.Error())
	}
	return bp
}
