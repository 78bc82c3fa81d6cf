package controller

import (
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
	"cabinet/internal/money"
	"cabinet/internal/player"
	"cabinet/internal/view"
)

// Chooser picks the next action of an open round for autoplay.
type Chooser func(r game.Round, legal []game.ActionKind) game.Action

// BasicChooser plays blackjack with the engine's basic strategy and Poker
// Duel with DuelChooser.
func BasicChooser(r game.Round, legal []game.ActionKind) game.Action {
	if br, ok := r.(*blackjack.Round); ok {
		return game.Action{Kind: player.Basic(br, legal)}
	}
	return DuelChooser(r, legal)
}

// Completed is the number of rounds closed in the store (won, lost, pushed
// or voided): the simulator's progress, durable with the rounds themselves.
func (c *Controller) Completed() int64 {
	mt := c.cur.m.Meters
	return mt.Won + mt.Lost + mt.Pushed + mt.Voided
}

// AutoBets are the bets autoplay places for a game: the minimum on every
// spot, with every side bet at its minimum (Royal Poker's side bet at its
// stake), so the simulator exercises every bet.
func (c *Controller) AutoBets(id game.ID) []game.Bet {
	r, ok := c.set.Rules[id]
	if !ok {
		return nil
	}
	spots := r.MaxSpots
	if id == game.Classic || id == game.Zappit {
		spots = 1
	}
	var bets []game.Bet
	for s := range spots {
		bets = append(bets, game.Bet{Spot: s, Kind: game.Main, Amount: r.MinBet})
		for _, sr := range r.Side {
			if sr.Kind != game.RoyalSide {
				bets = append(bets, game.Bet{Spot: s, Kind: sr.Kind, Amount: sr.Min})
			}
		}
	}
	if _, ok := r.SideRule(game.RoyalSide); ok && spots >= 2 {
		bets = append(bets, game.Bet{Spot: 0, Kind: game.RoyalSide, Amount: r.RoyalStake})
	}
	return bets
}

// autoStep advances autoplay by one committed step of game id (AutoStep).
func (c *Controller) autoStep(id game.ID, choose Chooser) error {
	if choose == nil {
		choose = BasicChooser
	}
	if c.cur.memErr != nil {
		return c.cur.memErr
	}
	if c.cur.m.Handpay > 0 {
		if err := c.hardware(hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: true}); err != nil {
			return err
		}
		return c.hardware(hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: false})
	}
	if c.cur.open != nil {
		legal := c.cur.round.Legal(c.cur.m.Credits)
		if len(legal) == 0 {
			return fmt.Errorf("cabinet: autoplay: round %d has no legal action", c.cur.open.Round)
		}
		return c.play(choose(c.cur.round, legal))
	}
	c.scr.game = id
	c.scr.mode = view.Table
	var a game.Action
	var need money.Cents
	if id == game.Duel {
		r, _, err := c.set.newDuel(c.cur.m.NextRound, c.cur.carry[game.Duel])
		if err != nil {
			return err
		}
		legal := r.Legal(1 << 62)
		a = choose(r, legal)
		if a.Kind == game.Buy {
			cfg := c.set.duelConfig()
			need = cfg.Price
			seed, err := c.duelSeed(c.cur.m.NextRound)
			if err != nil {
				return err
			}
			a = duel.Act(game.Buy, duel.Params{Deck: cfg.Decks[int(c.cur.m.NextRound)%len(cfg.Decks)],
				Level: cfg.Levels[int(c.cur.m.NextRound)%len(cfg.Levels)], Seed: seed})
		}
	} else {
		a = game.Action{Kind: game.Deal, Bets: c.AutoBets(id)}
		need = a.Total() * 4 // room for doubles, splits and insurance
	}
	if c.cur.m.Credits < need {
		bill := c.acceptance(c.cur)
		if bill <= 0 {
			return fmt.Errorf("cabinet: autoplay: credits %v below %v and no bill can be accepted", c.cur.m.Credits, need)
		}
		return c.hardware(hw.Input{Kind: hw.BillStacked, Value: bill})
	}
	return c.play(a)
}
