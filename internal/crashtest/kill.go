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

// String is what the child wrote, trimmed (read it once the child ended).
func (t *tail) String() string { return string(bytes.TrimSpace(t.b)) }

// killAfter starts cmd and SIGKILLs it after delay. killed is true when
// the signal ended it, false when it finished by itself, successfully,
// first; any other end is ErrChild naming what, with the child's output.
func killAfter(cmd *exec.Cmd, delay time.Duration, what string, out fmt.Stringer) (killed bool, err error) {
	if err := cmd.Start(); err != nil {
		return false, fmt.Errorf("%w: start %s: %w", ErrChild, cmd.Path, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return false, fmt.Errorf("%w: %s exited by itself: %w\n%s", ErrChild, what, err, out)
		}
		return false, nil
	case <-time.After(delay):
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	err = <-done
	if err == nil {
		return false, nil // finished just before the signal
	}
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		return false, fmt.Errorf("%w: %s: %w\n%s", ErrChild, what, err, out)
	}
	return true, nil
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

// removeStore removes a store and its newest-store proof (the sim keeps it
// as <store>.mirror).
func removeStore(path string) error {
	for _, p := range []string{path, path + ".mirror"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("crashtest: remove %s: %w", p, err)
		}
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
	startup, err := c.startup(ctx, ref, want)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Out, "start-up: the sim's first commit comes %s after its start (a rerun of the finished sim changed nothing)\n", startup.Round(time.Millisecond))
	rng := rand.New(rand.NewPCG(c.Seed, 0x6b696c6c))
	// Spread the kills over the whole run: one child in four is killed
	// during its start-up (boot, recovery, first commit); the others live
	// their start-up plus a random time up to 1.8 times their share of the
	// reference run.
	share := max(9*refTime/time.Duration(5*c.Kills), time.Millisecond)
	// A resumed child boots slower than the measured start-up (it checks
	// the store and replays the open round): when five kills in a row find
	// no new step, later children live a quarter start-up longer, and a
	// little shorter again after each kill that found progress, so the
	// kills keep moving through the run, close to each child's first
	// commit, instead of hitting the same boot again and again.
	var extra, maxExtra time.Duration
	lastStep, stalled := int64(-1), 0
	kills, finishedEarly := 0, false
	for kills < c.Kills && !finishedEarly {
		if err := ctx.Err(); err != nil {
			return err
		}
		var delay time.Duration
		if rng.IntN(4) == 0 {
			delay = time.Duration(rng.Int64N(int64(startup)+1)) + 200*time.Microsecond
		} else {
			delay = startup + extra + time.Duration(rng.Int64N(int64(share)))
		}
		cmd, out := c.simCmd(ctx, path)
		killed, err := killAfter(cmd, delay, fmt.Sprintf("run %d", kills+1), out)
		if err != nil {
			return err
		}
		if !killed {
			finishedEarly = true
			continue
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
		if step := st.Progress(); step == lastStep {
			if stalled++; stalled >= 5 {
				extra, stalled = extra+max(startup/4, time.Millisecond), 0
				maxExtra = max(maxExtra, extra)
			}
		} else {
			lastStep, stalled = step, 0
			extra = max(extra-startup/32, 0) // as early as still moves
		}
		fmt.Fprintf(c.Out, "kill %d/%d after %s: %d/%d rounds, credits %s, open round %v, check OK, rounds match the reference\n",
			kills, c.Kills, delay.Round(time.Microsecond), st.Completed(), c.Rounds, st.Machine.Credits, st.Open != nil)
	}
	if maxExtra > 0 {
		fmt.Fprintf(c.Out, "resumed children booted slower than the first: kills were moved up to %s later to keep the run moving\n", maxExtra.Round(time.Microsecond))
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

// startup measures how long a child takes to boot (its first commit, the
// power-up event) by running the sim again on a copy of the finished
// reference and watching the file. It also checks that rerunning a
// finished sim changes nothing but the power-up count (platform.md §4: a finished sim left no open round).
func (c Config) startup(ctx context.Context, ref string, want *State) (time.Duration, error) {
	path := ref + ".rerun"
	data, err := os.ReadFile(ref)
	if err != nil {
		return 0, fmt.Errorf("crashtest: read %s: %w", ref, err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return 0, fmt.Errorf("crashtest: write %s: %w", path, err)
	}
	proof, err := os.ReadFile(ref + ".mirror")
	if err != nil {
		return 0, fmt.Errorf("crashtest: read the reference's proof: %w", err)
	}
	if err := os.WriteFile(path+".mirror", proof, 0o600); err != nil {
		return 0, fmt.Errorf("crashtest: write %s.mirror: %w", path, err)
	}
	defer removeStore(path)
	info, err := os.Stat(path)
	if err != nil {
		return 0, fmt.Errorf("crashtest: %w", err)
	}
	cmd, out := c.simCmd(ctx, path)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("%w: start %s: %w", ErrChild, c.Bin, err)
	}
	// Start-up ends with the boot's first commit (power-up event): watch
	// the file's modification time.
	d := time.Duration(0)
	for d == 0 && time.Since(start) < 30*time.Second {
		time.Sleep(500 * time.Microsecond)
		if fi, err := os.Stat(path); err == nil && !fi.ModTime().Equal(info.ModTime()) {
			d = time.Since(start)
		}
	}
	if err := cmd.Wait(); err != nil {
		return 0, fmt.Errorf("%w: rerun of a finished sim: %w\n%s", ErrChild, err, bytes.TrimSpace(out.b))
	}
	if d == 0 {
		d = time.Since(start)
	}
	got, err := Load(path)
	if err != nil {
		return 0, fmt.Errorf("crashtest: rerun store: %w", err)
	}
	if diffs := Compare(got, want); len(diffs) > 0 {
		return 0, fmt.Errorf("%w: rerunning a finished sim changed the store: %s", ErrMismatch, diffs[0])
	}
	return d, nil
}
