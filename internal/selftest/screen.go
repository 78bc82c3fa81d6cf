package selftest

import (
	"sync"

	"cabinet/internal/hw"
	"cabinet/internal/view"
)

// ScreenLines is how many inputs and bills the screen keeps (newest first).
const ScreenLines = 8

// Screen is the self-test screen's state built from Lines: the lamp lit
// now, the last inputs and the last bills, newest first. Add is called by
// the self-test, View by the display's goroutine: safe for concurrent use.
type Screen struct {
	// Lang and Currency localise the lines ("fr", "EUR"); with Lang empty
	// the lines are the English Line.String form.
	Lang, Currency string

	mu     sync.Mutex
	lamp   string
	inputs []string
	bills  []string
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
			s.bills = push(s.bills, s.text(l))
		}
	}
	s.inputs = push(s.inputs, s.text(l))
}

func (s *Screen) text(l Line) string {
	if s.Lang == "" {
		return l.String()
	}
	return l.Text(s.Lang, s.Currency)
}

func push(list []string, item string) []string {
	list = append([]string{item}, list...)
	if len(list) > ScreenLines {
		list = list[:ScreenLines]
	}
	return list
}

// View is the screen's view now (a copy).
func (s *Screen) View() *view.HwTestView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &view.HwTestView{Lamp: s.lamp, Inputs: append([]string{}, s.inputs...), Bills: append([]string{}, s.bills...)}
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
