package controller

import (
	"errors"
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/hw"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// ui is the non-durable state of the screens: which screen, the selected game,
// bets placed but not dealt (not money until the deal step commits), cursors.
// Losing it in a power cut loses nothing of value.
type ui struct {
	c        *Controller
	mode     view.Mode
	game     game.ID
	menu     int
	bets     []game.Bet
	undo     []game.Bet // chips placed, newest last
	lastBets map[game.ID][]game.Bet
	pos      int
	chip     int
	helpPage int

	auditPage  int
	recallIdx  int
	recallStep int
	eventPage  int
	checks     []view.KV // the self-test page's results, run when it opens

	opCursor  int
	opPrev    view.Mode
	opError   *view.OperatorError
	opDraft   string
	opConfirm bool
	opSaved   *view.Setting
	opRTP     *view.OperatorRTP

	duelDeck   int
	duelLevel  int
	duelMarks  [5]bool
	duelCursor int
	duelAmount int64
}

func (u *ui) init(c *Controller) {
	u.c = c
	u.mode = view.Attract
	u.game = c.set.Games[0]
	u.lastBets = map[game.ID][]game.Bet{}
	u.recallStep = -1
}

func (u *ui) clearBets() { u.bets, u.undo = nil, nil }

// position is a place a chip can go: a spot's main bet or a side bet.
type position struct {
	Spot int
	Kind game.BetKind
}

func (c *Controller) positions(id game.ID) []position {
	rules, ok := c.set.Rules[id]
	if !ok {
		return nil
	}
	var ps []position
	for s := range rules.MaxSpots {
		ps = append(ps, position{s, game.Main})
		for _, sr := range rules.Side {
			if sr.Kind != game.RoyalSide {
				ps = append(ps, position{s, sr.Kind})
			}
		}
	}
	if _, ok := rules.SideRule(game.RoyalSide); ok {
		ps = append(ps, position{0, game.RoyalSide})
	}
	return ps
}

func betTotal(bs []game.Bet) money.Cents {
	var t money.Cents
	for _, b := range bs {
		t += b.Amount
	}
	return t
}

// selected is the betting position the player has chosen, its limit (a
// Royal Poker bet: its fixed stake) and what is bet on it now; ok is false
// at a table without positions.
func (c *Controller) selected() (p position, limit, cur money.Cents, ok bool) {
	ps := c.positions(c.ui.game)
	if len(ps) == 0 {
		return position{}, 0, 0, false
	}
	p = ps[c.ui.pos%len(ps)]
	rules := c.set.Rules[c.ui.game]
	limit = rules.MaxBet
	if p.Kind != game.Main {
		sr, _ := rules.SideRule(p.Kind)
		limit = sr.Max
	}
	if p.Kind == game.RoyalSide {
		limit = rules.RoyalStake
	}
	for _, b := range c.ui.bets {
		if b.Spot == p.Spot && b.Kind == p.Kind {
			cur += b.Amount
		}
	}
	return p, limit, cur, true
}

// nextChip is the chip BET+ would add now: the selected chip on the
// selected position, within its limit and the credits; a Royal Poker side
// bet is its fixed stake. An error says why none can be added.
func (c *Controller) nextChip(cs state) (game.Bet, error) {
	p, limit, cur, ok := c.selected()
	if !ok {
		return game.Bet{}, fmt.Errorf("%w: no betting position", ErrNotNow)
	}
	add := min(c.set.Chips[c.ui.chip%len(c.set.Chips)], limit-cur)
	if p.Kind == game.RoyalSide {
		add = limit - cur
	}
	if add <= 0 {
		return game.Bet{}, fmt.Errorf("%w: %s on spot %d is at its limit %v", ErrNotNow, p.Kind, p.Spot+1, limit)
	}
	if betTotal(c.ui.bets)+add > cs.m.Credits {
		return game.Bet{}, fmt.Errorf("%w: bets would exceed the credits", ErrNotNow)
	}
	return game.Bet{Spot: p.Spot, Kind: p.Kind, Amount: add}, nil
}

// maxChip is what YES (max bet) adds on the selected position: up to its
// limit (the Royal Poker bet: its stake), as far as the credits left after
// the other bets allow. An error says why nothing can be added.
func (c *Controller) maxChip(cs state) (game.Bet, error) {
	p, limit, cur, ok := c.selected()
	if !ok {
		return game.Bet{}, fmt.Errorf("%w: no betting position", ErrNotNow)
	}
	add := min(limit-cur, cs.m.Credits-betTotal(c.ui.bets))
	if p.Kind == game.RoyalSide && add < limit-cur {
		add = 0 // the Royal Poker bet is its stake or nothing
	}
	if add <= 0 {
		return game.Bet{}, fmt.Errorf("%w: %s on spot %d: nothing more can be bet (limit %v, credits %v)", ErrNotNow, p.Kind, p.Spot+1, limit, cs.m.Credits)
	}
	return game.Bet{Spot: p.Spot, Kind: p.Kind, Amount: add}, nil
}

// mergeBets sums chips per (spot, kind) in a stable order.
func mergeBets(chips []game.Bet) []game.Bet {
	var out []game.Bet
	for _, ch := range chips {
		found := false
		for i := range out {
			if out[i].Spot == ch.Spot && out[i].Kind == ch.Kind {
				out[i].Amount += ch.Amount
				found = true
			}
		}
		if !found {
			out = append(out, ch)
		}
	}
	return out
}

// betsValid reports whether the pending bets would be accepted by the
// engine's deal validation (limits, spots, side-bet conditions, credits).
// It runs the engine on a scratch round with an empty source: the engine
// validates before drawing, so "shoe is empty" means the bets are good.
func (c *Controller) betsValid(cs state, bets []game.Bet) bool {
	if len(bets) == 0 || c.ui.game == game.Duel {
		return false
	}
	r, _, err := c.newRound(c.ui.game, cs.m.NextRound, nil)
	if err != nil {
		return false
	}
	_, err = r.Apply(game.Action{Kind: game.Deal, Bets: bets, Funds: cs.m.Credits}, card.NewStack())
	return errors.Is(err, card.ErrEmpty)
}

func (c *Controller) idleMode() view.Mode {
	if c.cur.open != nil {
		return view.Table
	}
	if c.cur.m.Credits > 0 {
		return view.Menu
	}
	return view.Attract
}

// blackjackButtons maps buttons to blackjack actions; a button stands for the
// first of its actions that is legal.
var blackjackButtons = map[hw.Button][]game.ActionKind{
	hw.Deal:    {game.Deal},
	hw.Hit:     {game.Hit},
	hw.Stand:   {game.Stand},
	hw.Double:  {game.Double},
	hw.Split:   {game.Split},
	hw.Yes:     {game.EvenMoney, game.Insure},
	hw.No:      {game.NoInsure},
	hw.Special: {game.Zap, game.Surrender},
}

// duelButtons maps buttons to Poker Duel actions: YES bets (open/raise),
// STAND goes on without betting (wait/change/see), NO passes (folds),
// DOUBLE confirms the draw, DEAL starts a deal or buys a session.
var duelButtons = map[hw.Button][]game.ActionKind{
	hw.Deal:   {game.Buy, game.Deal, game.Ante},
	hw.Yes:    {game.Open, game.Raise},
	hw.Stand:  {game.Wait, game.Change, game.See},
	hw.No:     {game.Pass},
	hw.Double: {game.Draw},
}

// ActionFor returns the legal action a button stands for now.
func ActionFor(b hw.Button, legal []game.ActionKind) (game.ActionKind, bool) {
	for _, table := range []map[hw.Button][]game.ActionKind{blackjackButtons, duelButtons} {
		for _, k := range table[b] {
			for _, l := range legal {
				if l == k {
					return k, true
				}
			}
		}
	}
	return "", false
}

// LampsFor lights the buttons of the legal actions.
func LampsFor(legal []game.ActionKind) hw.ButtonSet {
	var s hw.ButtonSet
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		if _, ok := ActionFor(b, legal); ok {
			s = s.With(b)
		}
	}
	return s
}
