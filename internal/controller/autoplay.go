package controller

import (
	"fmt"
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
	"cabinet/internal/money"
	"cabinet/internal/player"
	"cabinet/internal/view"
)

// Chooser picks the next action of an open round for autoplay, among legal:
// the actions of the buttons lit now. A Poker Duel amount it asks for is
// set with BET+, to the nearest amount the panel offers not above it.
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
	mt := c.led.cur().m.Meters
	return mt.Won + mt.Lost + mt.Pushed + mt.Voided
}

// autoBets are the bets autoplay places for a game: the minimum on every
// spot, with every side bet at its minimum (Royal Poker's side bet at its
// stake), so the simulator exercises every bet.
func (s *InForce) autoBets(id game.ID) []game.Bet {
	r, ok := s.Rules[id]
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

// maxAutoInputs bounds the inputs of one autoplay step (the presses that
// walk to the table, pick chips and positions, and the one that commits).
const maxAutoInputs = 200

// autoStep advances autoplay of game id by one committed step: an
// attendant's handpay clear, a bill when credits are short, the selection
// of the game (with SAS on), the deal, or the next decision of the open
// round (whatever its game). It walks the player's own path: every input
// is a hardware input handled as the cabinet handles any (a button pressed
// only when it is lit), and the chooser picks among the actions of the lit
// buttons. The step ends with the first input that commits.
func (c *Controller) autoStep(s AutoStep) error {
	id, choose := s.Game, s.Choose
	if choose == nil {
		choose = BasicChooser
	}
	a := &autoplayer{c: c, id: id, choose: choose, cashOut: s.CashOut}
	for range maxAutoInputs {
		if c.led.cur().memErr != nil {
			return c.led.cur().memErr
		}
		in, err := a.next()
		if err != nil {
			return err
		}
		before := c.led.commits()
		err = c.hardware(in)
		if err == nil {
			err = c.commitShown() // as Handle does before it publishes
		}
		// The next input sees this one's button table. The snapshot is
		// published once, when the step is done (Handle): autoplay never
		// runs on the audit screens, whose pages alone read the store.
		c.scr.panel = c.scr.build(c.led.cur(), pages{})
		if err != nil {
			return fmt.Errorf("cabinet: autoplay: %s: %w", in, err)
		}
		if c.led.commits() != before && in.Kind != hw.SwitchChanged {
			if !a.marked(in) {
				return nil
			}
			// A draw mark commits (duel.go) but is part of the draw
			// being made, not a step: the chooser's pick stands.
			a.actAt = c.led.commits()
		}
		if in.Kind == hw.SwitchChanged && !in.On {
			return nil // the reset key back: the handpay is paid
		}
	}
	return fmt.Errorf("cabinet: autoplay %s: no committed step after %d inputs (mode %s)", id, maxAutoInputs, c.scr.shown(c.led.cur()))
}

// autoplayer decides autoplay's next input from what the player sees: the
// screen shown, the lit buttons, the committed state.
type autoplayer struct {
	c      *Controller
	id     game.ID
	choose Chooser
	// act is the chooser's pick for the committed state of commit number
	// actAt: the presses that set its amount or its cards do not ask again.
	act   *game.Action
	actAt uint64
	// cashOut: press CASH OUT between rounds (AutoStep.CashOut).
	cashOut bool
}

// marked reports that in was the press of SPECIAL that marks a card for
// the Poker Duel draw the chooser picked.
func (a *autoplayer) marked(in hw.Input) bool {
	return a.act != nil && a.act.Kind == game.Draw && in.Kind == hw.ButtonPressed && in.Button == hw.Special
}

func pressOf(b hw.Button) hw.Input { return hw.Input{Kind: hw.ButtonPressed, Button: b} }

// next is the next input: the reset key for a handpay, a bill when the
// credits are short, else a lit button.
func (a *autoplayer) next() (hw.Input, error) {
	c, cs, u := a.c, a.c.led.cur(), &a.c.scr
	if cs.m.Handpay > 0 && cs.memErr == nil && !cs.switches[hw.AuditKey] {
		// The attendant's key: on (paid), then back off.
		return hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: !cs.switches[hw.ResetKey]}, nil
	}
	if cs.switches[hw.ResetKey] {
		return hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: false}, nil
	}
	if c.tickets.CanReprint() {
		// The attendant's key on a ticket not confirmed: printed again,
		// same validation number (internal/desk).
		return hw.Input{Kind: hw.SwitchChanged, Switch: hw.ResetKey, On: true}, nil
	}
	if why := stopped(cs, u.mode); why != "" {
		return hw.Input{}, fmt.Errorf("%w: autoplay: play stopped (%s)", ErrNotNow, why)
	}
	if cs.open == nil {
		need, err := a.need()
		if err != nil {
			return hw.Input{}, err
		}
		if cs.m.Credits < need && c.opt.Validator != nil {
			// Money comes only from the validator's notes: wait for them
			// (the caller serves the validator meanwhile).
			return hw.Input{}, fmt.Errorf("%w (credits %v, the next round takes up to %v)", ErrNoCredits, cs.m.Credits, need)
		}
		if cs.m.Credits < need {
			bill := acceptance(cs, &c.set, u.mode)
			if bill <= 0 {
				return hw.Input{}, fmt.Errorf("cabinet: autoplay: credits %v below %v and no bill can be accepted", cs.m.Credits, need)
			}
			return hw.Input{Kind: hw.BillStacked, Value: bill}, nil
		}
	}
	lit := u.panel.lit()
	pressLit := func(b hw.Button) (hw.Input, error) {
		if !lit.Has(b) {
			why := u.panel[b].why
			if err := startRefused(cs, u.game); err != nil && (b == hw.Deal || b == hw.Rebet) {
				return hw.Input{}, fmt.Errorf("%w: %w", ErrNotNow, err)
			}
			return hw.Input{}, fmt.Errorf("%w: autoplay: %s is not lit in %s (%s)", ErrNotNow, b, u.shown(cs), why)
		}
		return pressOf(b), nil
	}
	if a.cashOut && cs.open == nil && cs.m.Credits > 0 {
		return pressLit(hw.CashOut)
	}
	switch u.shown(cs) {
	case view.Help:
		return pressLit(hw.Help) // back
	case view.Menu:
		if cs.open == nil && u.game != a.id {
			return pressLit(hw.Spot) // the next game
		}
		return pressLit(hw.Deal) // to its table
	case view.Table:
	default:
		return hw.Input{}, fmt.Errorf("%w: autoplay in %s", ErrNotNow, u.shown(cs))
	}
	switch {
	case cs.open != nil:
		return a.decide(lit, pressLit)
	case u.game != a.id:
		return pressLit(hw.Game) // to the menu
	case a.id == game.Duel:
		return a.duelStart(pressLit)
	}
	return a.bet(pressLit)
}

