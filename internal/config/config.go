package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw/periph/pins"
	"cabinet/internal/money"
)

// Config is a validated configuration. It is immutable once built: With
// returns a new Config.
type Config struct {
	Cabinet Cabinet
	Jackpot Jackpot
	// Duel is the Poker Duel configuration; Duel.Enabled says whether
	// "duel" is in games.enabled.
	Duel duel.Config
	// Hardware is the GPIO pin map and timings of the periph backend
	// ([hardware]); validated whatever the backend, so a bad map is found
	// before the cabinet goes to the Pi.
	Hardware pins.Config
	// SAS is the [sas] section (sas.go).
	SAS SAS
	// Printer is the [printer] section (printer.go).
	Printer Printer

	enabled   []game.ID
	rules     map[game.ID]blackjack.Rules
	voidAfter map[game.ID]time.Duration
	// described lists the games whose sections the file states: the
	// operator menu may switch on only those (required.go).
	described map[game.ID]bool

	raw file // the document as decoded, for With
}

// Cabinet is the [cabinet] section.
type Cabinet struct {
	Store          string        // bbolt store file
	StoreMirror    string        // newest-store proof file (default: Store + ".mirror")
	Language       string        // "fr" or "en"
	Currency       string        // ISO 4217 code, e.g. "EUR"
	Denomination   money.Cents   // credit value for the credits display
	CreditLimit    money.Cents   // a bill taking credits above it is refused
	HandpayLimit   money.Cents   // a single win at or above locks for a handpay; 0 = never
	Bills          []money.Cents // enabled bill denominations, ascending
	RecallDepth    int           // rounds kept for the game recall
	EventDepth     int           // events kept in the event log
	Sound          bool          // sound on
	Volume         int           // sound effects' volume, percent (0–100)
	DealPaceMS     int           // milliseconds a dealt card takes from the shoe (0: no animation)
	ResultHoldMS   int           // milliseconds a round's result stays on screen before the next round (platform.md §7)
	ExpectedDigest string        // program SHA-256 (hex) that must match, "" = no check
	Backend        string        // "sim" or "periph"
	Chips          []money.Cents // BET+ chip values, ascending
	// MinRTP is the minimum return of every wager in hundredths of a
	// percent (7500 = 75.00 %): see minrtp.go.
	MinRTP int64
	// DecisionPauseMS: milliseconds a step's picture stays complete on
	// screen before a decision is taken on it (issue 35).
	DecisionPauseMS int
}

// Jackpot is the [jackpot] section: the Royal Poker progressive.
type Jackpot struct {
	Reset  money.Cents // pool value at start and after a royal flush
	RateE7 int64       // contribution, parts per 10^7 of the Royal Poker stake
}

// Load reads and validates the configuration file at path. It touches
// nothing but the file it reads.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: load: %w", err)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Parse decodes and validates a configuration document. A document with no
// key at all (empty, whitespace, comments) is ErrEmpty; a key the program
// does not know is an error; one that leaves out what it must state (the
// currency, the games enabled, their sections: required.go) is a
// *MissingError. Keys left out inside a section the file has take their
// defaults.
func Parse(data []byte) (*Config, error) {
	f := defaults()
	// A table the file states replaces the default one, never merges with
	// it: the validator's notes are the file's, or the defaults if it
	// states none.
	defNotes := f.Hardware.Acceptor.Notes
	f.Hardware.Acceptor.Notes = nil
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&f)
	if err == nil && !md.IsDefined("hardware", "acceptor", "notes") {
		f.Hardware.Acceptor.Notes = defNotes
	}
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("config: line %d: %s: %w", pe.Position.Line, strings.TrimSpace(pe.Message), ErrInvalid)
		}
		if m := typeErr.FindStringSubmatch(err.Error()); m != nil {
			want := map[string]string{
				"string":  `a quoted string (amounts are written as "1.00")`,
				"integer": "a whole number", "int64": "a whole number", "bool": "true or false",
			}[m[3]]
			if want == "" {
				want = "a value of type " + m[3]
			}
			return nil, &KeyError{Key: m[1], Value: rawValue(data, m[1]) + "(a TOML " + m[2] + ")", Allowed: want}
		}
		return nil, fmt.Errorf("config: %w: %w", ErrInvalid, err)
	}
	if len(md.Keys()) == 0 {
		return nil, ErrEmpty
	}
	if un := md.Undecoded(); len(un) > 0 {
		keys := make([]string, len(un))
		for i, k := range un {
			keys[i] = k.String()
		}
		return nil, &KeyError{Key: keys[0], Value: "(unknown key)", Allowed: "only the keys of configs/cabinet.toml; unknown keys: " + strings.Join(keys, ", ")}
	}
	c, err := build(f)
	if err != nil {
		return nil, err
	}
	if err := required(md, c); err != nil {
		return nil, err
	}
	c.described = described(md, c)
	return c, nil
}

