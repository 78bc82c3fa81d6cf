package periphtest

import (
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"cabinet/internal/hw"
	"cabinet/internal/hw/periph"
	"cabinet/internal/money"
)

// HangGuard bounds every wait of a Rig. It is not a timing assertion: a
// wait that reaches it means the backend stopped working, and the test
// fails instead of hanging.
const HangGuard = 10 * time.Second

// Rig is a periph.Backend on a Board of gpiotest pins and a manual Clock,
// stepped in lock-step: each injected edge or tick returns only after the
// backend has handled it and every event it caused is readable on
// Backend.Inputs(). Use it from one goroutine.
type Rig struct {
	t         testing.TB
	Config    periph.Config
	Board     *Board
	Clock     *Clock
	Backend   *periph.Backend
	processed chan struct{}
	active    map[string]gpio.Level // input pin → its active level
}

// NewRig builds the backend for cfg on a board holding every pin of cfg
// and a clock at Epoch. With a pulse acceptor it then lets the line be
// quiet for end_gap, so the decoder is ready for a train. The backend is
// closed when the test ends.
func NewRig(t testing.TB, cfg periph.Config) *Rig {
	t.Helper()
	r := &Rig{t: t, Config: cfg, Board: BoardFor(cfg), Clock: NewClock(time.Time{}),
		processed: make(chan struct{}), active: map[string]gpio.Level{}}
	level := func(l periph.Level) gpio.Level { return gpio.Level(l == periph.High) }
	for _, p := range cfg.Buttons {
		r.active[p.Input] = level(cfg.ButtonActive)
	}
	for _, p := range cfg.Switches {
		r.active[p.Input] = level(p.Active)
	}
	if cfg.Acceptor.Mode == periph.AcceptorPulse {
		r.active[cfg.Acceptor.Pulse] = level(cfg.Acceptor.PulseActive)
	}
	b, err := periph.NewStepped(cfg, r.Board.ByName, r.Clock, r.processed)
	if err != nil {
		t.Fatalf("periph.NewStepped = %v", err)
	}
	r.Backend = b
	t.Cleanup(func() { _ = b.Close() })
	if cfg.Acceptor.Mode == periph.AcceptorPulse {
		r.Advance(cfg.Acceptor.EndGap.Std())
	}
	// A switch whose pull is toward its active level (a fail-safe door)
	// reads on when the pins are configured: close it, so every test starts
	// with doors shut and keys off, and forget those start-up reports.
	closed := false
	for s := hw.Switch(0); s < hw.NumSwitches; s++ {
		if pin := r.SwitchPin(s); r.Level(pin) == r.active[pin] {
			r.Switch(s, false)
			closed = true
		}
	}
	if closed {
		r.Inputs()
	}
	return r
}

// wait receives the backend's signal that it handled one sample or tick.
func (r *Rig) wait(what string) {
	r.t.Helper()
	select {
	case <-r.processed:
	case <-time.After(HangGuard):
		r.t.Fatalf("hwtest: the backend did not handle %s", what)
	}
}

// Edge injects an edge on the input pin named pin: the line goes to l.
func (r *Rig) Edge(pin string, l gpio.Level) {
	r.t.Helper()
	p := r.Board.Pin(pin)
	if p == nil {
		r.t.Fatalf("hwtest: no pin %q on the board", pin)
	}
	select {
	case p.EdgesChan <- l:
	case <-time.After(HangGuard):
		r.t.Fatalf("hwtest: edge on %s not taken", pin)
	}
	r.wait("edge " + l.String() + " on " + pin)
}

// Set drives the input pin named pin to its active level (or inactive).
func (r *Rig) Set(pin string, active bool) {
	r.t.Helper()
	a, ok := r.active[pin]
	if !ok {
		r.t.Fatalf("hwtest: %q is not an input pin of the configuration", pin)
	}
	l := a
	if !active {
		l = !a
	}
	r.Edge(pin, l)
}

