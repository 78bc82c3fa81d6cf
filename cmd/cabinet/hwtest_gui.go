//go:build !nogui

package main

import (
	"context"
	"fmt"

	"cabinet/internal/display"
	"cabinet/internal/hw/sim"
	"cabinet/internal/view"
)

// guiBuilt: this build has the window (hwtest defaults to it).
const guiBuilt = true

// runHwtestWindow shows the self-test screen until ctx ends or the window
// is closed. With the sim backend the keyboard and mouse are the panel.
func runHwtestWindow(ctx context.Context, snap func() *view.Snapshot, simBE *sim.Backend, fullscreen bool) error {
	var in display.Input
	if simBE != nil {
		in = simBE
	}
	if err := display.Run(ctx, display.Options{Title: "Cabinet hardware self-test", Fullscreen: fullscreen, FPS: 30, Legend: simBE != nil}, snap, in); err != nil {
		return fmt.Errorf("hwtest: display: %w", err)
	}
	return nil
}
