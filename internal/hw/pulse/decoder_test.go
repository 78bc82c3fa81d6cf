package pulse

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"cabinet/internal/money"
)

const ms = time.Millisecond

// testConfig: 5.00 a pulse, bills 5, 10, 20, 50 (1, 2, 4, 10 pulses).
func testConfig() Config {
	return Config{ValuePerPulse: 500, Bills: []money.Cents{500, 1000, 2000, 5000},
		WidthMin: 30 * ms, WidthMax: 120 * ms, GapMin: 30 * ms, GapMax: 200 * ms, EndGap: 500 * ms}
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// op is one call to the decoder: an edge (r = rise to active, f = fall), a
// tick (t) or a reset (x), dt after the previous op.
type op struct {
	kind byte
	dt   time.Duration
}

// train returns a rise/fall script of n pulses of width w separated by gap g,
// starting dt after the previous op.
func train(dt time.Duration, n int, w, g time.Duration) []op {
	var s []op
	for i := range n {
		if i == 0 {
			s = append(s, op{'r', dt})
		} else {
			s = append(s, op{'r', g})
		}
		s = append(s, op{'f', w})
	}
	return s
}

func cat(parts ...[]op) []op {
	var s []op
	for _, p := range parts {
		s = append(s, p...)
	}
	return s
}

// run feeds the script to a new decoder and returns the events.
func run(t testing.TB, cfg Config, script []op) []Event {
	var evs []Event
	for _, ev := range runOps(t, cfg, script) {
		if ev.Kind != None {
			evs = append(evs, ev)
		}
	}
	return evs
}

// runOps feeds the script to a new decoder and returns each op's event
// (None for an op that gave none).
func runOps(t testing.TB, cfg Config, script []op) []Event {
	d, err := New(cfg, t0)
	if err != nil {
		t.Fatalf("New = %v", err)
	}
	evs := make([]Event, len(script))
	at := t0
	for i, o := range script {
		at = at.Add(o.dt)
		switch o.kind {
		case 'r':
			evs[i] = d.Edge(true, at)
		case 'f':
			evs[i] = d.Edge(false, at)
		case 't':
			evs[i] = d.Tick(at)
		case 'x':
			evs[i] = d.Reset(at)
		}
	}
	return evs
}

func describe(evs []Event) string {
	var s []string
	for _, e := range evs {
		switch e.Kind {
		case Credit:
			s = append(s, "credit "+e.Value.String())
		case Error:
			s = append(s, "error")
		}
	}
	return strings.Join(s, ", ")
}

type decoderCase struct {
	name   string
	script []op
	want   string // credits and errors, in order
	err    error  // the first error's sentinel
}

// decoderCases are the table tests; they also seed the fuzz corpus.
func decoderCases() []decoderCase {
	quiet := 510 * ms
	end := []op{{'t', 500 * ms}}
	return []decoderCase{
		{"one pulse", cat(train(quiet, 1, 50*ms, 50*ms), end), "credit 5.00", nil},
		{"two pulses", cat(train(quiet, 2, 50*ms, 50*ms), end), "credit 10.00", nil},
		{"four pulses", cat(train(quiet, 4, 100*ms, 100*ms), end), "credit 20.00", nil},
		{"ten pulses", cat(train(quiet, 10, 50*ms, 50*ms), end), "credit 50.00", nil},
		{"limits", cat(train(quiet, 2, 30*ms, 200*ms), train(quiet, 2, 120*ms, 30*ms), end), "credit 10.00, credit 10.00", nil},
		{"end gap just short", cat(train(quiet, 1, 50*ms, 0), []op{{'t', 498 * ms}}), "", nil},
		{"completed by the next edge", cat(train(quiet, 1, 50*ms, 0), train(500*ms, 1, 50*ms, 0), end), "credit 5.00, credit 5.00", nil},
		{"two bills", cat(train(quiet, 4, 50*ms, 50*ms), end, train(0, 2, 50*ms, 50*ms), end), "credit 20.00, credit 10.00", nil},
		{"ticks inside", cat([]op{{'t', quiet}}, []op{{'r', 0}, {'t', 60 * ms}, {'f', 60 * ms}, {'t', 198 * ms}, {'r', 2 * ms}, {'f', 50 * ms}, {'t', 450 * ms}}, end), "credit 10.00", nil},
		{"pulse too short", cat(train(quiet, 2, 28*ms, 50*ms), end), "error", ErrWidth},
		{"pulse too long", cat(train(quiet, 2, 122*ms, 50*ms), end), "error", ErrWidth},
		{"stuck pulse seen by tick", []op{{'r', quiet}, {'t', 122 * ms}, {'f', 400 * ms}, {'t', 500 * ms}}, "error", ErrWidth},
		{"gap too short", cat(train(quiet, 2, 50*ms, 28*ms), end), "error", ErrGap},
		{"gap too long", cat(train(quiet, 2, 50*ms, 202*ms), end), "error", ErrGap},
		{"gap too long, rest not credited", cat(train(quiet, 2, 50*ms, 300*ms), train(498*ms, 1, 50*ms, 0), end), "error", ErrGap},
		{"too many pulses", cat(train(quiet, 11, 50*ms, 50*ms), end), "error", ErrTooMany},
		{"unknown count", cat(train(quiet, 3, 50*ms, 50*ms), end), "error", ErrCount},
		{"missed edge in train", cat(train(quiet, 1, 50*ms, 0), []op{{'f', 50 * ms}}, train(50*ms, 1, 50*ms, 0), end), "error", ErrMissedEdge},
		{"missed rise", cat(train(quiet, 1, 50*ms, 0), []op{{'r', 50 * ms}, {'r', 50 * ms}, {'f', 50 * ms}}, end), "error", ErrMissedEdge},
		// A line seen inactive twice went active unseen: a pulse began. The
		// train it starts is refused by name, once, never swallowed.
		{"noise on quiet line refused", cat([]op{{'f', quiet}}, train(100*ms, 1, 50*ms, 0), end), "error", ErrMissedEdge},
		// A lone fall after a complete train: the train is credited and the
		// fall refused (returned by the next call).
		{"lone fall after a train", cat(train(quiet, 1, 50*ms, 0), []op{{'f', 510 * ms}}, end, train(0, 1, 50*ms, 0), end), "credit 5.00, error, credit 5.00", ErrMissedEdge},
		{"first rise lost", cat([]op{{'t', quiet}, {'f', 50 * ms}}, train(50*ms, 3, 50*ms, 50*ms), end, train(0, 1, 50*ms, 0), end), "error, credit 5.00", ErrMissedEdge},
		{"time backwards", cat(train(quiet, 1, 50*ms, 0), []op{{'r', -40 * ms}, {'f', 50 * ms}}, end), "error", ErrClock},
		{"reset mid-train", cat(train(quiet, 2, 50*ms, 50*ms), []op{{'x', 10 * ms}}, end), "error", ErrPartial},
		{"reset then bill", cat([]op{{'x', quiet}}, train(500*ms, 1, 50*ms, 0), end), "credit 5.00", nil},
		// A train begun before end_gap of quiet since start-up (scripts/
		// test-pi-gpio's lost train: its pulses came 5.9 s after hwtest
		// started, its end_gap 6 s) or since a Reset cannot be counted: it
		// is refused at its first pulse, never silently dropped.
		{"no quiet at start", cat(train(400*ms, 4, 50*ms, 50*ms), end), "error", ErrNotQuiet},
		{"no quiet after reset", cat([]op{{'x', quiet}}, train(100*ms, 4, 50*ms, 50*ms), end, train(0, 1, 50*ms, 0), end), "error, credit 5.00", ErrNotQuiet},
		{"active at start", cat([]op{{'r', 0}}, []op{{'f', 50 * ms}}, train(100*ms, 1, 50*ms, 0), end, train(0, 1, 50*ms, 0), end), "error, credit 5.00", ErrNotQuiet},
		{"train after error needs quiet", cat(train(quiet, 1, 10*ms, 0), train(490*ms, 1, 50*ms, 0), end, train(0, 1, 50*ms, 0), end), "error, credit 5.00", ErrWidth},
	}
}

func TestDecoder(t *testing.T) {
	for _, tt := range decoderCases() {
		t.Run(tt.name, func(t *testing.T) {
			evs := run(t, testConfig(), tt.script)
			if got := describe(evs); got != tt.want {
				t.Errorf("events = %q (%v), want %q", got, evs, tt.want)
			}
			for _, e := range evs {
				if e.Kind == Error {
					if tt.err != nil && !errors.Is(e.Err, tt.err) {
						t.Errorf("error = %v, want %v", e.Err, tt.err)
					}
					if e.Value != 0 {
						t.Errorf("error event carries value %v", e.Value)
					}
					break
				}
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		key    string
	}{
		{"value per pulse", func(c *Config) { c.ValuePerPulse = 0 }, "value_per_pulse"},
		{"no bills", func(c *Config) { c.Bills = nil }, "bills"},
		{"bill not multiple", func(c *Config) { c.Bills = []money.Cents{501} }, "bills"},
		{"bill twice", func(c *Config) { c.Bills = []money.Cents{500, 500} }, "bills"},
		{"too many pulses", func(c *Config) { c.ValuePerPulse = 1; c.Bills = []money.Cents{5000} }, "bills"},
		{"width min", func(c *Config) { c.WidthMin = 0 }, "width_min"},
		{"width order", func(c *Config) { c.WidthMin = c.WidthMax + 1 }, "width_min"},
		{"gap order", func(c *Config) { c.GapMin = c.GapMax + 1 }, "gap_min"},
		{"end gap", func(c *Config) { c.EndGap = c.GapMax }, "end_gap"},
		{"huge", func(c *Config) { c.EndGap = time.Minute }, "end_gap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testConfig()
			tt.change(&c)
			var ce *ConfigError
			if err := c.Validate(); !errors.As(err, &ce) || ce.Key != tt.key {
				t.Errorf("Validate() = %v, want a ConfigError for %s", err, tt.key)
			}
			if _, err := New(c, t0); err == nil {
				t.Errorf("New = nil error, want one")
			}
		})
	}
}

func ExampleDecoder() {
	cfg := Config{ValuePerPulse: 500, Bills: []money.Cents{500, 1000, 2000},
		WidthMin: 30 * ms, WidthMax: 120 * ms, GapMin: 30 * ms, GapMax: 200 * ms, EndGap: 500 * ms}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d, err := New(cfg, start)
	if err != nil {
		panic(err)
	}
	at := start.Add(time.Second) // a quiet line first
	for range 2 {                // two 50 ms pulses, 50 ms apart
		d.Edge(true, at)
		at = at.Add(50 * ms)
		d.Edge(false, at)
		at = at.Add(50 * ms)
	}
	fmt.Println(d.Tick(at.Add(200 * ms)))
	fmt.Println(d.Tick(at.Add(500 * ms)))
	// Output:
	// none
	// credit 10.00 (2 pulses)
}
