package main

import (
	"os"

	"cabinet/internal/scenario"
	"cabinet/internal/view"
)

// demoScreens plays the attract loop's demonstration round (a scenario
// through the real controller, on a store in a temp dir that is removed
// after) with the configuration at cfgPath. A failure leaves the attract
// screen without a demo, never the cabinet without a screen.
func demoScreens(cfgPath string) []*view.Snapshot {
	dir, err := os.MkdirTemp("", "cabinet-demo-")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(dir)
	demo, err := scenario.Demo(scenario.Options{Config: cfgPath, Dir: dir})
	if err != nil {
		return nil
	}
	return demo
}
