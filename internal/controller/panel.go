package controller

import (
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/view"
)

// panel is the button table of one screen: what each button does now, nil
// for a button that does nothing. The lamps are the buttons with an entry and
// a press runs its entry, so "lit" and "accepted" come from one table and
// cannot disagree (platform.md §5: a lamp "lit exactly when its action is
// legal"). One builder per mode below.
type panel [hw.NumButtons]func() error

func (p *panel) set(b hw.Button, f func() error) { p[b] = f }

// lit is the set of buttons with an entry.
func (p *panel) lit() hw.ButtonSet {
	var s hw.ButtonSet
	for b, f := range p {
		if f != nil {
			s = s.With(hw.Button(b))
		}
	}
	return s
}

// shown is the screen the cabinet shows over the ui's own mode: the audit
// screens while the audit key is on, else a tilt, else a pending handpay.
func (c *Controller) shown(cs state) view.Mode {
	switch {
	case cs.switches[hw.AuditKey]:
		return view.Audit
	case len(c.tiltsOf(cs)) > 0:
		return view.Tilt
	case cs.m.Handpay > 0:
		return view.Handpay
	}
	return c.ui.mode
}

// panelFor is the button table of the screen shown with committed state cs.
func (c *Controller) panelFor(cs state) panel {
	var p panel
	switch c.shown(cs) {
	case view.Tilt, view.Handpay: // every lamp off: an attendant is needed
	case view.Audit:
		c.auditPanel(cs, &p)
	case view.Operator:
		c.operatorPanel(&p)
	case view.Attract:
		p.set(hw.Help, c.openHelp)
	case view.Help:
		c.helpPanel(cs, &p)
	case view.Menu:
		c.menuPanel(cs, &p)
	case view.Table:
		switch {
		case c.ui.game == game.Duel:
			c.duelPanel(cs, &p)
		case cs.open != nil:
			c.roundPanel(cs, &p)
		default:
			c.bettingPanel(cs, &p)
		}
	}
	return p
}

// button handles a debounced button press: the entry of the shown screen's
// table, or ErrNotNow for an unlit button.
func (c *Controller) button(b hw.Button) error {
	f := c.panelFor(c.cur)[b]
	if f == nil {
		return fmt.Errorf("%w: %s is not lit in %s", ErrNotNow, b, c.shown(c.cur))
	}
	return f()
}

func (c *Controller) openHelp() error {
	c.ui.mode, c.ui.helpPage = view.Help, 0
	return nil
}

// auditPanel: SPOT cycles the pages, HIT/STAND older/newer round, DOUBLE/SPLIT
// step forward/back; YES is the memory clear with a memory error and the
// reset key on.
func (c *Controller) auditPanel(cs state, p *panel) {
	u := &c.ui
	p.set(hw.Spot, func() error {
		u.auditPage = (u.auditPage + 1) % len(auditPages)
		u.recallIdx, u.recallStep, u.eventPage = 0, -1, 0
		if auditPages[u.auditPage] == "selftest" {
			u.checks = c.selfChecks(cs)
		}
		return c.recallShown()
	})
	if auditPages[u.auditPage%len(auditPages)] == "events" {
		// HIT older page, STAND newer: each lit only if there is one.
		if u.eventPage+1 < c.eventPages() {
			p.set(hw.Hit, func() error { u.eventPage++; return nil })
		}
		if u.eventPage > 0 {
			p.set(hw.Stand, func() error { u.eventPage--; return nil })
		}
	} else {
		p.set(hw.Hit, func() error { u.recallIdx++; u.recallStep = -1; return c.recallShown() })
		p.set(hw.Stand, func() error {
			if u.recallIdx > 0 {
				u.recallIdx--
			}
			u.recallStep = -1
			return c.recallShown()
		})
	}
	p.set(hw.Double, func() error { u.recallStep++; return nil })
	p.set(hw.Split, func() error {
		if u.recallStep > 0 {
			u.recallStep--
		}
		return nil
	})
	if c.cur.memErr != nil && cs.switches[hw.ResetKey] {
		p.set(hw.Yes, c.memoryClear)
	}
}

// operatorPanel: HIT / STAND move the cursor, BET+ drafts the next allowed
// value, YES saves the draft, NO drops it.
func (c *Controller) operatorPanel(p *panel) {
	if c.opt.Operator == nil {
		return
	}
	for _, b := range []hw.Button{hw.Hit, hw.Stand, hw.Spot, hw.BetPlus} {
		p.set(b, func() error { return c.operatorButton(b) })
	}
	if c.ui.opDraft != "" {
		if c.ui.opRTP == nil || !c.ui.opRTP.Refused {
			p.set(hw.Yes, func() error { return c.operatorButton(hw.Yes) })
		}
		p.set(hw.No, func() error { return c.operatorButton(hw.No) })
	}
}

