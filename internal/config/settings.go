package config

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"cabinet/internal/game"
	"cabinet/internal/money"
	"cabinet/internal/view"
)

// Setting is one operator setting as the menu shows it.
type Setting struct {
	Key     string // override key, e.g. "games.classic.min_bet"
	Value   string // effective value, canonical form
	Allowed string // what may be set, in words
}

// opSetting describes how the operator menu reads, writes and cycles a key.
type opSetting struct {
	key     string
	allowed string
	// min and max are the least and greatest values the configuration
	// accepts, in the value's form ("": no bound): intRange's bounds, a
	// money setting's least amount (view.Setting.Min, Max).
	min, max string
	get      func(c *Config) string
	set      func(f *file, v string) error // writes the document; build validates
	choices  []string                      // values Next cycles through
	num      func(string) (int64, bool)    // numeric order of values (nil: list order)
	kind     string                        // view.Setting.Kind
	unit     string                        // view.Setting.Unit
	note     string                        // view.Setting.Note
	// noteOf, if set, is the note in the effective configuration when it
	// says more than note ("": note).
	noteOf func(c *Config) string
}

// Kinds of setting values (the view's contract).
const (
	KindMoney   = view.KindMoney
	KindCount   = view.KindCount
	KindSwitch  = view.KindSwitch
	KindPercent = view.KindPercent
	KindWord    = view.KindWord
)

// describe gives a setting its screen description as data: the label's
// message keys, its group and its game (this package owns the key space;
// the screens never take a key apart).
func describe(key string) (label []string, labelMoney money.Cents, group string, id game.ID) {
	parts := strings.Split(key, ".")
	switch {
	case len(parts) >= 3 && parts[0] == "cabinet" && parts[1] == "bill":
		v, _ := money.Parse(strings.Join(parts[2:], "."))
		return []string{"set.bill"}, v, "bills", ""
	case len(parts) == 2 && parts[0] == "cabinet":
		return []string{"set." + parts[1]}, 0, "cabinet", ""
	case len(parts) == 2 && parts[0] == "jackpot":
		return []string{"rule.jackpot_" + parts[1]}, 0, "jackpot", ""
	case len(parts) == 2 && parts[0] == "duel":
		return []string{"game.duel", "rule.session_" + parts[1]}, 0, "games.duel", game.Duel
	case len(parts) == 3 && parts[0] == "games" && parts[2] == "enabled":
		return []string{"game." + parts[1], "set.enabled"}, 0, "games." + parts[1], game.ID(parts[1])
	case len(parts) == 3 && parts[0] == "games":
		return []string{"game." + parts[1], "rule." + parts[2]}, 0, "games." + parts[1], game.ID(parts[1])
	case len(parts) == 4 && parts[0] == "games":
		return []string{"game." + parts[1], "bet." + parts[2], "set.side_" + parts[3]}, 0, "games." + parts[1], game.ID(parts[1])
	}
	return []string{"set." + key}, 0, parts[0], ""
}

// notes are what a setting's allowed values do not say by themselves
// (message keys, view.Setting.Note).
var notes = map[string]string{
	"cabinet.handpay_limit": "note.zero_no_handpay",
	"cabinet.credit_limit":  "note.at_least_bills",
	"jackpot.rate":          "note.rate_decimals",
}

// viewSetting is s as the operator menu shows it.
func (o opSetting) viewSetting(value string) view.Setting {
	label, lm, group, id := describe(o.key)
	note := o.note
	if note == "" {
		note = notes[o.key]
	}
	return view.Setting{Key: o.key, Value: value, Allowed: o.allowed, Label: label, LabelMoney: lm, Group: group,
		Game: id, Kind: o.kind, Unit: o.unit, Note: note, Choices: append([]string(nil), o.choices...), Min: o.min, Max: o.max}
}

// moneyLadder is the sequence of amounts the operator menu steps through.
var moneyLadder = []string{"0.10", "0.20", "0.25", "0.50", "1.00", "2.00", "5.00", "10.00", "20.00", "25.00",
	"50.00", "100.00", "200.00", "250.00", "500.00", "1000.00", "2000.00", "2500.00", "5000.00",
	"10000.00", "20000.00", "25000.00", "50000.00", "100000.00"}

var onOff = []string{"on", "off"}

