package crashtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"cabinet/internal/recovery"
)

// tail keeps the last bytes written to it (a child's stderr for reports).
type tail struct{ b []byte }

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (c Config) simCmd(ctx context.Context, store string) (*exec.Cmd, *tail) {
	args := []string{"sim", "--game", c.Game, "--rounds", strconv.FormatInt(c.Rounds, 10),
		"--seed", strconv.FormatUint(c.Seed, 10), "--store", store}
	if c.Config != "" {
		args = append(args, "--config", c.Config)
	}
	cmd := exec.CommandContext(ctx, c.Bin, args...)
	cmd.Env = append(os.Environ(), c.Env...)
	t := &tail{}
	cmd.Stdout, cmd.Stderr = t, t
	return cmd, t
}

// reference runs the sim uninterrupted on a fresh file.
func (c Config) reference(ctx context.Context, path string) (time.Duration, error) {
	if err := removeStore(path); err != nil {
		return 0, err
	}
	cmd, out := c.simCmd(ctx, path)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%w: reference run %s: %w\n%s", ErrChild, cmd, err, bytes.TrimSpace(out.b))
	}
	return time.Since(start), nil
}

func removeStore(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("crashtest: remove %s: %w", path, err)
	}
	return nil
}

// killRun starts the sim on path, SIGKILLs it Kills times at seeded random
// moments (checking the file after each kill), lets it finish, and compares
// the result with the reference store.
func (c Config) killRun(ctx context.Context, path, ref string, refTime time.Duration) error {
	if err := removeStore(path); err != nil {
		return err
	}
	want, err := Load(ref)
	if err != nil {
		return fmt.Errorf("crashtest: reference store: %w", err)
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x6b696c6c))
	// Spread the kills over about the whole run: each child lives a random
	// time up to twice its share of the reference duration, plus start-up.
	window := 2*refTime/time.Duration(c.Kills) + 40*time.Millisecond
	kills, finishedEarly := 0, false
	for kills < c.Kills && !finishedEarly {
		if err := ctx.Err(); err != nil {
			return err
		}
		delay := time.Duration(rng.Int64N(int64(window))) + 500*time.Microsecond
		cmd, out := c.simCmd(ctx, path)
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("%w: start %s: %w", ErrChild, c.Bin, err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				return fmt.Errorf("%w: run %d exited by itself: %w\n%s", ErrChild, kills+1, err, bytes.TrimSpace(out.b))
			}
			finishedEarly = true
			continue
		case <-time.After(delay):
		}
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err := <-done
		var ee *exec.ExitError
		if err == nil {
			finishedEarly = true // finished just before the signal
			continue
		}
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			return fmt.Errorf("%w: run %d: %w\n%s", ErrChild, kills+1, err, bytes.TrimSpace(out.b))
		}
		kills++
		st, err := Load(path)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, recovery.ErrNotInitialised) {
				fmt.Fprintf(c.Out, "kill %d/%d after %s: store not created yet\n", kills, c.Kills, delay.Round(time.Microsecond))
				continue
			}
			return fmt.Errorf("crashtest: after kill %d (%s into the run), %s: %w", kills, delay, path, err)
		}
		if d := Prefix(st, want); len(d) > 0 {
			return fmt.Errorf("%w: after kill %d: %s", ErrMismatch, kills, d[0])
		}
		fmt.Fprintf(c.Out, "kill %d/%d after %s: %d/%d rounds, credits %s, open round %v, check OK, rounds match the reference\n",
			kills, c.Kills, delay.Round(time.Microsecond), st.Completed(), c.Rounds, st.Machine.Credits, st.Open != nil)
	}
	if finishedEarly {
		fmt.Fprintf(c.Out, "the sim finished after %d of %d kills (use more --rounds for more kills)\n", kills, c.Kills)
	}
	cmd, out := c.simCmd(ctx, path)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w: final run: %w\n%s", ErrChild, err, bytes.TrimSpace(out.b))
	}
	got, err := Load(path)
	if err != nil {
		return fmt.Errorf("crashtest: killed store at the end: %w", err)
	}
	diffs := Compare(got, want)
	fmt.Fprintf(c.Out, "power loss: %d kills, %d power-ups, %d recoveries; %d rounds, credits %s (reference %s); %d meters, %d recalled rounds compared\n",
		kills, got.Machine.Meters.PowerUps, got.Machine.Meters.Recoveries, got.Completed(), got.Machine.Credits,
		want.Machine.Credits, len(want.Machine.Meters.Lines()), len(want.Recall))
	if len(diffs) > 0 {
		for _, d := range diffs {
			fmt.Fprintln(c.Out, "  DIFF", d)
		}
		return fmt.Errorf("%w: %d difference(s), first: %s", ErrMismatch, len(diffs), diffs[0])
	}
	fmt.Fprintln(c.Out, "power loss: killed run identical to the uninterrupted run")
	return nil
}
