package pulse

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cabinet/internal/money"
)

// decodeOps turns fuzz bytes into a script: two bytes an op. The low bits
// of the first pick the op (rise, fall, tick; reset rarely), the second is
// the delay in 2 ms steps; with both top bits of the first set the delay is
// negative (a clock running backwards).
func decodeOps(data []byte) []op {
	var s []op
	for i := 0; i+1 < len(data); i += 2 {
		b, dt := data[i], time.Duration(data[i+1])*2*ms
		if b&0xC0 == 0xC0 {
			dt = -dt
		}
		var k byte
		switch {
		case b&0x3F == 0x3F:
			k = 'x'
		case b%3 == 0:
			k = 'r'
		case b%3 == 1:
			k = 'f'
		default:
			k = 't'
		}
		s = append(s, op{k, dt})
	}
	return s
}

// encodeOps is decodeOps's inverse for the seed corpus (delays within
// ±510ms in 2ms steps).
func encodeOps(script []op) []byte {
	var b []byte
	for _, o := range script {
		var k byte
		switch o.kind {
		case 'r':
			k = 0
		case 'f':
			k = 1
		case 't':
			k = 2
		case 'x':
			k = 0x3F
		}
		dt := o.dt
		if dt < 0 {
			k, dt = k|0xC0, -dt
		}
		if dt > 255*2*ms || dt%(2*ms) != 0 {
			panic(fmt.Sprintf("BUG: encodeOps: delay %s is not 0..510ms in 2ms steps", o.dt))
		}
		b = append(b, k, byte(dt/(2*ms)))
	}
	return b
}

// oracle computes, independently of the decoder's state machine, the bills
// the script must credit: for every rise preceded by an inactive line that
// has been quiet for EndGap (measured from the latest time seen at the last
// edge or reset), follow alternating well-formed pulses and gaps, with no
// reset and no edge stamped before an earlier op, until the line is seen
// quiet for EndGap (by a tick or by the next edge); credit it when its
// count is a bill's.
func oracle(cfg Config, script []op) []int {
	n := len(script)
	at := make([]time.Time, n)
	latest := make([]time.Time, n) // latest time after op i
	t, l := t0, t0
	for i, o := range script {
		t = t.Add(o.dt)
		at[i] = t
		if t.After(l) {
			l = t
		}
		latest[i] = l
	}
	latestBefore := func(i int) time.Time {
		if i == 0 {
			return t0
		}
		return latest[i-1]
	}
	isEdge := func(i int) bool { return script[i].kind == 'r' || script[i].kind == 'f' }
	regress := func(i int) bool { return at[i].Before(latestBefore(i)) }
	counts := map[int]bool{}
	for _, b := range cfg.Bills {
		counts[int(b/cfg.ValuePerPulse)] = true
	}
	var credits []int
	for i := range script {
		if script[i].kind != 'r' || regress(i) {
			continue
		}
		// The previous edge (or reset) and the line level before the rise.
		prevLow, quietFrom := true, t0
		for j := i - 1; j >= 0; j-- {
			if isEdge(j) || script[j].kind == 'x' {
				quietFrom = latest[j]
				if isEdge(j) {
					prevLow = script[j].kind == 'f'
				} else {
					// After a reset the level is the last edge's.
					for k := j - 1; k >= 0; k-- {
						if isEdge(k) {
							prevLow = script[k].kind == 'f'
							break
						}
					}
				}
				break
			}
		}
		if !prevLow || at[i].Sub(quietFrom) < cfg.EndGap {
			continue
		}
		// Follow the train.
		pulses, rise, ok, done := 1, at[i], true, false
		expect := byte('f')
		var fall time.Time
		for j := i + 1; j < n && ok && !done; j++ {
			switch script[j].kind {
			case 'x':
				ok = false
			case 't':
				if expect == 'r' && !at[j].Before(fall.Add(cfg.EndGap)) {
					done = true
				}
			case 'r', 'f':
				if expect == 'r' && !at[j].Before(fall.Add(cfg.EndGap)) && !regress(j) {
					done = true
					break
				}
				if regress(j) || script[j].kind != expect {
					ok = false
					break
				}
				if expect == 'f' {
					w := at[j].Sub(rise)
					ok = w >= cfg.WidthMin && w <= cfg.WidthMax
					fall, expect = at[j], 'r'
				} else {
					g := at[j].Sub(fall)
					ok = g >= cfg.GapMin && g <= cfg.GapMax
					pulses++
					rise, expect = at[j], 'f'
				}
			}
		}
		if ok && done && counts[pulses] {
			credits = append(credits, pulses)
		}
	}
	return credits
}

