package selftest

import (
	"sync"

	"cabinet/internal/hw"
	"cabinet/internal/view"
)

// ScreenLines is how many inputs and bills the screen keeps (newest first).
const ScreenLines = 8

// Screen is the self-test screen's state built from Lines: the lamp lit
// now, the last inputs and the last bills, newest first, as data (the
// display words them in the snapshot's language: LineText). Add is called
// by the self-test, View by the display's goroutine: safe for concurrent
// use.
type Screen struct {
	mu     sync.Mutex
	lamp   string
	inputs []view.TestLine
	bills  []view.TestLine
}

// Add records a line.
func (s *Screen) Add(l Line) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch l.Kind {
	case LampLit:
		s.lamp = l.Lamp
		return
	case InputSeen:
		if l.IsBill() {
			s.bills = push(s.bills, l.Typed())
		}
	}
	s.inputs = push(s.inputs, l.Typed())
}

func push(list []view.TestLine, item view.TestLine) []view.TestLine {
	list = append([]view.TestLine{item}, list...)
	if len(list) > ScreenLines {
		list = list[:ScreenLines]
	}
	return list
}

// View is the screen's view now (a copy).
func (s *Screen) View() *view.HwTestView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &view.HwTestView{Lamp: s.lamp, Inputs: append([]view.TestLine{}, s.inputs...), Bills: append([]view.TestLine{}, s.bills...)}
}

// Lamps is the button lamp lit now, as a set (empty while a tower lamp is lit).
func (s *Screen) Lamps() hw.ButtonSet {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, err := hw.ParseButton(s.lamp); err == nil {
		return hw.ButtonSet(0).With(b)
	}
	return 0
}
