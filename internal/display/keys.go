package display

import (
	"slices"

	"cabinet/internal/hw"
	"cabinet/internal/money"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// binding is one key of the simulator's keyboard map: it presses a button,
// toggles a switch or inserts a bill (exactly one of them).
type binding struct {
	key    int32
	name   string
	button hw.Button
	isBtn  bool
	sw     hw.Switch
	isSw   bool
	bill   money.Cents
	jam    bool
}

// keymap is the keyboard map (the README's table is generated from it and
// checked by TestReadmeKeyMap). GLFW names keys by
// their position on a US keyboard.
func keymap() []binding {
	btn := func(k int32, name string, b hw.Button) binding {
		return binding{key: k, name: name, button: b, isBtn: true}
	}
	sw := func(k int32, name string, s hw.Switch) binding {
		return binding{key: k, name: name, sw: s, isSw: true}
	}
	bill := func(k int32, name string, v money.Cents) binding { return binding{key: k, name: name, bill: v} }
	jam := binding{key: rl.KeyJ, name: "J", jam: true}
	return []binding{
		btn(rl.KeyD, "D", hw.Deal), btn(rl.KeyH, "H", hw.Hit), btn(rl.KeyS, "S", hw.Stand),
		btn(rl.KeyX, "X", hw.Double), btn(rl.KeyP, "P", hw.Split), btn(rl.KeyY, "Y", hw.Yes),
		btn(rl.KeyN, "N", hw.No), btn(rl.KeyZ, "Z", hw.Special), btn(rl.KeyB, "B", hw.BetPlus),
		btn(rl.KeyR, "R", hw.Rebet), btn(rl.KeyC, "C", hw.Clear), btn(rl.KeyO, "O", hw.Spot),
		btn(rl.KeyF1, "F1", hw.Help), btn(rl.KeyG, "G", hw.Game), btn(rl.KeyQ, "Q", hw.CashOut),
		bill(rl.KeyOne, "1", 500), bill(rl.KeyTwo, "2", 1000), bill(rl.KeyThree, "3", 2000),
		bill(rl.KeyFour, "4", 5000), bill(rl.KeyFive, "5", 10000),
		sw(rl.KeyM, "M", hw.MainDoor), sw(rl.KeyK, "K", hw.CashDoor), sw(rl.KeyA, "A", hw.AuditKey),
		sw(rl.KeyT, "T", hw.ResetKey), sw(rl.KeyE, "E", hw.OperatorKey), jam,
	}
}

// keyName is the key that presses b ("" if none).
func keyName(b hw.Button) string {
	for _, k := range keymap() {
		if k.isBtn && k.button == b {
			return k.name
		}
	}
	return ""
}

// Input is what the window's keyboard, mouse and touch screen drive:
// *sim.Backend satisfies it. Each method reports whether the input was
// queued.
type Input interface {
	Press(hw.Button) bool
	Toggle(hw.Switch) bool
	InsertBill(money.Cents) bool
	ToggleJam() bool
}

// pollInput turns this frame's key presses, clicks and touches into inputs.
// toScreen maps window coordinates to design coordinates.
//
// Keys come from raylib's queue of this frame's presses (GetKeyPressed), not
// from each key's state (IsKeyPressed): a tap pressed and released between
// two frames — a quick finger, a slow frame, xdotool — leaves the key up at
// both frames and would be lost, where the queue still holds its press. A
// key held down is queued once (the window system's repeats are not
// presses), as a held button fires once.
func pollInput(in Input, keys []binding, toDesign func(rl.Vector2) (float32, float32)) {
	if in == nil {
		return
	}
	for code := rl.GetKeyPressed(); code != 0; code = rl.GetKeyPressed() {
		i := slices.IndexFunc(keys, func(k binding) bool { return k.key == code })
		if i < 0 {
			continue
		}
		switch k := keys[i]; {
		case k.isBtn:
			in.Press(k.button)
		case k.isSw:
			in.Toggle(k.sw)
		case k.jam:
			in.ToggleJam()
		default:
			in.InsertBill(k.bill)
		}
	}
	if rl.IsMouseButtonPressed(rl.MouseButtonLeft) {
		x, y := toDesign(rl.GetMousePosition())
		if b, ok := ButtonAt(x, y); ok {
			in.Press(b)
		}
	}
}
