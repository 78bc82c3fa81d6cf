package periphtest

import (
	"sort"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"cabinet/internal/hw/periph"
)

// edgeBuffer is the capacity of each pin's EdgesChan.
const edgeBuffer = 16

// Board is a set of gpiotest.Pin fakes by name, standing in for the pins
// periph's gpioreg registers on a real machine. Build it before the backend
// and do not add or remove pins while a backend uses it.
type Board struct {
	pins map[string]*gpiotest.Pin
}

// NewBoard returns a board with a pin for each name, each with a buffered
// EdgesChan so edges can be injected after In(…, BothEdges).
func NewBoard(names ...string) *Board {
	b := &Board{pins: map[string]*gpiotest.Pin{}}
	for _, n := range names {
		b.Add(n)
	}
	return b
}

// BoardFor returns a board with every pin that cfg names.
func BoardFor(cfg periph.Config) *Board {
	var names []string
	for _, p := range cfg.Pins() {
		names = append(names, p.Pin)
	}
	return NewBoard(names...)
}

// Add adds a pin named name (replacing one of the same name) and returns it.
func (b *Board) Add(name string) *gpiotest.Pin {
	p := &gpiotest.Pin{N: name, Num: len(b.pins), EdgesChan: make(chan gpio.Level, edgeBuffer)}
	b.pins[name] = p
	return p
}

// Remove removes the pin named name: ByName then reports it missing.
func (b *Board) Remove(name string) { delete(b.pins, name) }

// Pin returns the fake named name, or nil.
func (b *Board) Pin(name string) *gpiotest.Pin { return b.pins[name] }

// Names lists the board's pins, sorted.
func (b *Board) Names() []string {
	out := make([]string, 0, len(b.pins))
	for n := range b.pins {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ByName is the board's gpioreg.ByName: the pin named name, or a nil
// interface when there is none (as gpioreg returns for an unknown name).
func (b *Board) ByName(name string) gpio.PinIO {
	p, ok := b.pins[name]
	if !ok {
		return nil
	}
	return p
}
