package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"cabinet/internal/cabinet"
	"cabinet/internal/config"
	"cabinet/internal/hw"
	"cabinet/internal/hw/id003"
	"cabinet/internal/money"
	"cabinet/internal/selftest"
)

// validatorLink is the serial note validator's wiring of `cabinet run` and
// `cabinet sim`: [hardware.acceptor] in mode id003, or `--acceptor PORT`
// (which selects it and overrides the port, as --sas does). nil: none.
type validatorLink struct {
	port    string
	notes   map[byte]money.Cents
	tickets bool // [sas] ticket_in: the validator reads tickets too
	v       *id003.Seam
	d       *id003.Driver
}

// newValidatorLink reads the configuration and the --acceptor flag.
func newValidatorLink(cfg *config.Config, portFlag string) (*validatorLink, error) {
	port, notes, ok, err := cfg.Validator(portFlag)
	if err != nil || !ok {
		return nil, err
	}
	return &validatorLink{port: port, notes: notes, tickets: cfg.SAS.TicketIn, v: id003.NewSeam()}, nil
}

// options sets the controller's validator (nil link: none).
func (l *validatorLink) options(o *cabinet.Parts) {
	if l != nil {
		o.Validator = l.v
	}
}

// start opens the port (an error at start, not a silent cabinet) and runs
// the driver until ctx ends; stop waits for it, after the controller's
// loop has stopped (a driver waiting for an answer is released).
func (l *validatorLink) start(ctx context.Context, log *slog.Logger) (stop func(), err error) {
	if l == nil {
		return func() {}, nil
	}
	p, err := id003.OpenPort(l.port)
	if err != nil {
		return nil, fmt.Errorf("note validator: %w", err)
	}
	d, err := id003.New(p, id003.Config{Notes: l.notes, Tickets: l.tickets}, l.v, l.v.Event)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("note validator: %w", err)
	}
	l.v.Attach(d)
	l.d = d
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer p.Close()
		if err := d.Run(ctx); err != nil && ctx.Err() == nil {
			// The line failed: nothing more is heard from the validator,
			// which the cabinet treats as a validator gone (a tilt).
			log.Error("note validator: the serial line failed", "port", l.port, "err", err)
			l.v.Event(id003.Event{Kind: id003.EvTimeout, Text: fmt.Sprintf("serial line %s failed: %v", l.port, err)})
		}
	}()
	log.Info("note validator (ID-003)", "port", l.port, "notes", len(l.notes))
	return func() {
		cancel()
		l.v.Close()
		<-done
	}, nil
}

// settle waits until the validator idles (or is disabled) with none of
// its calls left for the cabinet's loop (Run answers them, and the host a
// ticket held), or d passes: a sim that ends leaves no note or ticket
// half-way when the validator allows it.
func (l *validatorLink) settle(d time.Duration) bool {
	if l == nil {
		return true
	}
	end := time.Now().Add(d)
	quiet := 0
	for time.Now().Before(end) {
		time.Sleep(2 * time.Millisecond)
		i := l.v.Info()
		if !i.Gone && (i.Status == id003.StIdling || i.Status == id003.StDisabled) && len(l.v.Calls()) == 0 {
			if quiet++; quiet >= 100 { // 200 ms: several polls without news
				return true
			}
		} else {
			quiet = 0
		}
	}
	return false
}

// validatorState is the validator as the self-test shows it: the version
// answer's first word as the model, the rest as the version, the status.
func validatorState(i id003.Info) selftest.ValidatorState {
	model, version, _ := strings.Cut(strings.TrimSpace(i.Version), " ")
	status := i.Status.String()
	switch {
	case i.Gone:
		status = "not answering"
	case i.Status == 0:
		status = "no answer yet"
	}
	return selftest.ValidatorState{Model: model, Version: strings.TrimSpace(version), Status: status}
}

// hwtestBox is the validator's Cashbox during `cabinet hwtest`: a note is
// read in escrow and returned, never stacked (no store is open). A note
// already in the stacker (vend valid, power up with bill in stacker) is
// the cabinet's to credit: the self-test neither acknowledges nor resets
// it, and says so.
type hwtestBox struct{ notes chan<- hw.Input }

func (b hwtestBox) Escrow(n id003.Note) (id003.Decision, error) {
	select {
	case b.notes <- hw.Input{Kind: hw.BillRefused, Value: n.Value, Err: fmt.Sprintf("%s read in escrow, returned (self-test: never stacked)", n)}:
	default:
	}
	return id003.Decision{Reason: "self-test: notes are read, never stacked"}, nil
}

func (b hwtestBox) Credit() (id003.Note, bool, error) {
	return id003.Note{}, false, errors.New("a note is in the stacker: the cabinet credits it (`cabinet run`), not the self-test")
}

// startHwtestValidator runs the validator's driver for the self-test;
// nil link: none.
func startHwtestValidator(ctx context.Context, l *validatorLink, opt *selftest.Options) (stop func(), err error) {
	if l == nil {
		return func() {}, nil
	}
	p, err := id003.OpenPort(l.port)
	if err != nil {
		return nil, fmt.Errorf("note validator: %w", err)
	}
	notes := make(chan hw.Input, 16)
	event := func(e id003.Event) {
		var in hw.Input
		switch e.Kind {
		case id003.EvRejected:
			in = hw.Input{Kind: hw.BillRefused, Err: "validator rejected a note: " + e.Reject.String()}
		case id003.EvFault, id003.EvTimeout, id003.EvLine, id003.EvStoreError, id003.EvUncredited:
			in = hw.Input{Kind: hw.BillError, Err: "validator: " + e.String()}
		default:
			return
		}
		select {
		case notes <- in:
		default:
		}
	}
	d, err := id003.New(p, id003.Config{Notes: l.notes}, hwtestBox{notes}, event)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("note validator: %w", err)
	}
	d.SetAcceptance(1 << 40) // every note the table knows: read, returned
	opt.Notes = notes
	opt.Validator = func() selftest.ValidatorState { return validatorState(d.Info()) }
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer p.Close()
		if err := d.Run(ctx); err != nil && ctx.Err() == nil {
			event(id003.Event{Kind: id003.EvTimeout, Text: fmt.Sprintf("serial line %s failed: %v", l.port, err)})
		}
	}()
	return func() { cancel(); <-done }, nil
}

// Ticket implements id003.Cashbox for the self-test: it configures no
// tickets, so one escrowed anyway is returned before this is asked; if
// asked, it returns it too (never stacked).
func (b hwtestBox) Ticket(string) (id003.TicketDecision, error) {
	return id003.TicketDecision{Action: id003.TicketReturn, Reason: "self-test: tickets are read, never stacked"}, nil
}
