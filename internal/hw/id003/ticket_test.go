package id003_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/money"
)

// ticketPlan is the casino system's answer for one barcode: hold that many
// times, then stack with amount, or return with reason (amount 0), or fail
// with err.
type ticketPlan struct {
	holds  int
	amount money.Cents
	reason string
	err    error
}

// ticketHost is the test's casino system: a plan per barcode, and how often
// each barcode was asked about.
type ticketHost struct {
	mu     sync.Mutex
	plans  map[string]ticketPlan
	amount map[string]money.Cents // of every barcode ever planned (a plan is used up)
	asked  map[string]int
}

func newTicketHost() *ticketHost {
	return &ticketHost{plans: map[string]ticketPlan{}, amount: map[string]money.Cents{}, asked: map[string]int{}}
}

func (h *ticketHost) plan(barcode string, p ticketPlan) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.plans[barcode] = p
	h.amount[barcode] = p.amount
}

func (h *ticketHost) ask(number string) (id003.TicketDecision, money.Cents, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked[number]++
	p, ok := h.plans[number]
	switch {
	case !ok:
		return id003.TicketDecision{Action: id003.TicketReturn, Reason: "unknown ticket"}, 0, nil
	case p.holds > 0:
		p.holds--
		h.plans[number] = p
		return id003.TicketDecision{Action: id003.TicketHold}, 0, nil
	case p.err != nil:
		return id003.TicketDecision{}, 0, p.err
	case p.amount == 0:
		return id003.TicketDecision{Action: id003.TicketReturn, Reason: p.reason}, 0, nil
	}
	return id003.TicketDecision{Action: id003.TicketStack}, p.amount, nil
}

func (h *ticketHost) asks(barcode string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.asked[barcode]
}

func (h *ticketHost) amountOf(barcode string) money.Cents {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.amount[barcode]
}

var ticketCfg = func() id003.Config { c := testCfg; c.Tickets = true; return c }()

// insertTicket feeds a ticket once the validator idles.
func (r *rig) insertTicket(barcode string) {
	r.t.Helper()
	r.waitEmu("idling", func(s id003emu.Snapshot) bool { return s.Status == id003.StIdling })
	if err := r.emu.InsertTicket(barcode); err != nil {
		r.t.Fatal(err)
	}
}

// count is the number of events of kind k whose text contains sub.
func (e *events) count(k id003.EventKind, sub string) int {
	n := 0
	for _, ev := range e.list() {
		if ev.Kind == k && strings.Contains(ev.String(), sub) {
			n++
		}
	}
	return n
}

const ticketA = "001234567890123456"