func moneyNum(s string) (int64, bool) {
	v, err := money.Parse(s)
	return int64(v), err == nil
}

func rateNum(s string) (int64, bool) {
	v, err := rateE7("", s)
	return v, err == nil
}

func fmtBool(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func parseBool(key, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "on", "yes", "true", "1":
		return true, nil
	case "off", "no", "false", "0":
		return false, nil
	}
	return false, bad(key, v, `"on" or "off"`)
}

func parseInt(key, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, bad(key, v, "a whole number")
	}
	return n, nil
}

// moneyKey is a setting held as a decimal string in the document, of at
// least lo (the least amount its validation accepts: zeroOK or aboveZero).
func moneyKey(key, allowed string, lo money.Cents, field func(f *file) *string, get func(c *Config) money.Cents) opSetting {
	ch := moneyLadder
	if lo == zeroOK {
		ch = append([]string{"0.00"}, moneyLadder...)
	}
	return opSetting{key: key, allowed: allowed, choices: ch, num: moneyNum, kind: KindMoney, min: lo.String(),
		get: func(c *Config) string { return get(c).String() },
		set: func(f *file, v string) error { *field(f) = v; return nil }}
}

// intKey is a whole-number setting accepting r (what: its unit in words),
// BET+ stepping through choices, from r's least to its greatest value.
func intKey(key string, r intRange, what string, choices []string, field func(f *file) *int) opSetting {
	if choices[0] != r.min() || choices[len(choices)-1] != r.max() {
		panic("BUG: config: the choices of " + key + " do not span its range")
	}
	allowed := fmt.Sprintf("%d to %d", r.lo, r.hi)
	if what != "" {
		allowed += " " + what
	}
	return opSetting{key: key, allowed: allowed, choices: choices, num: moneyNum, kind: KindCount, min: r.min(), max: r.max(),
		get: func(c *Config) string { return strconv.Itoa(*field(&c.raw)) },
		set: func(f *file, v string) error {
			n, err := parseInt(key, v)
			if err != nil {
				return err
			}
			*field(f) = n
			return nil
		}}
}

func boolKey(key string, field func(f *file) *bool) opSetting {
	return opSetting{key: key, allowed: `"on" or "off"`, choices: onOff, kind: KindSwitch,
		get: func(c *Config) string { return fmtBool(*field(&c.raw)) },
		set: func(f *file, v string) error {
			b, err := parseBool(key, v)
			if err != nil {
				return err
			}
			*field(f) = b
			return nil
		}}
}

