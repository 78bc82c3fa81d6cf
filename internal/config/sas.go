package config

import (
	"fmt"
	"strings"
	"time"

	"cabinet/internal/money"
	"cabinet/internal/sas"
)

// SAS is the [sas] section: the cabinet's link to the casino's management
// system (docs/sas.md). Address 0 turns SAS off.
type SAS struct {
	Address byte        // 1–127; 0 = off
	Port    string      // serial device, e.g. "/dev/ttyAMA0"
	Line    sas.Line    // how the wakeup bit arrives: a real UART's parity, or marked by an emulated line's peer
	Denom   money.Cents // accounting denomination: meters are reported in credits of it
	Serial  string      // up to 40 printable ASCII characters (LP 54)
	Asset   uint32      // asset number

	// Validation is how cash-out tickets are numbered (docs/tito.md):
	// none (every cash-out a handpay), system (the host's number, waited
	// for ValidationWait) or secure-enhanced (the cabinet's, after LP 4C).
	Validation     sas.ValidationMode
	ValidationWait time.Duration
	// TicketIn turns ticket redemption on; TicketInLimit is the largest
	// ticket taken (0: no limit).
	TicketIn      bool
	TicketInLimit money.Cents
}

// On reports whether the cabinet serves SAS.
func (s SAS) On() bool { return s.Address != 0 }

type sasFile struct {
	Address      int    `toml:"address"`
	Port         string `toml:"port"`
	Line         string `toml:"line"`
	Denomination string `toml:"denomination"`
	Serial       string `toml:"serial"`
	Asset        int64  `toml:"asset"`

	Validation     string `toml:"validation"`
	ValidationWait string `toml:"validation_wait"`
	TicketIn       bool   `toml:"ticket_in"`
	TicketInLimit  string `toml:"ticket_in_limit"`
}

func defaultSAS() sasFile {
	return sasFile{Line: "uart", Denomination: "0.01", Validation: "none", ValidationWait: "10s"}
}

// sasLines are the values of sas.line.
var sasLines = map[string]sas.Line{"uart": sas.LineUART, "marked": sas.LineMarked}

// buildSAS validates the [sas] section. A port is required only when SAS
// is on; `--sas PORT` on run and sim supplies or overrides it (WithSASPort).
func buildSAS(f sasFile) (SAS, error) {
	var s SAS
	if f.Address < 0 || f.Address > 127 {
		return s, bad("sas.address", fmt.Sprint(f.Address), "0 (SAS off) or a machine address from 1 to 127")
	}
	d, err := money.Parse(f.Denomination)
	if _, ok := sas.DenomCode(d); err != nil || !ok {
		vs := make([]string, 0, len(sas.Denoms()))
		for _, v := range sas.Denoms() {
			vs = append(vs, v.String())
		}
		return s, bad("sas.denomination", f.Denomination, "an accounting denomination SAS can express (Table C-4): one of %s", strings.Join(vs, ", "))
	}
	if len(f.Serial) > 40 {
		return s, bad("sas.serial", f.Serial, "at most 40 characters")
	}
	for _, r := range f.Serial {
		if r < 0x20 || r > 0x7E {
			return s, bad("sas.serial", f.Serial, "printable ASCII characters only")
		}
	}
	if f.Asset < 0 || f.Asset > 0xFFFFFFFF {
		return s, bad("sas.asset", fmt.Sprint(f.Asset), "an asset number from 0 to 4294967295")
	}
	l, ok := sasLines[f.Line]
	if !ok {
		return s, bad("sas.line", f.Line, `"uart" (a real SAS loop: the wakeup bit is the parity bit) or "marked" (an emulated UART whose peer writes the marked byte stream; never a real SAS loop)`)
	}
	if f.Address != 0 && strings.TrimSpace(f.Port) == "" {
		return s, bad("sas.port", f.Port, "the serial device SAS is served on (e.g. \"/dev/ttyAMA0\") when sas.address is not 0")
	}
	s = SAS{Address: byte(f.Address), Port: f.Port, Line: l, Denom: d, Serial: f.Serial, Asset: uint32(f.Asset)}
	return s, buildValidation(&s, f)
}
