package pins

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/pulse"
	"cabinet/internal/money"
)

// Duration is a time.Duration written as text ("20ms", "1.5s") in TOML and
// JSON.
type Duration time.Duration

// Std returns d as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// String is the text form ("20ms").
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler ("20ms", "1s").
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: want a number with a unit such as \"20ms\": %w", b, err)
	}
	*d = Duration(v)
	return nil
}

// Amount is money written as a decimal string ("5.00") in TOML and JSON.
type Amount money.Cents

// Cents returns a as money.Cents.
func (a Amount) Cents() money.Cents { return money.Cents(a) }

// MarshalText implements encoding.TextMarshaler.
func (a Amount) MarshalText() ([]byte, error) { return []byte(money.Cents(a).String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *Amount) UnmarshalText(b []byte) error {
	v, err := money.Parse(string(b))
	if err != nil {
		return err
	}
	*a = Amount(v)
	return nil
}

// Level is the electrical level at which a signal is active: "low" or "high".
type Level string

// The levels.
const (
	Low  Level = "low"
	High Level = "high"
)

func (l Level) valid() bool { return l == Low || l == High }

// Config is the pin map and the timings of the periph backend: the
// [hardware] section of configs/cabinet.toml. Pin names are the names
// periph.io registers (gpioreg.ByName): "GPIO5" for a header pin on the Pi,
// or the line name a device-tree overlay gives an I/O expander's line.
// Nothing is hard-coded to a board.
//
// The Raspberry Pi header has 28 GPIO lines; a full cabinet needs 39 (15
// buttons and 15 lamps, 5 switches, 2 tower lamps, pulse and inhibit), so
// the default puts the inputs on the header and the lamps and tower on I/O
// expander lines (for example two MCP23017 with the kernel's mcp23017
// overlay and gpio-line-names "LAMP_DEAL", ...). Validate checks the map
// without touching hardware; Open checks every name against gpioreg.
type Config struct {
	// Debounce is how long an input must hold a new level before it counts
	// (buttons and switches; not the pulse input). Default 20ms.
	Debounce Duration `toml:"debounce" json:"debounce"`
	// ButtonActive is the level of a pressed button: "low" (button to
	// ground, pull-up enabled) or "high" (pull-down enabled).
	ButtonActive Level `toml:"button_active" json:"button_active"`
	// LampActive is the output level that lights a lamp (lamps and tower).
	LampActive Level `toml:"lamp_active" json:"lamp_active"`
	// Buttons maps every button name (hw.Button.String(): "deal", "hit",
	// ..., "cashout") to its input pin and lamp pin. All are required.
	Buttons map[string]ButtonPins `toml:"buttons" json:"buttons"`
	// Switches maps every switch name ("main_door", "cash_door",
	// "audit_key", "reset_key", "operator_key") to its input pin and the
	// level meaning "on" (door open, key turned). All are required.
	Switches map[string]SwitchPin `toml:"switches" json:"switches"`
	// Tower is the tower light.
	Tower TowerPins `toml:"tower" json:"tower"`
	// Acceptor is the bill acceptor.
	Acceptor Acceptor `toml:"acceptor" json:"acceptor"`
}

// ButtonPins are a button's input and its lamp output.
type ButtonPins struct {
	Input string `toml:"input" json:"input"`
	Lamp  string `toml:"lamp" json:"lamp"`
}

// SwitchPin is a switch's input and the level at which it is on (door open,
// key turned). The pull resistor is set against the active level.
type SwitchPin struct {
	Input  string `toml:"input" json:"input"`
	Active Level  `toml:"active" json:"active"`
	// Pull is the pin's internal resistor: "up", "down", or empty for the
	// one against the active level. Doors use "up" with active "high": the
	// switch closes to ground while the door is shut, so an open door and a
	// cut wire both read high, i.e. open (fail-safe: a broken switch tilts).
	Pull string `toml:"pull,omitempty" json:"pull,omitempty"`
}

// Pull values of SwitchPin.Pull.
const (
	PullUp   = "up"
	PullDown = "down"
)

// TowerPins are the tower light's two lamps (driven at Config.LampActive).
type TowerPins struct {
	Attendant string `toml:"attendant" json:"attendant"` // call attendant (handpay)
	Tilt      string `toml:"tilt" json:"tilt"`           // tilt (door open, error)
}

// Acceptor is the bill acceptor. In pulse mode the acceptor sends N pulses
// per bill, N = bill value / ValuePerPulse; Bills lists the bills it is
// programmed for (so the valid pulse counts). A pulse acceptor cannot refuse
// a single denomination: it is inhibited whenever the controller's maximum
// is below the largest of Bills. In id003 mode a serial note validator
// (JCM ID-003) on Port holds each note in escrow; Notes gives the value of
// each escrow code it may stack (docs/hardware.md).
type Acceptor struct {
	// Mode is "pulse", "id003" or "none" (no acceptor wired: pins may be
	// empty).
	Mode string `toml:"mode" json:"mode"`
	// Port is the serial validator's port (id003 mode): a UART or a USB
	// RS-232 adapter ("/dev/ttyUSB0"); `--acceptor PORT` overrides it.
	Port string `toml:"port,omitempty" json:"port,omitempty"`
	// Notes maps the validator's escrow codes, written "0x61" to "0x68",
	// to the value of the note each stands for (its firmware's currency
	// table). Codes left out are inhibited in the validator. Checked
	// whenever given (so `--acceptor` finds a valid table); required in
	// id003 mode.
	Notes map[string]Amount `toml:"notes,omitempty" json:"notes,omitempty"`
	// Pulse is the pulse (credit) input pin; PulseActive its active level.
	Pulse       string `toml:"pulse" json:"pulse"`
	PulseActive Level  `toml:"pulse_active" json:"pulse_active"`
	// Inhibit is the inhibit output pin; InhibitActive the level that
	// inhibits (the other level enables acceptance).
	Inhibit       string `toml:"inhibit" json:"inhibit"`
	InhibitActive Level  `toml:"inhibit_active" json:"inhibit_active"`
	// ValuePerPulse is the money one pulse stands for.
	ValuePerPulse Amount `toml:"value_per_pulse" json:"value_per_pulse"`
	// Bills are the bills the acceptor is programmed to accept, each a
	// multiple of ValuePerPulse.
	Bills []Amount `toml:"bills" json:"bills"`
	// WidthMin and WidthMax bound a pulse (active time); GapMin and GapMax
	// bound the inactive time between two pulses of one bill; EndGap is the
	// inactive time after which a train is complete (> GapMax).
	WidthMin Duration `toml:"width_min" json:"width_min"`
	WidthMax Duration `toml:"width_max" json:"width_max"`
	GapMin   Duration `toml:"gap_min" json:"gap_min"`
	GapMax   Duration `toml:"gap_max" json:"gap_max"`
	EndGap   Duration `toml:"end_gap" json:"end_gap"`
	// JamAfter: a pulse line held active this long is a jammed acceptor
	// (a bill stuck in the path): reported as hw.BillJam until the line is
	// released. 0 turns the detection off; otherwise it must exceed
	// WidthMax (a legal pulse is never a jam).
	JamAfter Duration `toml:"jam_after" json:"jam_after"`
}

// Acceptor modes.
const (
	AcceptorPulse = "pulse"
	AcceptorID003 = "id003"
	AcceptorNone  = "none"
)

// Escrow codes an ID-003 validator reports (id003.FirstEscrowCode to
// LastEscrowCode; pins links no serial driver).
const (
	firstEscrowCode = 0x61
	lastEscrowCode  = 0x68
)

// NoteTable is the validated Notes: escrow code → value. Empty when none
// is given.
func (a Acceptor) NoteTable() (map[byte]money.Cents, error) {
	out := make(map[byte]money.Cents, len(a.Notes))
	for _, k := range sortedKeys(a.Notes) {
		key := "hardware.acceptor.notes." + k
		code, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(k), "0x"), 16, 8)
		if err != nil || !strings.HasPrefix(strings.ToLower(k), "0x") || code < firstEscrowCode || code > lastEscrowCode {
			return nil, bad(key, k, `an escrow code written "0x61" to "0x68"`)
		}
		if _, dup := out[byte(code)]; dup {
			return nil, bad(key, k, "each escrow code once")
		}
		v := a.Notes[k].Cents()
		if v <= 0 {
			return nil, bad(key, v.String(), "a note value above 0 (\"5.00\")")
		}
		out[byte(code)] = v
	}
	return out, nil
}