// rawValue is the value written at key (a dotted path) as TOML shows it,
// followed by a space, for a type error's message; "" where the document
// cannot say (the key is not a plain path).
func rawValue(data []byte, key string) string {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return ""
	}
	var v any = doc
	for _, k := range strings.Split(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		if v, ok = m[k]; !ok {
			return ""
		}
	}
	switch v := v.(type) {
	case string:
		return strconv.Quote(v) + " "
	case float64:
		f := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.ContainsAny(f, ".eEnN") { // 1.00 is a float: say so
			f += ".0"
		}
		return f + " "
	}
	return fmt.Sprint(v) + " "
}

// typeErr matches BurntSushi/toml's type mismatch error: key, found, wanted.
var typeErr = regexp.MustCompile(`last key "([^"]+)"\): incompatible types: TOML value has type ([\w\[\]{}.]+); destination has type ([\w\[\]{}.]+)`)

// Enabled lists the enabled games in menu order.
func (c *Config) Enabled() []game.ID { return append([]game.ID(nil), c.enabled...) }

// Rules returns the effective rules of a blackjack game (enabled or not).
func (c *Config) Rules(id game.ID) (blackjack.Rules, error) {
	r, ok := c.rules[id]
	if !ok {
		return blackjack.Rules{}, fmt.Errorf("config: rules of %q: not a blackjack game", id)
	}
	r.Side = append([]blackjack.SideRule(nil), r.Side...)
	for i := range r.Side {
		r.Side[i].Pays = copyPays(r.Side[i].Pays)
	}
	return r, nil
}

// VoidAfter is how long an unfinished round of game id may stay open before it
// is voided and refunded.
func (c *Config) VoidAfter(id game.ID) time.Duration {
	if d, ok := c.voidAfter[id]; ok {
		return d
	}
	return DefaultVoidAfter
}

// StorePath is the store file ([cabinet] store).
func (c *Config) StorePath() string { return c.Cabinet.Store }

// MirrorPath is the newest-store proof file ([cabinet] store_mirror; by
// default the store's path with ".mirror" appended). See docs/recovery.md.
func (c *Config) MirrorPath() string { return c.Cabinet.StoreMirror }

// RecallDepth is the number of rounds kept for the recall.
func (c *Config) RecallDepth() int { return c.Cabinet.RecallDepth }

// EventDepth is the number of events kept in the log.
func (c *Config) EventDepth() int { return c.Cabinet.EventDepth }

// Backend is the hardware backend, "sim" or "periph".
func (c *Config) Backend() string { return c.Cabinet.Backend }

// ExpectedDigest is the program SHA-256 that must match ("" = no check).
func (c *Config) ExpectedDigest() string { return c.Cabinet.ExpectedDigest }

