package sashost

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"
)

// The autonomous casino: Serve polls the machine and answers its ticket
// exceptions the way a casino management system does, keeping a ledger of
// every validation number it gave or read.

// TicketStatus is where a validation number stands in the casino's ledger.
type TicketStatus byte

// Ledger statuses.
const (
	// TicketPending: the casino gave the number (LP 58) and has not yet
	// read the machine's validation record of it (LP 4D): the ticket may
	// not be printed. Refused as "marked pending in system" (83).
	TicketPending TicketStatus = iota
	// TicketOutstanding: printed (its LP 4D record read) and not redeemed.
	TicketOutstanding
	// TicketRedeeming: the casino answered LP 71 redeem for it and waits
	// for the machine's final status; refused to any other redemption (83).
	TicketRedeeming
	// TicketRedeemed: a machine reported it redeemed (final status 00–02).
	// Final: never outstanding again, refused as "already redeemed" (84).
	TicketRedeemed
	// TicketHandpay: the record of a handpay (LP 4D types 10–60), paid by
	// the attendant; not a ticket a machine takes (refused 81).
	TicketHandpay
)

func (s TicketStatus) String() string {
	switch s {
	case TicketPending:
		return "pending"
	case TicketOutstanding:
		return "outstanding"
	case TicketRedeeming:
		return "redeeming"
	case TicketRedeemed:
		return "redeemed"
	case TicketHandpay:
		return "handpay"
	}
	return fmt.Sprintf("TicketStatus(%d)", byte(s))
}

// TicketRecord is one validation number in the casino's ledger.
type TicketRecord struct {
	Number string // 18 digits: system ID (00 secure-enhanced), then 16 digits
	Cents  int64  // LP 57's amount, replaced by the LP 4D record's
	Given  bool   // learned by giving it (LP 58)
	Read   bool   // learned from the machine's validation record (LP 4D)
	Type   byte   // the LP 4D record's validation type (when Read)
	Status TicketStatus
	// Presented counts the times LP 70 read it from a ticket in escrow;
	// Refused the refusals the casino answered (LastCode the last code it
	// answered, 00 or a refusal); Returned the redemptions that ended
	// without credit (a final status 80–BF); Redeemed the final statuses
	// 00–02 heard for it (the first one redeemed it: more are repeats).
	Presented, Refused, Returned, Redeemed int
	LastCode                               byte
	LastStatus                             byte // the machine's last LP 71 status for it
}

// Stats counts what Serve saw.
type Stats struct {
	Polls      int          // general polls sent
	Exceptions map[byte]int // exception codes reported (00 not counted)
	Silent     int          // messages the machine did not answer
	Errors     int          // replies that could not be used: busy, NACK, bad frames
	Refusals   map[byte]int // LP 71 refusals sent, by transfer code
	Redeemed   int          // tickets marked redeemed
	// Unexpected counts final statuses 00–02 for a number the casino was
	// not redeeming (marked redeemed all the same: the machine paid it).
	Unexpected int
}

func (c *Casino) interval() time.Duration {
	if c.Interval > 0 {
		return c.Interval
	}
	return 200 * time.Millisecond
}

// tries is how often Serve sends a long poll that was not answered (the
// same message again: the reference's implied NACK, so a lost reply is
// sent again and nothing is done twice).
const tries = 3

// Serve polls the machine until ctx ends: a general poll at most every
// Interval (0: 200 ms, the reference's fastest rate for a machine that does
// not advertise faster), each answered exception handled at once, then a
// general poll to address 0 (the implied ACK of the last reply, and what
// lets a restarted machine synchronise). It reacts to:
//
//   - 57: LP 57, then LP 58 with the casino's next number for a cash-out
//     waiting (system ID SystemID, 16 digits from NextNumber);
//   - 3F: LP 4C with MachineID and Sequence;
//   - 3D, 3E: LP 4D 00, the record into the ledger (acknowledged by the
//     next message);
//   - 67: LP 70, then LP 71: redeem (code 00, the ledger's amount) a ticket
//     the ledger holds outstanding, otherwise refuse it with the reason's
//     code (Reject's, 82 not in system, 84 already redeemed, 83 pending,
//     81 a handpay's number or unreadable data, 87 an amount that differs);
//   - 68: LP 71 FF; a final status 00–02 marks the ticket redeemed (once:
//     a redeemed ticket stays so), 81–BF (the machine could not take it:
//     87–8B could not stack, 81–86 its own refusals) puts one being
//     redeemed back to outstanding; 80, the echo of the casino's own
//     refusal, changes nothing.
//
// Silence, busy and malformed replies are counted and polling goes on (a
// machine restarting or off the loop is normal). It returns ctx's error,
// or ErrLink when the pty fails.
func (c *Casino) Serve(ctx context.Context) error {
	next := time.Now()
	for {
		if err := sleepUntil(ctx, next); err != nil {
			return err
		}
		next = time.Now().Add(c.interval())
		x, err := c.GeneralPoll()
		c.update(func() { c.stats.Polls++ })
		if err == nil && x != 0 {
			c.update(func() { c.stats.Exceptions[x]++ })
			err = c.react(x)
		}
		if err != nil {
			if errors.Is(err, ErrLink) {
				return err
			}
			c.count(err)
		}
		if err := c.Sync(); err != nil {
			return fmt.Errorf("%w: %w", ErrLink, err)
		}
	}
}

