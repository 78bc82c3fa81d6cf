package controller

import (
	"errors"

	"cabinet/internal/desk"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/serial"
	"cabinet/internal/view"
)

// The desks (internal/desk) serve the devices: the note desk the serial
// note validator (notes, bills, tickets in), the ticket desk the printer
// (tickets out). Each reaches the ledger through a deskLedger, which
// hands its commits the money and that desk's own committed values
// (desk.Books), never the rest of state; the controller routes device
// events and host requests to them and decides acceptance for them
// (noteCabinet), in the one place bills and tickets are decided.

// NoteValidator is a serial note validator as the controller sees it
// (id003.Seam): the channel of its driver's calls, the acceptance the
// controller sets, and its health for the self-test page.
type NoteValidator interface {
	Calls() <-chan *hw.NoteCall
	SetAcceptance(max money.Cents, tickets bool)
	Health() hw.ValidatorHealth
}

// ErrNoCredits is returned by an autoplay step with a validator wired when
// the credits are short of the next round: autoplay inserts no bills of
// its own then; the caller waits for the validator's notes.
var ErrNoCredits = errors.New("cabinet: autoplay: credits short, waiting for a note")

// HostRedemption is a step of the host's ticket redemption that the SAS
// link answered from memory (desk.HostRedemption).
type HostRedemption = desk.HostRedemption

// deskLedger is a desk's ledger (desk.Ledger[S]): own selects the desk's
// committed values in state.
type deskLedger[S any] struct {
	l   *books
	set *InForce // the credit limit of a bill credited
	own func(s *state) *S
}

var (
	_ desk.Ledger[desk.Notes]   = deskLedger[desk.Notes]{}
	_ desk.Ledger[desk.Tickets] = deskLedger[desk.Tickets]{}
)

func (d deskLedger[S]) Cur() desk.Committed[S] {
	cs := d.l.cur()
	return desk.Committed[S]{Credits: cs.m.Credits, Failed: cs.memErr != nil, Own: *d.own(&cs)}
}

func (d deskLedger[S]) Commit(op string, change func(tx *recovery.Tx, b *desk.Books[S]) error) error {
	return d.l.commit(op, func(tx *recovery.Tx, s *state) error {
		return change(tx, &desk.Books[S]{M: &s.m, Own: d.own(s),
			Log: func(kind, text, detail string, args ...meters.Arg) error {
				return d.l.logDetail(tx, kind, text, detail, args...)
			},
			Emit:  func(e HostEvent) error { return d.l.emit(tx, e) },
			Tilts: func() []string { return s.tilts() },
			Bill: func(v money.Cents, from string) error {
				return d.l.creditBill(tx, s, v, d.set.CreditLimit, from)
			},
		})
	})
}

func (d deskLedger[S]) View(fn func(tx *recovery.Tx) error) error { return d.l.store().View(fn) }
func (d deskLedger[S]) LogOnly(kind, text, detail string, args ...meters.Arg) error {
	return d.l.logOnly(kind, text, detail, args...)
}
func (d deskLedger[S]) LineFault(device string, r serial.FaultReport) error {
	return d.l.lineFault(device, r)
}
func (d deskLedger[S]) SASOn() bool    { return d.l.sasOn() }
func (d deskLedger[S]) HostDown() bool { return d.l.hostDown() }

// noteCabinet is what the note desk asks of the controller
// (desk.NoteCabinet): acceptance by the controller's rules, the hardware
// path of a refused note, the jam tilt, the screen's words.
type noteCabinet struct{ c *Controller }

var _ desk.NoteCabinet = noteCabinet{}

// BillRefusal is why a note of value v in escrow is returned now, "" if
// it may be stacked: billNotice, in the words of the refusal notices
// (billReasons).
func (n noteCabinet) BillRefusal(v money.Cents) string {
	switch billNotice(n.c.led.cur(), &n.c.set, n.c.scr.mode, v) {
	case "":
		return ""
	case NoticeBillRefused:
		return "not an enabled bill (" + v.String() + ")"
	case NoticeCreditLimit:
		return billReasons[NoticeCreditLimit].text
	}
	return billReasons[NoticeBillInhibited].text // a jam is a tilt: the acceptor is off
}

func (n noteCabinet) TicketRefusal() string {
	c := n.c
	return ticketRefusal(c.led.cur(), &c.set, c.scr.mode, c.opt.TITO, c.led.sasOn(), c.led.hostDown())
}
func (n noteCabinet) Refused(in hw.Input) error { return n.c.hardware(in) }
func (n noteCabinet) BillJam(on bool, why string) error {
	return n.c.led.billJam(on, why)
}
func (n noteCabinet) Say(key string) { n.c.scr.message = key }

func (n noteCabinet) Credited() {
	if n.c.scr.mode == view.Attract {
		n.c.scr.mode = view.Menu
	}
}

// ticketCabinet is what the ticket desk asks of the controller
// (desk.TicketCabinet).
type ticketCabinet struct{ c *Controller }

func (t ticketCabinet) ClearBets() { t.c.scr.clearBets() }

// ticketRefusal is why no ticket may come in now in committed state cs
// (a desk.TicketIn reason; "" if one may): the acceptance rules of notes
// (ticket in follows the bills' inhibits, but not the host's bill
// disable, which is the bills'), the casino system needed to redeem it,
// and a ticket out not settled.
func ticketRefusal(cs state, set *InForce, mode view.Mode, t *TITO, sasOn, hostDown bool) string {
	switch {
	case t == nil || !t.TicketIn || !sasOn:
		return desk.TicketInOff
	case hostDown:
		return desk.TicketInHostDown
	case acceptorOff(cs, mode) || cs.tickets.Busy() != "":
		return desk.TicketInInhibited
	case cs.m.Credits >= set.CreditLimit:
		return desk.TicketInCreditLimit
	}
	return ""
}
