package controller

import (
	"errors"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// Notices: why an input was refused, as Snapshot.Message carries it to the
// screen (the display translates "msg."+notice). Nothing is refused in
// silence (platform.md §7): a refused bet, bill or key turn names one of
// these, derived from the cabinet's state and the input, never from an
// error's text.
const (
	NoticeMinBet         = "min_bet"            // a main or side bet below its table minimum
	NoticeMaxBet         = "max_bet"            // BET+ on a position at its table maximum
	NoticeFunds          = "funds"              // the bets would exceed the credits
	NoticeSideNeedsMain  = "side_needs_main"    // a side bet on a spot without a main bet
	NoticeRoyalNeedsBoth = "royal_needs_both"   // the Royal Poker bet without both spots bet
	NoticeNoBet          = "no_bet"             // DEAL with no bet and none to repeat
	NoticeCreditLimit    = "credit_limit_bill"  // a bill returned: it would pass the credit limit
	NoticeBillInhibited  = "bill_inhibited"     // a bill returned: the acceptor is off (tilt, handpay, audit, operator)
	NoticeBillJammed     = "bill_jammed"        // a bill returned: the acceptor is jammed
	NoticeBillRefused    = "bill_refused"       // a bill returned by the acceptor (not a bill it takes)
	NoticeBillError      = "bill_error"         // the acceptor's signal was no bill: nothing credited, call an attendant
	NoticeOperatorRound  = "operator_mid_round" // the operator key turned while a round or a handpay is pending
	NoticeResetInAudit   = "reset_in_audit"     // the reset key turned on a pending handpay while the audit key is on
	NoticeNotNow         = "not_now"            // any other refused button
)

// notice sets the message the next snapshot shows for input in, handled
// with result err: the reason of a refusal, or none once an input is
// accepted. Called by Handle before it publishes.
func (c *Controller) notice(in hw.Input, err error) {
	c.message = c.refusal(in, err)
}

func (c *Controller) refusal(in hw.Input, err error) string {
	switch in.Kind {
	case hw.BillRefused:
		// As acceptance() decides, most specific first.
		switch {
		case c.cur.jam:
			return NoticeBillJammed
		case len(c.tilts()) > 0 || c.cur.m.Handpay > 0 || c.cur.switches[hw.AuditKey] || c.ui.mode == view.Operator || c.cur.host.BillsOff:
			return NoticeBillInhibited
		case c.cur.m.Credits+in.Value > c.set.CreditLimit:
			return NoticeCreditLimit
		}
		return NoticeBillRefused
	case hw.BillError:
		return NoticeBillError
	case hw.BillStacked:
		if in.Value <= 0 { // a stacked bill without a value: nothing credited (billStacked)
			return NoticeBillError
		}
		return ""
	case hw.SwitchChanged:
		if in.Switch == hw.OperatorKey && in.On && c.ui.mode != view.Operator {
			return NoticeOperatorRound
		}
		if in.Switch == hw.ResetKey && in.On && c.cur.m.Handpay > 0 && c.cur.memErr == nil && c.cur.switches[hw.AuditKey] {
			return NoticeResetInAudit // the handpay is not paid from the audit screens (switchChanged)
		}
		if in.Switch == hw.ResetKey && !in.On && c.message == NoticeResetInAudit {
			return c.message // the key springs back: the reason stays until the next input
		}
		return ""
	case hw.ButtonPressed:
		if err == nil || !errors.Is(err, ErrNotNow) && !errors.Is(err, game.ErrBet) && !errors.Is(err, game.ErrFunds) && !errors.Is(err, game.ErrIllegal) {
			return ""
		}
		if n := c.hostNotice(c.cur, c.ui.game); n != "" && c.ui.mode == view.Table && c.cur.open == nil && (in.Button == hw.Deal || in.Button == hw.Rebet) {
			return n
		}
		if c.ui.mode == view.Table && c.cur.open == nil && c.ui.game != game.Duel {
			switch in.Button {
			case hw.BetPlus, hw.Yes:
				return c.chipRefusal()
			case hw.No, hw.Clear:
				return NoticeNoBet
			case hw.Deal, hw.Rebet:
				return c.dealRefusal()
			}
		}
		return NoticeNotNow
	}
	return ""
}

// chipRefusal is why BET+ added nothing: the position is at its maximum, or
// the chip would take the bets over the credits.
func (c *Controller) chipRefusal() string {
	_, limit, cur, ok := c.selected()
	if !ok {
		return NoticeNotNow
	}
	if cur >= limit {
		return NoticeMaxBet
	}
	return NoticeFunds
}

// dealRefusal is why DEAL (or REBET) did not deal the pending bets, checked
// in the engine's order: a bet outside its limits, a side bet without its
// main bet, the Royal Poker bet without both spots, then the credits.
func (c *Controller) dealRefusal() string {
	bets := c.ui.bets
	if len(bets) == 0 {
		bets = c.ui.lastBets[c.ui.game]
	}
	if len(bets) == 0 {
		return NoticeNoBet
	}
	rules := c.set.Rules[c.ui.game]
	main := map[int]bool{}
	for _, b := range bets {
		if b.Kind == game.Main {
			main[b.Spot] = true
		}
	}
	var total money.Cents
	for _, b := range bets {
		total += b.Amount
		switch {
		case b.Kind == game.Main && b.Amount < rules.MinBet:
			return NoticeMinBet
		case b.Kind == game.Main && b.Amount > rules.MaxBet:
			return NoticeMaxBet
		case b.Kind == game.Main:
		case b.Kind == game.RoyalSide && (!main[0] || !main[1]):
			return NoticeRoyalNeedsBoth
		case !main[b.Spot]:
			return NoticeSideNeedsMain
		default:
			if sr, ok := rules.SideRule(b.Kind); ok && b.Kind != game.RoyalSide {
				if b.Amount < sr.Min {
					return NoticeMinBet
				}
				if b.Amount > sr.Max {
					return NoticeMaxBet
				}
			}
		}
	}
	if total > c.cur.m.Credits {
		return NoticeFunds
	}
	return NoticeNotNow
}
