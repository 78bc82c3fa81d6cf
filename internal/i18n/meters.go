package i18n

import (
	"strconv"
	"strings"

	"cabinet/internal/money"
)

// MeterLabel names a meter as the audit screen shows it in lang, from its
// name as `cabinet audit meters` keys it: a plain meter ("total_in"), a
// bill count ("bills.2000"), a game's meter ("games.royal.won") or a side
// bet's ("games.freebet.side.anypair.won"). amount formats a bill's value.
// ok is false when a part of the name has no message (the label is then
// the name made readable).
func MeterLabel(lang, name string, amount func(money.Cents) string) (label string, ok bool) {
	if d, found := strings.CutPrefix(name, "bills."); found {
		if c, err := strconv.ParseInt(d, 10, 64); err == nil {
			return Tf(lang, "meter.bills_of", amount(money.Cents(c))), true
		}
	}
	if rest, found := strings.CutPrefix(name, "games."); found {
		parts := strings.Split(rest, ".")
		switch {
		case len(parts) == 2:
			m, ok := Lookup(lang, "meter", "game_"+parts[1])
			return T(lang, "gameshort."+parts[0]) + " · " + m, ok && Has(lang, "gameshort."+parts[0])
		case len(parts) == 4 && parts[1] == "side":
			g, bet := T(lang, "gameshort."+parts[0]), T(lang, "bet."+parts[2])
			if bet == g { // Royal Poker's side bet bears the game's name: say what it is
				bet = T(lang, "meter.side_bet")
			}
			m, ok := Lookup(lang, "meter", "game_"+parts[3])
			return g + " · " + bet + " · " + m, ok && Has(lang, "gameshort."+parts[0]) && Has(lang, "bet."+parts[2])
		}
	}
	return Lookup(lang, "meter", name)
}
