package config

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw/periph/pins"
)

// file is the TOML document as written: money as decimal strings, durations
// as strings ("24h", "30d"). Every field carries its default before decoding,
// so keys left out of the file keep the rule book's values.
type file struct {
	Cabinet cabinetFile `toml:"cabinet"`
	Games   gamesFile   `toml:"games"`
	Jackpot jackpotFile `toml:"jackpot"`
	Duel    duelFile    `toml:"duel"`
	// Hardware is decoded straight into pins.Config (its Duration and
	// Amount types read "20ms" and "5.00").
	Hardware pins.Config `toml:"hardware"`
	SAS      sasFile     `toml:"sas"`
	Printer  printerFile `toml:"printer"`
}

type cabinetFile struct {
	Store          string   `toml:"store"`
	StoreMirror    string   `toml:"store_mirror"`
	Language       string   `toml:"language"`
	Currency       string   `toml:"currency"`
	Denomination   string   `toml:"denomination"`
	CreditLimit    string   `toml:"credit_limit"`
	HandpayLimit   string   `toml:"handpay_limit"`
	Bills          []string `toml:"bills"`
	RecallDepth    int      `toml:"recall_depth"`
	EventDepth     int      `toml:"event_depth"`
	Sound          bool     `toml:"sound"`
	Volume         int      `toml:"volume"`
	DealPaceMS     int      `toml:"deal_pace_ms"`
	ResultHoldMS   int      `toml:"result_hold_ms"`
	ExpectedDigest string   `toml:"expected_digest"`
	Backend        string   `toml:"backend"`
	Chips          []string `toml:"chips"`
	MinRTP         string   `toml:"min_rtp"`

	DecisionPauseMS int `toml:"decision_pause_ms"`
}

type gamesFile struct {
	Enabled []string    `toml:"enabled"`
	Classic classicFile `toml:"classic"`
	Royal   royalFile   `toml:"royal"`
	FreeBet freeBetFile `toml:"freebet"`
	Zappit  zappitFile  `toml:"zappit"`
}

type classicFile struct {
	MinBet    string `toml:"min_bet"`
	MaxBet    string `toml:"max_bet"`
	Spots     int    `toml:"spots"`
	VoidAfter string `toml:"void_after"`
	Decks     int    `toml:"decks"`
	HitSoft17 bool   `toml:"hit_soft17"`
	Dealing   string `toml:"dealing"` // american | european
	Surrender bool   `toml:"surrender"`
	MaxHands  int    `toml:"max_hands"`
}

type royalFile struct {
	MinBet     string           `toml:"min_bet"`
	MaxBet     string           `toml:"max_bet"`
	VoidAfter  string           `toml:"void_after"`
	RoyalStake string           `toml:"royal_stake"`
	SideBet    bool             `toml:"side_bet"` // the Royal Poker bet is offered
	Pays       map[string]int64 `toml:"pays"`
}

type freeBetFile struct {
	MinBet      string   `toml:"min_bet"`
	MaxBet      string   `toml:"max_bet"`
	Spots       int      `toml:"spots"`
	VoidAfter   string   `toml:"void_after"`
	Penetration int      `toml:"penetration"`
	AnyPair     sideFile `toml:"anypair"`
	TwentyOne   sideFile `toml:"21+3"`
	Hot3        sideFile `toml:"hot3"`
	BustIt      sideFile `toml:"bustit"`
}

type sideFile struct {
	Offered bool             `toml:"offered"`
	Min     string           `toml:"min"`
	Max     string           `toml:"max"`
	Pays    map[string]int64 `toml:"pays"`
}

type zappitFile struct {
	MinBet    string `toml:"min_bet"`
	MaxBet    string `toml:"max_bet"`
	Spots     int    `toml:"spots"`
	VoidAfter string `toml:"void_after"`
	WinCap    string `toml:"win_cap"`
}

