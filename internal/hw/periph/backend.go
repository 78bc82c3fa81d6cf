package periph

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"

	"cabinet/internal/hw"
	"cabinet/internal/hw/pulse"
	"cabinet/internal/money"
)

// Timings of the backend's goroutines.
const (
	// TickInterval is how often debounce and the pulse decoder are ticked.
	TickInterval = 5 * time.Millisecond
	// pollInterval bounds a watcher's WaitForEdge: it then re-reads the
	// level (a missed edge is caught) and checks for Close.
	pollInterval = 100 * time.Millisecond
	// maxQueuedPresses bounds queued button presses when nobody reads
	// Inputs; switch changes and bill events are never dropped.
	maxQueuedPresses = 64
)

// Backend is the periph hardware backend. Inputs are debounced on the
// backend's clock; bills are decoded from the pulse input. Safe for
// concurrent use.
type Backend struct {
	cfg   Config
	clock Clock

	// Pins, fixed after New.
	buttons  [hw.NumButtons]gpio.PinIO
	lamps    [hw.NumButtons]gpio.PinIO
	switches [hw.NumSwitches]gpio.PinIO
	tower    [2]gpio.PinIO // attendant, tilt
	pulsePin gpio.PinIO    // nil without an acceptor
	inhibit  gpio.PinIO    // nil without an acceptor
	largest  money.Cents   // largest bill of the acceptor

	ch        chan hw.Input
	raw       chan sample
	done      chan struct{}
	processed chan<- struct{} // tests: one value after each sample or tick handled
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	// Loop state: touched only by the loop goroutine.
	deb     [numInputs]debouncer
	decoder *pulse.Decoder
	// The pulse line's raw state, for jam detection (Acceptor.JamAfter).
	pulseOn    bool
	pulseSince time.Time
	jammed     bool
	queue      []hw.Input
	// latest is the latest time the loop has handled (a sample or a tick).
	latest time.Time

	mu      sync.Mutex // guards the outputs
	closed  bool
	lit     hw.ButtonSet
	litSet  bool
	towerIs hw.Tower
	accept  money.Cents
}

var _ hw.Backend = (*Backend)(nil)

// Input indices: the buttons, then the switches, then the pulse input.
const (
	firstSwitch = int(hw.NumButtons)
	pulseInput  = firstSwitch + int(hw.NumSwitches)
	numInputs   = pulseInput + 1
)

// sample is one level read from an input pin.
type sample struct {
	input  int
	active bool
	at     time.Time
}

// New builds the backend on the pins that lookup returns for the names in
// cfg (Open passes gpioreg.ByName; tests pass hwtest.Board.ByName). It
// configures every input with its pull and both-edge detection, drives the
// outputs to their safe state (lamps and tower off, acceptor inhibited),
// reports every switch that is already on, and starts one watcher
// goroutine per input and the event loop. A nil clock is the system clock.
func New(cfg Config, lookup func(name string) gpio.PinIO, clock Clock) (*Backend, error) {
	return newBackend(cfg, lookup, clock, nil)
}

// NewStepped is New for tests that step the backend on a fake clock
// (hwtest.Rig): after the loop has handled each input sample and each tick,
// and has moved the resulting events into the Inputs channel (up to its
// buffer), it sends one value on processed and waits until it is received
// (or the backend is closed). So a test that injects an edge or a tick and
// then receives from processed knows every event it caused is readable.
func NewStepped(cfg Config, lookup func(name string) gpio.PinIO, clock Clock, processed chan<- struct{}) (*Backend, error) {
	if processed == nil {
		return nil, fmt.Errorf("periph: NewStepped: nil processed channel")
	}
	return newBackend(cfg, lookup, clock, processed)
}