func TestTickets(t *testing.T) {
	tests := []struct {
		name     string
		noConfig bool // Config.Tickets off
		setup    func(r *rig)
		barcode  string
		plan     *ticketPlan
		stacked  bool
		kind     id003.EventKind
		want     string // in the event of kind
		asks     int    // times the Cashbox was asked (-1: at least once)
	}{
		{name: "stacked at once", barcode: ticketA, plan: &ticketPlan{amount: 2500},
			stacked: true, kind: id003.EvCredited, want: "ticket 25.00", asks: 1},
		{name: "held, then stacked", barcode: ticketA, plan: &ticketPlan{holds: 3, amount: 2500},
			stacked: true, kind: id003.EvCredited, want: "ticket 25.00", asks: 4},
		{name: "held, then returned", barcode: ticketA, plan: &ticketPlan{holds: 2, reason: "ticket already redeemed"},
			kind: id003.EvReturned, want: `ticket "001234567890123456": ticket already redeemed`, asks: 3},
		{name: "decision failed", barcode: ticketA, plan: &ticketPlan{err: errors.New("casino system link down")},
			kind: id003.EvReturned, want: "ticket decision failed: casino system link down", asks: 1},
		{name: "unknown to the host", barcode: "999999999999999999",
			kind: id003.EvReturned, want: `ticket "999999999999999999": unknown ticket`, asks: 1},
		{name: "17 digits", barcode: "00123456789012345",
			kind: id003.EvReturned, want: `barcode "00123456789012345" is not a ticket number: 17 characters, want 18 digits`},
		{name: "19 digits", barcode: "0012345678901234567",
			kind: id003.EvReturned, want: "19 characters, want 18 digits"},
		{name: "a letter", barcode: "00123456789012345X",
			kind: id003.EvReturned, want: `barcode "00123456789012345X" is not a ticket number: 'X' at position 18, want only digits 0–9`},
		{name: "a control character", barcode: "0012345678\x001234567",
			kind: id003.EvReturned, want: `'\x00' at position 11`},
		{name: "empty", barcode: "",
			kind: id003.EvReturned, want: `barcode "" is not a ticket number: 0 characters`},
		{name: "tickets off, the validator escrows it anyway", barcode: ticketA, plan: &ticketPlan{amount: 2500},
			setup: func(r *rig) { r.drv.SetTickets(false); r.emu.IgnoreMask(true) },
			kind:  id003.EvReturned, want: `ticket "001234567890123456": tickets are not accepted now`},
		{name: "tickets off, inhibited in the validator", barcode: ticketA, plan: &ticketPlan{amount: 2500},
			setup: func(r *rig) {
				r.drv.SetTickets(false)
				r.waitEmu("tickets inhibited (C7 FE)", func(s id003emu.Snapshot) bool { return s.Bar == 0xFE && s.Status == id003.StIdling })
			},
			kind: id003.EvRejected, want: "inhibited denomination or direction"},
		{name: "not configured", noConfig: true, barcode: ticketA, plan: &ticketPlan{amount: 2500},
			kind: id003.EvReturned, want: "this cabinet takes no tickets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := ticketCfg
			if tt.noConfig {
				cfg = testCfg
			}
			r := newRigWith(t, cfg)
			if tt.plan != nil {
				r.host.plan(tt.barcode, *tt.plan)
			}
			r.insert(0x61) // a note first: notes still work, and a double credit would show
			r.idleAfter(1)
			if tt.setup != nil {
				tt.setup(r)
			}
			r.insertTicket(tt.barcode)
			s := r.idleAfter(2)
			r.ev.wait(r.ctx, t, tt.kind, tt.want)
			if tt.stacked {
				if !slices.Equal(s.TicketsStacked, []string{tt.barcode}) || len(s.TicketsReturned) != 0 {
					t.Errorf("tickets stacked %q, returned %q; want %q stacked", s.TicketsStacked, s.TicketsReturned, tt.barcode)
				}
				if n := r.ev.count(id003.EvCredited, "ticket"); n != 1 {
					t.Errorf("%d ticket credits, want 1", n)
				}
				evs := r.ev.list()
				i := slices.IndexFunc(evs, func(ev id003.Event) bool { return ev.Kind == id003.EvCredited && ev.Note.Code == id003.TicketCode })
				if i < 1 || evs[i-1].Kind != id003.EvStatus || evs[i-1].Status != id003.StVendValid {
					t.Errorf("the ticket was not credited at vend valid; events:\n%s", dump(evs))
				}
			} else if !slices.Equal(s.TicketsReturned, []string{tt.barcode}) || len(s.TicketsStacked) != 0 {
				t.Errorf("tickets stacked %q, returned %q; want %q returned", s.TicketsStacked, s.TicketsReturned, tt.barcode)
			}
			if got := r.host.asks(tt.barcode); got != tt.asks {
				t.Errorf("the Cashbox was asked %d times about %q, want %d", got, tt.barcode, tt.asks)
			}
			if tt.kind == id003.EvReturned || tt.stacked {
				r.ev.wait(r.ctx, t, id003.EvStatus, fmt.Sprintf("escrow: ticket %q", tt.barcode))
			}
			r.insert(0x62)
			r.idleAfter(3)
			r.checkMoney()
		})
	}
}

