package controller

import (
	"encoding/json"
	"fmt"
	"io"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// stepRand hands out the random source of one step, created on first use.
type stepRand struct {
	rng   RNG
	round uint64
	step  int
	r     io.Reader
}

func (s *stepRand) reader() io.Reader {
	if s.r == nil {
		s.r = s.rng.Step(s.round, s.step)
	}
	return s.r
}

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
	case cs.cashout != nil:
		return NoticeTicketWait
	case cs.ticket != nil && cs.ticket.Status == recovery.TicketPending:
		return NoticeTicketPrinting
	case cs.ticketUncertain():
		return NoticeTicketUncertain
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
	)
	if starting {
		if a.Kind != game.Deal && a.Kind != game.Buy {
			return game.Illegal(a.Kind, "no round in progress")
		}
		id, no = c.scr.game, c.led.cur().m.NextRound
		if err := startRefused(c.led.cur(), id); err != nil {
			return fmt.Errorf("%w: %w", ErrNotNow, err)
		}
		carry := c.led.cur().carry[id]
		var rules json.RawMessage
		r, rules, err = c.set.newRound(id, no, carry)
		if err != nil {
			return err
		}
		open = recovery.OpenRound{Game: id, Round: no, Start: c.now(), Rules: rules, CreditsBefore: c.led.cur().m.Credits}
		sr := &stepRand{rng: c.rng, round: no, step: 0}
		var prev *card.Shoe
		if id == game.FreeBet && carry != nil {
			prev = new(card.Shoe)
			if err := json.Unmarshal(carry, prev); err != nil {
				return fmt.Errorf("%w: decode %s shoe: %w", ErrMemory, id, err)
			}
		}
		var reshuffled bool
		shoe, reshuffled, err = c.set.shoeFor(id, r, prev, sr)
		if err != nil {
			return err
		}
		if reshuffled {
			notes = append(notes, game.Event{Kind: game.Note, Hand: game.Dealer, Text: "shuffle"})
		}
		if c.set.lazy(id) {
			shoe.Rand = sr.reader()
		}
	} else {
		id, no = c.led.cur().open.Game, c.led.cur().open.Round
		if r, err = decodeRound(id, c.led.cur().open.State); err != nil {
			return fmt.Errorf("%w: %w", ErrMemory, err)
		}
		open = *c.led.cur().open
		open.Steps = append([]meters.Step(nil), c.led.cur().open.Steps...)
		shoe = c.led.cur().open.Shoe.Clone()
		if c.set.lazy(id) {
			shoe.Rand = (&stepRand{rng: c.rng, round: no, step: len(open.Steps)}).reader()
		}
	}
	evs, err := r.Apply(a, shoe)
	if err != nil {
		return err
	}
	shoe.Rand = nil
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
			rec := meters.Recall{Round: no, Game: id, Start: open.Start, End: step.At, Rules: open.Rules,
				Steps: open.Steps, CreditsBefore: open.CreditsBefore, CreditsAfter: m.Credits, Recovered: open.Recovered}
			if err := tx.CloseRound(rec); err != nil {
				return err
			}
			if carry := c.set.carryOut(id, r, shoe); carry != nil {
				if err := tx.PutCarry(id, carry); err != nil {
					return err
				}
				s.withCarry(id, carry)
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
					"jackpot_handpay", argMoney(e.Amount), argCount(no)); err != nil {
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

// lazy reports whether the game's shoe is drawn lazily (fresh shuffle every round).
func (s *InForce) lazy(id game.ID) bool {
	if id == game.Duel {
		return true
	}
	return s.Rules[id].FreshShuffle
}

func (s *InForce) carryOut(id game.ID, r game.Round, shoe *card.Shoe) []byte {
	switch id {
	case game.FreeBet:
		return mustJSON(shoe)
	case game.Duel:
		return duelCarry(r)
	}
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
