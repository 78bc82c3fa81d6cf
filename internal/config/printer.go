package config

import (
	"fmt"
	"strings"
	"time"

	"cabinet/internal/money"
	"cabinet/internal/sas"
)

// Printer is the [printer] section: the ticket printer (docs/tito.md) and
// what its cash-out ticket says besides the amount and the validation
// number. An empty Port: no printer, every cash-out is a handpay.
type Printer struct {
	Port string // serial device, e.g. "/dev/ticket-printer"; "" = no printer
	Baud int    // 9600, 19200, 38400, 57600 or 115200
	// Casino, Address1 and Address2 head the ticket (printable ASCII, at
	// most 40 characters each; Address2 may be empty).
	Casino, Address1, Address2 string
	// Machine is the machine number printed (1–12 letters, digits or '-').
	Machine string
	// ExpiryDays is how long a ticket is redeemable, 1–9999 days; 0: never
	// expires.
	ExpiryDays int
}

// On reports whether a printer is configured.
func (p Printer) On() bool { return p.Port != "" }

type printerFile struct {
	Port       string `toml:"port"`
	Baud       int    `toml:"baud"`
	Casino     string `toml:"casino"`
	Address1   string `toml:"address1"`
	Address2   string `toml:"address2"`
	Machine    string `toml:"machine"`
	ExpiryDays int    `toml:"expiry_days"`
}

func defaultPrinter() printerFile { return printerFile{Baud: 9600, ExpiryDays: 30} }

// printerBauds are the speeds tcl.OpenPort takes (the printer's DIP
// switches or configuration ticket set one of them).
var printerBauds = []int{9600, 19200, 38400, 57600, 115200}

// buildPrinter validates the [printer] section. The ticket's heading is
// checked whether or not a port is set, so that `--printer PORT` never
// starts a printer whose ticket Print would refuse at the first cash-out;
// with a port, casino, address1 and machine are required.
func buildPrinter(f printerFile) (Printer, error) {
	ok := false
	for _, b := range printerBauds {
		ok = ok || f.Baud == b
	}
	if !ok {
		return Printer{}, bad("printer.baud", f.Baud, "one of 9600, 19200, 38400, 57600, 115200 (the speed set on the printer)")
	}
	for _, l := range []struct{ key, v string }{{"printer.casino", f.Casino}, {"printer.address1", f.Address1}, {"printer.address2", f.Address2}} {
		if len(l.v) > 40 {
			return Printer{}, bad(l.key, l.v, "at most 40 characters (one line of the ticket)")
		}
		for _, r := range l.v {
			if r < 0x20 || r > 0x7E {
				return Printer{}, bad(l.key, l.v, "printable ASCII characters only (the printer's resident fonts)")
			}
		}
	}
	if len(f.Machine) > 12 {
		return Printer{}, bad("printer.machine", f.Machine, "1 to 12 letters, digits or '-'")
	}
	for _, r := range f.Machine {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '-') {
			return Printer{}, bad("printer.machine", f.Machine, "1 to 12 letters, digits or '-'")
		}
	}
	if f.ExpiryDays < 0 || f.ExpiryDays > 9999 {
		return Printer{}, bad("printer.expiry_days", f.ExpiryDays, "0 (tickets never expire) or 1 to 9999 days")
	}
	p := Printer{Port: strings.TrimSpace(f.Port), Baud: f.Baud, Casino: f.Casino, Address1: f.Address1, Address2: f.Address2,
		Machine: f.Machine, ExpiryDays: f.ExpiryDays}
	return p, p.checkHeading()
}

// checkHeading requires the ticket's heading when a printer is on.
func (p Printer) checkHeading() error {
	if !p.On() {
		return nil
	}
	switch {
	case strings.TrimSpace(p.Casino) == "":
		return bad("printer.casino", p.Casino, "the casino's name printed on every ticket (required with a printer)")
	case strings.TrimSpace(p.Address1) == "":
		return bad("printer.address1", p.Address1, "the casino's address printed on every ticket (required with a printer)")
	case p.Machine == "":
		return bad("printer.machine", p.Machine, "the machine number printed on every ticket, 1 to 12 letters, digits or '-' (required with a printer)")
	}
	return nil
}

// WithPrinterPort returns c with the printer on port (`--printer PORT`),
// checked as the file's port would be.
func (c *Config) WithPrinterPort(port string) (*Config, error) {
	n := *c
	n.Printer.Port = strings.TrimSpace(port)
	if err := n.Printer.checkHeading(); err != nil {
		return nil, err
	}
	if n.Printer.On() && n.SAS.Asset == 0 {
		return nil, bad("sas.asset", 0, "a nonzero asset number: it is printed on every ticket (required with a printer)")
	}
	return &n, nil
}

// validationModes are the values of sas.validation.
var validationModes = map[string]sas.ValidationMode{
	"none": sas.ValidationNone, "system": sas.ValidationSystem, "secure-enhanced": sas.ValidationSecureEnhanced,
}

// buildValidation reads the [sas] keys of tickets: validation, the
// system-validation wait, and ticket in.
func buildValidation(s *SAS, f sasFile) error {
	m, ok := validationModes[f.Validation]
	if !ok {
		return bad("sas.validation", f.Validation, `"none" (every cash-out is a handpay), "system" (the casino system numbers each ticket: exception 57, LP 57/58) or "secure-enhanced" (the cabinet numbers them after LP 4C)`)
	}
	d, err := time.ParseDuration(f.ValidationWait)
	if err != nil || d < time.Second || d > 60*time.Second {
		return bad("sas.validation_wait", f.ValidationWait, "how long a cash-out waits for the casino system's validation number before a handpay, from \"1s\" to \"60s\"")
	}
	lim := money.Cents(0)
	if f.TicketInLimit != "" {
		if lim, err = money.Parse(f.TicketInLimit); err != nil || lim < 0 {
			return bad("sas.ticket_in_limit", f.TicketInLimit, "the largest ticket taken, an amount such as \"1000.00\", or \"0\" for no limit")
		}
	}
	s.Validation, s.ValidationWait, s.TicketIn, s.TicketInLimit = m, d, f.TicketIn, lim
	return nil
}

func (p Printer) String() string { return fmt.Sprintf("%s at %d baud", p.Port, p.Baud) }
