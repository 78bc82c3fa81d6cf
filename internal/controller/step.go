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

// canPlay reports why no game action is accepted now, or nil.
func (c *Controller) canPlay() error {
	switch {
	case c.cur.memErr != nil:
		return fmt.Errorf("%w: memory error", ErrNotNow)
	case c.cur.digestErr != nil:
		return fmt.Errorf("%w: program digest mismatch", ErrNotNow)
	case len(c.cur.tilts()) > 0:
		return fmt.Errorf("%w: tilted (%v)", ErrNotNow, c.cur.tilts())
	case c.cur.m.Handpay > 0:
		return fmt.Errorf("%w: handpay pending", ErrNotNow)
	case c.cur.ticketBusy() != "":
		return fmt.Errorf("%w: %s", ErrNotNow, c.cur.ticketBusy())
	case c.cur.switches[hw.AuditKey] || c.scr.mode == view.Operator:
		return fmt.Errorf("%w: audit or operator screens open", ErrNotNow)
	}
	return nil
}

// play applies one game action to the open round, starting a round of the
// selected game for Deal/Buy when none is open. The engine decides the step
// (cards drawn), then ONE store transaction commits the round state, the step
// record, the credit change, the meters and the pool; only then does the
// controller's state (and the snapshot) move. On any error nothing changed.
func (c *Controller) play(a game.Action) error {
	if err := c.canPlay(); err != nil {
		return err
	}
	a.Funds = c.cur.m.Credits
	starting := c.cur.open == nil
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
		id, no = c.scr.game, c.cur.m.NextRound
		if err := startRefused(c.cur, id); err != nil {
			return fmt.Errorf("%w: %w", ErrNotNow, err)
		}
		var rules json.RawMessage
		r, rules, err = c.set.newRound(id, no, c.cur.carry[id])
		if err != nil {
			return err
		}
		open = recovery.OpenRound{Game: id, Round: no, Start: c.now(), Rules: rules, CreditsBefore: c.cur.m.Credits}
		if shoe, open.Commit, noShoe = c.dealFrom(id); noShoe != nil {
			shoe = nil
		}
		if shoe != nil && shoe.Cut > 0 && shoe.Pos == 0 {
			// The first round of a continuous shoe (shuffled and
			// committed when the last one was finished).
			notes = append(notes, game.Event{Kind: game.Note, Hand: game.Dealer, Text: "shuffle"})
		}
	} else {
		id, no = c.cur.open.Game, c.cur.open.Round
		if r, err = decodeRound(id, c.cur.open.State); err != nil {
			return fmt.Errorf("%w: %w", ErrMemory, err)
		}
		open = *c.cur.open
		open.Steps = append([]meters.Step(nil), c.cur.open.Steps...)
		shoe = c.cur.open.Shoe.Clone()
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
	err = c.commit(fmt.Sprintf("commit round %d step %d", no, step.N), func(tx *recovery.Tx, s *state) error {
		m := &s.m
		if starting {
			m.NextRound = no + 1
			m.Meters.RoundStarted(id)
			if err := c.emit(tx, HostEvent{Kind: HostGameStarted}); err != nil {
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
			if err := c.emit(tx, HostEvent{Kind: HostGameEnded}); err != nil {
				return err
			}
			ref, err := c.finishShoe(tx, s, &open, step.At)
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
				if err := c.logDetail(tx, meters.KindHandpay, fmt.Sprintf("jackpot handpay %v (round %d)", e.Amount, no),
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
	c.scr.stepCommitted(c.cur.open == nil)
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
