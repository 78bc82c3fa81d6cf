package i18n

import (
	"strings"

	"cabinet/internal/money"
)

// DefaultCurrency is used when a snapshot names no currency.
const DefaultCurrency = "€"

// Money formats c for lang with the currency sign: French "1 234,50 €",
// English "€1,234.50"; a negative amount carries its minus sign first
// ("-1 234,50 €", "-€1,234.50").
//
// currency is a sign ("€") or an ISO 4217 code; EUR, USD and GBP are shown
// with their sign, another code as itself ("1 234,50 CHF", "CHF 1,234.50").
func Money(lang string, c money.Cents, currency string) string {
	if currency == "" {
		currency = DefaultCurrency
	}
	if s, ok := currencySigns[currency]; ok {
		currency = s
	}
	sign := ""
	if c < 0 {
		sign = "-"
		c = -c
	}
	if Normalize(lang) == EN {
		if len(currency) == 3 && strings.ToUpper(currency) == currency && currency[0] >= 'A' && currency[0] <= 'Z' {
			currency += " " // a code, not a sign
		}
		return sign + currency + c.Format(",", ".")
	}
	return sign + c.Format(" ", ",") + " " + currency
}

var currencySigns = map[string]string{"EUR": "€", "USD": "$", "GBP": "£"}

// Number formats a count with the locale's thousands separator
// (French "12 345", English "12,345").
func Number(lang string, n int64) string {
	s := money.Cents(n*100).Format(",", ".")
	if Normalize(lang) != EN {
		s = money.Cents(n*100).Format(" ", ",")
	}
	return s[:len(s)-3]
}

// Percent formats a figure held in hundredths of a percent (9954 → French
// "99,54 %", English "99.54%").
func Percent(lang string, bp int64) string {
	if Normalize(lang) == EN {
		return money.Cents(bp).Format(",", ".") + "%"
	}
	return money.Cents(bp).Format(" ", ",") + " %"
}