// TestTicketHeldByAnEarlierHost: the host dies while it holds a ticket; the
// next one finds the validator holding, with no data and no memory of what:
// it returns it without asking, and nothing is credited.
func TestTicketHeldByAnEarlierHost(t *testing.T) {
	r := newRigWith(t, ticketCfg)
	r.host.plan(ticketA, ticketPlan{holds: 1 << 30, amount: 2500})
	r.insertTicket(ticketA)
	r.waitEmu("holding", func(s id003emu.Snapshot) bool { return s.Status == id003.StHolding })
	r.ev.wait(r.ctx, t, id003.EvStatus, `holding: ticket "001234567890123456"`)
	r.restart()
	asked := r.host.asks(ticketA)
	s := r.idleAfter(1)
	r.ev.wait(r.ctx, t, id003.EvReturned, "held in escrow by an earlier host")
	if !slices.Equal(s.TicketsReturned, []string{ticketA}) {
		t.Errorf("tickets returned %q, want %q", s.TicketsReturned, ticketA)
	}
	if got := r.host.asks(ticketA); got != asked {
		t.Errorf("the new host asked about the held ticket (%d times, %d before)", got, asked)
	}
	r.checkMoney()
}

// TestTicketPowerCutAtEveryStep cuts the validator's power at each step of a
// ticket's way (held once, then stacked or returned), with the power-up
// status that step leaves: the ticket is credited exactly when it ends in
// the stacker, once.
func TestTicketPowerCutAtEveryStep(t *testing.T) {
	tests := []struct {
		name    string
		trap    id003emu.Trap
		ret     bool // the host returns the ticket after the hold
		stacked bool
		powerUp id003.Status
	}{
		{"accepting", id003emu.Trap{Status: id003.StAccepting}, false, false, id003.StPowerUpBillAcceptor},
		{"escrow", id003emu.Trap{Status: id003.StEscrow}, false, false, id003.StPowerUpBillAcceptor},
		{"hold received", id003emu.Trap{Command: id003.CmdHold}, false, false, id003.StPowerUpBillAcceptor},
		{"holding", id003emu.Trap{Status: id003.StHolding}, false, false, id003.StPowerUpBillAcceptor},
		{"stack-1 received", id003emu.Trap{Command: id003.CmdStack1}, false, false, id003.StPowerUpBillAcceptor},
		{"stacking", id003emu.Trap{Status: id003.StStacking}, false, true, id003.StPowerUpBillStacker},
		{"vend valid before it is seen", id003emu.Trap{Status: id003.StVendValid}, false, true, id003.StPowerUpBillStacker},
		{"vend valid credited, ACK lost", id003emu.Trap{Command: id003.CmdAck}, false, true, id003.StPowerUpBillStacker},
		{"stacked", id003emu.Trap{Status: id003.StStacked}, false, true, id003.StPowerUp},
		{"return received", id003emu.Trap{Command: id003.CmdReturn}, true, false, id003.StPowerUpBillAcceptor},
		{"returning", id003emu.Trap{Status: id003.StReturning}, true, false, id003.StPowerUpBillAcceptor},
		{"holding, off long enough to time out", id003emu.Trap{Status: id003.StHolding, Silent: 4}, false, false, id003.StPowerUpBillAcceptor},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRigWith(t, ticketCfg)
			p := ticketPlan{holds: 1, amount: 2500}
			if tt.ret {
				p = ticketPlan{holds: 1, reason: "voided"}
			}
			r.host.plan(ticketA, p)
			r.insert(0x61)
			r.idleAfter(1)
			r.emu.Arm(tt.trap)
			r.insertTicket(ticketA)
			s := r.waitEmu("idle after the cut", func(s id003emu.Snapshot) bool {
				return s.Cuts == 1 && s.Status == id003.StIdling && handled(s) == 2
			})
			if got := slices.Contains(s.TicketsStacked, ticketA); got != tt.stacked {
				t.Errorf("ticket stacked = %v, want %v (stacked %q, returned %q)", got, tt.stacked, s.TicketsStacked, s.TicketsReturned)
			}
			r.ev.wait(r.ctx, t, id003.EvPowerUp, tt.powerUp.String())
			if tt.trap.Silent > 0 {
				r.ev.wait(r.ctx, t, id003.EvTimeout, "no valid answer to 3 status requests")
				r.ev.wait(r.ctx, t, id003.EvBack, "")
			}
			r.insert(0x62)
			r.idleAfter(3)
			r.checkMoney()
			if n := r.ev.count(id003.EvCredited, "ticket"); n != map[bool]int{false: 0, true: 1}[tt.stacked] {
				t.Errorf("%d ticket credits, want stacked=%v", n, tt.stacked)
			}
		})
	}
}

