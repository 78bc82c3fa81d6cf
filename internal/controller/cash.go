package controller

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"cabinet/internal/desk"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// Handpay kinds kept in the machine record.
const (
	HandpayCashout = desk.HandpayCashout
	HandpayJackpot = "jackpot"
)

// billReasons are why a bill came back, keyed by the notice the screen shows
// for it (notice.go decides both): the event's reason ("bill_reason."+key,
// translated) and its English record.
var billReasons = map[string]struct{ key, text string }{
	NoticeCreditLimit:   {"credit_limit", "it would take the credits past the credit limit"},
	NoticeBillInhibited: {"inhibited", "the acceptor was off (tilt, handpay, audit, operator menu or the casino system)"},
	NoticeBillJammed:    {"jammed", "the acceptor was jammed"},
	NoticeBillRefused:   {"refused", "the acceptor did not take it"},
}

// billRefused logs a bill the acceptor returned, with the reason the screen
// shows (the same decision: refusal), so the technician reads in the event
// log what the player read on the screen. The acceptor's own words stay in
// the English record.
func (c *Controller) billRefused(in hw.Input) error {
	r := billReasons[refusal(c.led.cur(), &c.scr, &c.set, in, nil)]
	reason := meters.KeyArg("bill_reason." + r.key)
	text, detail, args := fmt.Sprintf("bill %v refused: %s", in.Value, r.text), "bill_refused", []meters.Arg{meters.MoneyArg(in.Value), reason}
	if in.Value <= 0 { // the acceptor did not say which bill
		text, detail, args = "bill refused: "+r.text, "bill_refused_unknown", []meters.Arg{reason}
	}
	if in.Err != "" {
		text += " (acceptor: " + in.Err + ")"
	}
	return c.led.logOnly(meters.KindBillRefused, text, detail, args...)
}

// billError logs a signal from the acceptor that is no bill (a malformed
// pulse train): nothing is credited (platform.md §5), the screen says so
// (NoticeBillError) and the technician reads the decoder's reason.
func (l *books) billError(in hw.Input) error {
	return l.logOnly(meters.KindBillError, in.String(), "bill_error", meters.Arg{Type: meters.ArgText, Value: in.Err})
}

// billStacked credits a stacked bill in one transaction with its meters. A
// stacked bill is money in the cash box: it is always credited, even above the
// credit limit (the acceptor should have been inhibited; logged if not).
func (c *Controller) billStacked(v money.Cents) error {
	if v <= 0 {
		return c.led.logOnly(meters.KindBillError, fmt.Sprintf("stacked bill with value %v ignored", v), "bill_error",
			meters.Arg{Type: meters.ArgText, Value: fmt.Sprintf("stacked bill with value %v", v)})
	}
	if c.led.cur().memErr != nil {
		c.log.Error("bill stacked during memory error: not credited, store untouched", "value", v)
		return fmt.Errorf("%w: bill %v stacked during memory error", ErrMemory, v)
	}
	err := c.led.commit("credit bill", func(tx *recovery.Tx, s *state) error { return c.led.creditBill(tx, s, v, c.set.CreditLimit, "") })
	if err != nil {
		return fmt.Errorf("cabinet: credit bill %v: %w", v, err)
	}
	if c.scr.mode == view.Attract {
		c.scr.mode = view.Menu
	}
	return nil
}

// creditBill credits bill v in tx: credits, bill meters, the last bill,
// the event-log entry (its SAS bill-accepted exception by value; it says
// so if the credits went past limit, the credit limit in force), and LP
// 08's one-shot inhibit. from, if set, says where the bill came from (the
// English record only).
func (l *books) creditBill(tx *recovery.Tx, s *state, v, limit money.Cents, from string) error {
	m := &s.m
	m.Credits += v
	m.LastBill = v
	m.Meters.BillsIn += v
	if m.Meters.Bills == nil {
		m.Meters.Bills = map[string]int64{}
	}
	m.Meters.Bills[strconv.FormatInt(int64(v), 10)]++
	text, detail := "bill "+v.String(), "bill"
	if from != "" {
		text += " (" + from + ")"
	}
	if m.Credits > limit {
		text += " (credit limit exceeded: acceptor was not inhibited)"
		detail = "bill_over_limit"
	}
	if err := l.logDetail(tx, meters.KindBillAccepted, text, detail, meters.MoneyArg(v)); err != nil {
		return err
	}
	if s.host.BillOneShot && !s.host.BillsOff {
		// LP 08's action: the acceptor goes off after this bill, in the
		// bill's own transaction, until the host enables it (LP 06).
		s.host.BillsOff = true
		if err := tx.PutHostState(s.host); err != nil {
			return err
		}
		return l.logDetail(tx, meters.KindHost, "host: bill acceptor disabled after the bill (LP 08 action)", "host_bills_oneshot")
	}
	return nil
}

