package tcl

import (
	"fmt"
	"strings"

	"cabinet/internal/i18n"
	"cabinet/internal/money"
)

// MaxAmount is the largest amount a ticket carries (999 999.99): the words
// are written for amounts below one million, which is far above any
// jurisdiction's ticket-out limit.
const MaxAmount money.Cents = 99_999_999

// AmountWords writes c in words the way a cheque or a ticket does, upper
// case, whole units in words and the cents as a fraction of 100:
//
//	English 1234.56 → "ONE THOUSAND TWO HUNDRED THIRTY-FOUR AND 56/100"
//	French  1234.56 → "MILLE DEUX CENT TRENTE-QUATRE ET 56/100"
//
// No currency is named: the figures line beside it carries the currency
// code, so the words stay right whatever the cabinet's currency. English
// hyphenates 21–99 and uses no "and" inside the number (cheque style);
// French follows the traditional spelling (soixante et onze,
// quatre-vingts, deux cents, mille invariable, no plural before "mille").
// Less than one unit is "ZERO AND 56/100". The text is ASCII only (TCL
// resident fonts are ASCII; French capitals are written without accents,
// so "ZERO"). lang is i18n.EN or i18n.FR; c must be 0 ≤ c ≤ MaxAmount.
func AmountWords(c money.Cents, lang string) (string, error) {
	if c < 0 || c > MaxAmount {
		return "", fmt.Errorf("%w: amount %s: words are written for 0.00 to %s", ErrAmount, c, MaxAmount)
	}
	whole, cents := int(c/100), int(c%100)
	switch lang {
	case i18n.EN:
		return fmt.Sprintf("%s AND %02d/100", englishWords(whole), cents), nil
	case i18n.FR:
		return fmt.Sprintf("%s ET %02d/100", frenchWords(whole), cents), nil
	}
	return "", fmt.Errorf("%w: language %q: %q or %q", ErrLanguage, lang, i18n.EN, i18n.FR)
}

var enSmall = [...]string{"ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX",
	"SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE", "THIRTEEN", "FOURTEEN",
	"FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN"}

var enTens = [...]string{"", "", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY",
	"SEVENTY", "EIGHTY", "NINETY"}

// englishWords writes 0 ≤ n ≤ 999 999.
func englishWords(n int) string {
	if n == 0 {
		return enSmall[0]
	}
	var parts []string
	if n >= 1000 {
		parts = append(parts, englishBelow1000(n/1000), "THOUSAND")
		n %= 1000
	}
	if n > 0 {
		parts = append(parts, englishBelow1000(n))
	}
	return strings.Join(parts, " ")
}

func englishBelow1000(n int) string {
	var parts []string
	if n >= 100 {
		parts = append(parts, enSmall[n/100], "HUNDRED")
		n %= 100
	}
	switch {
	case n == 0:
	case n < 20:
		parts = append(parts, enSmall[n])
	case n%10 == 0:
		parts = append(parts, enTens[n/10])
	default:
		parts = append(parts, enTens[n/10]+"-"+enSmall[n%10])
	}
	return strings.Join(parts, " ")
}

var frSmall = [...]string{"ZERO", "UN", "DEUX", "TROIS", "QUATRE", "CINQ", "SIX",
	"SEPT", "HUIT", "NEUF", "DIX", "ONZE", "DOUZE", "TREIZE", "QUATORZE",
	"QUINZE", "SEIZE", "DIX-SEPT", "DIX-HUIT", "DIX-NEUF"}

var frTens = [...]string{"", "", "VINGT", "TRENTE", "QUARANTE", "CINQUANTE", "SOIXANTE"}

// frenchWords writes 0 ≤ n ≤ 999 999.
func frenchWords(n int) string {
	if n == 0 {
		return frSmall[0]
	}
	var parts []string
	if th := n / 1000; th > 0 {
		if th > 1 { // "mille", never "un mille"
			parts = append(parts, frenchBelow1000(th, false))
		}
		parts = append(parts, "MILLE")
		n %= 1000
	}
	if n > 0 {
		parts = append(parts, frenchBelow1000(n, true))
	}
	return strings.Join(parts, " ")
}

// frenchBelow1000 writes 1 ≤ n ≤ 999. final says whether the number ends
// the amount: "cents" and "quatre-vingts" take their plural s only then
// (deux cents, but deux cent mille; quatre-vingts, but quatre-vingt mille).
func frenchBelow1000(n int, final bool) string {
	var parts []string
	if h := n / 100; h > 0 {
		n %= 100
		switch {
		case h == 1:
			parts = append(parts, "CENT")
		case n == 0 && final:
			parts = append(parts, frSmall[h], "CENTS")
		default:
			parts = append(parts, frSmall[h], "CENT")
		}
	}
	if n > 0 {
		parts = append(parts, frenchBelow100(n, final))
	}
	return strings.Join(parts, " ")
}

func frenchBelow100(n int, final bool) string {
	switch {
	case n < 20:
		return frSmall[n]
	case n < 70:
		t, u := frTens[n/10], n%10
		switch u {
		case 0:
			return t
		case 1:
			return t + " ET UN"
		}
		return t + "-" + frSmall[u]
	case n < 80: // soixante-dix … soixante-dix-neuf, soixante et onze
		if n == 71 {
			return "SOIXANTE ET ONZE"
		}
		return "SOIXANTE-" + frSmall[n-60]
	case n == 80:
		if final {
			return "QUATRE-VINGTS"
		}
		return "QUATRE-VINGT"
	}
	return "QUATRE-VINGT-" + frSmall[n-80] // 81–99: no "et"
}
