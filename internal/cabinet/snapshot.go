package cabinet

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// publish builds the snapshot of committed state and drives the outputs
// (lamps, tower, acceptance) from it.
func (c *Controller) publish() {
	c.seq++
	s := &view.Snapshot{
		Seq: c.seq, Mode: c.ui.mode, Lang: c.set.Language, Currency: c.set.Currency, Denom: c.set.Denom,
		Credits: c.m.Credits, Win: c.win, Jackpot: money.Cents(c.m.PoolUnits / PoolUnitsPerCent),
		Game: c.ui.game, Bets: append([]game.Bet(nil), c.ui.bets...), Spot: c.ui.pos,
		Chip: c.set.Chips[c.ui.chip%len(c.set.Chips)], Recovered: c.recovered, Message: c.message,
	}
	for _, id := range c.set.Games {
		gi := view.GameInfo{ID: id}
		if r, ok := c.set.Rules[id]; ok {
			gi.MinBet, gi.MaxBet, gi.Spots = r.MinBet, r.MaxBet, r.MaxSpots
			for _, sr := range r.Side {
				gi.Side = append(gi.Side, view.SideInfo{Kind: sr.Kind, Min: sr.Min, Max: sr.Max})
			}
		} else if id == game.Duel {
			gi.MinBet, gi.Spots = c.duelConfig().Price, 1
		}
		s.Games = append(s.Games, gi)
	}
	if c.round != nil {
		t := c.round.Table()
		s.Round = &t
	} else if c.last != nil && c.last.Game == c.ui.game {
		s.Round = c.last
	}
	if c.ui.game == game.Duel && s.Round == nil {
		if r, _, err := c.newDuel(c.m.NextRound, mustCarry(c)); err == nil {
			t := r.Table()
			s.Round = &t
		}
	}
	if c.ui.game == game.Duel {
		cfg := c.duelConfig()
		di := &view.DuelInput{Cursor: c.ui.duelCursor, Marked: c.ui.duelMarks, Amount: c.duelBet()}
		if len(cfg.Decks) > 0 {
			di.Deck = cfg.Decks[c.ui.duelDeck%len(cfg.Decks)]
		}
		if len(cfg.Levels) > 0 {
			di.Level = cfg.Levels[c.ui.duelLevel%len(cfg.Levels)]
		}
		s.DuelInput = di
	}
	if c.ui.mode == view.Help {
		s.Help = c.helpView()
	}
	if c.ui.mode == view.Operator && c.opt.Operator != nil {
		s.Operator = &view.OperatorView{Items: c.operatorItems(), Cursor: c.ui.opCursor, Error: c.ui.opError}
	}
	switch {
	case c.switches[hw.AuditKey]:
		s.Under, s.Mode = s.Mode, view.Audit
		s.Audit = c.auditView()
		s.Tilts = c.tilts()
	case len(c.tilts()) > 0:
		s.Under, s.Mode = s.Mode, view.Tilt
		s.Tilts = c.tilts()
	case c.m.Handpay > 0:
		s.Under, s.Mode = s.Mode, view.Handpay
		s.Handpay, s.HandpayKind = c.m.Handpay, c.m.HandpayKind
	}
	s.Lamps = c.lamps(s)
	if prev := c.snap.Load(); prev == nil || prev.Mode != s.Mode || prev.Under != s.Under || !slices.Equal(prev.Tilts, s.Tilts) {
		// Every state transition goes to the program log (journald on the
		// Pi); the durable event log holds the ones platform.md §4 lists
		// (doors, keys, tilts, handpays, bills, settings), written with
		// their cause.
		c.log.Info("state", "mode", s.Mode, "under", s.Under, "tilts", s.Tilts, "game", s.Game, "credits", s.Credits)
	}
	c.snap.Store(s)
	c.outputs()
}

