package periph

import (
	"fmt"

	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"
)

// Open initialises periph.io's host drivers (host.Init) and builds the
// backend on the pins registered under the names in cfg. On a machine
// without GPIO host.Init succeeds with no pins, so the first pin of the map
// is reported as not found (ErrPin, naming the pin and its key). A nil
// clock is the system clock.
func Open(cfg Config, clock Clock) (*Backend, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("periph: open: host.Init: %w", err)
	}
	b, err := New(cfg, gpioreg.ByName, clock)
	if err != nil {
		return nil, fmt.Errorf("periph: open: %w", err)
	}
	return b, nil
}
