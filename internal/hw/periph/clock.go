package periph

import "time"

// Clock is the backend's time source: edge timestamps, debounce and the
// pulse decoder's ticks. Tests inject a fake (hwtest.Clock).
type Clock interface {
	Now() time.Time
	NewTicker(d time.Duration) Ticker
}

// Ticker delivers ticks on C until Stop.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// SystemClock is the real clock.
type SystemClock struct{}

// Now implements Clock.
func (SystemClock) Now() time.Time { return time.Now() }

// NewTicker implements Clock.
func (SystemClock) NewTicker(d time.Duration) Ticker { return systemTicker{time.NewTicker(d)} }

type systemTicker struct{ t *time.Ticker }

func (t systemTicker) C() <-chan time.Time { return t.t.C }
func (t systemTicker) Stop()               { t.t.Stop() }
