//go:build nogui

package main

import (
	"errors"

	"cabinet/internal/view"
)

var errNoGUI = errors.New("screenshot: built without display (-tags nogui)")

func renderPNG(*view.Snapshot, string) error { return errNoGUI }