// need is what the next round of the game takes from the credits: four
// times its autoplay bets (room for doubles, splits and insurance), or a
// Poker Duel session's price when one must be bought.
func (a *autoplayer) need() (money.Cents, error) {
	c := a.c
	if a.id != game.Duel {
		return betTotal(c.set.autoBets(a.id)) * 4, nil
	}
	r, _, err := c.set.newDuel(c.led.cur().m.NextRound, c.led.cur().carry[game.Duel])
	if err != nil {
		return 0, err
	}
	if a.choose(r, r.Legal(1<<62)).Kind == game.Buy {
		return c.set.duelConfig().Price, nil
	}
	return 0, nil
}

// litActions are the actions of the lit buttons now (ActionFor: a button
// stands for the first of its actions that is legal).
func litActions(lit hw.ButtonSet, legal []game.ActionKind) map[game.ActionKind]hw.Button {
	out := map[game.ActionKind]hw.Button{}
	for b := range hw.NumButtons {
		if k, ok := ActionFor(b, legal); ok && lit.Has(b) {
			if _, dup := out[k]; !dup {
				out[k] = b
			}
		}
	}
	return out
}

// decide is the next input of an open round: the chooser picks among the
// lit buttons' actions; a Poker Duel action's choices (the amount, the
// cards to draw) are set with their buttons first.
func (a *autoplayer) decide(lit hw.ButtonSet, pressLit func(hw.Button) (hw.Input, error)) (hw.Input, error) {
	cs, u := a.c.led.cur(), &a.c.scr
	acts := litActions(lit, cs.round.Legal(cs.m.Credits))
	legal := make([]game.ActionKind, 0, len(acts))
	for _, k := range cs.round.Legal(cs.m.Credits) {
		if _, ok := acts[k]; ok {
			legal = append(legal, k)
		}
	}
	if len(legal) == 0 {
		return hw.Input{}, fmt.Errorf("cabinet: autoplay: round %d has no lit action", cs.open.Round)
	}
	if a.act == nil || a.actAt != a.c.led.commits() {
		act := a.choose(cs.round, legal)
		a.act, a.actAt = &act, a.c.led.commits()
	}
	act := *a.act
	b, ok := acts[act.Kind]
	if !ok {
		return hw.Input{}, fmt.Errorf("cabinet: autoplay: the chooser picked %s, not lit (%v)", act.Kind, legal)
	}
	if r, ok := cs.round.(*duel.Round); ok {
		prm, err := duel.ParamsOf(act)
		if err != nil {
			return hw.Input{}, err
		}
		switch act.Kind {
		case game.Open, game.Raise:
			// YES offers duelBet: BET+ steps it by the ante; the nearest
			// offered amount not above the chooser's.
			want := duelOffered(r, a.c.set.duelConfig(), prm.Amount)
			if u.duelBet(cs, a.c.set.duelConfig().Ante) != want {
				return pressLit(hw.BetPlus)
			}
		case game.Draw:
			var marks [5]bool
			for _, i := range prm.Discard {
				if i >= 0 && i < len(marks) {
					marks[i] = true
				}
			}
			if have := duelMarks(cs.open); have != marks {
				if have[u.duelCursor] != marks[u.duelCursor] {
					return pressLit(hw.Special) // mark or unmark the card under the cursor
				}
				return pressLit(hw.Spot) // the next card
			}
		}
	}
	return pressLit(b)
}

