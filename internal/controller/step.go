package controller

import (
	"encoding/json"
	"errors"
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// stopped is why no game action, draw mark or cash-out is taken now, as
// a notice the player can read ("" when play may go on): a tilt (the
// memory and digest errors among them), a handpay, a ticket out not
// settled (the wait for the casino system's number, the print, a ticket
// for the attendant), the audit or the operator screens. The button
// tables light no such action while it says why (panel.setPlay), so the
// table alone judges a press; the operator key and autoplay ask it too.
func stopped(cs state, mode view.Mode) string {
	switch {
	case len(cs.tilts()) > 0:
		return NoticeTiltPrefix + cs.tilts()[0]
	case cs.m.Handpay > 0:
		return NoticeHandpayWait
	case cs.tickets.Busy() != "":
		return cs.tickets.Busy()
	case cs.switches[hw.AuditKey]:
		return NoticeAuditKey
	case mode == view.Operator:
		return NoticeOperatorKeys
	}
	return ""
}

// playing is the steps' own assertion of the table's decision (stopped):
// a lit entry never asks a step while play is stopped (TestModelWired
// walks every device to check it), and a step asked anyway (a direct
// call) changes nothing: under a memory error above all, whose commits
// write nothing.
func (c *Controller) playing() error {
	if why := stopped(c.led.cur(), c.scr.mode); why != "" {
		return fmt.Errorf("%w: play is stopped (%s)", ErrNotNow, why)
	}
	return nil
}

// play applies one game action to the open round, starting a round of the
// selected game for Deal/Buy when none is open (a lit entry's action: the
// table has checked that play is not stopped). The engine decides the step
// (cards drawn), then ONE store transaction commits the round state, the step
// record, the credit change, the meters and the pool; only then does the
// controller's state (and the snapshot) move. On any error nothing changed.
func (c *Controller) play(a game.Action) error {
	if err := c.playing(); err != nil {
		return err
	}
	a.Funds = c.led.cur().m.Credits
	starting := c.led.cur().open == nil
	var (
		id    game.ID
		no    uint64
		r     game.Round
		open  recovery.OpenRound
		shoe  *card.Shoe
		notes []game.Event
		err   error
		// noShoe: the game has no committed shoe ready (dealFrom).
		noShoe error
	)
	if starting {
		if a.Kind != game.Deal && a.Kind != game.Buy {
			return game.Illegal(a.Kind, "no round in progress")
		}
		id, no = c.scr.game, c.led.cur().m.NextRound
		if err := startRefused(c.led.cur(), id); err != nil {
			return fmt.Errorf("%w: %w", ErrNotNow, err)
		}
		var rules json.RawMessage
		r, rules, err = c.set.newRound(id, no, c.led.cur().carry[id])
		if err != nil {
			return err
		}
		open = recovery.OpenRound{Game: id, Round: no, Start: c.now(), Rules: rules, CreditsBefore: c.led.cur().m.Credits}
		if shoe, open.Commit, noShoe = c.dealFrom(id); noShoe != nil {
			shoe = nil
		}
		if shoe != nil && shoe.Cut > 0 && shoe.Pos == 0 {
			// The first round of a continuous shoe (shuffled and
			// committed when the last one was finished).
			notes = append(notes, game.Event{Kind: game.Note, Hand: game.Dealer, Text: "shuffle"})
		}
	} else {
		id, no = c.led.cur().open.Game, c.led.cur().open.Round
		if r, err = decodeRound(id, c.led.cur().open.State); err != nil {
			return fmt.Errorf("%w: %w", ErrMemory, err)
		}
		open = *c.led.cur().open
		open.Steps = append([]meters.Step(nil), c.led.cur().open.Steps...)
		shoe = c.led.cur().open.Shoe.Clone()
	}
	var src card.Source = card.NewStack() // a round that deals no card
	if shoe != nil {
		src = shoe
	}
	evs, err := r.Apply(a, src)
	if noShoe != nil && (err == nil || errors.Is(err, card.ErrEmpty)) {
		// The bets' own refusals (funds, limits) come first; a deal
		// never takes a card that was not committed.
		return noShoe
	}
	if err != nil {
		return err
	}
	evs = append(notes, evs...)
	step := meters.Step{N: len(open.Steps), At: c.now(), Action: a, Events: evs}

	t := r.Table()
	err = c.led.commit(fmt.Sprintf("commit round %d step %d", no, step.N), func(tx *recovery.Tx, s *state) error {
		m := &s.m
		if starting {
			m.NextRound = no + 1
			m.Meters.RoundStarted(id)
			if err := c.led.emit(tx, HostEvent{Kind: HostGameStarted}); err != nil {
				return err
			}
		}
		var err error
		if step.Events, err = c.set.money(m, id, step.Events); err != nil {
			return err
		}
		open.Steps = append(open.Steps, step)
		if a.Kind == game.Draw {
			open.Marks = nil // the draw took them (duel.go's draw marks)
		}
		open.State = mustJSON(r)
		open.Shoe = shoe
		_, s.win = roundMoney(open.Steps)
		if r.Done() {
			staked, paid := roundMoney(open.Steps)
			m.Meters.RoundOver(id, staked, paid)
			if err := c.led.emit(tx, HostEvent{Kind: HostGameEnded}); err != nil {
				return err
			}
			ref, err := c.led.finishShoe(tx, s, &open, step.At)
			if err != nil {
				return err
			}
			rec := meters.Recall{Round: no, Game: id, Start: open.Start, End: step.At, Rules: open.Rules,
				Steps: open.Steps, CreditsBefore: open.CreditsBefore, CreditsAfter: m.Credits, Recovered: open.Recovered, Shoe: ref}
			if err := tx.CloseRound(rec); err != nil {
				return err
			}
			if err := c.carryOut(tx, s, id, r); err != nil {
				return err
			}
			// The next round's shoe, committed before the player can
			// bet on it.
			if err := c.commitShoe(tx, s, id); err != nil {
				return err
			}
			s.open, s.round, s.last, s.recovered = nil, nil, &t, false
		} else {
			if err := tx.PutOpenRound(&open); err != nil {
				return err
			}
			s.open, s.round = &open, r
		}
		for _, e := range step.Events {
			if e.Handpay {
				if err := c.led.logDetail(tx, meters.KindHandpay, fmt.Sprintf("jackpot handpay %v (round %d)", e.Amount, no),
					"jackpot_handpay", meters.MoneyArg(e.Amount), meters.CountArg(no)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("cabinet: round %d step %d: %w", no, step.N, err)
	}
	// Committed: now, and only now, the cabinet moves.
	c.scr.stepCommitted(c.led.cur().open == nil)
	if c.opt.OnCommit != nil {
		c.opt.OnCommit(id, no, step.Events)
	}
	return nil
}

// carryOut writes what game id carries to its next round (Poker Duel's
// session; Free Bet's shoe is its committed shoe now, and a carry left by
// a store of before is dropped).
func (c *Controller) carryOut(tx *recovery.Tx, s *state, id game.ID, r game.Round) error {
	var carry []byte
	switch id {
	case game.Duel:
		carry = duelCarry(r)
	case game.FreeBet:
		if s.carry[id] == nil {
			return nil
		}
	default:
		return nil
	}
	if err := tx.PutCarry(id, carry); err != nil {
		return err
	}
	s.withCarry(id, carry)
	return nil
}

// money applies a step's money to the machine record: stakes leave the credit
// meter, payouts enter it (or go to a handpay at/over the limit), Royal Poker
// stakes feed the pool, jackpot wins are resolved from the pool as it stands
// in this transaction (the win locks that amount). It returns the events as
// recorded (jackpot amounts filled in, payouts added).
func (s *InForce) money(m *recovery.Machine, id game.ID, evs []game.Event) ([]game.Event, error) {
	out := make([]game.Event, 0, len(evs)+1)
	pay := func(e game.Event) {
		if s.HandpayLimit > 0 && e.Amount >= s.HandpayLimit {
			e.Handpay = true
			m.Handpay += e.Amount
			m.HandpayKind = HandpayJackpot
		} else {
			m.Credits += e.Amount
		}
		out = append(out, e)
	}
	for _, e := range evs {
		switch e.Kind {
		case game.Stake:
			if e.Amount < 0 || e.Amount > m.Credits {
				return nil, fmt.Errorf("%w: stake %v with %v credits", game.ErrFunds, e.Amount, m.Credits)
			}
			m.Credits -= e.Amount
			if e.Bet == game.RoyalSide {
				u := blackjack.PoolContribution(e.Amount, s.JackpotRateE7)
				m.PoolUnits += u
				m.Meters.ProgressiveContrib += u
			}
			out = append(out, e)
		case game.Payout:
			if e.Amount < 0 {
				panic("BUG: negative payout event")
			}
			pay(e)
		case game.JackpotWin:
			var cents money.Cents
			cents, m.PoolUnits = blackjack.PoolWin(m.PoolUnits, e.Percent, s.JackpotReset)
			m.Meters.ProgressiveHits++
			m.Meters.ProgressivePaid += cents
			e.Amount = cents
			out = append(out, e)
			pay(game.Event{Kind: game.Payout, Hand: e.Hand, Spot: e.Spot, Bet: game.Jackpot, Amount: cents})
		default:
			out = append(out, e)
		}
	}
	// Step keeps handpaid wins out of TotalWon (never credited) and in the
	// game's won meters (the game paid them).
	m.Meters.Step(id, out)
	return out, nil
}

// roundMoney sums a round's stakes and payouts (handpays included).
func roundMoney(steps []meters.Step) (staked, paid money.Cents) {
	for _, s := range steps {
		st, pd := game.Money(s.Events)
		staked += st
		paid += pd
	}
	return staked, paid
}
