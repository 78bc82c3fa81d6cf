//go:build !nogui

package main

import (
	"context"
	"fmt"
	"time"

	"cabinet/internal/cabinet"
	"cabinet/internal/display"
	"cabinet/internal/hw/sim"
)

// dealPace is the time a dealt card takes from the shoe to its place (a
// fixed pace until the operator menu offers a speed setting).
const dealPace = 350 * time.Millisecond

// soundVolume is the sound effects' volume (0…1); the operator's
// cabinet.sound turns them on and off.
const soundVolume = 0.8

// runDisplay runs the window until ctx ends or it is closed. With the sim
// backend the keyboard and mouse are the cabinet's buttons and switches;
// with real hardware the touch screen still presses on-screen buttons.
func runDisplay(ctx context.Context, c *cabinet.Controller, simBE *sim.Backend, fullscreen bool) error {
	var in display.Input
	if simBE != nil {
		in = simBE
	}
	if err := display.Run(ctx, display.Options{Title: "Cabinet", Fullscreen: fullscreen, FPS: 60, Legend: simBE != nil, Pace: dealPace, Volume: soundVolume}, c.Snapshot, in); err != nil {
		return fmt.Errorf("display: %w", err)
	}
	return nil
}
