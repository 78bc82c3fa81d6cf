package pulse

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"cabinet/internal/money"
)

// Config is the decoder's configuration.
type Config struct {
	// ValuePerPulse is what one pulse is worth.
	ValuePerPulse money.Cents
	// Bills are the bills the acceptor sends, each a multiple of
	// ValuePerPulse: the valid counts are Bills[i] / ValuePerPulse.
	Bills []money.Cents
	// WidthMin..WidthMax bound a pulse, GapMin..GapMax a gap inside a train;
	// EndGap (> GapMax) of inactive line completes a train.
	WidthMin, WidthMax time.Duration
	GapMin, GapMax     time.Duration
	EndGap             time.Duration
}

// MaxPulses bounds the pulses of one bill (a configuration sanity limit).
const MaxPulses = 1000

// maxTiming bounds every timing (a configuration sanity limit).
const maxTiming = 10 * time.Second

// Validate checks the configuration; a *ConfigError names the key.
func (c Config) Validate() error {
	if c.ValuePerPulse <= 0 {
		return &ConfigError{"value_per_pulse", c.ValuePerPulse.String(), "an amount above 0.00"}
	}
	if len(c.Bills) == 0 {
		return &ConfigError{"bills", "[]", "at least one bill"}
	}
	seen := map[money.Cents]bool{}
	for _, b := range c.Bills {
		switch {
		case b <= 0 || b%c.ValuePerPulse != 0:
			return &ConfigError{"bills", b.String(), "positive multiples of value_per_pulse " + c.ValuePerPulse.String()}
		case b/c.ValuePerPulse > MaxPulses:
			return &ConfigError{"bills", b.String(), "at most " + strconv.Itoa(MaxPulses) + " pulses per bill (raise value_per_pulse)"}
		case seen[b]:
			return &ConfigError{"bills", b.String(), "each bill once"}
		}
		seen[b] = true
	}
	type timing struct {
		key string
		d   time.Duration
	}
	for _, t := range []timing{{"width_min", c.WidthMin}, {"width_max", c.WidthMax},
		{"gap_min", c.GapMin}, {"gap_max", c.GapMax}, {"end_gap", c.EndGap}} {
		if t.d <= 0 || t.d > maxTiming {
			return &ConfigError{t.key, t.d.String(), "a duration above 0 and at most 10s"}
		}
	}
	if c.WidthMin > c.WidthMax {
		return &ConfigError{"width_min", c.WidthMin.String(), "at most width_max " + c.WidthMax.String()}
	}
	if c.GapMin > c.GapMax {
		return &ConfigError{"gap_min", c.GapMin.String(), "at most gap_max " + c.GapMax.String()}
	}
	if c.EndGap <= c.GapMax {
		return &ConfigError{"end_gap", c.EndGap.String(), "longer than gap_max " + c.GapMax.String()}
	}
	return nil
}

// Largest is the largest bill.
func (c Config) Largest() money.Cents { return slices.Max(c.Bills) }

// Kind says what an Event reports.
type Kind uint8

// The event kinds. The zero Kind (None) is "nothing happened".
const (
	None   Kind = iota
	Credit      // a complete valid train: Value is the bill
	Error       // a malformed train: Err says what; never credit
)

// Event is what the decoder reports.
type Event struct {
	Kind   Kind
	Value  money.Cents // Credit: the bill's value
	Pulses int         // pulses counted in the train
	Err    error       // Error: wraps one of the package's errors
	At     time.Time   // when the train completed or failed
}

func (e Event) String() string {
	switch e.Kind {
	case Credit:
		return fmt.Sprintf("credit %v (%d pulses)", e.Value, e.Pulses)
	case Error:
		return "error: " + e.Err.Error()
	}
	return "none"
}

type state uint8

const (
	wait   state = iota // waiting for EndGap of inactive line, nothing on it reported yet (start-up, Reset)
	resync              // waiting for EndGap of inactive line, the train on it already reported
	idle                // quiet line, ready for a train
	high                // inside a pulse
	low                 // between pulses, or after the last one
)

