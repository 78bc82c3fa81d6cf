package periph

import (
	"errors"

	"cabinet/internal/hw/periph/pins"
)

// ErrConfig is returned (wrapped with the key, the value and what is allowed)
// by Config.Validate and by Open for a bad pin map or timing.
var ErrConfig = pins.ErrConfig

// ErrPin is returned (wrapped with the pin and its key) by Open when a pin
// name is not registered on this machine or cannot be set up.
var ErrPin = errors.New("periph: pin")

// ErrClosed is returned by the outputs of a closed backend.
var ErrClosed = errors.New("periph: backend closed")
