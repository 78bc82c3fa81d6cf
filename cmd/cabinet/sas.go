package main

import (
	"context"
	"fmt"
	"log/slog"

	"cabinet/internal/cabinet"
	"cabinet/internal/config"
	"cabinet/internal/controller"
	"cabinet/internal/recovery"
	"cabinet/internal/sas"
	"cabinet/internal/sasmachine"
)

// sasLink is the SAS wiring of `cabinet run` and `cabinet sim`: the [sas]
// section, with `--sas PORT` overriding its port. nil when SAS is off.
type sasLink struct {
	cfg  sas.Config
	port string
	line sas.Line
	host chan controller.HostRequest
}

// hostQueue is how many host requests (commands, acknowledgements) wait for
// the controller: the SAS link never blocks on it (a command finding it
// full is answered busy; an acknowledgement waits in the machine).
const hostQueue = 64

// newSASLink reads the [sas] section and the --sas flag. With --sas and
// address 0 in the file, the cabinet answers as address 1 (decided: the
// flag exists to exercise SAS headless, with the shipped file's SAS off;
// logged at start).
func newSASLink(cfg *config.Config, portFlag string) *sasLink {
	s := cfg.SAS
	if portFlag != "" {
		s.Port = portFlag
		if s.Address == 0 {
			s.Address = 1
		}
	}
	if !s.On() {
		return nil
	}
	c := sasmachine.Config(s.Address, s.Denom, s.Serial, s.Asset, cfg.Cabinet.Currency)
	c.Validation = s.Validation
	c.TicketIn, c.TicketInLimit = s.TicketIn, s.TicketInLimit
	return &sasLink{cfg: c, port: s.Port, line: s.Line, host: make(chan controller.HostRequest, hostQueue)}
}

// options sets the controller's SAS options (nil link: none).
func (l *sasLink) options(o *cabinet.Parts) {
	if l == nil {
		return
	}
	o.Exceptions, o.Host = sasmachine.Exceptions, l.host
}

// start opens the port and serves the host until ctx ends; the returned
// channel gets Serve's result. The port is opened before anything plays,
// so a wrong port is an error at start, not a silent cabinet.
func (l *sasLink) start(ctx context.Context, st *recovery.Store, c *controller.Controller, log *slog.Logger) (<-chan error, error) {
	done := make(chan error, 1)
	if l == nil {
		close(done)
		return done, nil
	}
	p, err := sas.OpenLine(l.port, l.line)
	if err != nil {
		return nil, fmt.Errorf("sas: %w", err)
	}
	m := &sasmachine.Machine{Store: st, Cab: c, Host: l.host}
	// The link reads the last proven commit from memory; read it once
	// now, before anything plays, so no reply waits for that first read.
	if _, err := st.Proven(); err != nil {
		log.Warn("SAS: the store could not be read before serving", "err", err)
	}
	e := &sas.Engine{Cfg: l.cfg, M: m, Q: m}
	log.Info("SAS served", "port", l.port, "line", l.line.String(), "address", l.cfg.Address, "accounting_denomination", l.cfg.Denom.String())
	go func() {
		defer p.Close()
		done <- sas.Serve(ctx, p, e, sas.LinkOptions{Log: log, Link: m.Link, Line: m.Line})
	}()
	return done, nil
}
