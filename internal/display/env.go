//go:build !drm

package display

import (
	"fmt"
	"os"
)

// checkDisplay fails fast when a desktop build has no display to open.
func checkDisplay() error {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("display: open window: %w", ErrNoDisplay)
	}
	return nil
}
