package controller

import (
	"encoding/json"
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
	"cabinet/internal/recovery"
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
	stop := stopped(cs, u.mode)
	p.set(hw.Help, u.openHelp)
	var legal []game.ActionKind
	if cs.round != nil {
		legal = cs.round.Legal(cs.m.Credits)
		p.set(hw.BetPlus, func() error {
			// One ante more than the amount shown (duelBet), not than the
			// one remembered: issue 35 saw the first of two presses change
			// nothing on screen (0 → 5, shown 5 already) and 10 opened
			// where two presses were meant to make 15. Past the most the
			// deal allows, that most, then back to the ante.
			shown, hi := u.duelBet(cs, cfg.Ante), cfg.MaxBet
			if r, ok := cs.round.(*duel.Round); ok {
				if _, h := r.BetRange(); h > 0 {
					hi = h
				}
			}
			switch next := shown + cfg.Ante; {
			case next <= hi:
				u.duelAmount = next
			case shown < hi:
				u.duelAmount = hi
			default:
				u.duelAmount = cfg.Ante
			}
			return nil
		})
		if r, ok := cs.round.(*duel.Round); ok && r.Phase == duel.PhaseBet1 && len(legal) > 0 {
			// The player's turn to bet before the draw: DRAW waits for
			// the answer, and says so (issue 35).
			p.refuse(hw.Double, NoticeDuelBetFirst)
		}
		if d := duel.PictureOf(cs.round.Table()); d != nil && len(d.Player) > 0 {
			p.set(hw.Spot, func() error { u.duelCursor = (u.duelCursor + 1) % 5; return nil })
			p.setPlay(hw.Special, stop, func() error { return u.duelMark(u.duelCursor) })
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
			p.setPlay(hw.CashOut, stop, c.cashOut)
		}
	}
	for b := range hw.NumButtons {
		if k, ok := ActionFor(b, legal); ok {
			p.setPlay(b, stop, func() error { return u.duelAction(cs, k) })
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
		if c.led.cur().open != nil {
			p.Discard = append(p.Discard, c.led.cur().open.Marks...) // as committed (step.go clears them)
		}
	}
	if err := c.play(duel.Act(k, p)); err != nil {
		return err
	}
	if k == game.Draw || c.led.cur().open == nil {
		c.scr.duelCursor = 0
	}
	if c.led.cur().open == nil {
		c.scr.duelAmount = 0 // the bet size is the deal's: the next starts from the ante
	}
	return nil
}

// Draw marks (platform.md §4: a round cut by a power loss resumes exactly
// where it stopped). The cards the player marks for the exchange are part
// of the deal in progress, not screen state: each press of SPECIAL commits
// the toggled marks through the ledger in the open round's record
// (recovery.OpenRound.Marks, positions 0-4 ascending), and the table shows
// the marks as committed. A power cut (or a kill) before DRAW resumes the
// deal with the same cards marked and DRAW exchanges them; the step that
// draws clears them (step.go), the round's end deletes the record.
//
// Reading taken (the one a certification lab would): a mark is the
// player's input and, like a bet, counts once it is durable, so nothing the
// player chose is lost or silently changed by a restart; the alternative
// (clear the marks and say so) would make the player redo a choice the
// cabinet had accepted. The card cursor is a pointer, not a choice: after
// a restart it starts at the first card, as after a draw. A mark is not a
// step: the recall keeps the draw's positions, as played.

// duelMarks is the table's picture of the marks committed in open round o
// (none without one).
func duelMarks(o *recovery.OpenRound) (m [5]bool) {
	if o == nil {
		return m
	}
	for _, i := range o.Marks {
		if i >= 0 && i < len(m) { // the store checks them (recovery: 0-4, ascending)
			m[i] = true
		}
	}
	return m
}

// duelMark commits the mark of the player's card at pos toggled in the
// open Poker Duel round; nothing changes unless the commit is durable.
func (u *screen) duelMark(pos int) error {
	c := u.c
	if err := c.playing(); err != nil {
		return err
	}
	if pos < 0 || pos >= 5 {
		return fmt.Errorf("cabinet: duel mark: card position %d, want 0-4", pos)
	}
	return c.led.commit(fmt.Sprintf("mark card %d", pos), func(tx *recovery.Tx, s *state) error {
		if s.open == nil || s.open.Game != game.Duel {
			return fmt.Errorf("%w: duel mark: no Poker Duel deal in progress", ErrNotNow)
		}
		marks := duelMarks(s.open)
		marks[pos] = !marks[pos]
		open := *s.open // Steps, State and Shoe shared, not written
		open.Marks = nil
		for i, m := range marks {
			if m {
				open.Marks = append(open.Marks, i)
			}
		}
		if err := tx.PutOpenRound(&open); err != nil {
			return err
		}
		s.open = &open
		return nil
	})
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