// duelFile is duel.Config as written: the price is money (a decimal string),
// chip amounts are whole numbers. Whether the game is offered is said by
// games.enabled only.
type duelFile struct {
	Price         string   `toml:"price"`
	Decks         []int    `toml:"decks"`
	Stack         int64    `toml:"stack"`
	Ante          int64    `toml:"ante"`
	RaiseCap      int      `toml:"raise_cap"`
	MinBet        int64    `toml:"min_bet"`
	MaxBet        int64    `toml:"max_bet"`
	Items         []string `toml:"items"`
	PawnValue     int64    `toml:"pawn_value"`
	BuyBack       int64    `toml:"buy_back"`
	BluffPerMille int      `toml:"bluff_per_mille"`
	Levels        []string `toml:"levels"`
}

type jackpotFile struct {
	Reset string `toml:"reset"`
	Rate  string `toml:"rate"` // percent of the Royal Poker stake, up to 5 decimals
}

// Defaults of the cabinet section and the jackpot (games.md, platform.md).
const (
	DefaultStore       = "var/cabinet.db"
	DefaultRecallDepth = 100
	MinRecallDepth     = 10
	MaxRecallDepth     = 10000
	DefaultEventDepth  = 1000
	MinEventDepth      = 100
	MaxEventDepth      = 1000000
	MaxDealPaceMS      = 2000
	// A round's result stays on screen at least cabinet.result_hold_ms
	// before the next round may start (platform.md §7, default 1 s). A
	// minimum below half a second is no minimum a player can read; above
	// ten seconds the table looks frozen.
	DefaultResultHoldMS = 1000
	MinResultHoldMS     = 500
	MaxResultHoldMS     = 10000
	DefaultJackpotRate  = "20.30843"
	DefaultVoidAfter    = 24 * time.Hour
	ZappitVoidAfter     = 30 * 24 * time.Hour
)

// A step's picture stays on screen, complete, cabinet.decision_pause_ms
// before a decision is taken on it (issue 35: a press that finished a
// reveal was followed 50 ms later by a decision on a picture barely seen).
// Below a quarter second a mashed button still decides unseen; above a
// second play drags.
const (
	DefaultDecisionPauseMS = 400
	MinDecisionPauseMS     = 250
	MaxDecisionPauseMS     = 1000
)

// defaults is the document with every default filled in, decoded over:
// what fills the keys a file leaves out (required.go says what it may not).
func defaults() file {
	c, r, f, z := blackjack.Classic(), blackjack.Royal(), blackjack.FreeBet(), blackjack.Zappit()
	ids := make([]string, len(game.IDs))
	for i, id := range game.IDs {
		ids[i] = string(id)
	}
	d := file{
		SAS:     defaultSAS(),
		Printer: defaultPrinter(),
		Cabinet: cabinetFile{
			Store: DefaultStore, Language: "fr", Currency: "EUR", Denomination: "0.01",
			CreditLimit: "1000.00", HandpayLimit: "1200.00",
			Bills:       []string{"5.00", "10.00", "20.00", "50.00", "100.00"},
			RecallDepth: DefaultRecallDepth, EventDepth: DefaultEventDepth, Sound: true, Volume: 80, DealPaceMS: 350, DecisionPauseMS: DefaultDecisionPauseMS,
			ResultHoldMS: DefaultResultHoldMS,
			Backend:      "sim",
			Chips:        []string{"1.00", "5.00", "10.00", "25.00", "100.00"},
			MinRTP:       DefaultMinRTP,
		},
		Games: gamesFile{
			Enabled: ids,
			Classic: classicFile{
				MinBet: c.MinBet.String(), MaxBet: c.MaxBet.String(), Spots: c.MaxSpots,
				VoidAfter: formatDuration(DefaultVoidAfter), Decks: c.Decks, HitSoft17: c.HitSoft17,
				Dealing: dealingName(c.Peek), Surrender: c.Surrender, MaxHands: c.MaxHands,
			},
			Royal: royalFile{
				MinBet: r.MinBet.String(), MaxBet: r.MaxBet.String(),
				VoidAfter: formatDuration(DefaultVoidAfter), RoyalStake: r.RoyalStake.String(),
			},
			FreeBet: freeBetFile{
				MinBet: f.MinBet.String(), MaxBet: f.MaxBet.String(), Spots: f.MaxSpots,
				VoidAfter: formatDuration(DefaultVoidAfter), Penetration: f.Penetration,
			},
			Zappit: zappitFile{
				MinBet: z.MinBet.String(), MaxBet: ZappitMaxBet, Spots: z.MaxSpots,
				VoidAfter: formatDuration(ZappitVoidAfter), WinCap: z.WinCap.String(),
			},
		},
		Jackpot: jackpotFile{Reset: "20000.00", Rate: DefaultJackpotRate},
	}
	d.Hardware = pins.DefaultConfig()
	dc := duel.DefaultConfig()
	d.Duel = duelFile{Price: dc.Price.String(), Decks: dc.Decks, Stack: dc.Stack, Ante: dc.Ante, RaiseCap: dc.RaiseCap,
		MinBet: dc.MinBet, MaxBet: dc.MaxBet, Items: dc.Items, PawnValue: dc.PawnValue, BuyBack: dc.BuyBack,
		BluffPerMille: dc.BluffPerMille, Levels: dc.Levels}
	if s, ok := r.SideRule(game.RoyalSide); ok {
		d.Games.Royal.SideBet = true
		d.Games.Royal.Pays = copyPays(s.Pays)
	}
	for _, sf := range []struct {
		dst  *sideFile
		kind game.BetKind
	}{{&d.Games.FreeBet.AnyPair, game.AnyPair}, {&d.Games.FreeBet.TwentyOne, game.TwentyOne},
		{&d.Games.FreeBet.Hot3, game.Hot3}, {&d.Games.FreeBet.BustIt, game.BustIt}} {
		s, ok := f.SideRule(sf.kind)
		if !ok {
			panic("BUG: Free Bet preset lacks side bet " + string(sf.kind))
		}
		*sf.dst = sideFile{Offered: true, Min: s.Min.String(), Max: s.Max.String(), Pays: copyPays(s.Pays)}
	}
	return d
}