// lamps lights exactly the buttons that do something now.
func (c *Controller) lamps(s *view.Snapshot) hw.ButtonSet {
	var l hw.ButtonSet
	switch s.Mode {
	case view.Tilt, view.Handpay:
		return 0
	case view.Audit:
		l = l.With(hw.Spot).With(hw.Hit).With(hw.Stand).With(hw.Double).With(hw.Split)
		if c.memErr != nil && c.switches[hw.ResetKey] {
			l = l.With(hw.Yes)
		}
		return l
	case view.Operator:
		l = l.With(hw.Hit).With(hw.Stand).With(hw.BetPlus)
		if c.ui.opDraft != "" {
			l = l.With(hw.Yes).With(hw.No)
		}
		return l
	case view.Attract:
		return l.With(hw.Help)
	case view.Help:
		l = l.With(hw.Help).With(hw.Spot).With(hw.BetPlus).With(hw.Game)
		if c.m.Credits > 0 || c.open != nil {
			l = l.With(hw.Deal) // to the table (only with credits)
		}
		return l
	case view.Menu:
		l = l.With(hw.Spot).With(hw.BetPlus).With(hw.Deal).With(hw.Help)
		if c.m.Credits > 0 {
			l = l.With(hw.CashOut)
		}
		return l
	}
	// Table.
	if c.ui.game == game.Duel {
		l = l.With(hw.Help)
		var legal []game.ActionKind
		if c.round != nil {
			legal = c.round.Legal(c.m.Credits)
			l = l.With(hw.BetPlus).With(hw.Spot).With(hw.Special)
		} else {
			if r, _, err := c.newDuel(c.m.NextRound, mustCarry(c)); err == nil {
				legal = r.Legal(c.m.Credits)
			}
			l = l.With(hw.Game).With(hw.Spot).With(hw.Special)
			if c.m.Credits > 0 {
				l = l.With(hw.CashOut)
			}
		}
		return l | LampsFor(legal)
	}
	if c.round != nil {
		return LampsFor(c.round.Legal(c.m.Credits)).With(hw.Help)
	}
	l = l.With(hw.Spot).With(hw.Special).With(hw.Help).With(hw.Game)
	if c.m.Credits > 0 {
		l = l.With(hw.CashOut)
	}
	if betTotal(c.ui.bets)+c.set.Chips[0] <= c.m.Credits {
		l = l.With(hw.BetPlus)
	}
	if len(c.ui.undo) > 0 {
		l = l.With(hw.Clear)
	}
	if prev := c.ui.lastBets[c.ui.game]; len(prev) > 0 && c.betsValid(prev) {
		l = l.With(hw.Rebet)
		if len(c.ui.bets) == 0 {
			l = l.With(hw.Deal)
		}
	}
	if c.betsValid(c.ui.bets) {
		l = l.With(hw.Deal)
	}
	return l
}

func (c *Controller) helpView() *view.HelpView {
	h := &view.HelpView{Game: c.ui.game, Page: c.ui.helpPage}
	if r, ok := c.set.Rules[c.ui.game]; ok {
		h.Rules, h.Pays = helpRules(r, c.set)
	} else if c.ui.game == game.Duel {
		cfg := c.duelConfig()
		h.Rules = []view.KV{
			{Key: "session_price", Value: cfg.Price.String()},
			{Key: "stack", Value: strconv.FormatInt(cfg.Stack, 10)},
			{Key: "ante", Value: strconv.FormatInt(cfg.Ante, 10)},
			{Key: "pawn", Value: strconv.FormatInt(cfg.PawnValue, 10)},
		}
	}
	h.RTP = c.helpFigures(c.ui.game)
	return h
}

