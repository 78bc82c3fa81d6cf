// Package hw is the cabinet's hardware seen by the controller: player buttons
// with lamps, switches (doors and keys), the tower light and the bill
// acceptor. Implementations: sim (keyboard/mouse of the window and a scripted
// driver) and the periph backend (Raspberry Pi GPIO through periph.io).
//
// Every implementation delivers inputs as Input values on one channel and
// takes outputs through Outputs. Nothing here assumes a pulse acceptor: a
// bill arrives as BillStacked with its value, or as BillRefused/BillError.
package hw

import (
	"fmt"
	"time"

	"cabinet/internal/money"
)

// Button is a player button (platform.md §5). Each has a lamp.
type Button uint8

// The buttons, in panel order.
const (
	Deal Button = iota
	Hit
	Stand
	Double
	Split
	Yes
	No
	Special
	BetPlus
	Rebet
	Clear
	Spot
	Help
	Game
	CashOut
	NumButtons
)

var buttonNames = [NumButtons]string{"deal", "hit", "stand", "double", "split", "yes", "no",
	"special", "bet", "rebet", "clear", "spot", "help", "game", "cashout"}

// String is the button's configuration name ("deal", "cashout", ...).
func (b Button) String() string {
	if b >= NumButtons {
		return fmt.Sprintf("button(%d)", b)
	}
	return buttonNames[b]
}

// ParseButton returns the button named s (configuration name).
func ParseButton(s string) (Button, error) {
	for i, n := range buttonNames {
		if n == s {
			return Button(i), nil
		}
	}
	return 0, fmt.Errorf("hw: unknown button %q", s)
}

// ButtonSet is a set of buttons (the lit lamps).
type ButtonSet uint32

// With returns s with b added.
func (s ButtonSet) With(b Button) ButtonSet { return s | 1<<b }

// Has reports whether b is in s.
func (s ButtonSet) Has(b Button) bool { return s&(1<<b) != 0 }

// Switch is a door or key switch.
type Switch uint8

// The switches. OperatorKey opens the operator menu (platform.md §1).
const (
	MainDoor Switch = iota
	CashDoor
	AuditKey
	ResetKey
	OperatorKey
	NumSwitches
)

var switchNames = [NumSwitches]string{"main_door", "cash_door", "audit_key", "reset_key", "operator_key"}

// String is the switch's configuration name.
func (s Switch) String() string {
	if s >= NumSwitches {
		return fmt.Sprintf("switch(%d)", s)
	}
	return switchNames[s]
}

// ParseSwitch returns the switch named s.
func ParseSwitch(s string) (Switch, error) {
	for i, n := range switchNames {
		if n == s {
			return Switch(i), nil
		}
	}
	return 0, fmt.Errorf("hw: unknown switch %q", s)
}

// InputKind says what an Input reports.
type InputKind uint8

const (
	ButtonPressed InputKind = iota + 1 // Button went down (debounced, once per press)
	SwitchChanged                      // Switch is now On (door open / key turned) or off
	BillStacked                        // a bill of Value is in the stacker: credit it
	BillRefused                        // a bill was returned (Err says why)
	BillError                          // a malformed signal (Err says what); never credit
	BillJam                            // the acceptor is jammed (On) or free again (off): a tilt
)

// Input is one debounced input event.
type Input struct {
	Kind   InputKind
	Button Button
	Switch Switch
	On     bool
	Value  money.Cents
	Err    string
	At     time.Time
}

func (in Input) String() string {
	switch in.Kind {
	case ButtonPressed:
		return "press " + in.Button.String()
	case SwitchChanged:
		if in.On {
			return in.Switch.String() + " on"
		}
		return in.Switch.String() + " off"
	case BillStacked:
		return "bill stacked " + in.Value.String()
	case BillRefused:
		return "bill refused: " + in.Err
	case BillError:
		return "bill error: " + in.Err
	case BillJam:
		if in.On {
			return "bill jam: " + in.Err
		}
		return "bill jam cleared"
	}
	return "input?"
}

// Tower is the tower light state.
type Tower uint8

const (
	TowerOff       Tower = iota
	TowerAttendant       // call attendant (handpay)
	TowerTilt            // tilt / door open
)

// Outputs drives the lamps, the tower light and the acceptor's acceptance.
type Outputs interface {
	// SetLamps lights exactly the buttons in lit.
	SetLamps(lit ButtonSet) error
	// SetTower sets the tower light.
	SetTower(t Tower) error
	// SetAcceptance enables the bill acceptor for bills up to max; 0 inhibits
	// it. A pulse acceptor that cannot refuse a single denomination inhibits
	// whenever max is below its largest enabled bill (decided: conservative).
	SetAcceptance(max money.Cents) error
}

// Inputs delivers debounced input events until ctx-driven Close.
type Inputs interface {
	Inputs() <-chan Input
}

// Backend is a full hardware backend.
type Backend interface {
	Inputs
	Outputs
	Close() error
}