func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// count counts a failed exchange.
func (c *Casino) count(err error) {
	c.update(func() {
		if errors.Is(err, ErrNoReply) {
			c.stats.Silent++
		} else {
			c.stats.Errors++
		}
	})
}

// again runs one exchange up to tries times while the machine is silent
// (the identical message again) or busy (a different message first: the
// poll to address 0, so the retry is no implied NACK). Each failure but
// the last is counted.
func (c *Casino) again(f func() error) error {
	var err error
	for i := range tries {
		if err = f(); err == nil || errors.Is(err, ErrLink) || i == tries-1 {
			return err
		}
		switch {
		case errors.Is(err, ErrBusy):
			if serr := c.Sync(); serr != nil {
				return fmt.Errorf("%w: %w", ErrLink, serr)
			}
		case !errors.Is(err, ErrNoReply):
			return err // a malformed reply: asking again would not mend it
		}
		c.count(err)
	}
	return err
}

func (c *Casino) react(x byte) error {
	switch x {
	case 0x57:
		return c.validate()
	case 0x3F:
		return c.again(func() error { _, _, err := c.SetValidationID(c.MachineID, c.Sequence); return err })
	case 0x3D, 0x3E:
		return c.readRecord()
	case 0x67:
		return c.ticketIn()
	case 0x68:
		return c.ticketDone()
	}
	return nil
}

// validate answers exception 57: the cash-out's amount (LP 57), then the
// casino's next number (LP 58). The number is used up whatever the answer,
// so no number is ever given twice; an unanswered LP 58 is kept pending
// (the machine may have taken it: its record will tell).
func (c *Casino) validate() error {
	var typ byte
	var cents int64
	if err := c.again(func() (err error) { typ, cents, err = c.Cashout(); return err }); err != nil {
		return err
	}
	if typ == 0x80 {
		return nil // no cash-out waits (anymore)
	}
	sys, n := c.systemID(), c.takeNumber()
	number := fmt.Sprintf("%02d%016d", sys, n)
	var st byte
	err := c.again(func() (err error) { st, err = c.Validate(sys, n); return err })
	if err == nil && st != 0x00 {
		return nil // not in cash-out (80) or improper (81): the number was not taken
	}
	if err != nil && !errors.Is(err, ErrNoReply) {
		return err
	}
	c.update(func() {
		r := c.record(number)
		if r.Cents == 0 {
			r.Cents = cents
		}
		r.Given = true
	})
	return err
}

func (c *Casino) systemID() int {
	if c.SystemID > 0 {
		return c.SystemID
	}
	return 1
}

// takeNumber returns the next 16-digit number of the counter.
func (c *Casino) takeNumber() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counter == 0 {
		c.counter = max(c.NextNumber, 1)
	}
	n := c.counter % 1e16
	c.counter++
	return n
}

// readRecord answers exceptions 3D and 3E: the oldest unread validation
// record (LP 4D 00) into the ledger. The next message (Serve's poll to
// address 0) acknowledges it.
func (c *Casino) readRecord() error {
	var rec Record
	var ok bool
	if err := c.again(func() (err error) { rec, ok, err = c.ValidationRecord(0x00); return err }); err != nil || !ok {
		return err
	}
	number := rec.Validation18()
	c.update(func() {
		r := c.record(number)
		r.Read, r.Type, r.Cents = true, rec.Type, rec.Cents
		switch {
		case rec.Type <= 0x01: // a cashable or restricted ticket printed
			if r.Status == TicketPending {
				r.Status = TicketOutstanding
			}
		case rec.Type >= 0x80: // the machine's record of a ticket it redeemed
			c.redeemed(r)
		default: // a handpay (10, 20, 40, 60)
			if r.Status == TicketPending || r.Status == TicketOutstanding {
				r.Status = TicketHandpay
			}
		}
	})
	return nil
}

// redeemed marks r redeemed, once; the lock is held.
func (c *Casino) redeemed(r *TicketRecord) {
	r.Redeemed++
	if r.Status == TicketRedeemed {
		return
	}
	if r.Status != TicketRedeeming {
		c.stats.Unexpected++
	}
	r.Status = TicketRedeemed
	c.stats.Redeemed++
}