// operatorSettings lists the settings of the operator menu (platform.md §6),
// in menu order, for this configuration's bill denominations.
func (c *Config) operatorSettings() []opSetting {
	s := []opSetting{
		{key: "cabinet.language", allowed: `"fr" or "en"`, choices: []string{"fr", "en"}, kind: KindWord,
			get: func(c *Config) string { return c.Cabinet.Language },
			set: func(f *file, v string) error { f.Cabinet.Language = v; return nil }},
		boolKey("cabinet.sound", func(f *file) *bool { return &f.Cabinet.Sound }),
		withKind(intKey("cabinet.volume", volumeRange, "(percent)", []string{"0", "20", "40", "60", "80", "100"},
			func(f *file) *int { return &f.Cabinet.Volume }), KindPercent),
		withUnit(intKey("cabinet.deal_pace_ms", dealPaceRange, "milliseconds per card", []string{"0", "200", "350", "500", "800", "1200", "2000"},
			func(f *file) *int { return &f.Cabinet.DealPaceMS }), "ms"),
		withUnit(intKey("cabinet.result_hold_ms", resultHoldRange, "milliseconds", []string{"500", "1000", "2000", "3000", "5000", "10000"},
			func(f *file) *int { return &f.Cabinet.ResultHoldMS }), "ms"),
		withUnit(intKey("cabinet.decision_pause_ms", decisionPauseRange, "milliseconds", []string{"250", "400", "600", "800", "1000"},
			func(f *file) *int { return &f.Cabinet.DecisionPauseMS }), "ms"),
		moneyKey("cabinet.credit_limit", "an amount above 0", aboveZero,
			func(f *file) *string { return &f.Cabinet.CreditLimit }, func(c *Config) money.Cents { return c.Cabinet.CreditLimit }),
		moneyKey("cabinet.handpay_limit", "an amount, 0.00 = no handpay lock on wins", zeroOK,
			func(f *file) *string { return &f.Cabinet.HandpayLimit }, func(c *Config) money.Cents { return c.Cabinet.HandpayLimit }),
		withUnit(intKey("cabinet.recall_depth", recallDepthRange, "rounds",
			[]string{"10", "20", "50", "100", "200", "500", "1000", "2000", "5000", "10000"}, func(f *file) *int { return &f.Cabinet.RecallDepth }), "rounds"),
	}
	for _, b := range c.billChoices() {
		s = append(s, billKey(b))
	}
	for _, id := range game.IDs {
		if c.described[id] { // a game the file does not describe cannot be switched on
			s = append(s, enabledKey(id))
		}
	}
	s = append(s,
		moneyKey("jackpot.reset", "an amount of 0 or more", zeroOK,
			func(f *file) *string { return &f.Jackpot.Reset }, func(c *Config) money.Cents { return c.Jackpot.Reset }),
		opSetting{key: "jackpot.rate", allowed: "a percent from 0 to 100, at most five decimals", kind: KindPercent,
			min: shortRate(0), max: shortRate(maxRateE7),
			choices: []string{"0.00000", "5.00000", "10.00000", "15.00000", DefaultJackpotRate, "25.00000", "30.00000"}, num: rateNum,
			get: func(c *Config) string { return FormatRateE7(c.Jackpot.RateE7) },
			set: func(f *file, v string) error { f.Jackpot.Rate = v; return nil }},
	)
	s = append(s, moneyKey("duel.price", "an amount above 0 (price of a Poker Duel session)", aboveZero,
		func(f *file) *string { return &f.Duel.Price }, func(c *Config) money.Cents { return c.Duel.Price }))
	type mm struct {
		id       game.ID
		min, max func(f *file) *string
	}
	for _, g := range []mm{
		{game.Royal, func(f *file) *string { return &f.Games.Royal.MinBet }, func(f *file) *string { return &f.Games.Royal.MaxBet }},
		{game.FreeBet, func(f *file) *string { return &f.Games.FreeBet.MinBet }, func(f *file) *string { return &f.Games.FreeBet.MaxBet }},
		{game.Zappit, func(f *file) *string { return &f.Games.Zappit.MinBet }, func(f *file) *string { return &f.Games.Zappit.MaxBet }},
		{game.Classic, func(f *file) *string { return &f.Games.Classic.MinBet }, func(f *file) *string { return &f.Games.Classic.MaxBet }},
	} {
		id := g.id
		p := "games." + string(id) + "."
		s = append(s,
			withNote(moneyKey(p+"min_bet", "an amount above 0, at most max_bet", aboveZero, g.min, func(c *Config) money.Cents { return c.rules[id].MinBet }), "note.at_most_max_bet"),
			withNote(moneyKey(p+"max_bet", "an amount at least min_bet", aboveZero, g.max, func(c *Config) money.Cents { return c.rules[id].MaxBet }), "note.at_least_min_bet"))
		switch id {
		case game.Royal:
			s = append(s, moneyKey(p+"royal_stake", "an amount above 0", aboveZero,
				func(f *file) *string { return &f.Games.Royal.RoyalStake }, func(c *Config) money.Cents { return c.rules[game.Royal].RoyalStake }))
		case game.FreeBet:
			s = append(s,
				intKey(p+"spots", spotsRange, "", []string{"1", "2", "3"}, func(f *file) *int { return &f.Games.FreeBet.Spots }),
				withKind(intKey(p+"penetration", penetrationRange, "(percent)", []string{"50", "55", "60", "65", "70", "75", "80", "85", "90"},
					func(f *file) *int { return &f.Games.FreeBet.Penetration }), KindPercent))
			for _, sb := range []struct {
				kind game.BetKind
				f    func(f *file) *sideFile
			}{
				{game.AnyPair, func(f *file) *sideFile { return &f.Games.FreeBet.AnyPair }},
				{game.TwentyOne, func(f *file) *sideFile { return &f.Games.FreeBet.TwentyOne }},
				{game.Hot3, func(f *file) *sideFile { return &f.Games.FreeBet.Hot3 }},
				{game.BustIt, func(f *file) *sideFile { return &f.Games.FreeBet.BustIt }},
			} {
				sb := sb
				q := p + string(sb.kind) + "."
				// A side bet that is off keeps its limits in the document:
				// they are shown (not 0.00) with a note that they apply
				// again once it is offered, and the switch says that
				// turning it on restores them (issue 26).
				side := func(c *Config) (lo, hi money.Cents) {
					if r, ok := c.rules[game.FreeBet].SideRule(sb.kind); ok {
						return r.Min, r.Max
					}
					kept := sb.f(&c.raw)
					lo, _ = money.Parse(kept.Min)
					hi, _ = money.Parse(kept.Max)
					return lo, hi
				}
				off := func(note string) func(c *Config) string {
					return func(c *Config) string {
						if sb.f(&c.raw).Offered {
							return ""
						}
						return note
					}
				}
				on := boolKey(q+"offered", func(f *file) *bool { return &sb.f(f).Offered })
				on.noteOf = off("note.side_on_restores")
				lo := withNote(moneyKey(q+"min", "an amount above 0, at most max", aboveZero,
					func(f *file) *string { return &sb.f(f).Min }, func(c *Config) money.Cents { lo, _ := side(c); return lo }), "note.at_most_max")
				lo.noteOf = off("note.side_off_limit")
				hi := withNote(moneyKey(q+"max", "an amount at least min", aboveZero,
					func(f *file) *string { return &sb.f(f).Max }, func(c *Config) money.Cents { _, hi := side(c); return hi }), "note.at_least_min")
				hi.noteOf = off("note.side_off_limit")
				s = append(s, on, lo, hi)
			}
		case game.Zappit:
			s = append(s,
				intKey(p+"spots", spotsRange, "", []string{"1", "2", "3"}, func(f *file) *int { return &f.Games.Zappit.Spots }),
				withNote(moneyKey(p+"win_cap", "an amount, 0.00 = no cap", zeroOK,
					func(f *file) *string { return &f.Games.Zappit.WinCap }, func(c *Config) money.Cents { return c.rules[game.Zappit].WinCap }), "note.zero_no_cap"))
		case game.Classic:
			s = append(s,
				intKey(p+"spots", spotsRange, "", []string{"1", "2", "3"}, func(f *file) *int { return &f.Games.Classic.Spots }),
				opSetting{key: p + "dealing", allowed: `"american" or "european"`, choices: []string{"american", "european"}, kind: KindWord,
					get: func(c *Config) string { return c.raw.Games.Classic.Dealing },
					set: func(f *file, v string) error { f.Games.Classic.Dealing = v; return nil }},
				boolKey(p+"surrender", func(f *file) *bool { return &f.Games.Classic.Surrender }),
				intKey(p+"max_hands", maxHandsRange, "", []string{"2", "3"}, func(f *file) *int { return &f.Games.Classic.MaxHands }))
		}
	}
	return s
}