// Advance moves the clock on by d and delivers one tick at the new time.
func (r *Rig) Advance(d time.Duration) {
	r.t.Helper()
	now := r.Clock.Advance(d)
	ts := r.Clock.Tickers()
	if len(ts) == 0 {
		r.t.Fatalf("hwtest: the backend made no ticker")
	}
	guard := make(chan struct{})
	timer := time.AfterFunc(HangGuard, func() { close(guard) })
	defer timer.Stop()
	if !ts[len(ts)-1].Tick(now, guard) {
		r.t.Fatalf("hwtest: tick at %s not taken (backend closed?)", now.Format(time.StampMilli))
	}
	r.wait("tick")
}

// ButtonPin is the input pin of button b.
func (r *Rig) ButtonPin(b hw.Button) string { return r.Config.Buttons[b.String()].Input }

// LampPin is the lamp pin of button b.
func (r *Rig) LampPin(b hw.Button) string { return r.Config.Buttons[b.String()].Lamp }

// SwitchPin is the input pin of switch s.
func (r *Rig) SwitchPin(s hw.Switch) string { return r.Config.Switches[s.String()].Input }

// Press presses button b cleanly and releases it, each level held for the
// debounce time.
func (r *Rig) Press(b hw.Button) {
	r.t.Helper()
	d := r.Config.Debounce.Std()
	r.Set(r.ButtonPin(b), true)
	r.Advance(d)
	r.Set(r.ButtonPin(b), false)
	r.Advance(d)
}

// Switch turns switch s on (door open, key turned) or off and holds it
// for the debounce time.
func (r *Rig) Switch(s hw.Switch, on bool) {
	r.t.Helper()
	r.Set(r.SwitchPin(s), on)
	r.Advance(r.Config.Debounce.Std())
}

// Train sends n pulses of the given width separated by gap, then lets the
// line be quiet for end_gap (the train completes).
func (r *Rig) Train(n int, width, gap time.Duration) {
	r.t.Helper()
	pin := r.Config.Acceptor.Pulse
	for i := range n {
		if i > 0 {
			r.Advance(gap)
		}
		r.Set(pin, true)
		r.Advance(width)
		r.Set(pin, false)
	}
	r.Advance(r.Config.Acceptor.EndGap.Std())
}

// Bill sends the valid train of a bill of value v: v / value_per_pulse
// pulses of the middle width, separated by the middle gap.
func (r *Rig) Bill(v money.Cents) {
	r.t.Helper()
	a := r.Config.Acceptor
	r.Train(int(v/a.ValuePerPulse.Cents()), (a.WidthMin.Std()+a.WidthMax.Std())/2, (a.GapMin.Std()+a.GapMax.Std())/2)
}

// Inputs returns the events readable now on the backend's channel.
func (r *Rig) Inputs() []hw.Input {
	var out []hw.Input
	for {
		select {
		case in, ok := <-r.Backend.Inputs():
			if !ok {
				return out
			}
			out = append(out, in)
		default:
			return out
		}
	}
}

// Level is the level of the pin named pin now.
func (r *Rig) Level(pin string) gpio.Level {
	r.t.Helper()
	p := r.Board.Pin(pin)
	if p == nil {
		r.t.Fatalf("hwtest: no pin %q on the board", pin)
	}
	return p.Read()
}

func (r *Rig) lit(pin string) bool {
	return r.Level(pin) == gpio.Level(r.Config.LampActive == periph.High)
}

// Lamps is the set of buttons whose lamp pin is at the lit level.
func (r *Rig) Lamps() hw.ButtonSet {
	r.t.Helper()
	var s hw.ButtonSet
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		if r.lit(r.LampPin(b)) {
			s = s.With(b)
		}
	}
	return s
}

// Tower is the tower light read from its two pins; both lit fails the test.
func (r *Rig) Tower() hw.Tower {
	r.t.Helper()
	att, tilt := r.lit(r.Config.Tower.Attendant), r.lit(r.Config.Tower.Tilt)
	switch {
	case att && tilt:
		r.t.Fatalf("hwtest: both tower lamps lit")
	case att:
		return hw.TowerAttendant
	case tilt:
		return hw.TowerTilt
	}
	return hw.TowerOff
}

// Inhibited reports whether the acceptor's inhibit pin is at its
// inhibiting level.
func (r *Rig) Inhibited() bool {
	r.t.Helper()
	a := r.Config.Acceptor
	return r.Level(a.Inhibit) == gpio.Level(a.InhibitActive == periph.High)
}