// DefaultDebounce is the default input debounce.
const DefaultDebounce = 20 * time.Millisecond

// DefaultConfig is a Raspberry Pi map: button and switch inputs and the
// acceptor on header GPIOs (GPIO2/3 left for I2C, GPIO14/15 for a serial
// acceptor), lamps and tower on expander lines named LAMP_<BUTTON>,
// TOWER_ATTENDANT and TOWER_TILT. Buttons and doors switch to ground
// (active low, pull-ups); lamps are active high. The acceptor sends one
// 50 ms pulse (50 ms gap) per 5.00, as NV-series acceptors do in pulse mode.
// A serial validator (mode "id003") would be on a USB RS-232 adapter with a
// euro EBA-40's escrow codes (0x62 = 5.00 … 0x66 = 100.00).
func DefaultConfig() Config {
	inputs := []string{"GPIO4", "GPIO5", "GPIO6", "GPIO7", "GPIO8", "GPIO9", "GPIO10", "GPIO11",
		"GPIO12", "GPIO13", "GPIO16", "GPIO17", "GPIO18", "GPIO19", "GPIO20"}
	c := Config{
		Debounce:     Duration(DefaultDebounce),
		ButtonActive: Low,
		LampActive:   High,
		Buttons:      map[string]ButtonPins{},
		Switches: map[string]SwitchPin{
			// Door switches close to ground while the door is shut; the
			// pull-up makes an open door, or a cut wire, read high: open.
			hw.MainDoor.String():    {Input: "GPIO21", Active: High, Pull: PullUp},
			hw.CashDoor.String():    {Input: "GPIO22", Active: High, Pull: PullUp},
			hw.AuditKey.String():    {Input: "GPIO23", Active: Low},
			hw.ResetKey.String():    {Input: "GPIO24", Active: Low},
			hw.OperatorKey.String(): {Input: "GPIO25", Active: Low},
		},
		Tower: TowerPins{Attendant: "TOWER_ATTENDANT", Tilt: "TOWER_TILT"},
		Acceptor: Acceptor{
			Mode:          AcceptorPulse,
			Port:          "/dev/ttyUSB0",
			Notes:         map[string]Amount{"0x62": 500, "0x63": 1000, "0x64": 2000, "0x65": 5000, "0x66": 10000},
			Pulse:         "GPIO26",
			PulseActive:   Low,
			Inhibit:       "GPIO27",
			InhibitActive: High,
			ValuePerPulse: 500,
			Bills:         []Amount{500, 1000, 2000, 5000, 10000},
			WidthMin:      Duration(30 * time.Millisecond),
			WidthMax:      Duration(120 * time.Millisecond),
			GapMin:        Duration(30 * time.Millisecond),
			GapMax:        Duration(200 * time.Millisecond),
			EndGap:        Duration(500 * time.Millisecond),
			JamAfter:      Duration(2 * time.Second),
		},
	}
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		c.Buttons[b.String()] = ButtonPins{Input: inputs[b], Lamp: "LAMP_" + strings.ToUpper(b.String())}
	}
	return c
}

