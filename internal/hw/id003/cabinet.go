package id003

import (
	"errors"
	"strings"
	"sync"

	"cabinet/internal/hw"
	"cabinet/internal/money"
)

// Seam connects the driver to the cabinet, which speaks of notes and
// tickets, never of ID-003's codes: it is the driver's Cashbox and event
// function, and turns each call into an hw.NoteCall on one channel that
// the cabinet's loop answers on its own goroutine (in the order the
// driver made them). Make it with NewSeam, hand it to the cabinet, build
// the driver on it (New(port, cfg, s, s.Event)), then Attach the driver.
type Seam struct {
	calls chan *hw.NoteCall
	stop  chan struct{}
	once  sync.Once

	mu     sync.Mutex
	driver *Driver

	// driver's goroutine only: a power up with bill in stacker reported
	// before the next Credit (the credit is the power-up's resolution).
	powerUp bool
}

// NewSeam returns the seam, with no driver attached yet.
func NewSeam() *Seam {
	return &Seam{calls: make(chan *hw.NoteCall, 16), stop: make(chan struct{})}
}

// Attach gives the seam its driver (acceptance, Info).
func (s *Seam) Attach(d *Driver) {
	s.mu.Lock()
	s.driver = d
	s.mu.Unlock()
}

// Close releases a driver waiting for an answer (it gets an error and
// tells the validator nothing, as a host that died). Call it once the
// cabinet's loop has stopped.
func (s *Seam) Close() { s.once.Do(func() { close(s.stop) }) }

// Calls is the channel of the driver's calls, for the loop that answers
// them.
func (s *Seam) Calls() <-chan *hw.NoteCall { return s.calls }

// Info is the validator's model, version and status (zero before a driver
// is attached).
func (s *Seam) Info() Info {
	s.mu.Lock()
	d := s.driver
	s.mu.Unlock()
	if d == nil {
		return Info{}
	}
	return d.Info()
}

// Health is the validator as the self-test page shows it: sound or not,
// its model (the version answer's first word), version and status in its
// own words.
func (s *Seam) Health() hw.ValidatorHealth {
	i := s.Info()
	model, version, _ := strings.Cut(strings.TrimSpace(i.Version), " ")
	h := hw.ValidatorHealth{Model: model, Version: strings.TrimSpace(version), Status: i.Status.String(),
		OK: i.Status.Known() && !i.Status.Fault() && !i.Status.PowerUp()}
	switch {
	case i.Gone:
		h.Status, h.OK = "not answering", false
	case i.Status == 0:
		h.Status, h.OK = "no answer yet", false
	}
	return h
}

// SetAcceptance sets the largest note the validator takes and whether it
// reads tickets.
func (s *Seam) SetAcceptance(max money.Cents, tickets bool) {
	s.mu.Lock()
	d := s.driver
	s.mu.Unlock()
	if d != nil {
		d.SetAcceptance(max)
		d.SetTickets(tickets)
	}
}

// errStopped answers a driver whose cabinet has stopped.
var errStopped = errors.New("id003: the cabinet has stopped")

// call hands c to the cabinet's loop and waits for the answer (wait
// false: only queues it).
func (s *Seam) call(c *hw.NoteCall, wait bool) hw.NoteAnswer {
	if wait {
		c.Reply = make(chan hw.NoteAnswer, 1)
	}
	select {
	case s.calls <- c:
	case <-s.stop:
		return hw.NoteAnswer{Err: errStopped}
	}
	if !wait {
		return hw.NoteAnswer{}
	}
	select {
	case a := <-c.Reply:
		return a
	case <-s.stop:
		return hw.NoteAnswer{Err: errStopped}
	}
}

// Escrow implements Cashbox.
func (s *Seam) Escrow(n Note) (Decision, error) {
	a := s.call(&hw.NoteCall{Kind: hw.NoteEscrow, Value: n.Value}, true)
	return Decision{Stack: a.Stack, Reason: a.Reason}, a.Err
}

// Ticket implements Cashbox.
func (s *Seam) Ticket(number string) (TicketDecision, error) {
	a := s.call(&hw.NoteCall{Kind: hw.NoteTicket, Ticket: number}, true)
	return TicketDecision{Action: ticketActions[a.Ticket], Reason: a.Reason}, a.Err
}

