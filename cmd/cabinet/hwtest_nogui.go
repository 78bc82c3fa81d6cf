//go:build nogui

package main

import (
	"context"
	"errors"

	"cabinet/internal/hw/sim"
	"cabinet/internal/view"
)

// guiBuilt: a headless build; hwtest prints to stdout (--text).
const guiBuilt = false

func runHwtestWindow(context.Context, func() *view.Snapshot, *sim.Backend, bool) error {
	return errors.New("hwtest: built without display (-tags nogui): use --text")
}
