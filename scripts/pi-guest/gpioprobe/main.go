// Command gpioprobe proves periph.io's character-device GPIO driver
// (gpioioctl) on a real Linux kernel: it runs inside the emulated arm64
// guest of scripts/test-pi-gpio, on the lines that gpio-sim-setup created
// (gpio-sim, named as a Pi header names them), and drives those lines with
// that same script, as the test's console would.
//
// It checks, printing one "gpioprobe: ok ..." line per check and "gpioprobe:
// PASS" at the end (or "gpioprobe: FAIL ..." and exit status 1):
//   - host.Init registers the simulated lines under their names;
//   - GPIO5 (the HIT button) as an input with pull-up and both edges reads
//     high, sees a falling edge and reads low when pressed, a rising edge
//     and high when released;
//   - LAMP_HIT as an output: the chip sees the level periph drives;
//   - GPIO26 (the acceptor's pulse input) counts the falling edges of a
//     pulse train of four (a 20.00 bill at 5.00 a pulse).
//
// Usage: gpioprobe [-setup /path/to/gpio-sim-setup]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"
)

// edgeWait bounds each wait for an edge; generous, the guest is emulated.
const edgeWait = 5 * time.Second

func main() {
	setup := flag.String("setup", "/gpio-sim-setup", "the guest set-up script that drives the simulated lines")
	flag.Parse()
	if err := run(*setup); err != nil {
		fmt.Printf("gpioprobe: FAIL %v\n", err)
		os.Exit(1)
	}
	fmt.Println("gpioprobe: PASS")
}

// drive runs the set-up script with args (press GPIO5, get LAMP_HIT, …) and
// returns its standard output, trimmed.
func drive(setup string, args ...string) (string, error) {
	out, err := exec.Command(setup, args...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("%s %s: %w", setup, strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

func pin(name string) (gpio.PinIO, error) {
	p := gpioreg.ByName(name)
	if p == nil {
		return nil, fmt.Errorf("gpioreg.ByName(%q) = nil: no such line registered", name)
	}
	return p, nil
}

// expect waits for one edge on p and checks the level read after it.
func expect(p gpio.PinIO, what string, want gpio.Level) error {
	if !p.WaitForEdge(edgeWait) {
		return fmt.Errorf("%s: %s: no edge within %s", p.Name(), what, edgeWait)
	}
	if got := p.Read(); got != want {
		return fmt.Errorf("%s: %s: Read() = %s after the edge, want %s", p.Name(), what, got, want)
	}
	fmt.Printf("gpioprobe: ok %s %s: edge, reads %s\n", p.Name(), what, want)
	return nil
}

func run(setup string) error {
	st, err := host.Init()
	if err != nil {
		return fmt.Errorf("host.Init: %w", err)
	}
	for _, d := range st.Loaded {
		fmt.Printf("gpioprobe: driver %s loaded\n", d)
	}
	fmt.Printf("gpioprobe: ok %d pins registered\n", len(gpioreg.All()))

	// A button: active low, pull-up, both edges (as internal/hw/periph).
	hit, err := pin("GPIO5")
	if err != nil {
		return err
	}
	if err := hit.In(gpio.PullUp, gpio.BothEdges); err != nil {
		return fmt.Errorf("GPIO5: In(PullUp, BothEdges): %w", err)
	}
	if got := hit.Read(); got != gpio.High {
		return fmt.Errorf("GPIO5: Read() = %s at rest with the pull-up, want High", got)
	}
	fmt.Println("gpioprobe: ok GPIO5 at rest reads High")
	for _, step := range []struct {
		verb string
		want gpio.Level
	}{{"press", gpio.Low}, {"release", gpio.High}, {"press", gpio.Low}, {"release", gpio.High}} {
		if _, err := drive(setup, step.verb, "GPIO5"); err != nil {
			return err
		}
		if err := expect(hit, step.verb, step.want); err != nil {
			return err
		}
	}
	// No edge is left over: each press and release was exactly one edge.
	if hit.WaitForEdge(200 * time.Millisecond) {
		return fmt.Errorf("GPIO5: an edge more than the two presses and releases")
	}

	// A lamp: periph drives it, the simulated chip sees the level.
	lamp, err := pin("LAMP_HIT")
	if err != nil {
		return err
	}
	for _, l := range []gpio.Level{gpio.High, gpio.Low, gpio.High} {
		if err := lamp.Out(l); err != nil {
			return fmt.Errorf("LAMP_HIT: Out(%s): %w", l, err)
		}
		got, err := drive(setup, "get", "LAMP_HIT")
		if err != nil {
			return err
		}
		want := map[gpio.Level]string{gpio.High: "1", gpio.Low: "0"}[l]
		if got != want {
			return fmt.Errorf("LAMP_HIT: Out(%s): the chip's line reads %s, want %s", l, got, want)
		}
		fmt.Printf("gpioprobe: ok LAMP_HIT Out(%s): the chip reads %s\n", l, got)
	}
	if err := lamp.Out(gpio.Low); err != nil {
		return fmt.Errorf("LAMP_HIT: Out(Low): %w", err)
	}

	// The acceptor's pulse input: four pulses, four falling edges.
	pulse, err := pin("GPIO26")
	if err != nil {
		return err
	}
	if err := pulse.In(gpio.PullUp, gpio.FallingEdge); err != nil {
		return fmt.Errorf("GPIO26: In(PullUp, FallingEdge): %w", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := drive(setup, "pulses", "GPIO26", "4")
		done <- err
	}()
	n := 0
	for wait := edgeWait; pulse.WaitForEdge(wait); wait = time.Second {
		n++ // after the first edge, a second of quiet ends the train
	}
	if err := <-done; err != nil {
		return err
	}
	if n != 4 {
		return fmt.Errorf("GPIO26: %d falling edges for a train of 4 pulses", n)
	}
	fmt.Printf("gpioprobe: ok GPIO26 pulse train: %d falling edges\n", n)
	return nil
}
