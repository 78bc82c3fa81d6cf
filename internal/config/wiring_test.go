package config

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/hw/periph"
)

var updateWiring = flag.Bool("update", false, "rewrite the wiring table in docs/pi.md")

const (
	wiringDoc   = "../../docs/pi.md"
	wiringBegin = "<!-- wiring:begin -->\n"
	wiringEnd   = "<!-- wiring:end -->"
)

// wiringTable is the pin map of h as the Markdown table docs/pi.md shows.
func wiringTable(h periph.Config) string {
	var b strings.Builder
	level := func(l periph.Level) string {
		if l == periph.Low {
			return "low (to ground, pull-up)"
		}
		return "high (pull-down)"
	}
	fmt.Fprintf(&b, "Debounce %s on every button and switch. Lamps and tower light on at level %s.\n\n",
		time.Duration(h.Debounce), h.LampActive)
	b.WriteString("| function | configuration key | input pin | active | lamp / output pin |\n|---|---|---|---|---|\n")
	for btn := hw.Button(0); btn < hw.NumButtons; btn++ {
		p := h.Buttons[btn.String()]
		fmt.Fprintf(&b, "| button %s | `hardware.buttons.%s` | %s | %s | %s |\n", strings.ToUpper(btn.String()), btn, p.Input, level(h.ButtonActive), p.Lamp)
	}
	for s := hw.Switch(0); s < hw.NumSwitches; s++ {
		p := h.Switches[s.String()]
		how := level(p.Active)
		switch {
		case p.Pull == periph.PullUp && p.Active == periph.High:
			how = "high (switch to ground closed while shut, pull-up: open or a cut wire reads open)"
		case p.Pull == periph.PullDown && p.Active == periph.Low:
			how = "low (pull-down: a cut wire reads on)"
		}
		fmt.Fprintf(&b, "| %s | `hardware.switches.%s` | %s | %s | |\n", strings.ReplaceAll(s.String(), "_", " "), s, p.Input, how)
	}
	fmt.Fprintf(&b, "| tower light: attendant | `hardware.tower.attendant` | | | %s |\n", h.Tower.Attendant)
	fmt.Fprintf(&b, "| tower light: tilt | `hardware.tower.tilt` | | | %s |\n", h.Tower.Tilt)
	a := h.Acceptor
	if a.Mode == periph.AcceptorPulse {
		inhibit := "high"
		if a.InhibitActive == periph.Low {
			inhibit = "low"
		}
		fmt.Fprintf(&b, "| bill acceptor pulses | `hardware.acceptor.pulse` | %s | %s | |\n", a.Pulse, level(a.PulseActive))
		fmt.Fprintf(&b, "| bill acceptor inhibit | `hardware.acceptor.inhibit` | | | %s (%s inhibits) |\n", a.Inhibit, inhibit)
		var bills []string
		for _, v := range a.Bills {
			bills = append(bills, v.Cents().String())
		}
		fmt.Fprintf(&b, "\nAcceptor in pulse mode: one pulse per %s, bills %s; pulse %s–%s wide, gaps %s–%s, a train ends after %s of silence.\n",
			a.ValuePerPulse.Cents(), strings.Join(bills, ", "), time.Duration(a.WidthMin), time.Duration(a.WidthMax),
			time.Duration(a.GapMin), time.Duration(a.GapMax), time.Duration(a.EndGap))
	}
	return b.String()
}

// TestWiringDoc: the wiring table in docs/pi.md is the shipped
// configuration's pin map. Rewrite it with:
//
//	go test ./internal/config -run Wiring -update
func TestWiringDoc(t *testing.T) {
	c := loadShipped(t)
	doc, err := os.ReadFile(wiringDoc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, wiringBegin), strings.Index(s, wiringEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no %q … %q block", wiringDoc, wiringBegin, wiringEnd)
	}
	want := wiringTable(c.Hardware)
	got := s[i+len(wiringBegin) : j]
	if got == want {
		return
	}
	if *updateWiring {
		out := s[:i+len(wiringBegin)] + want + s[j:]
		if err := os.WriteFile(filepath.Clean(wiringDoc), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the wiring table is not the shipped pin map; run: go test ./internal/config -run Wiring -update\n--- got\n%s\n--- want\n%s", wiringDoc, got, want)
}
