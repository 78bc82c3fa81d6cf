package config

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoPeriphBackend: the configuration reads the [hardware] section
// through internal/hw/periph/pins, so the packages of the headless commands
// (sim, audit, par, crashtest) do not link periph.io's host drivers.
func TestNoPeriphBackend(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "cabinet/internal/config").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "periph.io/") || p == "cabinet/internal/hw/periph" {
			t.Errorf("internal/config depends on %s", p)
		}
	}
}
