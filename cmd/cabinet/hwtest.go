package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"cabinet/internal/config"
	"cabinet/internal/hw"
	"cabinet/internal/hw/periph"
	"cabinet/internal/hw/sim"
	"cabinet/internal/money"
	"cabinet/internal/selftest"
	"cabinet/internal/view"
)

// openPeriph opens the Raspberry Pi hardware named in the configuration's
// [hardware] section (periph.io host drivers, pins by name).
func openPeriph(cfg *config.Config) (hw.Backend, error) {
	b, err := periph.Open(cfg.Hardware, nil)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// acceptAll is the acceptance the self-test gives the acceptor: every bill
// (nothing is credited; no store is open).
const acceptAll = money.Cents(1 << 40)

// cmdHwtest is the technician's hardware self-test: each lamp in turn,
// every input live, bills read and never credited. It opens no store.
func cmdHwtest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("hwtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgF := fs.String("config", defaultConfig, "configuration file")
	backendF := fs.String("backend", "", "hardware backend: sim|periph (default: configuration)")
	text := fs.Bool("text", !guiBuilt, "print to stdout only, no window")
	interval := fs.Duration("lamp-interval", selftest.DefaultLampInterval, "how long each lamp stays lit")
	duration := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	script := fs.String("script", "", "sim: panel actions to play, one per line (press deal, switch main_door on, bill 20.00, jam on, wait 250ms); \"-\" = stdin (default with --text)")
	bills := fs.Bool("bills", true, "enable the bill acceptor to read bills (never credited)")
	fullscreen := fs.Bool("fullscreen", false, "full screen window")
	accF := fs.String("acceptor", "", "the ID-003 note validator's serial port or pty (selects it and overrides [hardware.acceptor] port): its model, version and status shown, notes read in escrow and returned")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("hwtest: unexpected argument %q", fs.Arg(0))}
	}
	if *interval <= 0 {
		return usageError{fmt.Sprintf("hwtest: --lamp-interval %s: want a duration above 0 such as 700ms", *interval)}
	}
	if *duration < 0 {
		return usageError{fmt.Sprintf("hwtest: --duration %s: want 0 (until interrupted) or a positive duration", *duration)}
	}
	set, cfg, err := loadSettings(*cfgF)
	if err != nil {
		return err
	}
	val, err := newValidatorLink(cfg, *accF)
	if err != nil {
		return err
	}
	backend := *backendF
	if backend == "" {
		backend = cfg.Backend()
	}
	if *script != "" && backend != "sim" {
		return usageError{fmt.Sprintf("hwtest: --script drives the sim backend only (backend is %q)", backend)}
	}
	if backend == "periph" { // before opening: useful even when a pin is missing
		for _, w := range acceptorWarnings(cfg) {
			fmt.Fprintln(stdout, "hwtest: note:", w)
		}
	}
	be, simBE, err := openBackend(backend, cfg)
	if err != nil {
		return fmt.Errorf("hwtest: %w", err)
	}
	defer be.Close()

	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	accept := money.Cents(0)
	if *bills {
		accept = acceptAll
	}
	fmt.Fprintf(stdout, "hwtest: backend %s, each lamp for %s; press every button, open every door, turn every key, insert bills (read, never credited; no store is opened)\n", backend, *interval)

	var screen selftest.Screen
	var outMu sync.Mutex
	start := time.Now()
	report := func(l selftest.Line) {
		screen.Add(l)
		outMu.Lock()
		fmt.Fprintf(stdout, "%9.3fs  %s\n", l.At.Sub(start).Seconds(), l)
		outMu.Unlock()
	}

	scriptErr := make(chan error, 1)
	if simBE != nil && (*script != "" || *text) {
		in, closeIn, err := scriptInput(*script)
		if err != nil {
			return err
		}
		defer closeIn()
		go func() {
			err := sim.Script(ctx, simBE, in, nil)
			scriptErr <- err // buffered: readable before the cancel below ends Run
			if err != nil {
				cancel()
			}
		}()
	} else {
		scriptErr <- nil
	}

	opt := selftest.Options{LampInterval: *interval, Accept: accept}
	if *bills {
		stopVal, err := startHwtestValidator(ctx, val, &opt)
		if err != nil {
			return fmt.Errorf("hwtest: %w", err)
		}
		defer stopVal()
	}
	if *text {
		err = selftest.Run(ctx, be, opt, report)
	} else {
		done := make(chan error, 1)
		go func() { done <- selftest.Run(ctx, be, opt, report) }()
		var seq uint64
		snap := func() *view.Snapshot {
			seq++
			return &view.Snapshot{Seq: seq, Mode: view.HwTest, Lang: set.Language, Currency: set.Currency,
				Denom: set.Denom, Lamps: screen.Lamps(), HwTest: screen.View()}
		}
		err = runHwtestWindow(ctx, snap, simBE, *fullscreen)
		cancel()
		if rerr := <-done; err == nil {
			err = rerr
		}
	}
	select {
	case serr := <-scriptErr:
		if err == nil && serr != nil {
			err = fmt.Errorf("hwtest: %w", serr)
		}
	default: // still reading (stdin): it ends with ctx or at EOF
	}
	fmt.Fprintf(stdout, "hwtest: done after %.1fs\n", time.Since(start).Seconds())
	return err
}

// scriptInput opens the sim script: a file, or stdin for "-" or "".
func scriptInput(path string) (io.Reader, func(), error) {
	if path == "" || path == "-" {
		return os.Stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("hwtest: --script: %w", err)
	}
	return f, func() { f.Close() }, nil
}

// acceptorWarnings explains when the pulse acceptor can never be enabled in
// play: it is inhibited while the cabinet may not take its largest bill,
// so a largest bill the operator has not enabled keeps it inhibited.
func acceptorWarnings(cfg *config.Config) []string {
	a := cfg.Hardware.Acceptor
	if a.Mode != periph.AcceptorPulse || len(a.Bills) == 0 {
		return nil
	}
	largest := slices.Max(a.Bills).Cents()
	if slices.Contains(cfg.Cabinet.Bills, largest) {
		return nil
	}
	return []string{fmt.Sprintf("the acceptor is programmed for bills up to %s (hardware.acceptor.bills) but cabinet.bills does not enable %s: in play the acceptor stays inhibited; enable %s or program the acceptor without it", largest, largest, largest)}
}

// openBackend opens the hardware backend named "sim" or "periph"; simBE is
// the sim backend (nil for periph), for the window's keyboard and scripts.
func openBackend(name string, cfg *config.Config) (be hw.Backend, simBE *sim.Backend, err error) {
	switch name {
	case "sim":
		simBE = sim.New()
		return simBE, simBE, nil
	case "periph":
		be, err = openPeriph(cfg)
		return be, nil, err
	}
	return nil, nil, usageError{fmt.Sprintf("unknown backend %q (want sim or periph)", name)}
}
