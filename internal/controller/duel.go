package controller

import (
	"encoding/json"
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
)

// duelStart is the duel's "rules" record of a round: the configuration and
// the session as they were at the start of the round (the start of a replay).
type duelStart struct {
	Config  duel.Config   `json:"config"`
	Session *duel.Session `json:"session"`
}

func (s *InForce) duelConfig() duel.Config {
	if cfg, ok := s.Duel.Config.(duel.Config); ok {
		return cfg
	}
	return duel.DefaultConfig()
}

func (s *InForce) newDuel(no uint64, carry []byte) (game.Round, []byte, error) {
	var sess *duel.Session
	if carry != nil {
		sess = new(duel.Session)
		if err := json.Unmarshal(carry, sess); err != nil {
			return nil, nil, fmt.Errorf("%w: decode duel session: %w", ErrMemory, err)
		}
	}
	cfg := s.duelConfig()
	r, err := duel.New(cfg, sess, no)
	if err != nil {
		return nil, nil, err
	}
	return r, mustJSON(duelStart{Config: cfg, Session: sess}), nil
}

func freshDuel(rules []byte, no uint64) (game.Round, error) {
	var s duelStart
	if err := json.Unmarshal(rules, &s); err != nil {
		return nil, fmt.Errorf("decode duel start: %w", err)
	}
	return duel.New(s.Config, s.Session, no)
}

func decodeDuel(state []byte) (game.Round, error) {
	r, err := duel.Decode(state) // strict, versioned, checked
	if err != nil {
		return nil, err
	}
	return r, nil
}

func duelCarry(r game.Round) []byte {
	return mustJSON(r.(*duel.Round).Session())
}

// duelSessionOpen reports a Poker Duel session bought and not over, between
// two deals: the player's place is the duel table (after a restart, the
// audit or the operator screens), not the menu.
func duelSessionOpen(cs state) bool {
	b := cs.carry[game.Duel]
	if b == nil {
		return false
	}
	var s duel.Session
	if err := json.Unmarshal(b, &s); err != nil {
		return false // the deal's own decoding reports it
	}
	return !s.Over
}

func duelShoe(r game.Round) *card.Shoe {
	if r.(*duel.Round).DeckSize() == 32 {
		return &card.Shoe{Cards: card.ShortDeck()}
	}
	return &card.Shoe{Cards: card.Deck()}
}

// duelPanel: Poker Duel at the table. Between deals DEAL buys a session
// (SPOT picks the deck, SPECIAL the level) or deals, GAME leaves, CASH OUT;
// during a deal BET+ sets the amount for YES (open/raise), SPOT moves the
// card cursor and SPECIAL marks a card for the draw, DOUBLE confirms the
// draw. The engine's legal actions light their buttons (ActionFor).
func (u *screen) duelPanel(cs state, p *panel) {
	c := u.c
	cfg := c.set.duelConfig()
	p.set(hw.Help, u.openHelp)
	var legal []game.ActionKind
	if cs.round != nil {
		legal = cs.round.Legal(cs.m.Credits)
		p.set(hw.BetPlus, func() error {
			u.duelAmount += cfg.Ante
			if u.duelAmount > cfg.MaxBet {
				u.duelAmount = cfg.Ante
			}
			return nil
		})
		if d := duel.PictureOf(cs.round.Table()); d != nil && len(d.Player) > 0 {
			p.set(hw.Spot, func() error { u.duelCursor = (u.duelCursor + 1) % 5; return nil })
			p.set(hw.Special, func() error { u.duelMarks[u.duelCursor] = !u.duelMarks[u.duelCursor]; return nil })
		} else {
			p.refuse(hw.Spot, NoticeDuelNoCards)
			p.refuse(hw.Special, NoticeDuelNoCards)
		}
	} else {
		if n := hostNotice(cs, game.Duel); n != "" {
			p.refuse(hw.Deal, n)
			p.refuse(hw.Rebet, n)
		} else if r, _, err := c.set.newDuel(cs.m.NextRound, cs.carry[game.Duel]); err == nil {
			legal = r.Legal(cs.m.Credits)
		}
		p.set(hw.Game, u.toMenu(cs))
		if duelSessionOpen(cs) {
			// Between two deals of a session: no card to move to or mark
			// (the display names SPOT and SPECIAL so).
			p.refuse(hw.Spot, NoticeDuelNoCards)
			p.refuse(hw.Special, NoticeDuelNoCards)
		} else { // between sessions: SPOT picks the deck, SPECIAL the level
			p.set(hw.Spot, func() error { u.duelDeck = (u.duelDeck + 1) % max(1, len(cfg.Decks)); return nil })
			p.set(hw.Special, func() error { u.duelLevel = (u.duelLevel + 1) % max(1, len(cfg.Levels)); return nil })
		}
		if cs.m.Credits > 0 {
			p.set(hw.CashOut, c.cashOut)
		}
	}
	for b := range hw.NumButtons {
		if k, ok := ActionFor(b, legal); ok {
			p.set(b, func() error { return u.duelAction(cs, k) })
		}
	}
}

// duelAction plays a legal duel action with the player's choices.
func (u *screen) duelAction(cs state, k game.ActionKind) error {
	c := u.c
	cfg := c.set.duelConfig()
	var p duel.Params
	switch k {
	case game.Buy:
		p.Deck = cfg.Decks[c.scr.duelDeck%len(cfg.Decks)]
		p.Level = cfg.Levels[c.scr.duelLevel%len(cfg.Levels)]
		seed, err := duelSeed(c.rng, cs.m.NextRound)
		if err != nil {
			return err
		}
		p.Seed = seed
	case game.Open, game.Raise:
		p.Amount = u.duelBet(cs, cfg.Ante)
	case game.Draw:
		for i, m := range c.scr.duelMarks {
			if m {
				p.Discard = append(p.Discard, i)
			}
		}
	}
	if err := c.play(duel.Act(k, p)); err != nil {
		return err
	}
	if k == game.Draw || c.cur.open == nil {
		c.scr.duelMarks = [5]bool{}
		c.scr.duelCursor = 0
	}
	return nil
}

// duelBet is the amount an Open or Raise button offers: the player's choice
// (BET+ steps it by the ante) clamped into what the deal allows now
// (duel.Round.BetRange: the rule book's limits, what the player can pay and
// what the computer can match), so a lit button is never refused.
func (u *screen) duelBet(cs state, ante int64) int64 {
	a := max(u.duelAmount, ante)
	if r, ok := cs.round.(*duel.Round); ok {
		if lo, hi := r.BetRange(); hi > 0 {
			a = min(max(a, lo), hi)
		}
	}
	return a
}

// duelSeed draws a session's bluff seed for round from the production RNG
// (recorded with the Buy, so the session replays).
func duelSeed(rng RNG, round uint64) (uint64, error) {
	var b [8]byte
	if _, err := rng.Step(round, -1).Read(b[:]); err != nil {
		return 0, fmt.Errorf("cabinet: duel seed: %w", err)
	}
	var seed uint64
	for _, x := range b {
		seed = seed<<8 | uint64(x)
	}
	return seed, nil
}
