package periphtest

import (
	"sync"
	"time"

	"cabinet/internal/hw/periph"
)

// Clock is a manual periph.Clock: Now moves only with Advance, and its
// tickers deliver a tick only when Tick is called. Safe for concurrent use.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	tickers []*Ticker
}

var _ periph.Clock = (*Clock)(nil)

// Epoch is the time a NewClock(time.Time{}) starts at.
var Epoch = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// NewClock returns a clock at start (Epoch if zero).
func NewClock(start time.Time) *Clock {
	if start.IsZero() {
		start = Epoch
	}
	return &Clock{now: start}
}

// Now implements periph.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d and returns the new time. It sends no
// tick: call Tick (or Rig.Advance, which does both).
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}

// NewTicker implements periph.Clock. The interval is recorded, not used.
func (c *Clock) NewTicker(d time.Duration) periph.Ticker {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &Ticker{Interval: d, c: make(chan time.Time)}
	c.tickers = append(c.tickers, t)
	return t
}

// Tickers returns the tickers made so far, stopped ones included.
func (c *Clock) Tickers() []*Ticker {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Ticker(nil), c.tickers...)
}

// Ticker is a manual periph.Ticker: its channel is unbuffered, so a Tick
// returns once the ticker's owner has received it.
type Ticker struct {
	Interval time.Duration

	c       chan time.Time
	mu      sync.Mutex
	stopped bool
}

// C implements periph.Ticker.
func (t *Ticker) C() <-chan time.Time { return t.c }

// Stop implements periph.Ticker.
func (t *Ticker) Stop() {
	t.mu.Lock()
	t.stopped = true
	t.mu.Unlock()
}

// Stopped reports whether Stop was called.
func (t *Ticker) Stopped() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stopped
}

// Tick delivers now to the ticker's owner. It reports false, without
// delivering, if the ticker is stopped or cancel is closed first.
func (t *Ticker) Tick(now time.Time, cancel <-chan struct{}) bool {
	if t.Stopped() {
		return false
	}
	select {
	case t.c <- now:
		return true
	case <-cancel:
		return false
	}
}
