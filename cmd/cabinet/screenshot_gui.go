//go:build !nogui

package main

import (
	"cabinet/internal/display"
	"cabinet/internal/view"
)

func renderPNG(s *view.Snapshot, path string) error { return display.Screenshot(s, path) }