// Validate checks the map and the timings without touching hardware: every
// button and switch present and no unknown name, no pin empty or named
// twice, levels "low"/"high", timings positive and consistent. Errors are
// ErrConfig wrapped with the key, the value and what is allowed. Whether a
// pin name exists on this machine is checked by Open.
func (c Config) Validate() error {
	if c.Debounce <= 0 || c.Debounce.Std() > time.Second {
		return bad("hardware.debounce", c.Debounce.String(), "a duration above 0 and at most 1s (default 20ms)")
	}
	if !c.ButtonActive.valid() {
		return bad("hardware.button_active", string(c.ButtonActive), `"low" or "high"`)
	}
	if !c.LampActive.valid() {
		return bad("hardware.lamp_active", string(c.LampActive), `"low" or "high"`)
	}
	used := map[string]string{} // pin name → key
	use := func(key, pin string) error {
		if strings.TrimSpace(pin) == "" {
			return bad(key, pin, "a pin name such as \"GPIO5\"")
		}
		if prev, ok := used[pin]; ok {
			return bad(key, pin, "a pin not used elsewhere (already "+prev+")")
		}
		used[pin] = key
		return nil
	}
	for _, name := range sortedKeys(c.Buttons) {
		if _, err := hw.ParseButton(name); err != nil {
			return bad("hardware.buttons."+name, name, "one of "+buttonList())
		}
	}
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		key := "hardware.buttons." + b.String()
		p, ok := c.Buttons[b.String()]
		if !ok {
			return bad(key, "(missing)", "an input and a lamp pin for every button: "+buttonList())
		}
		if err := use(key+".input", p.Input); err != nil {
			return err
		}
		if err := use(key+".lamp", p.Lamp); err != nil {
			return err
		}
	}
	for _, name := range sortedKeys(c.Switches) {
		if _, err := hw.ParseSwitch(name); err != nil {
			return bad("hardware.switches."+name, name, "one of "+switchList())
		}
	}
	for s := hw.Switch(0); s < hw.NumSwitches; s++ {
		key := "hardware.switches." + s.String()
		p, ok := c.Switches[s.String()]
		if !ok {
			return bad(key, "(missing)", "an input pin for every switch: "+switchList())
		}
		if err := use(key+".input", p.Input); err != nil {
			return err
		}
		if !p.Active.valid() {
			return bad(key+".active", string(p.Active), `"low" or "high" (the level when the door is open or the key on)`)
		}
		if p.Pull != "" && p.Pull != PullUp && p.Pull != PullDown {
			return bad(key+".pull", p.Pull, `"up", "down", or absent (against the active level)`)
		}
	}
	if err := use("hardware.tower.attendant", c.Tower.Attendant); err != nil {
		return err
	}
	if err := use("hardware.tower.tilt", c.Tower.Tilt); err != nil {
		return err
	}
	a := c.Acceptor
	if _, err := a.NoteTable(); err != nil {
		return err
	}
	switch a.Mode {
	case AcceptorNone:
		return nil
	case AcceptorID003:
		if strings.TrimSpace(a.Port) == "" {
			return bad("hardware.acceptor.port", a.Port, `the validator's serial port ("/dev/ttyUSB0", "/dev/ttyAMA0")`)
		}
		if len(a.Notes) == 0 {
			return bad("hardware.acceptor.notes", "(none)", `at least one escrow code with its value ({ 0x62 = "5.00" })`)
		}
		return nil
	case AcceptorPulse:
	default:
		return bad("hardware.acceptor.mode", a.Mode, `"pulse", "id003" or "none"`)
	}
	if err := use("hardware.acceptor.pulse", a.Pulse); err != nil {
		return err
	}
	if err := use("hardware.acceptor.inhibit", a.Inhibit); err != nil {
		return err
	}
	if !a.PulseActive.valid() {
		return bad("hardware.acceptor.pulse_active", string(a.PulseActive), `"low" or "high"`)
	}
	if !a.InhibitActive.valid() {
		return bad("hardware.acceptor.inhibit_active", string(a.InhibitActive), `"low" or "high"`)
	}
	if _, err := a.Pulses(); err != nil {
		return err
	}
	if a.JamAfter < 0 || a.JamAfter > 0 && a.JamAfter <= a.WidthMax {
		return bad("hardware.acceptor.jam_after", time.Duration(a.JamAfter).String(),
			fmt.Sprintf("0 (off) or longer than width_max (%s)", time.Duration(a.WidthMax)))
	}
	return nil
}