func newBackend(cfg Config, lookup func(string) gpio.PinIO, clock Clock, processed chan<- struct{}) (*Backend, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if clock == nil {
		clock = SystemClock{}
	}
	b := &Backend{cfg: cfg, clock: clock, ch: make(chan hw.Input, 64), raw: make(chan sample),
		done: make(chan struct{}), processed: processed}
	get := func(key, name string) (gpio.PinIO, error) {
		p := lookup(name)
		if p == nil {
			return nil, fmt.Errorf("%w %q (%s): not found on this machine (periph registers header pins as \"GPIO5\", expander lines under their device-tree names)", ErrPin, name, key)
		}
		return p, nil
	}
	var err error
	var inputs [numInputs]gpio.PinIO
	var activeLow [numInputs]bool
	for btn := hw.Button(0); btn < hw.NumButtons; btn++ {
		key := "hardware.buttons." + btn.String()
		if b.buttons[btn], err = get(key+".input", cfg.Buttons[btn.String()].Input); err != nil {
			return nil, err
		}
		if b.lamps[btn], err = get(key+".lamp", cfg.Buttons[btn.String()].Lamp); err != nil {
			return nil, err
		}
		inputs[btn], activeLow[btn] = b.buttons[btn], cfg.ButtonActive == Low
	}
	var pullOf [numInputs]string // a switch's configured pull ("" = against its active level)
	for s := hw.Switch(0); s < hw.NumSwitches; s++ {
		sp := cfg.Switches[s.String()]
		pullOf[firstSwitch+int(s)] = sp.Pull
		if b.switches[s], err = get("hardware.switches."+s.String()+".input", sp.Input); err != nil {
			return nil, err
		}
		inputs[firstSwitch+int(s)], activeLow[firstSwitch+int(s)] = b.switches[s], sp.Active == Low
	}
	if b.tower[0], err = get("hardware.tower.attendant", cfg.Tower.Attendant); err != nil {
		return nil, err
	}
	if b.tower[1], err = get("hardware.tower.tilt", cfg.Tower.Tilt); err != nil {
		return nil, err
	}
	if cfg.Acceptor.Mode == AcceptorPulse {
		if b.pulsePin, err = get("hardware.acceptor.pulse", cfg.Acceptor.Pulse); err != nil {
			return nil, err
		}
		if b.inhibit, err = get("hardware.acceptor.inhibit", cfg.Acceptor.Inhibit); err != nil {
			return nil, err
		}
		inputs[pulseInput], activeLow[pulseInput] = b.pulsePin, cfg.Acceptor.PulseActive == Low
		pc, err := cfg.Acceptor.Pulses()
		if err != nil {
			return nil, err
		}
		b.largest = pc.Largest()
	}

	// Outputs first, to their safe state.
	if err := b.drive(); err != nil {
		return nil, err
	}
	// Inputs: pull against the active level (or as a switch's Pull says), both edges.
	keys := inputKeys()
	for i, p := range inputs {
		if p == nil {
			continue
		}
		pull := gpio.PullDown
		if activeLow[i] {
			pull = gpio.PullUp
		}
		switch pullOf[i] {
		case PullUp:
			pull = gpio.PullUp
		case PullDown:
			pull = gpio.PullDown
		}
		if err := p.In(pull, gpio.BothEdges); err != nil {
			return nil, fmt.Errorf("%w %q (%s): In(%s, BothEdges): %w", ErrPin, p.Name(), keys[i], pull, err)
		}
	}
	start := clock.Now()
	var initial [numInputs]bool
	for i, p := range inputs {
		if p != nil {
			initial[i] = (p.Read() == gpio.Low) == activeLow[i]
			b.deb[i] = debouncer{stable: initial[i], candidate: initial[i], since: start}
		}
	}
	for s := hw.Switch(0); s < hw.NumSwitches; s++ {
		if initial[firstSwitch+int(s)] {
			b.queue = append(b.queue, hw.Input{Kind: hw.SwitchChanged, Switch: s, On: true, At: start})
		}
	}
	if b.pulsePin != nil {
		pc, _ := cfg.Acceptor.Pulses() // validated above
		if b.decoder, err = pulse.New(pc, start); err != nil {
			return nil, fmt.Errorf("periph: pulse decoder: %w", err)
		}
		if initial[pulseInput] { // a train already running: refused by name (pulse.ErrNotQuiet)
			b.bill(b.decoder.Edge(true, start))
			b.pulseOn, b.pulseSince = true, start
		}
	}

	b.flush() // switches already on are readable as soon as New returns
	ticker := clock.NewTicker(TickInterval)
	b.wg.Add(1)
	go b.loop(ticker)
	for i, p := range inputs {
		if p != nil {
			b.wg.Add(1)
			go b.watch(i, p, activeLow[i], initial[i])
		}
	}
	return b, nil
}

func inputKeys() [numInputs]string {
	var k [numInputs]string
	for btn := hw.Button(0); btn < hw.NumButtons; btn++ {
		k[btn] = "hardware.buttons." + btn.String() + ".input"
	}
	for s := hw.Switch(0); s < hw.NumSwitches; s++ {
		k[firstSwitch+int(s)] = "hardware.switches." + s.String() + ".input"
	}
	k[pulseInput] = "hardware.acceptor.pulse"
	return k
}