// Decoder is the pulse-train state machine. Not safe for concurrent use:
// the caller serialises Edge, Tick and Reset, with times taken from one
// clock (an edge stamped before an earlier call is ErrClock).
type Decoder struct {
	cfg    Config
	counts map[int]money.Cents
	max    int

	st     state
	active bool      // line level now
	last   time.Time // last level change (or resync point)
	latest time.Time // latest time seen
	rise   time.Time // start of the current pulse
	n      int       // pulses of the current train
	out    []Event   // events not yet returned (an edge can give two)
}

// New returns a decoder that starts at start with the line inactive,
// waiting for EndGap of quiet before it accepts a train: a train already
// running at start-up, or begun before that quiet, is never credited and
// is reported (ErrNotQuiet). If the line is active at start, call
// Edge(true, start) and report the event it returns.
func New(cfg Config, start time.Time) (*Decoder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d := &Decoder{cfg: cfg, counts: map[int]money.Cents{}, last: start, latest: start}
	d.cfg.Bills = slices.Clone(cfg.Bills)
	for _, b := range cfg.Bills {
		n := int(b / cfg.ValuePerPulse)
		d.counts[n] = b
		d.max = max(d.max, n)
	}
	return d, nil
}

// Config returns the decoder's configuration.
func (d *Decoder) Config() Config { return d.cfg }

// Busy reports whether a train is being received.
func (d *Decoder) Busy() bool { return d.st == high || d.st == low }

// Edge reports that the line became active (or inactive) at at. It returns
// at most one event: a completed train (when the quiet before this edge was
// EndGap or longer) or an error. An edge that completes a train and is
// itself refused (the line seen inactive twice) has two: the second is
// returned by the next call (Edge, Tick or Reset), so a caller that ticks
// gets it within a tick.
func (d *Decoder) Edge(active bool, at time.Time) Event {
	return d.next(d.edge(active, at))
}

// next queues evs (None ignored) after the events not yet returned and
// returns the oldest.
func (d *Decoder) next(evs ...Event) Event {
	for _, ev := range evs {
		if ev.Kind != None {
			d.out = append(d.out, ev)
		}
	}
	if len(d.out) == 0 {
		return Event{}
	}
	ev := d.out[0]
	d.out = d.out[1:]
	return ev
}

// edge is Edge: a completed train's event, then this edge's own.
func (d *Decoder) edge(active bool, at time.Time) (Event, Event) {
	if at.Before(d.latest) {
		ev := d.fail(at, ErrClock, "edge at %s is %s before the latest event", at.Format(time.StampMicro), d.latest.Sub(at))
		d.active, d.last = active, d.latest
		return ev, Event{}
	}
	d.latest = at
	ev := d.settle(at)
	if active == d.active {
		switch d.st {
		case high, low:
			if ev.Kind != None {
				panic("BUG: pulse: two events for one edge")
			}
			ev = d.fail(at, ErrMissedEdge, "line %s twice", levelName(active))
		case idle, wait:
			// The line inactive twice: it went active and back unseen, a
			// pulse began. Never silent: it may be a bill's first pulse
			// (after the train this edge completed, if any).
			d.last = at
			return ev, d.fail(at, ErrMissedEdge, "line %s twice on a quiet line (a pulse seen only by its end)", levelName(active))
		}
		d.last = at
		return ev, Event{}
	}
	prev := d.last
	d.active, d.last = active, at
	switch d.st {
	case wait: // a rise before EndGap of quiet: a train the decoder cannot count
		return d.fail(at, ErrNotQuiet, "pulse began %s after the decoder's start, a reset or the line's last change, want end_gap %s of quiet line first",
			at.Sub(prev), d.cfg.EndGap), Event{}
	case idle: // a rise: a train starts
		d.st, d.n, d.rise = high, 1, at
	case low: // a rise: the next pulse of the train (the gap is below EndGap)
		gap := at.Sub(prev)
		if gap < d.cfg.GapMin || gap > d.cfg.GapMax {
			if ev.Kind != None {
				panic("BUG: pulse: two events for one edge")
			}
			return d.fail(at, ErrGap, "gap %s after pulse %d, want %s..%s", gap, d.n, d.cfg.GapMin, d.cfg.GapMax), Event{}
		}
		d.n++
		if d.n > d.max {
			return d.fail(at, ErrTooMany, "pulse %d, the largest bill has %d", d.n, d.max), Event{}
		}
		d.st, d.rise = high, at
	case high: // a fall: the pulse ends
		w := at.Sub(d.rise)
		if w < d.cfg.WidthMin || w > d.cfg.WidthMax {
			return d.fail(at, ErrWidth, "pulse %d lasted %s, want %s..%s", d.n, w, d.cfg.WidthMin, d.cfg.WidthMax), Event{}
		}
		d.st = low
	case resync: // follow the line
	}
	return ev, Event{}
}