// Pulses is the pulse decoder's configuration (validated).
func (a Acceptor) Pulses() (pulse.Config, error) {
	p := pulse.Config{
		ValuePerPulse: a.ValuePerPulse.Cents(),
		WidthMin:      a.WidthMin.Std(),
		WidthMax:      a.WidthMax.Std(),
		GapMin:        a.GapMin.Std(),
		GapMax:        a.GapMax.Std(),
		EndGap:        a.EndGap.Std(),
	}
	for _, b := range a.Bills {
		p.Bills = append(p.Bills, b.Cents())
	}
	if err := p.Validate(); err != nil {
		var ce *pulse.ConfigError
		if errors.As(err, &ce) {
			return p, bad("hardware.acceptor."+ce.Key, ce.Value, ce.Allowed)
		}
		return p, fmt.Errorf("%w: hardware.acceptor: %w", ErrConfig, err)
	}
	return p, nil
}

// Pins lists every pin of the map with its key ("hardware.buttons.deal.input"),
// sorted by key: the wiring table.
func (c Config) Pins() []PinUse {
	var out []PinUse
	add := func(key, pin, dir string) {
		if pin != "" {
			out = append(out, PinUse{Key: key, Pin: pin, Dir: dir})
		}
	}
	for _, name := range sortedKeys(c.Buttons) {
		add("hardware.buttons."+name+".input", c.Buttons[name].Input, "in")
		add("hardware.buttons."+name+".lamp", c.Buttons[name].Lamp, "out")
	}
	for _, name := range sortedKeys(c.Switches) {
		add("hardware.switches."+name+".input", c.Switches[name].Input, "in")
	}
	add("hardware.tower.attendant", c.Tower.Attendant, "out")
	add("hardware.tower.tilt", c.Tower.Tilt, "out")
	if c.Acceptor.Mode == AcceptorPulse {
		add("hardware.acceptor.pulse", c.Acceptor.Pulse, "in")
		add("hardware.acceptor.inhibit", c.Acceptor.Inhibit, "out")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// PinUse is one row of the wiring table.
type PinUse struct {
	Key string // configuration key
	Pin string // pin name
	Dir string // "in" or "out"
}

func bad(key, value, allowed string) error {
	return fmt.Errorf("%w: %s = %q: want %s", ErrConfig, key, value, allowed)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func buttonList() string {
	var names []string
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		names = append(names, b.String())
	}
	return strings.Join(names, ", ")
}

func switchList() string {
	var names []string
	for s := hw.Switch(0); s < hw.NumSwitches; s++ {
		names = append(names, s.String())
	}
	return strings.Join(names, ", ")
}
