package cabinet

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

func (c *Controller) duelConfig() duel.Config {
	if cfg, ok := c.set.Duel.Config.(duel.Config); ok {
		return cfg
	}
	return duel.DefaultConfig()
}

func (c *Controller) newDuel(no uint64, carry []byte) (game.Round, []byte, error) {
	var sess *duel.Session
	if carry != nil {
		sess = new(duel.Session)
		if err := json.Unmarshal(carry, sess); err != nil {
			return nil, nil, fmt.Errorf("%w: decode duel session: %w", ErrMemory, err)
		}
	}
	cfg := c.duelConfig()
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

func duelShoe(r game.Round) *card.Shoe {
	if r.(*duel.Round).DeckSize() == 32 {
		return &card.Shoe{Cards: card.ShortDeck()}
	}
	return &card.Shoe{Cards: card.Deck()}
}

// duelButton: Poker Duel at the table. Between deals DEAL buys a session
// (SPOT picks the deck, SPECIAL the level) or deals; during a deal BET+ sets
// the amount for YES (open/raise), SPOT moves the card cursor and SPECIAL
// marks a card for the draw, DOUBLE confirms the draw.
func (c *Controller) duelButton(b hw.Button) error {
	cfg := c.duelConfig()
	switch b {
	case hw.Help:
		c.ui.mode = "help"
		return nil
	case hw.Game:
		if c.open != nil {
			return fmt.Errorf("%w: finish the deal first", ErrNotNow)
		}
		c.ui.mode = c.idleMode()
		if c.ui.mode == "table" {
			c.ui.mode = "menu"
		}
		return nil
	case hw.CashOut:
		return c.cashOut()
	case hw.BetPlus:
		c.ui.duelAmount += cfg.Ante
		if c.ui.duelAmount > cfg.MaxBet {
			c.ui.duelAmount = cfg.Ante
		}
		return nil
	case hw.Spot:
		if c.open == nil {
			c.ui.duelDeck = (c.ui.duelDeck + 1) % max(1, len(cfg.Decks))
		} else {
			c.ui.duelCursor = (c.ui.duelCursor + 1) % 5
		}
		return nil
	case hw.Special:
		if c.open == nil {
			c.ui.duelLevel = (c.ui.duelLevel + 1) % max(1, len(cfg.Levels))
		} else {
			c.ui.duelMarks[c.ui.duelCursor] = !c.ui.duelMarks[c.ui.duelCursor]
		}
		return nil
	}
	var legal []game.ActionKind
	if c.round != nil {
		legal = c.round.Legal(c.m.Credits)
	} else {
		r, _, err := c.newDuel(c.m.NextRound, mustCarry(c))
		if err != nil {
			return err
		}
		legal = r.Legal(c.m.Credits)
	}
	k, ok := ActionFor(b, legal)
	if !ok {
		return game.Illegal(game.ActionKind(b.String()), "button not lit")
	}
	a := game.Action{Kind: k}
	switch k {
	case game.Buy:
		a.Deck = cfg.Decks[c.ui.duelDeck%len(cfg.Decks)]
		a.Level = cfg.Levels[c.ui.duelLevel%len(cfg.Levels)]
		var seed [8]byte
		if _, err := c.rng.Step(c.m.NextRound, -1).Read(seed[:]); err != nil {
			return fmt.Errorf("cabinet: duel seed: %w", err)
		}
		for _, x := range seed {
			a.Seed = a.Seed<<8 | uint64(x)
		}
	case game.Open, game.Raise:
		a.Amount = c.duelBet()
	case game.Draw:
		for i, m := range c.ui.duelMarks {
			if m {
				a.Discard = append(a.Discard, i)
			}
		}
	}
	if err := c.play(a); err != nil {
		return err
	}
	if k == game.Draw || c.open == nil {
		c.ui.duelMarks = [5]bool{}
		c.ui.duelCursor = 0
	}
	return nil
}

func mustCarry(c *Controller) []byte {
	b, err := c.carry(game.Duel)
	if err != nil {
		c.log.Error("read duel session", "err", err)
	}
	return b
}

// duelBet is the amount an Open or Raise button offers: the player's choice
// (BET+ steps it by the ante) clamped into what the deal allows now
// (duel.Round.BetRange: the rule book's limits, what the player can pay and
// what the computer can match), so a lit button is never refused.
func (c *Controller) duelBet() int64 {
	a := max(c.ui.duelAmount, c.duelConfig().Ante)
	if r, ok := c.round.(*duel.Round); ok {
		if lo, hi := r.BetRange(); hi > 0 {
			a = min(max(a, lo), hi)
		}
	}
	return a
}
