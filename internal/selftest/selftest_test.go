package selftest_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/periph"
	"cabinet/internal/hw/periph/periphtest"
	"cabinet/internal/hw/sim"
	"cabinet/internal/i18n"
	"cabinet/internal/money"
	"cabinet/internal/selftest"
	"cabinet/internal/view"
)

// start starts the self-test on h with manual lamp ticks; lines arrive on the
// returned channel. stop cancels it and returns Run's error.
type running struct {
	t     *testing.T
	ticks chan time.Time
	lines chan selftest.Line
	stop  func() error
}

func start(t *testing.T, h selftest.Hardware, accept money.Cents) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{t: t, ticks: make(chan time.Time), lines: make(chan selftest.Line, 64)}
	done := make(chan error, 1)
	go func() {
		done <- selftest.Run(ctx, h, selftest.Options{LampTicks: r.ticks, Accept: accept}, func(l selftest.Line) { r.lines <- l })
	}()
	var once sync.Once
	var err error
	r.stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(periphtest.HangGuard):
				t.Error("selftest.Run did not return after cancel")
			}
		})
		return err
	}
	t.Cleanup(func() { r.stop() })
	return r
}

// next waits for the next line (failing, not hanging, if none comes).
func (r *running) next() selftest.Line {
	r.t.Helper()
	select {
	case l := <-r.lines:
		return l
	case <-time.After(periphtest.HangGuard):
		r.t.Fatal("no line from the self-test")
	}
	return selftest.Line{}
}

func (r *running) expect(want string) selftest.Line {
	r.t.Helper()
	l := r.next()
	if got := l.String(); got != want {
		r.t.Fatalf("line %q, want %q", got, want)
	}
	return l
}

func (r *running) tick() {
	r.t.Helper()
	select {
	case r.ticks <- time.Time{}:
	case <-time.After(periphtest.HangGuard):
		r.t.Fatal("lamp tick not taken")
	}
}

// lampSequence is every lamp in the order the self-test lights them.
func lampSequence() []string {
	var out []string
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		out = append(out, b.String())
	}
	return append(out, selftest.TowerAttendantLamp, selftest.TowerTiltLamp)
}

func TestRunSim(t *testing.T) {
	be := sim.New()
	r := start(t, be, 1<<40)
	// Each lamp in turn, alone, then round again.
	for i, name := range append(lampSequence(), hw.Deal.String()) {
		if i > 0 {
			r.tick()
		}
		r.expect("lamp " + name + " lit")
		wantLamps, wantTower := hw.ButtonSet(0), hw.TowerOff
		switch name {
		case selftest.TowerAttendantLamp:
			wantTower = hw.TowerAttendant
		case selftest.TowerTiltLamp:
			wantTower = hw.TowerTilt
		default:
			b, _ := hw.ParseButton(name)
			wantLamps = wantLamps.With(b)
		}
		if be.Lamps() != wantLamps || be.TowerLight() != wantTower {
			t.Fatalf("lamp %s: panel lamps %b tower %d, want %b tower %d", name, be.Lamps(), be.TowerLight(), wantLamps, wantTower)
		}
	}
	// Inputs, live, in order; the bill is read, not credited.
	be.Press(hw.Stand)
	r.expect("press stand")
	be.SetSwitch(hw.MainDoor, true)
	r.expect("main_door on")
	be.SetSwitch(hw.AuditKey, true)
	r.expect("audit_key on")
	be.InsertBill(2000)
	if l := r.expect("bill stacked 20.00 (not credited)"); !l.IsBill() {
		t.Error("bill line: IsBill() = false")
	}
	be.SetJam(true)
	r.expect("bill jam: simulated jam")
	if err := r.stop(); err != nil {
		t.Fatalf("Run = %v, want nil after cancel", err)
	}
	if be.Lamps() != 0 || be.TowerLight() != hw.TowerOff || be.Acceptance() != 0 {
		t.Errorf("after the self-test: lamps %b tower %d acceptance %v, want all off, inhibited", be.Lamps(), be.TowerLight(), be.Acceptance())
	}
}

// Without acceptance the sim acceptor refuses the bill, and the self-test
// says so.
func TestRunSimInhibited(t *testing.T) {
	be := sim.New()
	r := start(t, be, 0)
	r.expect("lamp deal lit")
	be.InsertBill(500)
	r.expect("bill refused: acceptor inhibited or bill above limit")
}

// The backend closing its inputs ends the self-test.
func TestRunEndsWhenInputsClose(t *testing.T) {
	be := sim.New()
	done := make(chan error, 1)
	var lines []string
	go func() {
		done <- selftest.Run(context.Background(), be, selftest.Options{LampTicks: make(chan time.Time)}, func(l selftest.Line) { lines = append(lines, l.String()) })
	}()
	be.Press(hw.Deal)
	be.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v", err)
		}
	case <-time.After(periphtest.HangGuard):
		t.Fatal("Run did not return when the inputs closed")
	}
	if strings.Join(lines, "|") != "lamp deal lit|press deal" {
		t.Errorf("lines %q", lines)
	}
}

