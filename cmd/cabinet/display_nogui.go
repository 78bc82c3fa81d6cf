//go:build nogui

package main

import (
	"context"
	"errors"

	"cabinet/internal/controller"
	"cabinet/internal/view"
)

// windowed: no window, so nothing reports what is shown; the controller
// counts every step as shown (headless).
const windowed = false

// runDisplay in a headless build (-tags nogui): the cabinet runs without a
// window until interrupted (used for qemu checks of the arm64 build).
func runDisplay(ctx context.Context, _ *controller.Controller, _ touchInput, _ []*view.Snapshot, _, _ bool, _ func(view.Shown)) error {
	<-ctx.Done()
	return errors.New("built without display (-tags nogui)")
}