// duelOffered is the amount YES can offer nearest to want, not above it
// (the smallest offered if none is): the panel offers the player's choice,
// a multiple of the ante, clamped into the round's bet range.
func duelOffered(r *duel.Round, cfg duel.Config, want int64) int64 {
	lo, hi := r.BetRange()
	best := int64(-1)
	for a := cfg.Ante; a <= max(cfg.MaxBet, cfg.Ante); a += max(cfg.Ante, 1) {
		v := a
		if hi > 0 {
			v = min(max(a, lo), hi)
		}
		if v <= want && v > best {
			best = v
		}
	}
	if best < 0 {
		best = min(max(cfg.Ante, lo), max(hi, lo))
	}
	return best
}

// duelStart is the next input at the Poker Duel table between deals: the
// chooser's Buy with the deck and level of the round's turn (SPOT and
// SPECIAL pick them), or the deal.
func (a *autoplayer) duelStart(pressLit func(hw.Button) (hw.Input, error)) (hw.Input, error) {
	c, u := a.c, &a.c.scr
	if err := startRefused(c.led.cur(), game.Duel); err != nil {
		return hw.Input{}, fmt.Errorf("%w: %w", ErrNotNow, err)
	}
	r, _, err := c.set.newDuel(c.led.cur().m.NextRound, c.led.cur().carry[game.Duel])
	if err != nil {
		return hw.Input{}, err
	}
	if a.choose(r, r.Legal(c.led.cur().m.Credits)).Kind == game.Buy {
		cfg := c.set.duelConfig()
		no := int(c.led.cur().m.NextRound)
		if len(cfg.Decks) > 0 && u.duelDeck%len(cfg.Decks) != no%len(cfg.Decks) {
			return pressLit(hw.Spot)
		}
		if len(cfg.Levels) > 0 && u.duelLevel%len(cfg.Levels) != no%len(cfg.Levels) {
			return pressLit(hw.Special)
		}
	}
	return pressLit(hw.Deal)
}

// bet is the next input at a blackjack table between rounds: the game's
// autoplay bets placed chip by chip (SPOT to the position, SPECIAL to the
// chip, BET+), or all at once with REBET when they were the last bets,
// then DEAL.
func (a *autoplayer) bet(pressLit func(hw.Button) (hw.Input, error)) (hw.Input, error) {
	c, u := a.c, &a.c.scr
	want := c.set.autoBets(a.id)
	if slices.Equal(u.bets, want) {
		return pressLit(hw.Deal)
	}
	if len(u.bets) == 0 && slices.Equal(u.lastBets[a.id], want) && u.panel.lit().Has(hw.Rebet) {
		return pressLit(hw.Rebet)
	}
	rules := c.set.Rules[a.id]
	ps := positions(rules)
	for i, p := range ps {
		var target, cur money.Cents
		for _, b := range want {
			if b.Spot == p.Spot && b.Kind == p.Kind {
				target += b.Amount
			}
		}
		for _, b := range u.bets {
			if b.Spot == p.Spot && b.Kind == p.Kind {
				cur += b.Amount
			}
		}
		switch {
		case cur == target:
			continue
		case cur > target:
			return pressLit(hw.No) // every bet back, and start again
		case u.pos%len(ps) != i:
			return pressLit(hw.Spot)
		case p.Kind == game.RoyalSide:
			return pressLit(hw.BetPlus) // its fixed stake
		}
		chip := -1
		for j, v := range c.set.Chips {
			if v <= target-cur && (chip < 0 || v > c.set.Chips[chip]) {
				chip = j
			}
		}
		switch {
		case chip < 0:
			return hw.Input{}, fmt.Errorf("cabinet: autoplay: %v more on %s of spot %d: no chip that small", target-cur, p.Kind, p.Spot+1)
		case u.chip%len(c.set.Chips) != chip:
			return pressLit(hw.Special)
		}
		return pressLit(hw.BetPlus)
	}
	return hw.Input{}, fmt.Errorf("cabinet: autoplay: bets %v placed, want %v", u.bets, want)
}