// helpRules are a blackjack game's rules in force and paytables, as
// language-neutral tokens the display translates: "yes"/"no", money as
// Cents.String ("1000.00"), rule words ("ace-ten", "10-11"), pays as "3:2",
// "500 for 1" or "10%" (of the jackpot).
func helpRules(r blackjack.Rules, set Settings) ([]view.KV, []view.PayLine) {
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

// auditView reads the technician's pages from the store (committed state).
func (c *Controller) auditView() *view.AuditView {
	a := &view.AuditView{Page: auditPages[c.ui.auditPage%len(auditPages)], Digest: c.opt.Digest}
	a.Meters = MeterLines(c.m)
	if c.memErr != nil {
		a.Checks = append(a.Checks, view.KV{Key: "memory_error", Value: c.memErr.Error()})
	}
	if c.digestErr != nil {
		a.Checks = append(a.Checks, view.KV{Key: "digest", Value: c.digestErr.Error()})
	}
	switch a.Page {
	case "events":
		var evs []meters.Event
		_ = c.st.View(func(tx *recovery.Tx) error {
			var err error
			evs, err = tx.Events(40)
			return err
		})
		for _, e := range evs {
			a.Events = append(a.Events, view.EventLine{Seq: e.Seq, Time: e.At.Format(time.DateTime), Kind: e.Kind, Text: e.Text})
		}
	case "recall":
		var recs []meters.Recall
		_ = c.st.View(func(tx *recovery.Tx) error {
			var err error
			recs, err = tx.Recall(0)
			return err
		})
		if len(recs) > 0 {
			i := c.ui.recallIdx % len(recs)
			rv, err := RecallPicture(recs[i], c.ui.recallStep)
			if err != nil {
				a.Checks = append(a.Checks, view.KV{Key: "recall", Value: err.Error()})
			} else {
				rv.Index, rv.Count = i, len(recs)
				a.Recall = rv
			}
		}
	}
	return a
}

// RecallPicture replays a recalled round up to step (all steps if step < 0)
// and returns the table picture after it: the audit screen's redraw.
func RecallPicture(rec meters.Recall, step int) (*view.RecallView, error) {
	steps := rec.Steps
	if step < 0 || step >= len(steps) {
		step = len(steps) - 1
	}
	r, err := fresh(rec.Game, rec.Rules, rec.Round)
	if err != nil {
		return nil, fmt.Errorf("recall round %d: %w", rec.Round, err)
	}
	action := ""
	for _, s := range steps[:step+1] {
		if s.Action.Kind == game.Void {
			action = string(game.Void)
			continue
		}
		if _, err := r.Apply(s.Action, card.NewStack(game.Drawn(s.Events)...)); err != nil {
			return nil, fmt.Errorf("recall round %d step %d: %w", rec.Round, s.N, err)
		}
		action = string(s.Action.Kind)
	}
	return &view.RecallView{Round: rec.Round, Game: rec.Game, Start: rec.Start.Format(time.DateTime),
		End: rec.End.Format(time.DateTime), Step: step, Steps: len(steps), Action: action, Table: r.Table(),
		Before: rec.CreditsBefore, After: rec.CreditsAfter}, nil
}

// MeterLines are every meter for the audit screen, named as `cabinet audit
// meters` names them (meters.Lines: "total_in", "bills.2000",
// "games.royal.won", "games.freebet.side.anypair.wagered", …) after the
// credit meter, the pending handpay and the progressive pool. Values are
// language-neutral tokens the display formats: money as Cents.String
// ("1234.50"), counts as integers.
func MeterLines(m recovery.Machine) []view.KV {
	kv := []view.KV{
		{Key: "credits", Value: m.Credits.String()},
		{Key: "handpay_pending", Value: m.Handpay.String()},
		{Key: "progressive_pool", Value: money.Cents(m.PoolUnits / PoolUnitsPerCent).String()},
	}
	for _, l := range m.Meters.Lines() {
		v := strconv.FormatInt(l.Value, 10)
		switch l.Unit {
		case meters.UnitCents:
			v = money.Cents(l.Value).String()
		case meters.UnitPoolUnits:
			v = money.Cents(l.Value / PoolUnitsPerCent).String()
		}
		kv = append(kv, view.KV{Key: l.Name, Value: v})
	}
	return kv
}