// ticketIn answers exception 67: the ticket in escrow (LP 70), then LP 71,
// redeeming or refusing it.
func (c *Casino) ticketIn() error {
	var td TicketData
	if err := c.again(func() (err error) { td, err = c.TicketInfo(); return err }); err != nil {
		return err
	}
	if td.Short {
		return nil // no ticket in escrow (anymore)
	}
	code, cents, number := c.decide(td)
	m, err := RedeemMessage(c.Addr, code, cents, number)
	if err != nil {
		// decide gives 18 digits read as BCD and an amount read as 5 BCD
		panic("BUG: " + err.Error())
	}
	var reply TicketData
	err = c.again(func() (err error) { reply, err = c.redeem(m); return err })
	c.update(func() {
		if code >= 0x80 {
			c.stats.Refusals[code]++
		}
		r, ok := c.ledger[number]
		if !ok {
			return
		}
		if code >= 0x80 {
			r.Refused++
			return
		}
		if err != nil {
			return // no answer: still redeeming; the machine's 68 will say how it ended
		}
		r.LastStatus = reply.Status
		if !reply.Short && reply.Status <= 0x02 {
			c.redeemed(r) // credited at once, with no pending step
		}
		if reply.Short || reply.Status >= 0x80 && reply.Status <= 0xBF || reply.Status == StatusIncompatible {
			// The machine did not take this redemption (refused it, or it
			// does not fit its cycle): the ticket was not credited.
			if r.Status == TicketRedeeming {
				r.Status = TicketOutstanding
				r.Returned++
			}
		}
	})
	return err
}

// decide picks the casino's answer to a ticket read by LP 70 and marks a
// ticket it redeems as redeeming. A number that cannot be read is refused
// with the 18 zeros (the layout needs one).
func (c *Casino) decide(td TicketData) (code byte, cents int64, number string) {
	number = td.Number
	if number == "" {
		return TransferInvalidNumber, 0, "000000000000000000"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	r, known := c.ledger[number]
	if known {
		r.Presented++
	}
	code = TransferCashable
	switch rc, rejected := c.rejects[number]; {
	case rejected:
		code = rc
	case !known:
		code = TransferNotInSystem
	case r.Status == TicketRedeemed:
		code = TransferRedeemed
	case r.Status == TicketRedeeming || r.Status == TicketPending:
		code = TransferPending
	case r.Status == TicketHandpay:
		code = TransferInvalidNumber
	case td.Cents != 0 && td.Cents != r.Cents:
		code = TransferAmountDiffers
	}
	if known {
		r.LastCode = code
	}
	if code != TransferCashable {
		return code, 0, number
	}
	r.Status = TicketRedeeming
	return code, r.Cents, number
}

// ticketDone answers exception 68: the final status of the last ticket
// (LP 71 FF; the next message acknowledges it).
func (c *Casino) ticketDone() error {
	var td TicketData
	if err := c.again(func() (err error) { td, err = c.RedeemStatus(); return err }); err != nil {
		return err
	}
	if td.Number == "" {
		return nil
	}
	c.update(func() {
		r, ok := c.ledger[td.Number]
		if !ok {
			if td.Status <= 0x02 { // paid a number the casino never knew
				c.stats.Unexpected++
			}
			return
		}
		r.LastStatus = td.Status
		switch {
		case td.Status <= 0x02:
			c.redeemed(r)
		case td.Status >= 0x81 && td.Status <= 0xBF && r.Status == TicketRedeeming:
			// The machine could not take a ticket the casino granted. 80
			// (rejected by host) is the echo of a refusal of the casino's
			// own, which says nothing of a redemption of that number still
			// going on: it changes nothing.
			r.Status = TicketOutstanding
			r.Returned++
		}
	})
	return nil
}

// record returns the ledger's record of number, a new pending one if
// there is none; the lock is held.
func (c *Casino) record(number string) *TicketRecord {
	r, ok := c.ledger[number]
	if !ok {
		r = &TicketRecord{Number: number, Status: TicketPending}
		c.ledger[number] = r
		c.order = append(c.order, number)
	}
	return r
}

// update runs f with the lock held, the maps made.
func (c *Casino) update(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	f()
}

func (c *Casino) init() {
	if c.ledger == nil {
		c.ledger = map[string]*TicketRecord{}
		c.rejects = map[string]byte{}
		c.stats.Exceptions = map[byte]int{}
		c.stats.Refusals = map[byte]int{}
	}
}

// Ledger returns a copy of the casino's records, in the order it learned
// of them. Safe while Serve runs.
func (c *Casino) Ledger() []TicketRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]TicketRecord, 0, len(c.order))
	for _, n := range c.order {
		out = append(out, *c.ledger[n])
	}
	return out
}

// Stats returns a copy of Serve's counts. Safe while Serve runs.
func (c *Casino) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	s := c.stats
	s.Exceptions, s.Refusals = maps.Clone(s.Exceptions), maps.Clone(s.Refusals)
	return s
}

// Reject makes the casino refuse the ticket number with code (a refusal,
// 80–FE: e.g. 85 expired) whenever a machine presents it; code 00
// withdraws the refusal. A redemption already answered is not undone.
func (c *Casino) Reject(number string, code byte) error {
	if err := checkNumber(number); err != nil {
		return fmt.Errorf("sashost: reject: %w", err)
	}
	if code != 0x00 && (code < 0x80 || code == TransferStatusRequest) {
		return fmt.Errorf("sashost: reject %s with transfer code %02X: want a refusal 80–FE, or 00 to withdraw one", number, code)
	}
	c.update(func() {
		if code == 0x00 {
			delete(c.rejects, number)
		} else {
			c.rejects[number] = code
		}
	})
	return nil
}