func TestRunPeriph(t *testing.T) {
	rig := periphtest.NewRig(t, periph.DefaultConfig())
	r := start(t, rig.Backend, 10000)
	r.expect("lamp deal lit")
	if got := rig.Lamps(); got != hw.ButtonSet(0).With(hw.Deal) {
		t.Fatalf("lamp pins %b, want deal only", got)
	}
	if rig.Inhibited() {
		t.Fatal("during the self-test: acceptor inhibited, want enabled to read bills")
	}
	for _, name := range lampSequence()[1:] {
		r.tick()
		r.expect("lamp " + name + " lit")
		switch name {
		case selftest.TowerAttendantLamp:
			if rig.Lamps() != 0 || rig.Tower() != hw.TowerAttendant {
				t.Fatalf("tower attendant: lamps %b tower %d", rig.Lamps(), rig.Tower())
			}
		case selftest.TowerTiltLamp:
			if rig.Lamps() != 0 || rig.Tower() != hw.TowerTilt {
				t.Fatalf("tower tilt: lamps %b tower %d", rig.Lamps(), rig.Tower())
			}
		default:
			b, _ := hw.ParseButton(name)
			if got := rig.Lamps(); got != hw.ButtonSet(0).With(b) || rig.Tower() != hw.TowerOff {
				t.Fatalf("lamp %s: lamp pins %b tower %d, want %s only", name, got, rig.Tower(), name)
			}
		}
	}
	rig.Press(hw.Double)
	r.expect("press double")
	rig.Switch(hw.CashDoor, true)
	r.expect("cash_door on")
	rig.Switch(hw.CashDoor, false)
	r.expect("cash_door off")
	rig.Switch(hw.ResetKey, true)
	r.expect("reset_key on")
	rig.Bill(5000)
	r.expect("bill stacked 50.00 (not credited)")
	a := rig.Config.Acceptor
	rig.Train(3, a.WidthMin.Std(), a.GapMin.Std()) // 15.00 is no bill
	if l := r.next(); l.Input.Kind != hw.BillError || !strings.Contains(l.String(), "3 pulses") {
		t.Fatalf("malformed train: line %q, want a bill error about 3 pulses", l)
	}
	if err := r.stop(); err != nil {
		t.Fatalf("Run = %v", err)
	}
	if !rig.Inhibited() || rig.Lamps() != 0 || rig.Tower() != hw.TowerOff {
		t.Errorf("after the self-test: inhibited %v lamps %b tower %d, want inhibited, all off", rig.Inhibited(), rig.Lamps(), rig.Tower())
	}
}

func TestScreen(t *testing.T) {
	var s selftest.Screen
	s.Add(selftest.Line{Kind: selftest.LampLit, Lamp: "hit"})
	for i := range 10 {
		s.Add(selftest.Line{Kind: selftest.InputSeen, Input: hw.Input{Kind: hw.ButtonPressed, Button: hw.Button(i)}})
	}
	s.Add(selftest.Line{Kind: selftest.InputSeen, Input: hw.Input{Kind: hw.BillStacked, Value: 2000}})
	v := s.View()
	if v.Lamp != "hit" || s.Lamps() != hw.ButtonSet(0).With(hw.Hit) {
		t.Errorf("lamp %q lamps %b, want hit", v.Lamp, s.Lamps())
	}
	bill := view.TestLine{Kind: "bill", Amount: 2000}
	if len(v.Inputs) != selftest.ScreenLines || v.Inputs[0] != bill || v.Inputs[1] != (view.TestLine{Kind: "press", Name: "rebet"}) {
		t.Errorf("inputs %+v, want the newest %d, newest first", v.Inputs, selftest.ScreenLines)
	}
	if len(v.Bills) != 1 || v.Bills[0] != bill {
		t.Errorf("bills %+v", v.Bills)
	}
	s.Add(selftest.Line{Kind: selftest.LampLit, Lamp: selftest.TowerTiltLamp})
	if s.Lamps() != 0 || s.View().Lamp != selftest.TowerTiltLamp {
		t.Errorf("tower lamp: lamps %b view %q", s.Lamps(), s.View().Lamp)
	}
}

// TestScreenLocalised: the screen's lines are data, worded in the
// snapshot's language, amounts in its format; every input kind has its
// words.
func TestScreenLocalised(t *testing.T) {
	var s selftest.Screen
	s.Add(selftest.Line{Kind: selftest.LampLit, Lamp: "hit"})
	for _, in := range []hw.Input{
		{Kind: hw.ButtonPressed, Button: hw.Deal},
		{Kind: hw.SwitchChanged, Switch: hw.MainDoor, On: true},
		{Kind: hw.SwitchChanged, Switch: hw.MainDoor},
		{Kind: hw.BillStacked, Value: 2000},
		{Kind: hw.BillRefused, Err: "x"},
		{Kind: hw.BillError, Err: "y"},
		{Kind: hw.BillJam, On: true, Err: "z"},
		{Kind: hw.BillJam},
	} {
		s.Add(selftest.Line{Kind: selftest.InputSeen, Input: in})
	}
	v := s.View()
	var got []string
	for _, l := range v.Inputs {
		got = append(got, selftest.LineText("fr", "EUR", l))
	}
	want := []string{"bourrage terminé", "bourrage : z", "erreur du lecteur : y", "billet refusé : x",
		"billet de 20,00 € lu (non crédité)", "Porte principale : désactivé", "Porte principale : activé", "appui sur Donner"}
	if v.Lamp != "hit" || selftest.LampLabel("fr", v.Lamp) != "Carte" || !slices.Equal(got, want) {
		t.Errorf("lamp %q (%s) inputs %q, want hit (Carte) and %q", v.Lamp, selftest.LampLabel("fr", v.Lamp), got, want)
	}
	if en := selftest.LineText("en", "EUR", v.Inputs[len(v.Inputs)-1]); en != i18n.Tf("en", "hwtest.line.press", i18n.T("en", "btn.deal")) {
		t.Errorf("the same line in English: %q", en)
	}
	for _, lamp := range []string{selftest.TowerAttendantLamp, selftest.TowerTiltLamp} {
		for _, lang := range []string{"fr", "en"} {
			if !i18n.Has(lang, "hwtest."+lamp) {
				t.Errorf("no %s words for lamp %s", lang, lamp)
			}
		}
	}
}
