package cabinet

import (
	"fmt"
	"strconv"

	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// Handpay kinds kept in the machine record.
const (
	HandpayCashout = "cashout"
	HandpayJackpot = "jackpot"
)

// Handle processes one hardware input: the single entry point of the cabinet.
func (c *Controller) Handle(in hw.Input) (err error) {
	defer c.publish()
	defer func() { c.notice(in, err) }() // a refusal says why (notice.go)
	switch in.Kind {
	case hw.SwitchChanged:
		return c.switchChanged(in.Switch, in.On)
	case hw.BillStacked:
		return c.billStacked(in.Value)
	case hw.BillJam:
		return c.billJam(in.On, in.Err)
	case hw.BillRefused, hw.BillError:
		kind := meters.KindBillRefused
		if in.Kind == hw.BillError {
			kind = meters.KindBillError
		}
		return c.logOnly(kind, in.String())
	case hw.ButtonPressed:
		return c.button(in.Button)
	}
	return fmt.Errorf("cabinet: unknown input kind %d", in.Kind)
}

// logOnly commits an event-log entry (no money). With a memory error nothing
// is written: the store is evidence.
func (c *Controller) logOnly(kind, text string) error {
	if c.memErr != nil {
		c.log.Warn("not logged (memory error)", "kind", kind, "text", text)
		return nil
	}
	return c.st.Update(func(tx *recovery.Tx) error { return tx.Log(kind, text) })
}

// billStacked credits a stacked bill in one transaction with its meters. A
// stacked bill is money in the cash box: it is always credited, even above the
// credit limit (the acceptor should have been inhibited; logged if not).
func (c *Controller) billStacked(v money.Cents) error {
	if v <= 0 {
		return c.logOnly(meters.KindBillError, fmt.Sprintf("stacked bill with value %v ignored", v))
	}
	if c.memErr != nil {
		c.log.Error("bill stacked during memory error: not credited, store untouched", "value", v)
		return fmt.Errorf("%w: bill %v stacked during memory error", ErrMemory, v)
	}
	var m recovery.Machine
	err := c.st.Update(func(tx *recovery.Tx) error {
		var err error
		if m, err = tx.Machine(); err != nil {
			return err
		}
		m.Credits += v
		m.Meters.BillsIn += v
		if m.Meters.Bills == nil {
			m.Meters.Bills = map[string]int64{}
		}
		m.Meters.Bills[strconv.FormatInt(int64(v), 10)]++
		text := "bill " + v.String()
		if m.Credits > c.set.CreditLimit {
			text += " (credit limit exceeded: acceptor was not inhibited)"
		}
		if err := tx.Log(meters.KindBillAccepted, text); err != nil {
			return err
		}
		return tx.PutMachine(m)
	})
	if err != nil {
		return fmt.Errorf("cabinet: credit bill %v: %w", v, err)
	}
	c.m = m
	if c.ui.mode == view.Attract {
		c.ui.mode = view.Menu
	}
	return nil
}

// cashOut locks the cabinet in a handpay for the whole credit meter. Only
// between rounds.
func (c *Controller) cashOut() error {
	if err := c.canPlay(); err != nil {
		return err
	}
	if c.open != nil {
		return fmt.Errorf("%w: cash out during a round", ErrNotNow)
	}
	if c.m.Credits <= 0 {
		return fmt.Errorf("%w: no credits", ErrNotNow)
	}
	var m recovery.Machine
	err := c.st.Update(func(tx *recovery.Tx) error {
		var err error
		if m, err = tx.Machine(); err != nil {
			return err
		}
		m.Handpay, m.HandpayKind = m.Credits, HandpayCashout
		if err := tx.Log(meters.KindHandpay, "cash out: handpay "+m.Credits.String()); err != nil {
			return err
		}
		return tx.PutMachine(m)
	})
	if err != nil {
		return fmt.Errorf("cabinet: cash out: %w", err)
	}
	c.m = m
	c.ui.clearBets()
	return nil
}

// clearHandpay is the attendant's reset key: a cash-out handpay takes the
// amount locked off the credits, to zero unless a bill was stacked since
// (handpay cancelled credits meter); a jackpot handpay goes to the jackpot
// handpay meter (it was never credited).
func (c *Controller) clearHandpay() error {
	var m recovery.Machine
	err := c.st.Update(func(tx *recovery.Tx) error {
		var err error
		if m, err = tx.Machine(); err != nil {
			return err
		}
		amount, kind := m.Handpay, m.HandpayKind
		switch kind {
		case HandpayCashout:
			if amount > m.Credits {
				return fmt.Errorf("cashout handpay %v above credits %v", amount, m.Credits)
			}
			m.Credits -= amount
			m.Meters.HandpayCancelled += amount
		default:
			m.Meters.JackpotHandpay += amount
			m.Meters.JackpotHandpays++
		}
		m.Handpay, m.HandpayKind = 0, ""
		if err := tx.Log(meters.KindHandpayClear, fmt.Sprintf("%s handpay %v paid by attendant", kind, amount)); err != nil {
			return err
		}
		return tx.PutMachine(m)
	})
	if err != nil {
		return fmt.Errorf("cabinet: clear handpay: %w", err)
	}
	c.m = m
	if c.m.Credits == 0 && c.open == nil {
		c.ui.mode = view.Attract
	}
	return nil
}

// switchChanged handles doors and keys: each change is logged with its meter.
func (c *Controller) switchChanged(s hw.Switch, on bool) error {
	if c.switches[s] == on {
		return nil
	}
	c.switches[s] = on
	state := "closed"
	if on {
		state = "opened"
	}
	kind := meters.KindDoor
	switch s {
	case hw.AuditKey, hw.OperatorKey, hw.ResetKey:
		kind = meters.KindKey
		state = "off"
		if on {
			state = "on"
		}
	}
	text := s.String() + " " + state
	if s == hw.OperatorKey && on && (c.open != nil || c.canPlay() != nil) {
		text += " (refused: only between rounds, with nothing pending)"
	}
	if c.memErr == nil {
		var m recovery.Machine
		err := c.st.Update(func(tx *recovery.Tx) error {
			var err error
			if m, err = tx.Machine(); err != nil {
				return err
			}
			if on {
				switch s {
				case hw.MainDoor:
					m.Meters.MainDoor++
				case hw.CashDoor:
					m.Meters.CashDoor++
				case hw.AuditKey:
					m.Meters.AuditKey++
				case hw.OperatorKey:
					m.Meters.OperatorKey++
				}
			}
			if err := tx.Log(kind, text); err != nil {
				return err
			}
			if (s == hw.MainDoor || s == hw.CashDoor) && len(c.tilts()) > 0 && on {
				if err := tx.Log(meters.KindTilt, fmt.Sprintf("tilt: %v", c.tilts())); err != nil {
					return err
				}
			}
			if (s == hw.MainDoor || s == hw.CashDoor) && !on && len(c.tilts()) == 0 {
				if err := tx.Log(meters.KindTiltClear, "tilt cleared"); err != nil {
					return err
				}
			}
			return tx.PutMachine(m)
		})
		if err != nil {
			return fmt.Errorf("cabinet: log %s: %w", text, err)
		}
		c.m = m
	}
	switch s {
	case hw.ResetKey:
		if on && c.m.Handpay > 0 && c.memErr == nil && !c.switches[hw.AuditKey] {
			return c.clearHandpay()
		}
	case hw.OperatorKey:
		if on && c.open == nil && c.canPlay() == nil {
			c.ui.enterOperator()
		} else if !on && c.ui.mode == view.Operator {
			c.ui.leaveOperator()
		}
	case hw.AuditKey:
		if on {
			c.ui.auditPage, c.ui.recallIdx, c.ui.recallStep = 0, 0, -1
		}
	}
	return nil
}

// tilts lists the reasons play is suspended (message keys), in a fixed order.
func (c *Controller) tilts() []string {
	var t []string
	if c.memErr != nil {
		t = append(t, "memory_error")
	}
	if c.digestErr != nil {
		t = append(t, "program_digest")
	}
	if c.switches[hw.MainDoor] {
		t = append(t, "main_door")
	}
	if c.switches[hw.CashDoor] {
		t = append(t, "cash_door")
	}
	if c.jam {
		t = append(t, "bill_jam")
	}
	return t
}

// TiltReasons are every reason tilts() can give (the screen translates
// "tilt."+reason).
var TiltReasons = []string{"memory_error", "program_digest", "main_door", "cash_door", "bill_jam"}

// billJam tilts while the acceptor reports a jam and clears when it is free
// again (platform.md §1: tilt from any state, clearing back to where it was;
// the acceptor stays inhibited meanwhile). Both are logged.
func (c *Controller) billJam(on bool, why string) error {
	if c.jam == on {
		return nil
	}
	c.jam = on
	if on {
		return c.logOnly(meters.KindTilt, fmt.Sprintf("tilt: %v (bill jam: %s)", c.tilts(), why))
	}
	if len(c.tilts()) == 0 {
		return c.logOnly(meters.KindTiltClear, "tilt cleared (bill jam cleared)")
	}
	return c.logOnly(meters.KindTiltClear, fmt.Sprintf("bill jam cleared, still tilted: %v", c.tilts()))
}

// outputs drives lamps, tower light and acceptance from the committed state.
func (c *Controller) outputs() {
	s := c.snap.Load()
	if s == nil {
		return
	}
	if err := c.hw.SetLamps(s.Lamps); err != nil {
		c.log.Error("set lamps", "err", err)
	}
	tower := hw.TowerOff
	switch {
	case len(c.tilts()) > 0:
		tower = hw.TowerTilt
	case c.m.Handpay > 0:
		tower = hw.TowerAttendant
	}
	if err := c.hw.SetTower(tower); err != nil {
		c.log.Error("set tower", "err", err)
	}
	if err := c.hw.SetAcceptance(c.acceptance()); err != nil {
		c.log.Error("set acceptance", "err", err)
	}
}

// acceptance is the largest bill the acceptor may take now; 0 inhibits it
// (tilt, handpay, audit, operator, credit limit reached).
func (c *Controller) acceptance() money.Cents {
	if len(c.tilts()) > 0 || c.m.Handpay > 0 || c.switches[hw.AuditKey] || c.ui.mode == view.Operator || c.ui.mode == view.HwTest {
		return 0
	}
	room := c.set.CreditLimit - c.m.Credits
	var best money.Cents
	for _, b := range c.set.Bills {
		if b <= room && b > best {
			best = b
		}
	}
	return best
}