// Tick tells the decoder the time is now: it completes a train whose line
// has been quiet for EndGap and fails a pulse held longer than WidthMax. A
// time before the latest event is ignored.
func (d *Decoder) Tick(now time.Time) Event { return d.next(d.tick(now)) }

func (d *Decoder) tick(now time.Time) Event {
	if now.Before(d.latest) {
		return Event{}
	}
	d.latest = now
	if ev := d.settle(now); ev.Kind != None {
		return ev
	}
	if d.st == high && now.Sub(d.rise) > d.cfg.WidthMax {
		return d.fail(now, ErrWidth, "pulse %d held for more than %s", d.n, d.cfg.WidthMax)
	}
	return Event{}
}

// Reset abandons a train in progress (ErrPartial) and waits for EndGap of
// quiet line again, as after start-up (a train begun sooner is
// ErrNotQuiet). Call it when decoding stops or restarts (shutdown, a
// reopened pin).
func (d *Decoder) Reset(now time.Time) Event { return d.next(d.reset(now)) }

func (d *Decoder) reset(now time.Time) Event {
	if now.After(d.latest) {
		d.latest = now
	}
	var ev Event
	switch {
	case d.Busy():
		ev = d.fail(now, ErrPartial, "train of %d pulses cut", d.n) // the rest of it is reported
	case d.st == idle:
		d.st = wait
	}
	d.n, d.last = 0, d.latest
	return ev
}

// settle moves a quiet line on at time t: a train quiet for EndGap is
// complete; a resync quiet for EndGap is over.
func (d *Decoder) settle(t time.Time) Event {
	if d.active || t.Sub(d.last) < d.cfg.EndGap {
		return Event{}
	}
	switch d.st {
	case wait, resync:
		d.st = idle
	case low:
		n := d.n
		d.st, d.n = idle, 0
		if v, ok := d.counts[n]; ok {
			return Event{Kind: Credit, Value: v, Pulses: n, At: t}
		}
		return Event{Kind: Error, Pulses: n, At: t,
			Err: fmt.Errorf("%w: %d pulses, bills have %s", ErrCount, n, d.countList())}
	}
	return Event{}
}

// fail abandons the train with an error (none if already resynchronising:
// the train was reported when it failed).
func (d *Decoder) fail(at time.Time, err error, format string, args ...any) Event {
	was, n := d.st, d.n
	d.st, d.n = resync, 0
	if was == resync {
		return Event{}
	}
	return Event{Kind: Error, Pulses: n, At: at, Err: fmt.Errorf("%w: "+format, append([]any{err}, args...)...)}
}

func (d *Decoder) countList() string {
	var s []string
	for n := 1; n <= d.max; n++ {
		if _, ok := d.counts[n]; ok {
			s = append(s, strconv.Itoa(n))
		}
	}
	return strings.Join(s, ", ")
}

func levelName(active bool) string {
	if active {
		return "active"
	}
	return "inactive"
}