// TestNotesAndTicketsTogether: notes and tickets alternate; each can be
// inhibited alone (bar inhibit) or both (set inhibit).
func TestNotesAndTicketsTogether(t *testing.T) {
	r := newRigWith(t, ticketCfg)
	tickets := []string{"000000000000000001", "000000000000000002", "000000000000000003", "000000000000000004"}
	r.host.plan(tickets[0], ticketPlan{amount: 1000})
	r.host.plan(tickets[1], ticketPlan{holds: 2, amount: 550})
	r.host.plan(tickets[2], ticketPlan{amount: 125})
	r.host.plan(tickets[3], ticketPlan{amount: 9999})
	r.waitEmu("both enabled (C7 FC)", func(s id003emu.Snapshot) bool { return s.Bar == 0xFC && s.Status == id003.StIdling })
	r.insert(0x61)
	r.idleAfter(1)
	r.insertTicket(tickets[0])
	r.idleAfter(2)
	r.insert(0x63)
	r.idleAfter(3)
	r.insertTicket(tickets[1])
	r.idleAfter(4)

	r.drv.SetAcceptance(0) // notes off, tickets on: the unit stays enabled
	r.waitEmu("notes inhibited (C7 FD)", func(s id003emu.Snapshot) bool { return s.Bar == 0xFD && s.Status == id003.StIdling })
	r.insert(0x62)
	r.idleAfter(5)
	r.ev.wait(r.ctx, t, id003.EvRejected, "inhibited denomination")
	r.insertTicket(tickets[2])
	r.idleAfter(6)

	r.drv.SetAcceptance(100000)
	r.drv.SetTickets(false)
	r.waitEmu("tickets inhibited (C7 FE)", func(s id003emu.Snapshot) bool { return s.Bar == 0xFE && s.Status == id003.StIdling })
	r.insertTicket(tickets[3])
	r.idleAfter(7)
	r.insert(0x64)
	r.idleAfter(8)

	r.drv.SetAcceptance(0)
	r.waitEmu("both inhibited", func(s id003emu.Snapshot) bool { return s.Bar == 0xFF && s.Status == id003.StDisabled })
	if err := r.emu.Insert(0x61); !errors.Is(err, id003emu.ErrBusy) {
		t.Errorf("Insert while disabled = %v, want ErrBusy", err)
	}
	if err := r.emu.InsertTicket(tickets[3]); !errors.Is(err, id003emu.ErrBusy) {
		t.Errorf("InsertTicket while disabled = %v, want ErrBusy", err)
	}
	r.drv.SetTickets(true)
	r.waitEmu("tickets enabled again", func(s id003emu.Snapshot) bool { return s.Bar == 0xFD && s.Status == id003.StIdling })

	s := r.emu.Snapshot()
	r.checkMoney()
	if !slices.Equal(s.Stacked, []byte{0x61, 0x63, 0x64}) || !slices.Equal(s.Returned, []byte{0x62}) ||
		!slices.Equal(s.TicketsStacked, tickets[:3]) || !slices.Equal(s.TicketsReturned, tickets[3:]) {
		t.Errorf("notes stacked % X returned % X, tickets stacked %q returned %q", s.Stacked, s.Returned, s.TicketsStacked, s.TicketsReturned)
	}
	if c, _ := r.box.ledger(t); c != 500+2000+5000+1000+550+125 {
		t.Errorf("credits %s, want 91.75", c)
	}
}

func TestConfigTicketsOnly(t *testing.T) {
	if err := (id003.Config{Tickets: true}).Validate(); err != nil {
		t.Errorf("a tickets-only configuration: %v", err)
	}
	err := id003.Config{}.Validate()
	if !errors.Is(err, id003.ErrConfig) || !strings.Contains(err.Error(), "or accept tickets") {
		t.Errorf("Validate() of nothing accepted = %v", err)
	}
}