// ticketActions are the cabinet's answers as the driver's.
var ticketActions = map[hw.TicketAction]TicketAction{
	hw.TicketHold: TicketHold, hw.TicketStack: TicketStack, hw.TicketReturn: TicketReturn,
}

// Credit implements Cashbox.
func (s *Seam) Credit() (Note, bool, error) {
	p := s.powerUp
	s.powerUp = false
	a := s.call(&hw.NoteCall{Kind: hw.NoteCredit, PowerUp: p}, true)
	if errors.Is(a.Err, hw.ErrNotOrdered) {
		return Note{}, false, ErrNotOrdered
	}
	n := Note{Value: a.Value}
	if a.IsTicket {
		n.Code = TicketCode
	}
	return n, a.Fresh, a.Err
}

// Event is the driver's event function. A power-up status is resolved
// (answered) before it returns, so before the driver resets the
// validator; the other events are queued in order.
func (s *Seam) Event(e Event) {
	if e.Kind == EvPowerUp {
		s.powerUp = e.Status == StPowerUpBillStacker // resolved by the Credit that follows
	}
	ev, ok := Cabinet(e)
	if !ok {
		return
	}
	s.call(&hw.NoteCall{Kind: hw.NoteReported, Event: ev}, e.Kind == EvPowerUp)
}

// places are the statuses at which the validator shows where its note
// went, or was at a power up.
var places = map[Status]hw.NotePlace{
	StIdling: hw.NoteIdle, StDisabled: hw.NoteIdle, StStacked: hw.NoteStacked,
	StRejecting: hw.NoteRejecting, StReturning: hw.NoteReturning,
	StPowerUp: hw.NoteIdle, StPowerUpBillAcceptor: hw.NoteInAcceptor, StPowerUpBillStacker: hw.NoteInStacker,
}

// faults are the error statuses as the cabinet's faults.
var faults = map[Status]hw.ValidatorFault{
	StStackerOpen: hw.FaultStackerOpen, StStackerFull: hw.FaultStackerFull,
	StAcceptorJam: hw.FaultJam, StStackerJam: hw.FaultJam,
	StFailure: hw.FaultFailure, StCheated: hw.FaultFailure,
}

// Cabinet is the driver's event as the cabinet hears it (ok false:
// nothing to hear, a status change that settles nothing).
func Cabinet(e Event) (hw.NoteEvent, bool) {
	text := "validator: " + e.Text
	switch e.Kind {
	case EvPowerUp:
		return hw.NoteEvent{Kind: hw.NotePowerUp, At: places[e.Status], Text: e.Status.String()}, true
	case EvStatus:
		if e.Status == StEscrow && e.Ticket != "" {
			return hw.NoteEvent{Kind: hw.NoteTicketEscrowed, Ticket: e.Ticket, Text: e.String()}, true
		}
		if at, ok := places[e.Status]; ok && !e.Status.PowerUp() {
			return hw.NoteEvent{Kind: hw.NoteSettled, At: at, Text: e.Status.String()}, true
		}
		return hw.NoteEvent{}, false
	case EvReturned:
		return hw.NoteEvent{Kind: hw.NoteReturned, Value: e.Note.Value, Ticket: e.Ticket,
			IsTicket: e.Note.Code == TicketCode || e.Ticket != "", Text: e.Text}, true
	case EvRejected:
		return hw.NoteEvent{Kind: hw.NoteRejected, Text: "validator rejected it: " + e.Reject.String()}, true
	case EvUncredited, EvStoreError:
		return hw.NoteEvent{Kind: hw.NoteUncredited, Text: text}, true
	case EvLine:
		return hw.NoteEvent{Kind: hw.NoteLine, Line: e.Line, Text: e.String()}, true
	case EvTimeout:
		return hw.NoteEvent{Kind: hw.NoteGone, Text: e.Text}, true
	case EvBack:
		return hw.NoteEvent{Kind: hw.NoteBack}, true
	case EvFault, EvFaultCleared:
		what := e.Status.String()
		if e.Status == StFailure && e.Kind == EvFault {
			what += ": " + e.Failure.String()
		}
		f, ok := faults[e.Status]
		if !ok {
			f = hw.FaultPause
		}
		return hw.NoteEvent{Kind: hw.NoteFault, Fault: f, On: e.Kind == EvFault, Text: what}, true
	}
	return hw.NoteEvent{Kind: hw.NoteInfo, Text: e.String()}, true
}