// silentTrain returns the index of the first edge of a train that ended
// without an event, or -1. A train, found independently of the decoder's
// states: the edges from one that comes on an inactive line quiet for
// EndGap (since the previous edge, the last reset or the decoder's start)
// up to the op (a tick or an edge) that sees the line inactive and quiet
// for EndGap after them; its first edge may be a fall (the line seen
// inactive twice: a rise lost). Every such finished train must give at
// least one event (a credit or an error) from its first edge to the op that
// finishes it: a bill the acceptor stacked is never dropped without a word.
// Scripts whose clock runs backwards are not judged (ErrClock moves the
// decoder's own idea of quiet).
func silentTrain(cfg Config, script []op, evs []Event) int {
	at := t0
	for _, o := range script {
		if o.dt < 0 {
			return -1
		}
	}
	quietFrom, active := t0, false
	first, events := -1, 0 // the train being followed (-1: none), its events
	for i, o := range script {
		at = at.Add(o.dt)
		edge := o.kind == 'r' || o.kind == 'f'
		ev := evs[i].Kind != None // events come in order: the oldest train's first
		if first >= 0 && !active && (edge || o.kind == 't') && at.Sub(quietFrom) >= cfg.EndGap {
			if events == 0 && ev {
				events, ev = 1, false
			}
			if events == 0 {
				return first
			}
			first, events = -1, 0
		}
		if edge && first < 0 {
			first = i
		}
		if ev && first >= 0 {
			events++
		}
		switch {
		case edge:
			quietFrom, active = at, o.kind == 'r'
		case o.kind == 'x':
			quietFrom = at
		}
	}
	return -1
}

// TestOracle checks the fuzz oracle against the table tests' expectations,
// so that the oracle is not silently agreeing with nothing.
func TestOracle(t *testing.T) {
	for _, tt := range decoderCases() {
		t.Run(tt.name, func(t *testing.T) {
			var want []int
			for _, e := range run(t, testConfig(), tt.script) {
				if e.Kind == Credit {
					want = append(want, e.Pulses)
				}
			}
			if got := oracle(testConfig(), tt.script); !slices.Equal(got, want) {
				t.Errorf("oracle(%v) = %v, want %v", tt.script, got, want)
			}
			if got := decodeOps(encodeOps(tt.script)); !slices.Equal(got, tt.script) {
				t.Errorf("decodeOps(encodeOps(%v)) = %v", tt.script, got)
			}
		})
	}
}

// TestWriteCorpus writes the table tests as fuzz seeds under
// testdata/fuzz/FuzzDecoder when PULSE_WRITE_CORPUS=1.
func TestWriteCorpus(t *testing.T) {
	if os.Getenv("PULSE_WRITE_CORPUS") != "1" {
		t.Skip("set PULSE_WRITE_CORPUS=1 to rewrite the seed corpus")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzDecoder")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range decoderCases() {
		name := strings.NewReplacer(" ", "-", ",", "").Replace(tt.name)
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", encodeOps(tt.script))
		if err := os.WriteFile(filepath.Join(dir, "table-"+name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func FuzzDecoder(f *testing.F) {
	// testdata/fuzz/FuzzDecoder holds the table tests as seeds too.
	for _, tt := range decoderCases() {
		f.Add(encodeOps(tt.script))
	}
	cfg := testConfig()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 { // the oracle is quadratic; long inputs add nothing
			data = data[:4096]
		}
		script := decodeOps(data)
		evs := run(t, cfg, script)
		var got []int
		for _, e := range evs {
			switch e.Kind {
			case Credit:
				if e.Err != nil || e.Value != cfg.ValuePerPulse*moneyOf(e.Pulses) {
					t.Fatalf("credit %+v: value is not pulses × value per pulse", e)
				}
				got = append(got, e.Pulses)
			case Error:
				if e.Err == nil || e.Value != 0 {
					t.Fatalf("error event %+v: want an error and no value", e)
				}
			}
		}
		if want := oracle(cfg, script); !slices.Equal(got, want) {
			t.Fatalf("credited pulse counts %v, want %v (script %v)", got, want, script)
		}
		if i := silentTrain(cfg, script, runOps(t, cfg, script)); i >= 0 {
			t.Fatalf("the train begun at op %d (%v) ended without an event (script %v)", i, script[i], script)
		}
	})
}

func moneyOf(n int) money.Cents { return money.Cents(n) }

func (o op) String() string { return string(o.kind) + "+" + o.dt.String() }