// build validates the decoded document and builds the Config.
func build(f file) (*Config, error) {
	c := &Config{raw: f.clone(), rules: map[game.ID]blackjack.Rules{}, voidAfter: map[game.ID]time.Duration{}}
	if err := buildCabinet(&c.Cabinet, f.Cabinet); err != nil {
		return nil, err
	}
	var err error
	if c.Jackpot.Reset, err = amount("jackpot.reset", f.Jackpot.Reset, zeroOK); err != nil {
		return nil, err
	}
	if c.Jackpot.RateE7, err = rateE7("jackpot.rate", f.Jackpot.Rate); err != nil {
		return nil, err
	}
	seen := map[game.ID]bool{}
	for _, s := range f.Games.Enabled {
		id := game.ID(s)
		switch {
		case !id.Valid():
			return nil, bad("games.enabled", s, "a list of games among %s", gameList())
		case seen[id]:
			return nil, bad("games.enabled", s, "each game listed once")
		}
		seen[id] = true
	}
	if len(seen) == 0 {
		return nil, bad("games.enabled", f.Games.Enabled, "at least one game among %s", gameList())
	}
	for _, id := range game.IDs { // menu order
		if seen[id] {
			c.enabled = append(c.enabled, id)
		}
	}
	for _, b := range []func(*Config, gamesFile) error{buildClassic, buildRoyal, buildFreeBet, buildZappit} {
		if err := b(c, f.Games); err != nil {
			return nil, err
		}
	}
	if err := buildDuel(c, f.Duel); err != nil {
		return nil, err
	}
	if err := buildHardware(c, f.Hardware); err != nil {
		return nil, err
	}
	if c.SAS, err = buildSAS(f.SAS); err != nil {
		return nil, err
	}
	if c.Printer, err = buildPrinter(f.Printer); err != nil {
		return nil, err
	}
	if c.Printer.On() && c.SAS.Asset == 0 {
		return nil, bad("sas.asset", 0, "a nonzero asset number: it is printed on every ticket (required with a printer)")
	}
	for id, r := range c.rules {
		if err := r.Validate(); err != nil {
			return nil, &KeyError{Key: "games." + string(id), Value: "(rules)", Allowed: "valid rules: " + err.Error()}
		}
	}
	return c, nil
}

func buildDuel(c *Config, f duelFile) error {
	price, err := amount("duel.price", f.Price, aboveZero)
	if err != nil {
		return err
	}
	d := duel.Config{Price: price, Decks: append([]int(nil), f.Decks...), Stack: f.Stack, Ante: f.Ante,
		RaiseCap: f.RaiseCap, MinBet: f.MinBet, MaxBet: f.MaxBet, Items: append([]string(nil), f.Items...),
		PawnValue: f.PawnValue, BuyBack: f.BuyBack, BluffPerMille: f.BluffPerMille, Levels: append([]string(nil), f.Levels...)}
	for _, id := range c.enabled {
		d.Enabled = d.Enabled || id == game.Duel
	}
	if err := d.Validate(); err != nil {
		// duel.Validate says "<ErrConfig>: key = value: want allowed".
		msg := strings.TrimPrefix(err.Error(), duel.ErrConfig.Error()+": ")
		key, rest, ok1 := strings.Cut(msg, " = ")
		val, allowed, ok2 := strings.Cut(rest, ": want ")
		if !ok1 || !ok2 {
			return &KeyError{Key: "duel", Value: "(section)", Allowed: "valid Poker Duel settings: " + msg}
		}
		return &KeyError{Key: "duel." + key, Value: val, Allowed: allowed}
	}
	c.Duel = d
	return nil
}

func buildHardware(c *Config, h pins.Config) error {
	if err := h.Validate(); err != nil {
		// pins.Validate says "<ErrConfig>: key = "value": want allowed".
		msg := strings.TrimPrefix(err.Error(), pins.ErrConfig.Error()+": ")
		key, rest, ok1 := strings.Cut(msg, " = ")
		val, allowed, ok2 := strings.Cut(rest, ": want ")
		if !ok1 || !ok2 {
			return &KeyError{Key: "hardware", Value: "(section)", Allowed: "a valid pin map: " + msg}
		}
		return &KeyError{Key: key, Value: val, Allowed: allowed}
	}
	if c.Cabinet.Backend == "periph" && h.Acceptor.Mode == pins.AcceptorPulse {
		for _, b := range c.Cabinet.Bills {
			known := false
			for _, a := range h.Acceptor.Bills {
				known = known || a.Cents() == b
			}
			if !known {
				return bad("cabinet.bills", b.String(), "bills the acceptor is programmed for (hardware.acceptor.bills: %v)", billsText(h.Acceptor.Bills))
			}
		}
	}
	c.Hardware = cloneHardware(h)
	return nil
}

