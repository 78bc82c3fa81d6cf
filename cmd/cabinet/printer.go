package main

import (
	"fmt"
	"log/slog"
	"time"

	"cabinet/internal/config"
	"cabinet/internal/controller"
	"cabinet/internal/hw/tcl"
)

// printerStatusEvery is how often the cabinet asks the printer's status
// between tickets (paper low or out, a fault, no answer: shown, raised to
// the host, and a cash-out while it cannot print is a handpay at once).
const printerStatusEvery = 5 * time.Second

// openPrinter is the ticket printer of `cabinet run` and `cabinet sim`:
// the [printer] section, with `--printer PORT` overriding its port
// (checked as the file's would be: the ticket's heading and the SAS asset
// number are required). It returns the controller's cash-out by ticket
// (nil: no printer, every cash-out is a handpay) and what closes the port.
// Opening does not talk to the printer: the cabinet starts with it off.
func openPrinter(cfg *config.Config, portFlag string, log *slog.Logger) (*controller.TITO, func(), error) {
	if portFlag != "" {
		c, err := cfg.WithPrinterPort(portFlag)
		if err != nil {
			return nil, nil, fmt.Errorf("--printer %s: %w", portFlag, err)
		}
		cfg = c
	}
	pc := cfg.Printer
	if !pc.On() && !cfg.SAS.TicketIn {
		return nil, func() {}, nil
	}
	t := &controller.TITO{Validation: controller.TicketValidation(cfg.SAS.Validation), Wait: cfg.SAS.ValidationWait,
		TicketIn: cfg.SAS.TicketIn, ExpiryDays: pc.ExpiryDays}
	heading := tcl.Ticket{Currency: cfg.Cabinet.Currency, Lang: cfg.Cabinet.Language, Casino: pc.Casino, Address1: pc.Address1,
		Address2: pc.Address2, Machine: pc.Machine, Asset: cfg.SAS.Asset, ExpiryDays: pc.ExpiryDays}
	if !pc.On() {
		// Tickets in only: every cash-out is a handpay (no printer).
		return t, func() {}, nil
	}
	p, err := tcl.Open(pc.Port, pc.Baud, tcl.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("printer: %w", err)
	}
	t.Printer, t.StatusEvery = tcl.Device{P: p, Heading: heading}, printerStatusEvery
	if log != nil {
		log.Info("ticket printer", "port", pc.Port, "baud", pc.Baud, "validation", cfg.SAS.Validation.String())
	}
	return t, func() { p.Close() }, nil
}

// checkTicketIn refuses `[sas] ticket_in = true` without the two links it
// needs: the ID-003 validator that reads the tickets and the SAS link to
// the casino system that redeems them (a key that would do nothing is
// refused at start, never ignored).
func checkTicketIn(cfg *config.Config, validator, sasOn bool) error {
	switch {
	case !cfg.SAS.TicketIn:
		return nil
	case !validator:
		return fmt.Errorf(`sas.ticket_in = true: needs the ID-003 note validator, which reads the tickets ([hardware.acceptor] mode = "id003", or --acceptor PORT)`)
	case !sasOn:
		return fmt.Errorf("sas.ticket_in = true: needs the SAS link to the casino system, which redeems the tickets ([sas] port, or --sas PORT)")
	}
	return nil
}
