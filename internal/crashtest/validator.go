package crashtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"cabinet/internal/hw/id003"
	"cabinet/internal/hw/id003/id003emu"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// ValidatorNotes is the note table of the shipped configuration
// ([hardware.acceptor] notes): the harness inserts these escrow codes and
// counts what the emulator stacked with these values.
var ValidatorNotes = map[byte]money.Cents{0x62: 500, 0x63: 1000, 0x64: 2000, 0x65: 5000, 0x66: 10000}

// ValidatorConfig is the note validator's kill run: `<bin> sim --acceptor
// PTY` plays with the emulated ID-003 validator (id003emu) on a pty in this
// process, which inserts notes whenever it idles; the sim is SIGKILLed
// Kills times at seeded random moments and the validator's power is cut
// Cuts times at others, then the sim finishes its rounds and lets the
// validator settle. The money rule is checked after every kill (the bills
// credited are the notes stacked, plus at most the one note whose credit
// is committed and whose vend valid is not yet acknowledged) and at the
// end exactly: the bill meters count exactly the notes the emulator
// stacked, note for note.
type ValidatorConfig struct {
	Bin    string // cabinet binary
	Config string // --config of the sim ("" = its default, the shipped file)
	Game   string // --game (default classic)
	Rounds int64  // rounds the sim plays
	Seed   uint64 // sim seed; also seeds the kills, cuts and notes
	Kills  int
	Cuts   int           // validator power cuts
	Pace   time.Duration // --pace of the sim (so a run outlives several notes)
	// Life bounds a child's life before its kill (uniform in 0..Life;
	// default 3 s).
	Life time.Duration
	Dir  string
	Env  []string
	Out  io.Writer
}

// ValidatorSummary is what the run measured.
type ValidatorSummary struct {
	Kills, Cuts, Inserted int
	Stacked, Returned     int         // notes the emulator stacked, gave back
	StackedValue          money.Cents // the value of the notes stacked
	BillsIn               money.Cents // the store's bills-in meter
	BillCount             int64       // the store's bill meters, summed
	Rounds                int64
	MaxGap                money.Cents // the largest credited-but-not-stacked seen after a kill
	Elapsed               time.Duration
}

func (s ValidatorSummary) String() string {
	return fmt.Sprintf("validator kill run: %d kills, %d validator power cuts, %d notes inserted, %d stacked (%s), %d given back; store: %d bills, %s credited from bills; %d rounds; largest credited-not-yet-stacked after a kill %s; %s",
		s.Kills, s.Cuts, s.Inserted, s.Stacked, s.StackedValue, s.Returned, s.BillCount, s.BillsIn, s.Rounds, s.MaxGap, s.Elapsed.Round(time.Millisecond))
}

// ErrNotes is returned when the bills credited differ from the notes the
// validator stacked.
var ErrNotes = errors.New("crashtest: bills credited differ from the notes stacked")