// Validator is the serial note validator's part of [hardware.acceptor]
// with portFlag (`--acceptor PORT`, "" for none) applied: ok false when the
// cabinet has none (mode pulse or none, no flag). The flag selects the
// validator whatever the mode and overrides the port (as `--sas` does);
// the notes come from hardware.acceptor.notes, which it then requires.
func (c *Config) Validator(portFlag string) (port string, notes map[byte]money.Cents, ok bool, err error) {
	a := c.Hardware.Acceptor
	if portFlag == "" && a.Mode != pins.AcceptorID003 {
		return "", nil, false, nil
	}
	port = a.Port
	if portFlag != "" {
		port = portFlag
	}
	notes, err = a.NoteTable()
	if err == nil && len(notes) == 0 {
		err = bad("hardware.acceptor.notes", "(none)", "the escrow codes of the notes the validator may stack, with their values ({ 0x62 = \"5.00\" }): --acceptor %s needs them", port)
	}
	if err != nil {
		return "", nil, false, err
	}
	return port, notes, true, nil
}

func billsText(bs []pins.Amount) string {
	s := make([]string, len(bs))
	for i, b := range bs {
		s[i] = b.Cents().String()
	}
	return strings.Join(s, ", ")
}

func gameList() string {
	s := make([]string, len(game.IDs))
	for i, id := range game.IDs {
		s[i] = string(id)
	}
	return strings.Join(s, ", ")
}

func buildCabinet(c *Cabinet, f cabinetFile) error {
	var err error
	if strings.TrimSpace(f.Store) == "" {
		return bad("cabinet.store", f.Store, "a file path, e.g. %q", DefaultStore)
	}
	c.Store = f.Store
	c.StoreMirror = f.StoreMirror
	if strings.TrimSpace(c.StoreMirror) == "" {
		c.StoreMirror = f.Store + ".mirror"
	}
	if c.StoreMirror == c.Store {
		return bad("cabinet.store_mirror", f.StoreMirror, "a file other than the store itself (on the Pi: on another partition or device)")
	}
	switch f.Language {
	case "fr", "en":
		c.Language = f.Language
	default:
		return bad("cabinet.language", f.Language, `"fr" or "en"`)
	}
	if len(f.Currency) != 3 || strings.ToUpper(f.Currency) != f.Currency || strings.ContainsFunc(f.Currency, func(r rune) bool { return r < 'A' || r > 'Z' }) {
		return bad("cabinet.currency", f.Currency, `a three-letter ISO 4217 code in capitals, e.g. "EUR"`)
	}
	c.Currency = f.Currency
	if c.Denomination, err = amount("cabinet.denomination", f.Denomination, aboveZero); err != nil {
		return err
	}
	if c.CreditLimit, err = amount("cabinet.credit_limit", f.CreditLimit, aboveZero); err != nil {
		return err
	}
	if c.HandpayLimit, err = amount("cabinet.handpay_limit", f.HandpayLimit, zeroOK); err != nil {
		return err
	}
	if c.Bills, err = amounts("cabinet.bills", f.Bills, false); err != nil {
		return err
	}
	for _, b := range c.Bills {
		if b > c.CreditLimit {
			return bad("cabinet.bills", b.String(), "bills at most the credit limit %v (cabinet.credit_limit)", c.CreditLimit)
		}
	}
	if c.Chips, err = amounts("cabinet.chips", f.Chips, true); err != nil {
		return err
	}
	if err := recallDepthRange.check("cabinet.recall_depth", f.RecallDepth, "rounds"); err != nil {
		return err
	}
	c.RecallDepth = f.RecallDepth
	if err := eventDepthRange.check("cabinet.event_depth", f.EventDepth, "events"); err != nil {
		return err
	}
	c.EventDepth = f.EventDepth
	c.Sound = f.Sound
	if err := volumeRange.check("cabinet.volume", f.Volume, "(percent)"); err != nil {
		return err
	}
	c.Volume = f.Volume
	if err := dealPaceRange.check("cabinet.deal_pace_ms", f.DealPaceMS, "milliseconds per card (0: no animation)"); err != nil {
		return err
	}
	c.DealPaceMS = f.DealPaceMS
	if err := resultHoldRange.check("cabinet.result_hold_ms", f.ResultHoldMS, "milliseconds (how long a round's result stays on screen before the next round)"); err != nil {
		return err
	}
	c.ResultHoldMS = f.ResultHoldMS
	if err := decisionPauseRange.check("cabinet.decision_pause_ms", f.DecisionPauseMS, "milliseconds (how long a step's picture stays complete on screen before a decision is taken on it)"); err != nil {
		return err
	}
	c.DecisionPauseMS = f.DecisionPauseMS
	if d := f.ExpectedDigest; d != "" && (len(d) != 64 || strings.ContainsFunc(d, func(r rune) bool {
		return (r < '0' || r > '9') && (r < 'a' || r > 'f')
	})) {
		return bad("cabinet.expected_digest", d, `"" (no check) or the 64 lower-case hex digits printed by "cabinet version"`)
	}
	c.ExpectedDigest = f.ExpectedDigest
	if c.MinRTP, err = minRTP("cabinet.min_rtp", f.MinRTP); err != nil {
		return err
	}
	switch f.Backend {
	case "sim", "periph":
		c.Backend = f.Backend
	default:
		return bad("cabinet.backend", f.Backend, `"sim" (keyboard and window) or "periph" (GPIO)`)
	}
	return nil
}