// watch samples one input: after each edge (and at each poll timeout, so a
// missed edge is caught) it reads the level and sends it, stamped, to the
// loop when it differs from the last level sent. An edge that reads the
// last level sent means the line changed and changed back unseen; it is
// sent too, and the pulse decoder refuses the train (a missed edge) —
// except the late event of a change a poll found: on a real kernel the
// level changes before gpiolib's edge thread delivers the event, so a poll
// timing out in between reads the change first, and its event follows
// within moments of the last change sent.
func (b *Backend) watch(i int, p gpio.PinIO, activeLow, last bool) {
	defer b.wg.Done()
	owed := false      // a change found by a poll whose edge event has not come yet
	var sent time.Time // when the last change was sent
	for {
		select {
		case <-b.done:
			return
		default:
		}
		edge := p.WaitForEdge(pollInterval)
		at := b.clock.Now()
		active := (p.Read() == gpio.Low) == activeLow
		switch {
		case !edge && active == last:
			continue
		case !edge:
			owed = true
		case active == last && owed && at.Sub(sent) <= pollInterval:
			owed = false // the polled change's own event
			continue
		case active == last:
			owed = false
		}
		sent = at
		last = active
		select {
		case b.raw <- sample{input: i, active: active, at: at}:
		case <-b.done:
			return
		}
	}
}

// loop owns the debouncers, the decoder and the output queue.
func (b *Backend) loop(ticker Ticker) {
	defer b.wg.Done()
	defer ticker.Stop()
	defer close(b.ch)
	for {
		var out chan hw.Input
		var next hw.Input
		if len(b.queue) > 0 {
			out, next = b.ch, b.queue[0]
		}
		select {
		case s := <-b.raw:
			b.handleSample(s)
			b.flush()
			b.signal()
		case now := <-ticker.C():
			b.handleTick(now)
			b.flush()
			b.signal()
		case out <- next:
			b.queue = b.queue[1:]
		case <-b.done:
			return
		}
	}
}

// flush moves queued events into the Inputs channel while it has room, so
// an event is readable as soon as the sample or tick that caused it has
// been handled.
func (b *Backend) flush() {
	for len(b.queue) > 0 {
		select {
		case b.ch <- b.queue[0]:
			b.queue = b.queue[1:]
		default:
			return
		}
	}
}

func (b *Backend) signal() {
	if b.processed != nil {
		select {
		case b.processed <- struct{}{}:
		case <-b.done:
		}
	}
}

// handleSample handles one sample. A watcher stamps a sample when it reads
// the level and hands it over afterwards, so a tick stamped later may have
// been handled in between (a busy machine): the sample then counts as seen
// at that tick, never before it — the decoder and the debouncers only see
// time move forward (an edge shifts by that delay, well under a
// millisecond on a Pi; the pulse windows are tens of ms).
func (b *Backend) handleSample(s sample) {
	if s.at.Before(b.latest) {
		s.at = b.latest
	}
	b.latest = s.at
	if s.input == pulseInput {
		if s.active != b.pulseOn {
			b.pulseOn, b.pulseSince = s.active, s.at
		}
		b.bill(b.decoder.Edge(s.active, s.at))
		if !s.active && b.jammed {
			b.jammed = false
			b.queue = append(b.queue, hw.Input{Kind: hw.BillJam, On: false, At: s.at})
		}
		return
	}
	if changed, level := b.deb[s.input].sample(s.active, s.at, b.cfg.Debounce.Std()); changed {
		b.emit(s.input, level, s.at)
	}
}

func (b *Backend) handleTick(now time.Time) {
	if now.After(b.latest) {
		b.latest = now
	}
	for i := range pulseInput {
		if changed, level := b.deb[i].tick(now, b.cfg.Debounce.Std()); changed {
			b.emit(i, level, now)
		}
	}
	if b.decoder != nil {
		b.bill(b.decoder.Tick(now))
		if jam := b.cfg.Acceptor.JamAfter.Std(); jam > 0 && b.pulseOn && !b.jammed && now.Sub(b.pulseSince) >= jam {
			b.jammed = true
			b.queue = append(b.queue, hw.Input{Kind: hw.BillJam, On: true, At: now,
				Err: fmt.Sprintf("pulse line held active for %s", now.Sub(b.pulseSince))})
		}
	}
}

// emit queues the input event of a debounced change: a press when a button
// becomes active (its release is silent: a held button fires once), a
// switch change either way.
func (b *Backend) emit(i int, active bool, at time.Time) {
	if i < firstSwitch {
		if !active {
			return
		}
		presses := 0
		for _, q := range b.queue {
			if q.Kind == hw.ButtonPressed {
				presses++
			}
		}
		if presses >= maxQueuedPresses {
			return // nobody is reading: drop, as a real panel misses a press
		}
		b.queue = append(b.queue, hw.Input{Kind: hw.ButtonPressed, Button: hw.Button(i), At: at})
		return
	}
	b.queue = append(b.queue, hw.Input{Kind: hw.SwitchChanged, Switch: hw.Switch(i - firstSwitch), On: active, At: at})
}