func copyPays(p map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(p))
	for k, v := range p {
		out[k] = v
	}
	return out
}

// clone deep-copies the document (slices and maps), for With.
func (f file) clone() file {
	g := f
	g.Cabinet.Bills = append([]string(nil), f.Cabinet.Bills...)
	g.Cabinet.Chips = append([]string(nil), f.Cabinet.Chips...)
	g.Games.Enabled = append([]string(nil), f.Games.Enabled...)
	g.Hardware = cloneHardware(f.Hardware)
	g.Duel.Decks = append([]int(nil), f.Duel.Decks...)
	g.Duel.Items = append([]string(nil), f.Duel.Items...)
	g.Duel.Levels = append([]string(nil), f.Duel.Levels...)
	g.Games.Royal.Pays = copyPays(f.Games.Royal.Pays)
	for _, s := range []*sideFile{&g.Games.FreeBet.AnyPair, &g.Games.FreeBet.TwentyOne, &g.Games.FreeBet.Hot3, &g.Games.FreeBet.BustIt} {
		s.Pays = copyPays(s.Pays)
	}
	return g
}

func cloneHardware(h pins.Config) pins.Config {
	g := h
	g.Buttons = make(map[string]pins.ButtonPins, len(h.Buttons))
	for k, v := range h.Buttons {
		g.Buttons[k] = v
	}
	g.Switches = make(map[string]pins.SwitchPin, len(h.Switches))
	for k, v := range h.Switches {
		g.Switches[k] = v
	}
	g.Acceptor.Bills = append([]pins.Amount(nil), h.Acceptor.Bills...)
	if h.Acceptor.Notes != nil {
		g.Acceptor.Notes = make(map[string]pins.Amount, len(h.Acceptor.Notes))
		for k, v := range h.Acceptor.Notes {
			g.Acceptor.Notes[k] = v
		}
	}
	return g
}

func dealingName(p blackjack.PeekMode) string {
	if p == blackjack.NoHole {
		return "european"
	}
	return "american"
}

// formatDuration writes whole days as "30d", otherwise Go's form ("24h0m0s"
// shortened to "24h").
func formatDuration(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 && d >= 48*time.Hour {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
		if strings.HasSuffix(s, "h0m") {
			s = strings.TrimSuffix(s, "0m")
		}
	}
	return s
}

func sortedKeys(m map[string]int64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
