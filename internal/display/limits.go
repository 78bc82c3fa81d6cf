package display

import (
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// drawLimits shows the table limits in the empty corner left of the
// dealer: the main bet's range and each side bet's (a fixed stake as one
// amount), from the GameInfo the controller sends (platform.md §7: table
// limits are shown at the table).
func (fr *frame) drawLimits(info view.GameInfo) {
	if info.MaxBet <= 0 {
		return
	}
	x, y := float32(24), float32(128)
	fr.text(fr.tr("table.limits"), x, y, 15, fade(colFeltLine, 0.95), true)
	line := func(name string, lo, hi money.Cents) {
		y += 21
		v := fr.money(lo)
		if hi != lo {
			v += " – " + fr.money(hi)
		}
		fr.text(name, x, y, 15, fade(colWhite, 0.8), false)
		fr.text(v, x+96, y, 15, colGold, true)
	}
	line(fr.tr("bet.main"), info.MinBet, info.MaxBet)
	for _, sd := range info.Side {
		line(fr.tr("bet."+string(sd.Kind)), sd.Min, sd.Max)
	}
}