// helpPanel: SPOT/BET+ next page; HELP and GAME back where help was opened
// from; DEAL to the table (only with credits or a round open: platform.md §1).
func (c *Controller) helpPanel(cs state, p *panel) {
	next := func() error { c.ui.helpPage++; return nil }
	back := func() error { c.ui.mode = c.idleMode(); return nil }
	p.set(hw.Spot, next)
	p.set(hw.BetPlus, next)
	p.set(hw.Help, back)
	p.set(hw.Game, back)
	if cs.m.Credits > 0 || cs.open != nil {
		p.set(hw.Deal, func() error { c.ui.mode = view.Table; return nil })
	}
}

// menuPanel: SPOT/BET+ next game, DEAL to its table, HELP, CASH OUT.
func (c *Controller) menuPanel(cs state, p *panel) {
	nextGame := func() error {
		c.ui.menu = (c.ui.menu + 1) % len(c.set.Games)
		c.ui.game = c.set.Games[c.ui.menu]
		return nil
	}
	p.set(hw.Spot, nextGame)
	p.set(hw.BetPlus, nextGame)
	p.set(hw.Deal, func() error {
		if err := c.gameSelected(); err != nil {
			return err
		}
		c.ui.mode = view.Table
		c.ui.pos, c.ui.duelAmount = 0, 0
		c.ui.clearBets()
		return nil
	})
	p.set(hw.Help, c.openHelp)
	if cs.m.Credits > 0 {
		p.set(hw.CashOut, c.cashOut)
	}
}

// toMenu leaves a table between rounds.
func (c *Controller) toMenu() error {
	c.ui.clearBets()
	c.ui.mode = c.idleMode()
	if c.ui.mode == view.Table {
		c.ui.mode = view.Menu
	}
	return nil
}

// bettingPanel: the table between rounds (a blackjack game).
func (c *Controller) bettingPanel(cs state, p *panel) {
	u := &c.ui
	p.set(hw.Spot, func() error {
		if n := len(c.positions(u.game)); n > 0 {
			u.pos = (u.pos + 1) % n
		}
		return nil
	})
	p.set(hw.Special, func() error { u.chip = (u.chip + 1) % len(c.set.Chips); return nil })
	p.set(hw.Help, c.openHelp)
	p.set(hw.Game, c.toMenu)
	if cs.m.Credits > 0 {
		p.set(hw.CashOut, c.cashOut)
	}
	if chip, err := c.nextChip(cs); err == nil {
		p.set(hw.BetPlus, func() error {
			u.undo = append(u.undo, chip)
			u.bets = mergeBets(u.undo)
			return nil
		})
	}
	if mx, err := c.maxChip(cs); err == nil {
		p.set(hw.Yes, func() error { // max bet on the selected position
			u.undo = append(u.undo, mx)
			u.bets = mergeBets(u.undo)
			return nil
		})
	}
	if n := len(u.undo); n > 0 {
		p.set(hw.Clear, func() error { // the last chip back
			u.undo = u.undo[:n-1]
			u.bets = mergeBets(u.undo)
			return nil
		})
		p.set(hw.No, func() error { // every bet back
			u.clearBets()
			return nil
		})
	}
	prev := u.lastBets[u.game]
	prevOK := len(prev) > 0 && c.betsValid(cs, prev)
	if prevOK {
		p.set(hw.Rebet, func() error {
			u.undo = append([]game.Bet(nil), prev...)
			u.bets = mergeBets(u.undo)
			return nil
		})
	}
	bets := u.bets
	if len(bets) == 0 && prevOK {
		bets = prev
	}
	if len(bets) > 0 && c.betsValid(cs, bets) && c.startRefused(cs, u.game) == nil {
		p.set(hw.Deal, func() error {
			if err := c.play(game.Action{Kind: game.Deal, Bets: bets}); err != nil {
				return err
			}
			u.lastBets[u.game] = append([]game.Bet(nil), bets...)
			u.clearBets()
			return nil
		})
	}
}

// roundPanel: a blackjack round in progress: each lit button is a legal
// action (ActionFor), and HELP.
func (c *Controller) roundPanel(cs state, p *panel) {
	p.set(hw.Help, c.openHelp)
	legal := cs.round.Legal(cs.m.Credits)
	for b := range hw.NumButtons {
		if k, ok := ActionFor(b, legal); ok {
			p.set(b, func() error { return c.play(game.Action{Kind: k}) })
		}
	}
}
