package controller

import (
	"slices"
	"sort"
	"strconv"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// publish builds the snapshot of committed state and drives the outputs
// (lamps, tower, acceptance) from it.
func (c *Controller) publish(cs state) {
	c.seq++
	s := &view.Snapshot{
		Seq: c.seq, Mode: c.scr.mode, Lang: c.set.Language, Sound: c.set.Sound && !cs.host.SoundOff, Volume: c.set.Volume, DealPaceMS: c.set.DealPaceMS,
		Currency: c.set.Currency, Denom: c.set.Denom,
		Credits: cs.m.Credits, Win: cs.win, Jackpot: money.Cents(cs.m.PoolUnits / PoolUnitsPerCent),
		Game: c.scr.game, Bets: append([]game.Bet(nil), c.scr.bets...), Spot: c.scr.pos,
		Chip: c.set.Chips[c.scr.chip%len(c.set.Chips)], Recovered: cs.recovered, Message: c.message,
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
	if cs.round != nil {
		t := cs.round.Table()
		s.Round = &t
	} else if cs.last != nil && cs.last.Game == c.scr.game {
		s.Round = cs.last
	}
	if c.scr.game == game.Duel && s.Round == nil {
		if r, _, err := c.newDuel(cs.m.NextRound, cs.carry[game.Duel]); err == nil {
			t := r.Table()
			s.Round = &t
		}
	}
	if c.scr.game == game.Duel {
		cfg := c.duelConfig()
		di := &view.DuelInput{Cursor: c.scr.duelCursor, Marked: c.scr.duelMarks, Amount: c.scr.duelBet(cs)}
		if len(cfg.Decks) > 0 {
			di.Deck = cfg.Decks[c.scr.duelDeck%len(cfg.Decks)]
		}
		if len(cfg.Levels) > 0 {
			di.Level = cfg.Levels[c.scr.duelLevel%len(cfg.Levels)]
		}
		s.DuelInput = di
	}
	if c.scr.mode == view.Help {
		s.Help = c.helpView()
	}
	if c.scr.mode == view.Operator && c.opt.Operator != nil {
		s.Operator = c.operatorView()
	}
	switch s.Mode = c.scr.shown(cs); s.Mode {
	case view.Audit:
		s.Under = c.scr.mode
		s.Audit = c.auditView(cs)
		s.Tilts = cs.tilts()
	case view.Tilt:
		s.Under = c.scr.mode
		s.Tilts = cs.tilts()
	case view.Handpay:
		s.Under = c.scr.mode
		s.Handpay, s.HandpayKind = cs.m.Handpay, cs.m.HandpayKind
	}
	if s.Message == "" && (s.Mode == view.Table && cs.open == nil || s.Mode == view.Menu) {
		s.Message = hostNotice(cs, c.scr.game) // why no round starts, while it is so
	}
	c.scr.panel = c.scr.build(cs)
	s.Lamps = c.scr.panel.lit()
	if prev := c.snap.Load(); prev == nil || prev.Mode != s.Mode || prev.Under != s.Under || !slices.Equal(prev.Tilts, s.Tilts) {
		// Every state transition goes to the program log (journald on the
		// Pi); the durable event log holds the ones platform.md §4 lists
		// (doors, keys, tilts, handpays, bills, settings), written with
		// their cause.
		c.log.Info("state", "mode", s.Mode, "under", s.Under, "tilts", s.Tilts, "game", s.Game, "credits", s.Credits)
	}
	c.snap.Store(s)
	if c.opt.SAS {
		c.publishHost(cs)
	}
	c.outputs(cs)
}

func (c *Controller) helpView() *view.HelpView {
	h := &view.HelpView{Game: c.scr.game, Page: c.scr.helpPage}
	if r, ok := c.set.Rules[c.scr.game]; ok {
		h.Rules, h.Pays = helpRules(r, c.set)
	} else if c.scr.game == game.Duel {
		cfg := c.duelConfig()
		h.Rules = []view.KV{
			{Key: "session_price", Value: cfg.Price.String()},
			{Key: "stack", Value: strconv.FormatInt(cfg.Stack, 10)},
			{Key: "ante", Value: strconv.FormatInt(cfg.Ante, 10)},
			{Key: "pawn", Value: strconv.FormatInt(cfg.PawnValue, 10)},
		}
	}
	h.RTP = c.helpFigures(c.scr.game)
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