// cashOut pays the whole credit meter out: on a ticket when the cabinet
// can print one (the ticket desk), else by locking a handpay, with the reason a
// ticket could not be printed on screen. Only between rounds.
func (c *Controller) cashOut() error {
	if err := c.playing(); err != nil {
		return err
	}
	if c.led.cur().open != nil {
		return fmt.Errorf("%w: cash out during a round", ErrNotNow)
	}
	if c.led.cur().m.Credits <= 0 {
		return fmt.Errorf("%w: no credits", ErrNotNow)
	}
	return c.tickets.CashOut()
}

// clearHandpay is the attendant's reset key: a cash-out handpay takes the
// amount locked off the credits, to zero unless a bill was stacked since
// (handpay cancelled credits meter); a jackpot handpay goes to the jackpot
// handpay meter (it was never credited). The screen confirms it, with the
// amount (issue 35: the lock vanished with no word of what was paid).
func (c *Controller) clearHandpay() error {
	var paid view.Paid
	err := c.led.commit("clear handpay", func(tx *recovery.Tx, s *state) error {
		m := &s.m
		amount, kind := m.Handpay, m.HandpayKind
		paid = view.Paid{Kind: kind, Amount: amount}
		switch kind {
		case HandpayCashout:
			if amount > m.Credits {
				return fmt.Errorf("%w: cashout handpay %v above credits %v", ErrMemory, amount, m.Credits)
			}
			m.Credits -= amount
			m.Meters.HandpayCancelled += amount
		default:
			m.Meters.JackpotHandpay += amount
			m.Meters.JackpotHandpays++
		}
		m.Handpay, m.HandpayKind = 0, ""
		return c.led.logDetail(tx, meters.KindHandpayClear, fmt.Sprintf("%s handpay %v paid by attendant", kind, amount),
			"handpay_paid", meters.KeyArg("handpay_kind."+kind), meters.MoneyArg(amount))
	})
	if err != nil {
		return fmt.Errorf("cabinet: clear handpay: %w", err)
	}
	c.scr.paid = &paid
	if c.led.cur().m.Credits == 0 && c.led.cur().open == nil {
		c.scr.mode = view.Attract
	}
	return nil
}

