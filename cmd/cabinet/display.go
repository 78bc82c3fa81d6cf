//go:build !nogui

package main

import (
	"context"
	"fmt"

	"cabinet/internal/controller"
	"cabinet/internal/display"
	"cabinet/internal/view"
)

// windowed: this build has a window, which reports what it has shown; the
// controller waits for it (controller.Options.Display).
const windowed = true

// runDisplay runs the window until ctx ends or it is closed. panel is
// what the screen drives: with the sim backend the keyboard and mouse are
// the cabinet's buttons and switches (legend shows their keys); with real
// hardware the touch screen presses the on-screen buttons (touch.go).
// shown is what the window reports of its presentation (Options.Shown).
func runDisplay(ctx context.Context, c *controller.Controller, panel touchInput, demo []*view.Snapshot, legend, fullscreen bool, shown func(view.Shown)) error {
	if err := display.Run(ctx, display.Options{Title: "Cabinet", Fullscreen: fullscreen, FPS: 60, Legend: legend,
		Demo: demo, Shown: shown}, c.Snapshot, panel); err != nil {
		return fmt.Errorf("display: %w", err)
	}
	return nil
}