// bill queues a decoder event. A valid train is a bill in the stacker: it
// is reported as BillStacked even if acceptance was withdrawn meanwhile
// (the controller credits it and logs it).
func (b *Backend) bill(ev pulse.Event) {
	switch ev.Kind {
	case pulse.Credit:
		b.queue = append(b.queue, hw.Input{Kind: hw.BillStacked, Value: ev.Value, At: ev.At})
	case pulse.Error:
		b.queue = append(b.queue, hw.Input{Kind: hw.BillError, Err: ev.Err.Error(), At: ev.At})
	}
}

// output runs set under the outputs' lock, refusing after Close.
func (b *Backend) output(set func() error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	return set()
}

// Inputs implements hw.Inputs. The channel is closed by Close.
func (b *Backend) Inputs() <-chan hw.Input { return b.ch }

// SetLamps implements hw.Outputs: it lights exactly the buttons in lit.
func (b *Backend) SetLamps(lit hw.ButtonSet) error {
	return b.output(func() error { return b.setLamps(lit) })
}

func (b *Backend) setLamps(lit hw.ButtonSet) error {
	var errs []error
	for btn := hw.Button(0); btn < hw.NumButtons; btn++ {
		if b.litSet && b.lit.Has(btn) == lit.Has(btn) {
			continue
		}
		if err := b.lamps[btn].Out(b.lampLevel(lit.Has(btn))); err != nil {
			errs = append(errs, fmt.Errorf("periph: lamp %s on %s: %w", btn, b.lamps[btn].Name(), err))
		}
	}
	if len(errs) > 0 {
		b.litSet = false // rewrite every lamp next time
		return errors.Join(errs...)
	}
	b.lit, b.litSet = lit, true
	return nil
}

func (b *Backend) lampLevel(on bool) gpio.Level {
	return gpio.Level(on == (b.cfg.LampActive == High))
}

// SetTower implements hw.Outputs.
func (b *Backend) SetTower(t hw.Tower) error {
	return b.output(func() error { return b.setTower(t) })
}

func (b *Backend) setTower(t hw.Tower) error {
	var errs []error
	for i, on := range []bool{t == hw.TowerAttendant, t == hw.TowerTilt} {
		if err := b.tower[i].Out(b.lampLevel(on)); err != nil {
			errs = append(errs, fmt.Errorf("periph: tower light on %s: %w", b.tower[i].Name(), err))
		}
	}
	b.towerIs = t
	return errors.Join(errs...)
}

// SetAcceptance implements hw.Outputs. A pulse acceptor cannot refuse one
// denomination, so it is enabled only when max covers its largest bill;
// any smaller max (the credit limit is near, or 0) inhibits it.
func (b *Backend) SetAcceptance(max money.Cents) error {
	return b.output(func() error { return b.setAcceptance(max) })
}

func (b *Backend) setAcceptance(max money.Cents) error {
	b.accept = max
	if b.inhibit == nil {
		return nil
	}
	inhibitLevel := gpio.Level(b.cfg.Acceptor.InhibitActive == High)
	level := inhibitLevel
	if max > 0 && max >= b.largest {
		level = !inhibitLevel
	}
	if err := b.inhibit.Out(level); err != nil {
		return fmt.Errorf("periph: acceptor inhibit on %s: %w", b.inhibit.Name(), err)
	}
	return nil
}

// Accepting reports whether the acceptor is enabled now.
func (b *Backend) Accepting() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.inhibit != nil && !b.closed && b.accept > 0 && b.accept >= b.largest
}

// drive sets every output to its safe state.
func (b *Backend) drive() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.litSet = false
	return errors.Join(b.setLamps(0), b.setTower(hw.TowerOff), b.setAcceptance(0))
}

// Close inhibits the acceptor, turns the lamps and the tower off, stops the
// goroutines and closes the Inputs channel. A train being decoded is lost
// (the acceptor is inhibited first). Close is idempotent.
func (b *Backend) Close() error {
	b.closeOnce.Do(func() {
		err := b.drive()
		b.mu.Lock()
		b.closed = true
		b.mu.Unlock()
		close(b.done)
		b.wg.Wait()
		if err != nil {
			b.closeErr = fmt.Errorf("periph: close: %w", err)
		}
	})
	return b.closeErr
}
