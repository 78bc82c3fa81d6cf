//go:build !nogui

package main

import (
	"fmt"
	"sort"
	"strings"

	"cabinet/internal/display"
	"cabinet/internal/view"
)

func sampleNames() []string { return display.SampleNames() }

func sampleSnapshot(name string) (*view.Snapshot, error) {
	s, ok := display.Samples()[name]
	if !ok {
		names := display.SampleNames()
		sort.Strings(names)
		return nil, usageError{fmt.Sprintf("screenshot: unknown screen %q (want one of %s)", name, strings.Join(names, ", "))}
	}
	return s, nil
}

func renderPNG(s *view.Snapshot, path string) error { return display.Screenshot(s, path) }