// switchChanged handles doors and keys: the new position, its meter and its
// event-log entry (with the tilt it starts or clears) commit together, and
// only then does the cabinet show it. With a memory error nothing is written
// but the position is still followed (the audit key must work).
func (c *Controller) switchChanged(sw hw.Switch, on bool) error {
	if c.led.cur().switches[sw] == on {
		return nil
	}
	pos := "closed"
	if on {
		pos = "opened"
	}
	kind := meters.KindDoor
	switch sw {
	case hw.AuditKey, hw.OperatorKey, hw.ResetKey:
		kind = meters.KindKey
		pos = "off"
		if on {
			pos = "on"
		}
	}
	text := sw.String() + " " + pos
	detail := "switch_" + pos // switch_opened, switch_closed, switch_on, switch_off
	if sw == hw.OperatorKey && on && (c.led.cur().open != nil || stopped(c.led.cur(), c.scr.mode) != "") {
		text += " (refused: only between rounds, with nothing pending)"
		detail = "operator_key_refused"
	}
	err := c.led.commit("log "+text, func(tx *recovery.Tx, s *state) error {
		s.switches[sw] = on
		if tx == nil {
			return c.led.logTx(tx, kind, text)
		}
		if on {
			switch sw {
			case hw.MainDoor:
				s.m.Meters.MainDoor++
			case hw.CashDoor:
				s.m.Meters.CashDoor++
			case hw.AuditKey:
				s.m.Meters.AuditKey++
			case hw.OperatorKey:
				s.m.Meters.OperatorKey++
			}
		}
		if err := c.led.logDetail(tx, kind, text, detail, argSwitch(sw)); err != nil {
			return err
		}
		door := sw == hw.MainDoor || sw == hw.CashDoor
		if t := s.tilts(); door && on && len(t) > 0 {
			return c.led.logDetail(tx, meters.KindTilt, fmt.Sprintf("tilt: %v", t), "tilt", meters.TiltArgs(t)...)
		}
		if door && !on && len(s.tilts()) == 0 {
			return c.led.logDetail(tx, meters.KindTiltClear, "tilt cleared", "tilt_cleared")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("cabinet: log %s: %w", text, err)
	}
	switch sw {
	case hw.MainDoor:
		if !on {
			c.playedAtDoor = c.led.cur().m.Meters.Played
		}
	case hw.ResetKey:
		if on && c.led.cur().memErr == nil && c.led.cur().tickets.Uncertain() {
			// reprint, or void with the audit key (internal/desk)
			err := c.tickets.Attendant(c.led.cur().switches[hw.AuditKey])
			if errors.Is(err, desk.ErrNoReprint) {
				err = fmt.Errorf("%w: %w", ErrNotNow, err)
			}
			return err
		}
		if on && c.led.cur().m.Handpay > 0 && c.led.cur().memErr == nil && !c.led.cur().switches[hw.AuditKey] {
			return c.clearHandpay()
		}
	case hw.OperatorKey:
		if on && c.led.cur().open == nil && stopped(c.led.cur(), c.scr.mode) == "" {
			c.scr.enterOperator()
		} else if !on && c.scr.mode == view.Operator {
			c.scr.leaveOperator(c.led.cur())
		}
	case hw.AuditKey:
		if on {
			c.scr.auditPage, c.scr.recallIdx, c.scr.recallStep = 0, 0, -1
		}
	}
	return nil
}

// TiltReasons are every reason state.tilts can give (the screen translates
// "tilt."+reason).
var TiltReasons = []string{"memory_error", "program_digest", "main_door", "cash_door", "bill_jam",
	"stacker_open", "stacker_full", "bill_error", "validator_gone"}

// billJam tilts while the acceptor reports a jam and clears when it is free
// again (platform.md §1: tilt from any state, clearing back to where it was;
// the acceptor stays inhibited meanwhile). Both are logged. The ledger's: a
// hardware fact committed with its entry, asked for by the pulse acceptor
// and the note validator alike.
func (l *books) billJam(on bool, why string) error {
	if l.cur().jam == on {
		return nil
	}
	return l.commit("log bill jam", func(tx *recovery.Tx, s *state) error {
		s.jam = on
		t := s.tilts()
		switch {
		case on:
			if err := l.emit(tx, HostEvent{Kind: HostBillJam}); err != nil {
				return err
			}
			return l.logDetail(tx, meters.KindTilt, fmt.Sprintf("tilt: %v (bill jam: %s)", t, why), "tilt", meters.TiltArgs(t)...)
		case len(t) == 0:
			return l.logDetail(tx, meters.KindTiltClear, "tilt cleared (bill jam cleared)", "tilt_cleared")
		}
		return l.logDetail(tx, meters.KindTiltClear, fmt.Sprintf("bill jam cleared, still tilted: %v", t), "jam_cleared_still_tilted", meters.TiltArgs(t)...)
	})
}

// outputs drives lamps, tower light and acceptance from the committed state.
func (c *Controller) outputs(cs state) {
	s := c.snap.Load()
	if s == nil {
		return
	}
	if err := c.hw.SetLamps(s.Lamps); err != nil {
		c.log.Error("set lamps", "err", err)
	}
	tower := hw.TowerOff
	switch {
	case len(cs.tilts()) > 0:
		tower = hw.TowerTilt
	case cs.m.Handpay > 0 || cs.tickets.Uncertain():
		tower = hw.TowerAttendant
	}
	if err := c.hw.SetTower(tower); err != nil {
		c.log.Error("set tower", "err", err)
	}
	max := acceptance(cs, &c.set, c.scr.mode)
	if err := c.hw.SetAcceptance(max); err != nil {
		c.log.Error("set acceptance", "err", err)
	}
	// A serial validator takes notes up to max and asks at escrow
	// (the note desk asks noteCabinet.BillRefusal: the same rules).
	// Tickets: the validator takes them as the cabinet would, except
	// while the casino system is offline: then the cabinet draws the
	// ticket in and gives it back itself, saying why (a validator's own
	// reject names no reason the player can act on).
	tin := ticketRefusal(cs, &c.set, c.scr.mode, c.opt.TITO, c.led.sasOn(), c.led.hostDown())
	if c.opt.Validator != nil {
		c.opt.Validator.SetAcceptance(max, tin == "" || tin == desk.TicketInHostDown)
	}
}

// acceptorOff reports the acceptor off for money of any value: a tilt
// (the memory and digest errors among them), a handpay, the audit or the
// operator screens. Bills are off too while the host disabled them
// (billNotice), tickets while a ticket out is not settled (ticketRefusal).
func acceptorOff(cs state, mode view.Mode) bool {
	return len(cs.tilts()) > 0 || cs.m.Handpay > 0 || cs.switches[hw.AuditKey] || mode == view.Operator
}

// billNotice is why a bill of value v is not taken now (a notice), "" if
// it is: the one decision of bill acceptance, most specific first. The
// pulse acceptor's inhibit (acceptance), the serial validator's escrow
// (noteCabinet.BillRefusal) and the notice of a bill returned all come from it.
func billNotice(cs state, set *InForce, mode view.Mode, v money.Cents) string {
	switch {
	case cs.jam:
		return NoticeBillJammed
	case acceptorOff(cs, mode) || cs.host.BillsOff:
		return NoticeBillInhibited
	case !slices.Contains(set.Bills, v) || !billAllowed(cs.host, v):
		return NoticeBillRefused
	case cs.m.Credits+v > set.CreditLimit:
		return NoticeCreditLimit
	}
	return ""
}

// acceptance is the largest bill the acceptor may take now (billNotice);
// 0 inhibits it. The hardware self-test is another command (cabinet
// hwtest), never a controller mode.
func acceptance(cs state, set *InForce, mode view.Mode) money.Cents {
	var best money.Cents
	for _, b := range set.Bills {
		if b > best && billNotice(cs, set, mode, b) == "" {
			best = b
		}
	}
	return best
}