// billChoices are the denominations the operator may switch on or off: those
// the acceptor is programmed for (hardware.acceptor.bills) and those enabled.
func (c *Config) billChoices() []money.Cents {
	set := map[money.Cents]bool{}
	for _, b := range c.Hardware.Acceptor.Bills {
		set[b.Cents()] = true
	}
	for _, b := range c.Cabinet.Bills {
		set[b] = true
	}
	out := make([]money.Cents, 0, len(set))
	for b := range set {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// memberKey is a switch that puts one item in a list of the document or
// takes it out: a bill denomination in cabinet.bills, a game in
// games.enabled. is tells whether a listed string is the item.
func memberKey(key, allowed, note, item string, has func(c *Config) bool, list func(f *file) *[]string, is func(string) bool) opSetting {
	return opSetting{key: key, allowed: allowed, choices: onOff, kind: KindSwitch, note: note,
		get: func(c *Config) string { return fmtBool(has(c)) },
		set: func(f *file, v string) error {
			on, err := parseBool(key, v)
			if err != nil {
				return err
			}
			l := list(f)
			out := slices.DeleteFunc(slices.Clone(*l), is)
			if on {
				out = append(out, item)
			}
			*l = out
			return nil
		}}
}

// billKey switches one bill denomination on or off: "cabinet.bill.20.00".
func billKey(b money.Cents) opSetting {
	return memberKey("cabinet.bill."+b.String(), `"on" or "off"`, "", b.String(),
		func(c *Config) bool { return slices.Contains(c.Cabinet.Bills, b) },
		func(f *file) *[]string { return &f.Cabinet.Bills },
		func(s string) bool { x, err := money.Parse(s); return err == nil && x == b })
}

// enabledKey switches one game on or off: "games.classic.enabled".
func enabledKey(id game.ID) opSetting {
	return memberKey("games."+string(id)+".enabled", `"on" or "off" (at least one game on)`, "note.one_game_on", string(id),
		func(c *Config) bool { return slices.Contains(c.enabled, id) },
		func(f *file) *[]string { return &f.Games.Enabled },
		func(s string) bool { return s == string(id) })
}

// Settings lists the operator settings with their effective values.
func (c *Config) Settings() []Setting {
	ops := c.operatorSettings()
	out := make([]Setting, len(ops))
	for i, o := range ops {
		out[i] = Setting{Key: o.key, Value: o.get(c), Allowed: o.allowed}
	}
	return out
}

func (c *Config) lookup(key string) (opSetting, bool) {
	for _, o := range c.operatorSettings() {
		if o.key == key {
			return o, true
		}
	}
	return opSetting{}, false
}

// With applies operator overrides (key → value, as stored in the store) to
// the configuration and validates the result like Load. The receiver is not
// changed. An unknown key or a bad value is an error naming the key.
func (c *Config) With(overrides map[string]string) (*Config, error) {
	if len(overrides) == 0 {
		return c, nil
	}
	f := c.raw.clone()
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o, ok := c.lookup(k)
		if !ok {
			if b, isBill := strings.CutPrefix(k, "cabinet.bill."); isBill {
				if v, err := money.Parse(b); err == nil && v > 0 {
					o, ok = billKey(v), true
				}
			}
		}
		if !ok {
			return nil, fmt.Errorf("config: operator override: %w", bad(k, overrides[k], "an operator setting key (see the operator menu)"))
		}
		if err := o.set(&f, overrides[k]); err != nil {
			return nil, fmt.Errorf("config: operator override: %w", err)
		}
	}
	n, err := build(f)
	if err != nil {
		return nil, fmt.Errorf("config: operator overrides %s: %w", strings.Join(keys, ", "), err)
	}
	n.described = c.described
	return n, nil
}

// Next returns the value after current in the operator menu's cycle for key
// (the next larger amount, the other language, on/off...). It does not
// validate the combination: With does.
func (c *Config) Next(key, current string) (string, error) {
	o, ok := c.lookup(key)
	if !ok {
		return "", bad(key, current, "an operator setting key (see the operator menu)")
	}
	for i, v := range o.choices {
		if v == current {
			return o.choices[(i+1)%len(o.choices)], nil
		}
	}
	if o.num != nil {
		if cur, ok := o.num(current); ok {
			for _, v := range o.choices {
				if n, _ := o.num(v); n > cur {
					return v, nil
				}
			}
		}
	}
	return o.choices[0], nil
}

// Items lists the operator settings with the values in effect under the
// stored overrides (cabinet.OperatorMenu). Overrides that do not validate
// are not applied: the menu then shows the configuration's values.
func (c *Config) Items(overrides map[string]string) []view.Setting {
	eff, err := c.With(overrides)
	if err != nil {
		eff = c
	}
	ops := eff.operatorSettings()
	out := make([]view.Setting, len(ops))
	for i, o := range ops {
		out[i] = o.viewSetting(o.get(eff))
		if o.noteOf != nil {
			if n := o.noteOf(eff); n != "" {
				out[i].Note = n
			}
		}
	}
	return out
}

// Describe is the screen description of the operator setting key (a
// stored override's key: labels of the event log and of a refusal); ok is
// false for a key that is not an operator setting.
func (c *Config) Describe(key string) (view.Setting, bool) {
	o, ok := c.lookup(key)
	if !ok {
		return view.Setting{}, false
	}
	return o.viewSetting(""), true
}

// shortRate is a rate as FormatRateE7 writes it without its trailing
// zeros ("100", "20.5"): a bound of the allowed range.
func shortRate(r int64) string {
	return strings.TrimSuffix(strings.TrimRight(FormatRateE7(r), "0"), ".")
}

func withNote(o opSetting, note string) opSetting { o.note = note; return o }
func withUnit(o opSetting, unit string) opSetting { o.unit = unit; return o }
func withKind(o opSetting, kind string) opSetting { o.kind = kind; return o }
