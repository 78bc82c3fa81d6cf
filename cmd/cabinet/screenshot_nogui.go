//go:build nogui

package main

import (
	"errors"

	"cabinet/internal/view"
)

var errNoGUI = errors.New("screenshot: built without display (-tags nogui)")

func sampleNames() []string                         { return nil }
func sampleSnapshot(string) (*view.Snapshot, error) { return nil, errNoGUI }
func renderPNG(*view.Snapshot, string) error        { return errNoGUI }