// amount parses a decimal money string of at least lo cents.
func amount(key, s string, lo money.Cents) (money.Cents, error) {
	v, err := money.Parse(s)
	if err != nil || v < lo {
		if lo > 0 {
			return 0, bad(key, s, "an amount of at least %v written as a string, e.g. \"%v\"", lo, max(lo, 100))
		}
		return 0, bad(key, s, "an amount of 0 or more written as a string, e.g. \"1.00\"")
	}
	return v, nil
}

// amounts parses a non-empty list of distinct positive amounts; the result is ascending.
func amounts(key string, ss []string, ordered bool) ([]money.Cents, error) {
	if len(ss) == 0 {
		return nil, bad(key, ss, "at least one amount, e.g. [\"5.00\", \"10.00\"]")
	}
	out := make([]money.Cents, 0, len(ss))
	seen := map[money.Cents]bool{}
	for i, s := range ss {
		v, err := amount(key, s, 1)
		if err != nil {
			return nil, err
		}
		if seen[v] {
			return nil, bad(key, s, "each amount listed once")
		}
		if ordered && i > 0 && v <= out[i-1] {
			return nil, bad(key, ss, "amounts in increasing order")
		}
		seen[v] = true
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

// rateE7 parses a percent with at most five decimals into parts per 10^7.
func rateE7(key, s string) (int64, error) {
	const allowed = `a percent from "0" to "100" with at most five decimals, written as a string, e.g. "20.30843"`
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 3 || len(frac) > 5 || strings.ContainsFunc(whole+frac, func(r rune) bool { return r < '0' || r > '9' }) {
		return 0, bad(key, s, allowed)
	}
	var v int64
	for _, r := range whole + frac + strings.Repeat("0", 5-len(frac)) {
		v = v*10 + int64(r-'0')
	}
	if v > maxRateE7 {
		return 0, bad(key, s, allowed)
	}
	return v, nil
}

// FormatRateE7 writes a rate held in parts per 10^7 as a percent with five
// decimals ("20.30843").
func FormatRateE7(r int64) string {
	return fmt.Sprintf("%d.%05d", r/100_000, r%100_000)
}

// duration parses "24h", "90m", "30d" (whole days) into a positive duration.
func duration(key, s string) (time.Duration, error) {
	const allowed = `a duration of at least 1m such as "24h", "90m" or "30d"`
	var d time.Duration
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int64
		if _, err := fmt.Sscanf(n, "%d", &days); err != nil || fmt.Sprint(days) != n || days < 1 || days > 3650 {
			return 0, bad(key, s, allowed)
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, bad(key, s, allowed)
		}
	}
	if d < time.Minute {
		return 0, bad(key, s, allowed)
	}
	return d, nil
}
