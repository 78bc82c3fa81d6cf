package controller

import (
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/hw"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// screen is the non-durable state of the screens: which screen, the
// selected game, bets placed but not dealt (not money until the deal step
// commits), cursors, the audit's and the operator's pages and drafts; and
// the button table of the screen shown (panel.go), built with each
// snapshot. Losing it in a power cut loses nothing of value. The screen
// changes only its own state; what a button does to committed state it asks
// of the controller (play, cash out, an operator change…), which goes
// through the ledger.
type screen struct {
	c        *Controller
	mode     view.Mode
	game     game.ID
	bets     []game.Bet
	undo     []game.Bet // chips placed, newest last
	lastBets map[game.ID][]game.Bet
	pos      int
	chip     int
	helpPage int
	helpFrom view.Mode // the screen help was opened from, where HELP and GAME go back

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
	// opSeq numbers the drafts whose return was asked for; returns
	// computes them off the input path (draftreturn.go).
	opSeq   uint64
	returns *draftReturns

	duelDeck   int
	duelLevel  int
	duelCursor int
	duelAmount int64

	// The presentation (shown.go): the number of the latest committed
	// step's picture, of the last settling step's, and the highest the
	// display reported shown and held; hurry counts the presses consumed
	// to finish a reveal.
	present, settled, shownN, heldN, hurry uint64
	// recoveredSeen: an input was accepted since a boot that resumed a
	// round; the "game recovered" notice has been read.
	recoveredSeen bool

	// message is why the last input was refused (notice.go), "" if it was
	// accepted.
	message string
	// refusals numbers the refusals of hardware inputs; refusal is the
	// notice the last one set. While message is that notice, the snapshot
	// numbers it (Snapshot.Refusal) and the display fades it.
	refusals uint64
	refusal  string

	// paid is the handpay the reset key has just paid, confirmed on
	// screen until the next input after the key's release (cash.go).
	paid *view.Paid

	// panel is the button table of the screen as last published: the lamps
	// lit and the press accepted come from it (panel.go).
	panel panel
}

func (u *screen) init(c *Controller) {
	u.c = c
	u.mode = view.Attract
	u.game = c.set.Games[0]
	u.lastBets = map[game.ID][]game.Bet{}
	u.recallStep = -1
	u.returns = newDraftReturns()
}

func (u *screen) clearBets() { u.bets, u.undo = nil, nil }

// position is a place a chip can go: a spot's main bet or a side bet.
type position struct {
	Spot int
	Kind game.BetKind
}

// positions are the places a chip can go at a table with rules.
func positions(rules blackjack.Rules) []position {
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
func (u *screen) selected() (p position, limit, cur money.Cents, ok bool) {
	rules, ok := u.c.set.Rules[u.game]
	ps := positions(rules)
	if !ok || len(ps) == 0 {
		return position{}, 0, 0, false
	}
	p = ps[u.pos%len(ps)]
	limit = rules.MaxBet
	if p.Kind != game.Main {
		sr, _ := rules.SideRule(p.Kind)
		limit = sr.Max
	}
	if p.Kind == game.RoyalSide {
		limit = rules.RoyalStake
	}
	for _, b := range u.bets {
		if b.Spot == p.Spot && b.Kind == p.Kind {
			cur += b.Amount
		}
	}
	return p, limit, cur, true
}

// nextChip is the chip BET+ would add now: the selected chip on the
// selected position, within its limit and the credits; a Royal Poker side
// bet is its fixed stake. why is the notice of why none can be added ("":
// one can).
func (u *screen) nextChip(cs state) (chip game.Bet, why string) {
	p, limit, cur, ok := u.selected()
	if !ok {
		return game.Bet{}, NoticeNoBet // a table without betting positions
	}
	add := min(u.c.set.Chips[u.chip%len(u.c.set.Chips)], limit-cur)
	if p.Kind == game.RoyalSide {
		add = limit - cur
	}
	if add <= 0 {
		return game.Bet{}, NoticeMaxBet // the position is at its limit
	}
	if betTotal(u.bets)+add > cs.m.Credits {
		return game.Bet{}, NoticeFunds
	}
	return game.Bet{Spot: p.Spot, Kind: p.Kind, Amount: add}, ""
}

// maxChip is what YES (max bet) adds on the selected position: up to its
// limit (the Royal Poker bet: its stake), as far as the credits left after
// the other bets allow. why is the notice of why nothing can be added.
func (u *screen) maxChip(cs state) (chip game.Bet, why string) {
	p, limit, cur, ok := u.selected()
	if !ok {
		return game.Bet{}, NoticeNoBet // a table without betting positions
	}
	add := min(limit-cur, cs.m.Credits-betTotal(u.bets))
	if p.Kind == game.RoyalSide && add < limit-cur {
		add = 0 // the Royal Poker bet is its stake or nothing
	}
	switch {
	case add > 0:
		return game.Bet{Spot: p.Spot, Kind: p.Kind, Amount: add}, ""
	case cur >= limit:
		return game.Bet{}, NoticeMaxBet
	}
	return game.Bet{}, NoticeFunds
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

// idleMode is the screen to go back to with committed state cs: the table
// of an open round, the menu with credits, else attract.
func idleMode(cs state) view.Mode {
	if cs.open != nil {
		return view.Table
	}
	if cs.m.Credits > 0 {
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
