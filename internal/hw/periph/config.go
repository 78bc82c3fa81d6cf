package periph

import "cabinet/internal/hw/periph/pins"

// The configuration types live in internal/hw/periph/pins (no periph.io
// import, so internal/config can read the [hardware] section without linking
// the host drivers); they are re-exported here unchanged.
type (
	// Duration is a time.Duration written as text ("20ms").
	Duration = pins.Duration
	// Amount is money written as text ("5.00").
	Amount = pins.Amount
	// Level is the active level of a signal: "low" or "high".
	Level = pins.Level
	// Config is the pin map and the timings: the [hardware] section.
	Config = pins.Config
	// ButtonPins are a button's input and its lamp output.
	ButtonPins = pins.ButtonPins
	// SwitchPin is a switch's input, active level and pull.
	SwitchPin = pins.SwitchPin
	// TowerPins are the tower light's two lamps.
	TowerPins = pins.TowerPins
	// Acceptor is the bill acceptor in pulse mode.
	Acceptor = pins.Acceptor
	// PinUse is one pin of the map and what uses it.
	PinUse = pins.PinUse
)

// Levels, pulls and acceptor modes (see pins).
const (
	Low             = pins.Low
	High            = pins.High
	PullUp          = pins.PullUp
	PullDown        = pins.PullDown
	AcceptorPulse   = pins.AcceptorPulse
	AcceptorNone    = pins.AcceptorNone
	DefaultDebounce = pins.DefaultDebounce
)

// DefaultConfig is the Raspberry Pi map (see pins.DefaultConfig).
func DefaultConfig() Config { return pins.DefaultConfig() }
