package tcl

import (
	"fmt"
	"strconv"
	"time"

	"cabinet/internal/i18n"
	"cabinet/internal/money"
)

// Ticket is one cash-out ticket as issue 30 lists it. The controller fills
// it from the committed "ticket pending" record; Print checks it whole
// before sending a byte.
type Ticket struct {
	// Validation is the 18-digit validation number from the casino system
	// (SAS system validation) or the cabinet (secure-enhanced validation).
	// It is printed as text in groups (00-1234-5678-9012-3456) and as an
	// interleaved 2 of 5 barcode of the 18 digits.
	Validation string
	// Amount is printed in figures and in words; 0 < Amount ≤ MaxAmount.
	Amount money.Cents
	// Currency is the ISO 4217 code printed beside the figures ("EUR").
	Currency string
	// Lang is the ticket's language, i18n.EN or i18n.FR.
	Lang string
	// Casino, Address1 and Address2 head the ticket (Address2 may be
	// empty); at most MaxLine printable ASCII characters each.
	Casino, Address1, Address2 string
	// Machine is the machine number as the floor knows it (letters,
	// digits, '-'; at most 12); Asset the SAS asset number (nonzero).
	Machine string
	Asset   uint32
	// Issued is the cabinet's local time of the cash-out; printed as an
	// ISO date (2026-11-25, unambiguous in both languages) and 24-hour time.
	Issued time.Time
	// Number is the ticket number, 0–65534, printed on at least four
	// digits: SAS reports it in 2 binary bytes (LP 4D), FFFF meaning none.
	Number int
	// ExpiryDays is how long the ticket can be redeemed, 1–9999 days, or
	// 0 for a ticket that never expires (the SAS convention for 0 days).
	ExpiryDays int
}

// MaxLine is the longest casino name or address line: what one region of
// the ticket template holds in its font.
const MaxLine = 40

// TicketError names the ticket field that Print refused, its value and
// what is allowed. It wraps ErrInvalidTicket.
type TicketError struct {
	Field, Value, Allowed string
}

func (e *TicketError) Error() string {
	return fmt.Sprintf("%v: %s %q: %s", ErrInvalidTicket, e.Field, e.Value, e.Allowed)
}

func (e *TicketError) Unwrap() error { return ErrInvalidTicket }

// Validate checks every field and returns the first bad one as a
// *TicketError.
func (t Ticket) Validate() error {
	bad := func(field, value, allowed string) error {
		return &TicketError{Field: field, Value: value, Allowed: allowed}
	}
	if len(t.Validation) != 18 || !allDigits(t.Validation) {
		return bad("validation number", t.Validation, "exactly 18 decimal digits")
	}
	if t.Validation == "000000000000000000" {
		return bad("validation number", t.Validation, "not all zeros (zero means no validation number in SAS)")
	}
	if t.Amount <= 0 || t.Amount > MaxAmount {
		return bad("amount", t.Amount.String(), "more than 0.00 and at most "+MaxAmount.String())
	}
	if len(t.Currency) != 3 || !allUpper(t.Currency) {
		return bad("currency", t.Currency, "an ISO 4217 code, three capital letters (EUR, USD, CAD)")
	}
	if t.Lang != i18n.EN && t.Lang != i18n.FR {
		return bad("language", t.Lang, fmt.Sprintf("%q or %q", i18n.EN, i18n.FR))
	}
	for _, l := range []struct {
		field, v string
		must     bool
	}{{"casino name", t.Casino, true}, {"address line 1", t.Address1, true}, {"address line 2", t.Address2, false}} {
		if l.must && l.v == "" {
			return bad(l.field, l.v, "not empty")
		}
		if len(l.v) > MaxLine {
			return bad(l.field, l.v, fmt.Sprintf("at most %d characters, not %d", MaxLine, len(l.v)))
		}
		if i := nonPrintable(l.v); i >= 0 {
			return bad(l.field, l.v, fmt.Sprintf("printable ASCII only (the printer's fonts): byte %d is 0x%02X", i, l.v[i]))
		}
	}
	if t.Machine == "" || len(t.Machine) > 12 || !machineChars(t.Machine) {
		return bad("machine number", t.Machine, "1 to 12 letters, digits or '-'")
	}
	if t.Asset == 0 {
		return bad("asset number", "0", "a nonzero SAS asset number")
	}
	if t.Issued.IsZero() {
		return bad("issue time", "zero", "the time of the cash-out")
	}
	if t.Number < 0 || t.Number > 0xFFFE {
		return bad("ticket number", strconv.Itoa(t.Number), "0 to 65534 (SAS's 2 bytes; FFFF means none)")
	}
	if t.ExpiryDays < 0 || t.ExpiryDays > 9999 {
		return bad("expiry", strconv.Itoa(t.ExpiryDays), "1 to 9999 days, or 0 for never")
	}
	return nil
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func allUpper(s string) bool {
	for i := range len(s) {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

func machineChars(s string) bool {
	for i := range len(s) {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-') {
			return false
		}
	}
	return true
}

func nonPrintable(s string) int {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] > 0x7E {
			return i
		}
	}
	return -1
}

// label holds the fixed words of the ticket per language.
var label = map[string]struct {
	title, validation, date, time, number, machine, asset string
	expires                                               func(days int) string
}{
	i18n.EN: {"CASHOUT TICKET", "VALIDATION", "DATE", "TIME", "TICKET #", "MACHINE", "ASSET",
		func(d int) string {
			switch d {
			case 0:
				return "NEVER EXPIRES"
			case 1:
				return "VOID AFTER 1 DAY"
			}
			return fmt.Sprintf("VOID AFTER %d DAYS", d)
		}},
	i18n.FR: {"TICKET DE PAIEMENT", "VALIDATION", "DATE", "HEURE", "TICKET NO", "MACHINE", "ACTIF",
		func(d int) string {
			switch d {
			case 0:
				return "SANS EXPIRATION"
			case 1:
				return "VALABLE 1 JOUR"
			}
			return fmt.Sprintf("VALABLE %d JOURS", d)
		}},
}

// Figures writes the amount in figures with the currency code: English
// "USD 1,234.56", French "1 234,56 EUR".
func Figures(c money.Cents, currency, lang string) string {
	if lang == i18n.EN {
		return currency + " " + c.Format(",", ".")
	}
	return c.Format(" ", ",") + " " + currency
}

// Fields returns the text of each region of the ticket template, in
// template order (see Layout). The ticket must be valid.
func (t Ticket) Fields() ([]string, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	words, err := AmountWords(t.Amount, t.Lang)
	if err != nil {
		return nil, err
	}
	bar, err := BarcodeData(t.Validation)
	if err != nil {
		return nil, err
	}
	l := label[t.Lang]
	return []string{
		RegionCasino:     t.Casino,
		RegionAddress1:   t.Address1,
		RegionAddress2:   t.Address2,
		RegionTitle:      l.title,
		RegionValidation: l.validation + " " + FormatValidation(t.Validation),
		RegionDate:       l.date + " " + t.Issued.Format("2006-01-02"),
		RegionTime:       l.time + " " + t.Issued.Format("15:04:05"),
		RegionNumber:     fmt.Sprintf("%s %04d", l.number, t.Number),
		RegionFigures:    Figures(t.Amount, t.Currency, t.Lang),
		RegionWords:      words,
		RegionMachine:    l.machine + " " + t.Machine,
		RegionAsset:      fmt.Sprintf("%s %d", l.asset, t.Asset),
		RegionExpiry:     l.expires(t.ExpiryDays),
		RegionBarcode:    bar,
	}, nil
}