// Validator runs the note validator's kill run.
func Validator(ctx context.Context, c ValidatorConfig) (ValidatorSummary, error) {
	var sum ValidatorSummary
	start := time.Now()
	if c.Out == nil {
		c.Out = io.Discard
	}
	if c.Game == "" {
		c.Game = "classic"
	}
	if c.Life <= 0 {
		c.Life = 3 * time.Second
	}
	emu, err := id003emu.Open()
	if err != nil {
		return sum, fmt.Errorf("crashtest: validator emulator: %w", err)
	}
	defer emu.Close()
	store := filepath.Join(c.Dir, "validator.db")
	if err := removeStore(store); err != nil {
		return sum, err
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x6e6f746573))
	codes := slices.Sorted(func(yield func(byte) bool) {
		for k := range ValidatorNotes {
			if !yield(k) {
				return
			}
		}
	})

	// The player: a note whenever the validator idles, after a pause; the
	// power cuts at random moments in between.
	var mu sync.Mutex // the feeder's counts, read once it has stopped
	inserting, cutsLeft, cuts, inserted := true, c.Cuts, 0, 0
	feed := func(ctx context.Context, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 1))
		for ctx.Err() == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(r.IntN(60)) * time.Millisecond):
			}
			mu.Lock()
			on := inserting
			if on && cutsLeft > 0 && r.IntN(40) == 0 {
				cutsLeft--
				cuts++
				emu.PowerCycle()
			}
			mu.Unlock()
			if on && emu.Snapshot().Status == id003.StIdling {
				if emu.Insert(codes[r.IntN(len(codes))]) == nil {
					mu.Lock()
					inserted++
					mu.Unlock()
				}
			}
		}
	}
	fctx, stopFeed := context.WithCancel(ctx)
	defer stopFeed()
	feedDone := make(chan struct{})
	feedSeed := rng.Uint64()
	go func() { defer close(feedDone); feed(fctx, feedSeed) }()

	sim := func(settle bool) (*exec.Cmd, *tail) {
		args := []string{"sim", "--game", c.Game, "--rounds", strconv.FormatInt(c.Rounds, 10), "--seed", strconv.FormatUint(c.Seed, 10),
			"--store", store, "--acceptor", emu.Path, "--quiet", "--pace", c.Pace.String()}
		if !settle {
			args = append(args, "--settle", "0s")
		}
		if c.Config != "" {
			args = append(args, "--config", c.Config)
		}
		cmd := exec.CommandContext(ctx, c.Bin, args...)
		cmd.Env = append(os.Environ(), c.Env...)
		t := &tail{}
		cmd.Stdout, cmd.Stderr = t, t
		return cmd, t
	}
	// check reads the store after a kill: checked whole, and the money
	// rule: stacked ≤ credited ≤ stacked + one note.
	check := func(final bool) error {
		st, err := Load(store)
		if err != nil {
			if !final && (errors.Is(err, os.ErrNotExist) || errors.Is(err, recovery.ErrNotInitialised)) {
				return nil
			}
			return fmt.Errorf("crashtest: validator run store: %w", err)
		}
		s := emu.Snapshot()
		var stacked money.Cents
		for _, code := range s.Stacked {
			stacked += ValidatorNotes[code]
		}
		in := st.Machine.Meters.BillsIn
		sum.Stacked, sum.Returned, sum.StackedValue, sum.BillsIn, sum.Rounds = len(s.Stacked), len(s.Returned), stacked, in, st.Completed()
		sum.BillCount = 0
		for _, n := range st.Machine.Meters.Bills {
			sum.BillCount += n
		}
		gap := in - stacked
		sum.MaxGap = max(sum.MaxGap, gap)
		switch {
		case final && gap != 0:
			return fmt.Errorf("%w: %s credited from bills, %s stacked (%x)", ErrNotes, in, stacked, s.Stacked)
		case gap < 0 || gap > 10000:
			return fmt.Errorf("%w: %s credited from bills, %s stacked (%x): more than one note apart", ErrNotes, in, stacked, s.Stacked)
		}
		if final {
			// Note for note: the bill meters by value against the
			// emulator's stacker.
			want := map[string]int64{}
			for _, code := range s.Stacked {
				want[strconv.FormatInt(int64(ValidatorNotes[code]), 10)]++
			}
			for k, n := range st.Machine.Meters.Bills {
				if want[k] != n {
					return fmt.Errorf("%w: %d bills of %s cents credited, %d stacked", ErrNotes, n, k, want[k])
				}
				delete(want, k)
			}
			for k, n := range want {
				return fmt.Errorf("%w: %d notes of %s cents stacked, none credited", ErrNotes, n, k)
			}
		}
		return nil
	}

	finished := false
	for sum.Kills < c.Kills && !finished {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		delay := time.Duration(rng.Int64N(int64(c.Life))) + time.Millisecond
		cmd, out := sim(false)
		killed, err := killAfter(cmd, delay, fmt.Sprintf("validator run %d", sum.Kills+1), out)
		if err != nil {
			return sum, err
		}
		if !killed {
			finished = true
			continue
		}
		sum.Kills++
		if err := check(false); err != nil {
			return sum, fmt.Errorf("after kill %d (%s into the run): %w", sum.Kills, delay, err)
		}
		fmt.Fprintf(c.Out, "kill %d/%d after %s: %d rounds, %s credited from %d bills, %d notes stacked, store checked\n",
			sum.Kills, c.Kills, delay.Round(time.Millisecond), sum.Rounds, sum.BillsIn, sum.BillCount, sum.Stacked)
	}
	// The rounds to their end with the notes still coming, then the last
	// note settled with none coming.
	if !finished {
		cmd, out := sim(false)
		if err := cmd.Run(); err != nil {
			return sum, fmt.Errorf("%w: validator run to the end: %w\n%s", ErrChild, err, bytes.TrimSpace(out.b))
		}
	}
	mu.Lock()
	inserting = false
	mu.Unlock()
	stopFeed()
	<-feedDone
	sum.Cuts, sum.Inserted = cuts, inserted
	cmd, out := sim(true)
	if err := cmd.Run(); err != nil {
		return sum, fmt.Errorf("%w: validator settling run: %w\n%s", ErrChild, err, bytes.TrimSpace(out.b))
	}
	if err := check(true); err != nil {
		return sum, err
	}
	sum.Elapsed = time.Since(start)
	fmt.Fprintln(c.Out, sum)
	return sum, nil
}
