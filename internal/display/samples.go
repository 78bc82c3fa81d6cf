package display

import (
	"cmp"
	"fmt"
	"slices"

	"cabinet/internal/analysis"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/hw"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// Samples returns a sample snapshot of every screen, by name: the fixtures
// of the display's tests and of `cabinet screenshot --screen NAME`. The
// figures in them (RTP, meters, events) are illustrative fixture values,
// not the cabinet's; the integrator builds real snapshots from a store.
// Each call returns fresh values (French; set Lang to "en" for English).
func Samples() map[string]*view.Snapshot {
	classic := sampleClassic()
	out := map[string]*view.Snapshot{
		"boot":           {Mode: view.Boot, Lang: "fr"},
		"attract":        sampleAttract(),
		"menu":           sampleMenu(),
		"classic":        classic,
		"classic-bet":    sampleClassicBet(),
		"royal":          sampleRoyal(),
		"freebet":        sampleFreeBet(),
		"zappit":         sampleZappit(),
		"duel":           sampleDuel(),
		"duel-buy":       sampleDuelBuy(),
		"duel-victory":   sampleDuelVictory(),
		"help-royal":     sampleHelp(game.Royal),
		"help-freebet":   sampleHelp(game.FreeBet),
		"audit-meters":   sampleAudit("meters"),
		"audit-recall":   sampleAudit("recall"),
		"audit-events":   sampleAudit("events"),
		"audit-selftest": sampleAudit("selftest"),
		"audit-program":  sampleAudit("program"),
		"operator":       sampleOperator(),
		"tilt":           sampleTilt(),
		"handpay":        sampleHandpay(),
		"hwtest":         sampleHwTest(),
	}
	rec := sampleClassic()
	rec.Recovered = true
	out["recovered"] = rec
	return out
}

// SampleNames lists the sample screens in a stable order.
func SampleNames() []string {
	var names []string
	for n := range Samples() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func lamps(bs ...hw.Button) hw.ButtonSet {
	var s hw.ButtonSet
	for _, b := range bs {
		s = s.With(b)
	}
	return s
}

func sampleGames() []view.GameInfo {
	var gs []view.GameInfo
	for _, id := range game.IDs {
		if id == game.Duel {
			gs = append(gs, view.GameInfo{ID: id, MinBet: 100, Spots: 1}) // MinBet: the session price
			continue
		}
		r, err := blackjack.Preset(id)
		if err != nil {
			panic("BUG: " + err.Error())
		}
		gi := view.GameInfo{ID: id, MinBet: r.MinBet, MaxBet: r.MaxBet, Spots: r.MaxSpots}
		for _, s := range r.Side {
			gi.Side = append(gi.Side, view.SideInfo{Kind: s.Kind, Min: s.Min, Max: s.Max})
		}
		gs = append(gs, gi)
	}
	return gs
}

func base(mode view.Mode, id game.ID) *view.Snapshot {
	return &view.Snapshot{
		Seq: 42, Mode: mode, Lang: "fr", Currency: "€", Denom: 10,
		Credits: 123450, Jackpot: 2041237, Games: sampleGames(), Game: id, Chip: 500,
	}
}

func hand(spot int, cards string, bet money.Cents) game.HandView {
	cs := card.MustParse(cards)
	t, soft := card.BlackjackTotal(cs)
	return game.HandView{Spot: spot, Cards: cs, Total: t, Soft: soft, Bet: bet}
}

func dealer(cards string, hidden int) game.HandView {
	h := hand(-1, cards, 0)
	h.Hidden = hidden
	return h
}

func sampleAttract() *view.Snapshot {
	s := base(view.Attract, game.Royal)
	s.Credits = 0
	s.Lamps = lamps(hw.Help)
	return s
}

func sampleMenu() *view.Snapshot {
	s := base(view.Menu, game.FreeBet)
	s.Lamps = lamps(hw.Deal, hw.Spot, hw.Help, hw.CashOut)
	return s
}

func sampleClassic() *view.Snapshot {
	s := base(view.Table, game.Classic)
	h1 := hand(1, "8H 3S 10D", 1000)
	h1.Note = "split"
	h2 := hand(1, "8C 9D", 1000)
	h2.Note = "split"
	s.Round = &game.Table{
		Game: game.Classic, Round: 1207, Active: 2,
		Dealer: dealer("9C", 1),
		Hands:  []game.HandView{hand(0, "KS 7D", 1000), h1, h2, hand(2, "AS 5D", 1000)},
		Staked: 4000,
	}
	s.Lamps = lamps(hw.Hit, hw.Stand, hw.Double, hw.Help)
	s.Win = 0
	return s
}

func sampleClassicBet() *view.Snapshot {
	s := base(view.Table, game.Classic)
	s.Bets = []game.Bet{{Spot: 0, Kind: game.Main, Amount: 2500}, {Spot: 1, Kind: game.Main, Amount: 600}}
	s.Spot = 1
	s.Lamps = lamps(hw.Deal, hw.BetPlus, hw.Rebet, hw.Clear, hw.Spot, hw.Help, hw.Game, hw.CashOut)
	return s
}

func sampleRoyal() *view.Snapshot {
	s := base(view.Table, game.Royal)
	s.Round = &game.Table{
		Game: game.Royal, Round: 88, Active: 0,
		Dealer: dealer("KH", 1),
		Hands:  []game.HandView{hand(0, "10H JH", 2000), hand(1, "QH 4H", 2000)},
		Side:   []game.SideView{{Spot: 0, Kind: game.RoyalSide, Amount: 100, Outcome: game.Win, Hand: "flush", Win: 5000}},
		Staked: 4100, Paid: 5000,
	}
	s.Win = 5000
	s.Lamps = lamps(hw.Hit, hw.Stand, hw.Help)
	return s
}

func sampleFreeBet() *view.Snapshot {
	s := base(view.Table, game.FreeBet)
	h0 := hand(0, "9S 2C 10C", 1000)
	h0.Token, h0.Doubled, h0.Note = 1000, true, "split"
	h1 := hand(0, "9D 7H", 0)
	h1.Token, h1.Note = 1000, "split"
	s.Round = &game.Table{
		Game: game.FreeBet, Round: 5120, Active: 1,
		Dealer: dealer("6D", 1),
		Hands:  []game.HandView{h0, h1},
		Side: []game.SideView{
			{Spot: 0, Kind: game.AnyPair, Amount: 500, Outcome: game.Win, Hand: "pair", Win: 4500},
			{Spot: 0, Kind: game.TwentyOne, Amount: 500, Outcome: game.Lose},
			{Spot: 0, Kind: game.Hot3, Amount: 500, Outcome: game.Lose},
			{Spot: 0, Kind: game.BustIt, Amount: 500},
		},
		Staked: 3000, Paid: 4500,
	}
	s.Win = 4500
	s.Lamps = lamps(hw.Hit, hw.Stand, hw.Help)
	return s
}

func sampleZappit() *view.Snapshot {
	s := base(view.Table, game.Zappit)
	z := hand(0, "10C 9H", 1000)
	z.Note = "zapped"
	s.Round = &game.Table{
		Game: game.Zappit, Round: 731, Active: 1,
		Dealer: dealer("10S", 1),
		Hands:  []game.HandView{z, hand(1, "7S 8D", 1000), hand(2, "AC KC", 1000)},
		Staked: 3000,
	}
	s.Lamps = lamps(hw.Hit, hw.Stand, hw.Double, hw.Special, hw.Help)
	return s
}

func sampleDuel() *view.Snapshot {
	s := base(view.Table, game.Duel)
	s.Round = &game.Table{
		Game: game.Duel, Round: 310, Active: -1,
		Duel: &game.DuelView{
			Deck: 32, Level: "normal", Player: card.MustParse("AS AD 9C 8H 7S"), ComputerCards: 5,
			PlayerStack: 420, ComputerStack: 180, Pot: 60, ToCall: 0, Phase: "draw", ComputerDrew: 2,
			Outfit: []string{"glasses", "scarf", "jacket", "gloves", "shoes"},
			Pawned: []string{"glasses"}, Lost: []string{"hat"},
		},
	}
	s.DuelInput = &view.DuelInput{Cursor: 2, Marked: [5]bool{false, false, true, true, true}, Amount: 20, Deck: 32, Level: "normal"}
	s.Lamps = lamps(hw.Double, hw.Special, hw.Spot, hw.Help)
	return s
}

func sampleDuelBuy() *view.Snapshot {
	s := base(view.Table, game.Duel)
	s.DuelInput = &view.DuelInput{Deck: 52, Level: "hard", Amount: 5}
	s.Lamps = lamps(hw.Deal, hw.Spot, hw.Special, hw.Help, hw.Game, hw.CashOut)
	return s
}

func sampleDuelVictory() *view.Snapshot {
	s := base(view.Table, game.Duel)
	s.Round = &game.Table{
		Game: game.Duel, Round: 402, Active: -1, Done: true,
		Duel: &game.DuelView{
			Deck: 52, Level: "hard", Player: card.MustParse("KS KD KC 4H 4S"),
			Computer: card.MustParse("QS QD 9C 8H 2S"), ComputerCards: 5,
			PlayerStack: 1000, ComputerStack: 0, Phase: "over",
			Lost:        []string{"hat", "glasses", "scarf", "jacket", "gloves", "shoes"},
			SessionOver: true, PlayerWon: true,
		},
	}
	s.Lamps = lamps(hw.Deal, hw.Game, hw.Help, hw.CashOut)
	return s
}

func sampleHelp(id game.ID) *view.Snapshot {
	s := base(view.Help, id)
	r, err := blackjack.Preset(id)
	if err != nil {
		panic("BUG: " + err.Error())
	}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	h := &view.HelpView{Game: id}
	h.Rules = []view.KV{
		{Key: "decks", Value: fmt.Sprint(r.Decks)},
		{Key: "hit_soft17", Value: yes(r.HitSoft17)},
		{Key: "peek", Value: string(r.Peek)},
		{Key: "double", Value: string(r.Double)},
		{Key: "double_after_split", Value: yes(r.DoubleAfterSplit)},
		{Key: "max_hands", Value: fmt.Sprint(r.MaxHands)},
		{Key: "insurance", Value: yes(r.Insurance)},
		{Key: "min_bet", Value: r.MinBet.String()},
		{Key: "max_bet", Value: r.MaxBet.String()},
		{Key: "spots", Value: fmt.Sprint(r.MaxSpots)},
	}
	h.Pays = []view.PayLine{
		{Bet: game.Main, Hand: "win", Pays: "1:1"},
		{Bet: game.Main, Hand: "blackjack", Pays: "3:2"},
		{Bet: game.Insurance, Hand: "blackjack", Pays: "2:1"},
	}
	h.RTP = sampleFigures(id)
	if id == game.Royal {
		h.Rules = append(h.Rules, view.KV{Key: "royal_stake", Value: r.RoyalStake.String()},
			view.KV{Key: "jackpot_reset", Value: "20000.00"})
		h.Pays = append(h.Pays, view.PayLine{Bet: game.RoyalSide, Hand: "royal flush", Pays: "100%"},
			view.PayLine{Bet: game.RoyalSide, Hand: "straight flush", Pays: "10%"})
	}
	for _, sr := range r.Side {
		var ks []string
		for k := range sr.Pays {
			ks = append(ks, k)
		}
		slices.SortFunc(ks, func(a, b string) int { return cmp.Compare(sr.Pays[b], sr.Pays[a]) })
		for _, k := range ks {
			sep := ":1"
			if sr.Kind == game.RoyalSide {
				sep = " for 1"
			}
			h.Pays = append(h.Pays, view.PayLine{Bet: sr.Kind, Hand: k, Pays: fmt.Sprint(sr.Pays[k]) + sep})
		}
	}
	s.Help = h
	s.Lamps = lamps(hw.Help, hw.Game, hw.Spot)
	return s
}

func sampleAudit(page string) *view.Snapshot {
	s := base(view.Audit, game.Classic)
	a := &view.AuditView{Page: page, Digest: "9f2c4b1e7a0d3c5f8e6b2a1d4c7f0e3b5a8d2c6f1e4b7a0d3c9f5e2b8a1d4c7f"}
	// As the controller writes them (cabinet.MeterLines): meters.Lines
	// names, money as Cents.String, counts as integers.
	a.Meters = []view.KV{
		{Key: "credits", Value: "1234.50"}, {Key: "handpay_pending", Value: "0.00"},
		{Key: "progressive_pool", Value: "20812.34"}, {Key: "total_in", Value: "48210.00"},
		{Key: "total_won", Value: "46875.50"}, {Key: "bills_in", Value: "2400.00"},
		{Key: "handpay_cancelled", Value: "1000.00"}, {Key: "jackpot_handpay", Value: "0.00"},
		{Key: "jackpot_handpays", Value: "0"}, {Key: "progressive_contrib", Value: "812.34"},
		{Key: "progressive_hits", Value: "0"}, {Key: "progressive_paid", Value: "0.00"},
		{Key: "played", Value: "5120"}, {Key: "won", Value: "2230"},
		{Key: "lost", Value: "2610"}, {Key: "pushed", Value: "280"}, {Key: "voided", Value: "0"},
		{Key: "main_door", Value: "3"}, {Key: "cash_door", Value: "2"},
		{Key: "audit_key", Value: "5"}, {Key: "operator_key", Value: "1"},
		{Key: "power_ups", Value: "14"}, {Key: "recoveries", Value: "1"},
		{Key: "bills.1000", Value: "40"}, {Key: "bills.2000", Value: "60"}, {Key: "bills.5000", Value: "16"},
	}
	for _, g := range []string{"classic", "duel", "freebet", "royal", "zappit"} {
		a.Meters = append(a.Meters, view.KV{Key: "games." + g + ".played", Value: "1024"},
			view.KV{Key: "games." + g + ".wagered", Value: "9642.00"}, view.KV{Key: "games." + g + ".won", Value: "9375.10"})
		if g == "freebet" {
			for _, b := range []string{"21+3", "anypair", "bustit", "hot3"} {
				a.Meters = append(a.Meters, view.KV{Key: "games.freebet.side." + b + ".wagered", Value: "512.00"},
					view.KV{Key: "games.freebet.side." + b + ".won", Value: "488.00"})
			}
		}
	}
	cl := sampleClassic().Round
	a.Recall = &view.RecallView{Index: 0, Count: 100, Round: cl.Round, Game: game.Classic,
		Start: "2026-11-22 18:02:11", End: "2026-11-22 18:03:40", Step: 3, Steps: 7, Action: "split",
		Table: *cl, Before: 127450, After: 123450}
	for i := range 16 {
		a.Events = append(a.Events, view.EventLine{Seq: uint64(900 - i), Time: fmt.Sprintf("2026-11-22 18:%02d:%02d", 40-i, (i*7)%60),
			Kind: []string{"bill_accepted", "door", "tilt", "handpay", "config_change", "power_up"}[i%6],
			Text: []string{"bill 20.00", "main_door opened", "tilt: [main_door]", "cash out: handpay 250.00", "games.royal.max_bet: 1000.00 → 500.00", "power up"}[i%6]})
		// The details are the log's own text (technician evidence, as the
		// controller writes it); the event column is translated.
	}
	a.Checks = []view.KV{{Key: "store", Value: "OK"}, {Key: "meters", Value: "OK"}, {Key: "invariant", Value: "OK"},
		{Key: "pool", Value: "OK"}, {Key: "digest", Value: "OK"}, {Key: "rng", Value: "OK"}}
	s.Audit = a
	s.Lamps = lamps(hw.Spot, hw.Hit, hw.Stand, hw.Double, hw.Split)
	return s
}

func sampleOperator() *view.Snapshot {
	s := base(view.Operator, game.Classic)
	// As config.Items gives them: configuration keys, values as written in
	// the file, the allowed values in the configuration's words.
	s.Operator = &view.OperatorView{Cursor: 3, Items: []view.Setting{
		{Key: "cabinet.language", Value: "fr", Allowed: `"fr" or "en"`},
		{Key: "cabinet.sound", Value: "on", Allowed: `"on" or "off"`},
		{Key: "cabinet.credit_limit", Value: "1000.00", Allowed: "an amount above 0"},
		{Key: "games.royal.max_bet", Value: "1000.00", Allowed: "an amount, at least min_bet"},
		{Key: "games.royal.royal_stake", Value: "1.00", Allowed: "an amount above 0"},
		{Key: "jackpot.reset", Value: "20000.00", Allowed: "an amount of 0 or more"},
		{Key: "games.zappit.win_cap", Value: "100.00", Allowed: "an amount, 0.00 = no cap"},
		{Key: "games.classic.dealing", Value: "american", Allowed: `"american" or "european"`},
		{Key: "games.classic.surrender", Value: "on", Allowed: `"on" or "off"`},
		{Key: "games.freebet.penetration", Value: "75", Allowed: "10 to 90 (percent)"},
		{Key: "games.freebet.21+3.max", Value: "100.00", Allowed: "an amount, at least min"},
		{Key: "games.duel.enabled", Value: "on", Allowed: `"on" or "off" (at least one game on)`},
		{Key: "cabinet.bill.100.00", Value: "on", Allowed: `"on" or "off"`},
		{Key: "duel.price", Value: "1.00", Allowed: "an amount above 0"},
		{Key: "jackpot.rate", Value: "20.30843", Allowed: "a percentage with up to 5 decimals"},
	}}
	s.Lamps = lamps(hw.Hit, hw.Stand, hw.BetPlus, hw.Yes, hw.No)
	return s
}

func sampleTilt() *view.Snapshot {
	s := sampleClassic()
	s.Mode, s.Under = view.Tilt, view.Table
	s.Tilts = []string{"main_door", "bill_jam"}
	s.Lamps = 0
	return s
}

func sampleHandpay() *view.Snapshot {
	s := base(view.Handpay, game.Royal)
	s.Under = view.Menu
	s.Handpay, s.HandpayKind = 250000, "cashout"
	s.Lamps = 0
	return s
}

func sampleHwTest() *view.Snapshot {
	s := base(view.HwTest, game.Classic)
	s.HwTest = &view.HwTestView{Lamp: "hit",
		Inputs: []string{"press stand", "main_door on", "main_door off", "press deal", "bill stacked 20.00"},
		Bills:  []string{"20,00 €", "bill refused: acceptor inhibited or bill above limit"}}
	s.Lamps = lamps(hw.Hit)
	return s
}

// sampleFigures are the analyser's figures for the game's default rules
// (the same embedded figures the cabinet shows), so a sample never shows an
// invented return.
func sampleFigures(id game.ID) []view.RTPLine {
	fs, err := analysis.Figures(id)
	if err != nil {
		panic("BUG: " + err.Error())
	}
	out := make([]view.RTPLine, len(fs))
	for i, f := range fs {
		out[i] = view.RTPLine{Bet: f.Bet, RTPBP: f.RTP, Method: f.Method}
	}
	return out
}
