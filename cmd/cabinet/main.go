// Command cabinet runs the card-game cabinet and its technician tools.
//
//	cabinet init       create a new cabinet's store and proof (explicit, logged)
//	cabinet run        the cabinet in a window (sim or periph hardware)
//	cabinet sim        headless autoplay on a store, every step committed
//	cabinet audit      meters, recall, events, check — from the store file
//	cabinet verify     check recalled rounds against their committed shoes
//	cabinet crashtest  SIGKILL the simulator at random moments and compare
//	cabinet par        PAR sheets: computed return to player
//	cabinet rng        raw RNG bytes and shuffle tests
//	cabinet duel-eval  measure the Poker Duel opponent
//	cabinet hwtest     hardware self-test
//	cabinet screenshot render a screen to PNG
//	cabinet version    version and program SHA-256
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	duelanalysis "cabinet/internal/analysis/duel"
	"cabinet/internal/analysis/par"
	"cabinet/internal/analysis/rngtest"
	"cabinet/internal/auditcmd"
	"cabinet/internal/crashtest"
)

func main() {
	// raylib must run on the main OS thread: the window loop stays on this
	// goroutine, which is pinned here before anything else runs.
	runtime.LockOSThread()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "cabinet:", err)
		}
		os.Exit(exitCode(err))
	}
}

// exitCode is 2 for usage errors (of every sub-command, including those
// implemented in their packages), 1 otherwise.
func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	for _, e := range []error{auditcmd.ErrUsage, crashtest.ErrUsage, par.ErrUsage, rngtest.ErrUsage, duelanalysis.ErrUsage} {
		if errors.Is(err, e) {
			return 2
		}
	}
	return 1
}

// parseFlags parses a sub-command's flags; a malformed flag is a usage
// error (exit 2), --help is flag.ErrHelp (exit 2, nothing printed twice).
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{fmt.Sprintf("%s: %v", fs.Name(), err)}
	}
	return nil
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

type command struct {
	name, help string
	run        func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"init", "initialise a new cabinet's store and its newest-store proof (logged)", cmdInit},
		{"run", "run the cabinet in a window", cmdRun},
		{"sim", "headless autoplay on a store", cmdSim},
		{"audit", "meters | recall [N] | events | tickets [N] | check  (--json, --csv)", cmdAudit},
		{"verify", "check recalled rounds against their committed shoes  (--store FILE [ROUND])", cmdVerify},
		{"crashtest", "kill the simulator at random moments and compare", cmdCrashtest},
		{"par", "PAR sheets of the rules in force (--game royal|freebet|zappit|classic|all, --config FILE (default configs/cabinet.toml) [--store FILE], --presets, --cap-grid)", cmdPar},
		{"rng", "RNG bytes (--bytes N) and shuffle-test", cmdRNG},
		{"duel-eval", "measure the Poker Duel opponent", cmdDuelEval},
		{"hwtest", "hardware self-test", cmdHwtest},
		{"screenshot", "render a screen to PNG", cmdScreenshot},
		{"version", "print version and program SHA-256", cmdVersion},
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stdout, "usage: cabinet <command> [flags]")
		for _, c := range commands() {
			fmt.Fprintf(stdout, "  %-11s %s\n", c.name, c.help)
		}
		if len(args) == 0 {
			return usageError{"no command given"}
		}
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	return usageError{fmt.Sprintf("unknown command %q (try: cabinet help)", args[0])}
}
