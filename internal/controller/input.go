package controller

import (
	"context"
	"errors"
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// Input is one input to the cabinet, the argument of Handle: a hardware
// input (a switch, a bill, a button, physical or touched on the screen),
// a request of the casino's host system (a command, acknowledgements), one
// step of autoplay, or a report of work done off the controller's
// goroutine (the display's, an operator draft's return). Exactly one is
// set.
type Input struct {
	HW     hw.Input     // Kind set: a hardware or touch input
	Host   *HostRequest // the SAS host's command and/or acknowledgements
	Auto   *AutoStep    // one committed step of autoplay
	Ticket *TicketEvent // the printer's result, a validation timeout (internal/desk)
	Note   *hw.NoteCall // a call of the note validator's driver (internal/desk)
	// Shown is the display's report of how far its presentation has got
	// (shown.go).
	Shown *view.Shown
	// Return is the computed return of an operator draft (draftreturn.go).
	Return *DraftReturn
}

// HW is the Input of a hardware or touch input.
func HW(in hw.Input) Input { return Input{HW: in} }

// AutoStep is one step of autoplay of game Game: an attendant's handpay
// clear, a bill when credits are short, the deal, or the next decision of
// the open round (whatever its game), chosen by Choose (nil:
// BasicChooser).
type AutoStep struct {
	Game   game.ID
	Choose Chooser
	// CashOut: between rounds, with credits, press CASH OUT instead of
	// playing (a ticket or a handpay, as the cabinet decides).
	CashOut bool
}

// AutoRequest is an autoplay step handed to Run (Options.Autoplay): Run
// hands Step to Handle and answers on Reply, on its own goroutine, with
// the result and what the caller needs to choose the next step.
type AutoRequest struct {
	Step  AutoStep
	Reply chan<- AutoResult
}

// AutoResult is the result of an AutoRequest: Handle's error and the
// committed state after the step.
type AutoResult struct {
	Err       error
	Completed int64   // rounds closed in the store (Completed)
	OpenGame  game.ID // the open round's game, "" if none
	Credits   money.Cents
	NextRound uint64
}

// Handle processes one input: the single entry point of the cabinet, on
// one goroutine (Run's, or the loop of the simulator or a test). Every
// change of committed state goes from here through the ledger; the
// snapshot is published after each input.
func (c *Controller) Handle(in Input) (err error) {
	defer func() {
		// The table is never published without its shoe's commitment.
		if cerr := c.commitShown(); cerr != nil && err == nil {
			err = cerr
		}
		c.publish(c.led.cur())
	}()
	switch {
	case in.Host != nil:
		return c.hostRequest(*in.Host)
	case in.Auto != nil:
		return c.autoStep(*in.Auto)
	case in.Ticket != nil:
		return c.tickets.Event(*in.Ticket)
	case in.Note != nil:
		return c.notes.Request(in.Note)
	case in.Shown != nil:
		return c.shownReport(*in.Shown)
	case in.Return != nil:
		return c.scr.draftReturned(*in.Return)
	}
	return c.hardware(in.HW)
}

// hardware handles one hardware or touch input; a refusal says why
// (notice.go).
func (c *Controller) hardware(in hw.Input) (err error) {
	if !(in.Kind == hw.SwitchChanged && in.Switch == hw.ResetKey && !in.On) {
		c.scr.paid = nil // the handpay paid has been confirmed: the next input ends it
	}
	defer func() {
		c.scr.message = refusal(c.led.cur(), &c.scr, &c.set, in, err)
		if c.scr.message != "" {
			c.scr.refusals++
			c.scr.refusal = c.scr.message
		}
		if in.Kind == hw.ButtonPressed && err == nil {
			c.scr.recoveredSeen = true // the "game recovered" notice has been read
		}
	}()
	switch in.Kind {
	case hw.SwitchChanged:
		return c.switchChanged(in.Switch, in.On)
	case hw.BillStacked:
		return c.billStacked(in.Value)
	case hw.BillJam:
		return c.led.billJam(in.On, in.Err)
	case hw.BillRefused:
		return c.billRefused(in)
	case hw.BillError:
		return c.led.billError(in)
	case hw.ButtonPressed:
		return c.scr.press(c.led.cur(), in.Button)
	}
	return fmt.Errorf("cabinet: unknown input kind %d", in.Kind)
}

// Run hands hardware inputs, the host's requests (Options.Host), the
// printer's and note validator's events, the display's reports, the
// computed returns of operator drafts (draftreturn.go) and autoplay's
// steps (Options.Autoplay) to Handle until ctx is done or the input
// channel closes: the one loop of `cabinet run` and `cabinet sim`.
func (c *Controller) Run(ctx context.Context) error {
	c.outputs(c.led.cur())
	in := c.hw.Inputs()
	var notes <-chan *hw.NoteCall // nil: no validator, never ready
	if c.opt.Validator != nil {
		notes = c.opt.Validator.Calls()
	}
	var shown <-chan struct{} // nil: headless, never ready
	if c.opt.Display != nil {
		shown = c.opt.Display.ready
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-c.tickets.Events():
			if err := c.Handle(Input{Ticket: &ev}); err != nil {
				c.log.Error("ticket", "err", err)
			}
		case r := <-notes:
			if err := c.Handle(Input{Note: r}); err != nil {
				c.log.Error("note validator", "request", r.String(), "err", err)
			}
		case <-shown:
			s := c.opt.Display.take()
			if err := c.Handle(Input{Shown: &s}); err != nil {
				c.log.Error("display report", "err", err)
			}
		case <-c.scr.returns.ready:
			r := c.scr.returns.take()
			if err := c.Handle(Input{Return: &r}); err != nil {
				c.log.Error("operator draft return", "err", err)
			}
		case r := <-c.opt.Host:
			if err := c.Handle(Input{Host: &r}); err != nil {
				c.log.Error("host request", "err", err)
			}
		case r := <-c.opt.Autoplay:
			err := c.Handle(Input{Auto: &r.Step})
			cs := c.led.cur()
			r.Reply <- AutoResult{Err: err, Completed: c.Completed(), OpenGame: c.OpenGame(), Credits: cs.m.Credits, NextRound: cs.m.NextRound}
		case ev, ok := <-in:
			if !ok {
				return nil
			}
			if err := c.Handle(HW(ev)); err != nil && !errors.Is(err, ErrNotNow) && !errors.Is(err, game.ErrIllegal) {
				c.log.Error("input", "input", ev.String(), "err", err)
			}
		}
	}
}
