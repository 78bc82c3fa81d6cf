package controller

import (
	"slices"
	"sort"
	"strconv"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/duel"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// pages is what the audit screens read of the store besides the committed
// state, for the page shown only: the event log (newest first), the game
// recall, and the last tickets out and in (newest first). The controller reads it once per snapshot (readPages); the
// presenter and the audit table take it as data.
type pages struct {
	events     []meters.Event
	recall     []meters.Recall
	ticketsOut []recovery.TicketOut
	ticketsIn  []recovery.TicketIn
	// shoes are the revealed shoes (recall page).
	shoes []recovery.Shoe
}

// readPages reads the store for the audit page shown ("" when the audit
// screens are not: nothing is read). A store that cannot
// be read shows empty pages: the memory error is on screen already.
func (l *books) readPages(page string) pages {
	var pg pages
	switch page {
	case "events":
		_ = l.store().View(func(tx *recovery.Tx) error {
			var err error
			pg.events, err = tx.Events(0) // the whole ring, newest first
			return err
		})
	case "recall":
		_ = l.store().View(func(tx *recovery.Tx) error {
			var err error
			if pg.recall, err = tx.Recall(0); err != nil {
				return err
			}
			pg.shoes, err = tx.RevealedShoes(0)
			return err
		})
	case "tickets":
		_ = l.store().View(func(tx *recovery.Tx) error {
			var err error
			if pg.ticketsOut, err = tx.TicketsOut(ticketsOutShown); err != nil {
				return err
			}
			pg.ticketsIn, err = tx.TicketsIn(ticketsInShown)
			return err
		})
	}
	return pg
}

// publish builds the snapshot of committed state cs and the screen, and
// drives the outputs (lamps, tower, acceptance) from it: the audit pages
// are read, the button table built, then the snapshot drawn by the
// presenter.
func (c *Controller) publish(cs state) {
	c.seq++
	var pg pages
	if c.scr.shown(cs) == view.Audit {
		pg = c.led.readPages(auditPages[c.scr.auditPage%len(auditPages)])
	}
	c.scr.panel = c.scr.build(cs, pg)
	pr := presenter{set: &c.set, digest: c.opt.Digest, version: c.opt.Version, figures: c.ReturnFigures, operator: c.opt.Operator,
		printer: c.tickets.PrinterNotice()}
	s := pr.snapshot(c.seq, cs, &c.scr, pg)
	if prev := c.snap.Load(); prev == nil || prev.Mode != s.Mode || prev.Under != s.Under || !slices.Equal(prev.Tilts, s.Tilts) {
		// Every state transition goes to the program log (journald on the
		// Pi); the durable event log holds the ones platform.md §4 lists
		// (doors, keys, tilts, handpays, bills, settings), written with
		// their cause.
		c.log.Info("state", "mode", s.Mode, "under", s.Under, "tilts", s.Tilts, "game", s.Game, "credits", s.Credits)
	}
	c.snap.Store(s)
	if c.led.sasOn() {
		c.publishHost(cs)
	}
	c.outputs(cs)
}

// presenter draws the snapshot. Its fields are what a snapshot shows
// besides the committed state and the screen: the settings in force, the
// program's identity, the help screens' return figures, the operator
// menu's descriptions and the ticket printer's condition as last logged.
type presenter struct {
	set             *InForce
	digest, version string
	figures         func(game.ID) []view.RTPLine // nil: none shown
	operator        OperatorMenu                 // nil: no operator menu
	printer         string                       // the printer's notice ("msg."+printer), "" none (internal/desk)
}

// snapshot is the snapshot number seq of committed state cs, screen u and
// the audit pages pg: a pure function of them (it reads no store, changes
// nothing), so a test draws any screen from values.
func (pr presenter) snapshot(seq uint64, cs state, u *screen, pg pages) *view.Snapshot {
	set := pr.set
	s := &view.Snapshot{
		Seq: seq, Mode: u.mode, Lang: set.Language, Sound: set.Sound && !cs.host.SoundOff, Volume: set.Volume, DealPaceMS: set.DealPaceMS,
		Currency: set.Currency, Denom: set.Denom,
		Credits: cs.m.Credits, Win: cs.win, Jackpot: money.Cents(cs.m.PoolUnits / PoolUnitsPerCent),
		Game: u.game, Bets: append([]game.Bet(nil), u.bets...),
		Chip: set.Chips[u.chip%len(set.Chips)], Recovered: cs.recovered && !u.recoveredSeen, Message: u.message,
		Present: u.present, Hurry: u.hurry, PauseMS: set.DecisionPauseMS,
		Paid: u.paid,
	}
	if r, ok := set.Rules[u.game]; ok {
		// The position SPOT has chosen, as the table draws it: a spot's
		// main bet or one of its side bets (issue 35: the Royal Poker
		// circle, chosen, was not highlighted).
		if ps := positions(r); len(ps) > 0 {
			p := ps[u.pos%len(ps)]
			s.Spot, s.SpotBet = p.Spot, p.Kind
		}
	}
	if u.settled > 0 && u.settled == u.present && u.holding() {
		s.HoldMS = set.ResultHoldMS
	}
	for _, id := range set.Games {
		gi := view.GameInfo{ID: id}
		if r, ok := set.Rules[id]; ok {
			gi.MinBet, gi.MaxBet, gi.Spots = r.MinBet, r.MaxBet, r.MaxSpots
			for _, sr := range r.Side {
				gi.Side = append(gi.Side, view.SideInfo{Kind: sr.Kind, Min: sr.Min, Max: sr.Max})
			}
		} else if id == game.Duel {
			gi.MinBet, gi.Spots = set.duelConfig().Price, 1
		}
		s.Games = append(s.Games, gi)
	}
	if cs.round != nil {
		t := cs.round.Table()
		s.Round = &t
	} else if cs.last != nil && cs.last.Game == u.game {
		s.Round = cs.last
	}
	if u.mode != view.Table || cs.round == nil && (cs.last == nil || cs.last.Game != u.game) {
		// The win meter is the round's on the table: not the menu's, help's
		// or attract's, nor another game's table (issue 26: the last
		// player's win stayed on the menu, help and the attract demo).
		s.Win = 0
	}
	if u.game == game.Duel && s.Round == nil {
		if r, _, err := set.newDuel(cs.m.NextRound, cs.carry[game.Duel]); err == nil {
			t := r.Table()
			s.Round = &t
		}
	}
	if d := duelPicture(s.Round); u.game == game.Duel && d != nil && len(d.Player) == 0 && d.Phase == "duel."+string(duel.PhaseOver) {
		// Before the first deal of a session (or between two): no deal is
		// over, no phase to name (issue 26 saw "Deal over" before any).
		t, dd := *s.Round, *d
		dd.Phase, t.Detail = "", &dd
		s.Round = &t
	}
	if u.game == game.Duel {
		cfg := set.duelConfig()
		di := &view.DuelInput{Cursor: u.duelCursor, Marked: duelMarks(cs.open), Amount: u.duelBet(cs, cfg.Ante)}
		if len(cfg.Decks) > 0 {
			di.Deck = cfg.Decks[u.duelDeck%len(cfg.Decks)]
		}
		if len(cfg.Levels) > 0 {
			di.Level = cfg.Levels[u.duelLevel%len(cfg.Levels)]
		}
		s.DuelInput = di
	}
	if cs.open != nil && cs.open.Game == u.game && cs.open.Commit != nil {
		s.Commitment = cs.open.Commit.Commitment
	} else if p := cs.shoes[u.game]; p != nil && cs.open == nil {
		s.Commitment = p.Commitment
	}
	if u.mode == view.Help {
		s.Help = pr.helpView(u)
	}
	if u.mode == view.Operator && pr.operator != nil {
		s.Operator = operatorView(operatorItems(pr.operator, cs.overrides, u), u)
	}
	switch s.Mode = u.shown(cs); s.Mode {
	case view.Audit:
		s.Under = u.mode
		s.Audit = pr.auditView(cs, u, pg)
		s.Tilts = cs.tilts()
	case view.Tilt:
		s.Under = u.mode
		s.Tilts = cs.tilts()
	case view.Handpay:
		s.Under = u.mode
		s.Handpay, s.HandpayKind = cs.m.Handpay, cs.m.HandpayKind
	}
	// The standing notice: what stops or holds play while it is so. A
	// refusal shows over it, for a moment (Snapshot.Refusal).
	var standing string
	if s.Mode == view.Table && cs.open == nil || s.Mode == view.Menu {
		standing = hostNotice(cs, u.game) // why no round starts, while it is so
	}
	if standing == "" {
		standing = cs.tickets.Notice(cs.m, cs.open != nil) // tickets out (internal/desk)
	}
	if standing == "" {
		standing = pr.printer // paper low, out, a fault, no answer, between tickets
	}
	switch {
	case s.Message == "":
		s.Message = standing
	case s.Message == u.refusal:
		s.Refusal, s.Standing = u.refusals, standing
	}
	s.Lamps = u.panel.lit()
	return s
}

// duelPicture is t's Poker Duel picture, nil if none.
func duelPicture(t *game.Table) *duel.Picture {
	if t == nil {
		return nil
	}
	return duel.PictureOf(*t)
}

func (pr presenter) helpView(u *screen) *view.HelpView {
	set := pr.set
	h := &view.HelpView{Game: u.game, Page: u.helpPage}
	if r, ok := set.Rules[u.game]; ok {
		h.Rules, h.Pays = helpRules(r, *set)
	} else if u.game == game.Duel {
		cfg := set.duelConfig()
		h.Rules = []view.KV{
			{Key: "session_price", Value: cfg.Price.String()},
			{Key: "stack", Value: strconv.FormatInt(cfg.Stack, 10)},
			{Key: "ante", Value: strconv.FormatInt(cfg.Ante, 10)},
			{Key: "pawn", Value: strconv.FormatInt(cfg.PawnValue, 10)},
		}
	}
	if pr.figures != nil {
		h.RTP = pr.figures(u.game)
	}
	return h
}

// helpRules are a blackjack game's rules in force and paytables, as
// language-neutral tokens the display translates: "yes"/"no", money as
// Cents.String ("1000.00"), rule words ("ace-ten", "10-11"), pays as "3:2",
// "500 for 1" or "10%" (of the jackpot).
func helpRules(r blackjack.Rules, set InForce) ([]view.KV, []view.PayLine) {
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	rules := []view.KV{
		{Key: "decks", Value: strconv.Itoa(r.Decks)},
		{Key: "hit_soft17", Value: yes(r.HitSoft17)},
		{Key: "peek", Value: string(r.Peek)},
		{Key: "double", Value: string(r.Double)},
		{Key: "double_after_split", Value: yes(r.DoubleAfterSplit)},
		{Key: "max_hands", Value: strconv.Itoa(r.MaxHands)},
		{Key: "insurance", Value: yes(r.Insurance)},
	}
	if r.Game == game.Classic {
		rules = append(rules, view.KV{Key: "surrender", Value: yes(r.Surrender)})
	}
	if r.CharlieCards > 0 {
		rules = append(rules, view.KV{Key: "charlie", Value: yes(true)})
	}
	if r.Dealer22Push {
		rules = append(rules, view.KV{Key: "dealer22", Value: yes(true)})
	}
	if r.MaxCards > 0 {
		rules = append(rules, view.KV{Key: "max_cards", Value: strconv.Itoa(r.MaxCards)})
	}
	if r.WinCap > 0 {
		rules = append(rules, view.KV{Key: "win_cap", Value: r.WinCap.String()})
	}
	rules = append(rules, view.KV{Key: "min_bet", Value: r.MinBet.String()},
		view.KV{Key: "max_bet", Value: r.MaxBet.String()},
		view.KV{Key: "spots", Value: strconv.Itoa(r.MaxSpots)})
	pays := []view.PayLine{
		{Bet: game.Main, Hand: "win", Pays: "1:1"},
		{Bet: game.Main, Hand: "blackjack", Pays: "3:2"},
	}
	if r.Insurance {
		pays = append(pays, view.PayLine{Bet: game.Insurance, Hand: "blackjack", Pays: "2:1"})
	}
	if r.Game == game.Royal {
		rules = append(rules, view.KV{Key: "royal_stake", Value: r.RoyalStake.String()},
			view.KV{Key: "jackpot_reset", Value: set.JackpotReset.String()})
		pays = append(pays, view.PayLine{Bet: game.RoyalSide, Hand: "royal flush", Pays: "100%"},
			view.PayLine{Bet: game.RoyalSide, Hand: "straight flush", Pays: "10%"})
	}
	for _, sr := range r.Side {
		keys := make([]string, 0, len(sr.Pays))
		for k := range sr.Pays {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if sr.Pays[keys[i]] != sr.Pays[keys[j]] {
				return sr.Pays[keys[i]] > sr.Pays[keys[j]]
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			sep := ":1"
			if sr.Kind == game.RoyalSide {
				sep = " for 1"
			}
			pays = append(pays, view.PayLine{Bet: sr.Kind, Hand: k, Pays: strconv.FormatInt(sr.Pays[k], 10) + sep})
		}
	}
	return rules, pays
}
