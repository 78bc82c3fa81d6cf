package crashtest

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Config is one harness run (the command's flags).
type Config struct {
	Bin     string // cabinet binary (default: this executable)
	Config  string // --config passed to the sim ("" = the sim's default)
	Game    string // --game of the sim (default "all")
	Rounds  int64  // rounds of the sim
	Seed    uint64 // sim seed; also seeds kill moments and damage
	Kills   int    // SIGKILLs (0: no power-loss run)
	Corrupt int    // corruption cases (0: none)
	// PowerCut is the number of rounds played under strace for the
	// power-cut harness (0: none); Subsets and Torn bound the crash states
	// per sync (see PowerCutConfig).
	PowerCut      int64
	Subsets, Torn int
	// Flips is the proof-damage case of the power-cut harness: the syncs
	// at which each proof byte is flipped (PowerCutConfig.FlipSyncs).
	Flips int
	// Validator is the note validator's kill run's SIGKILLs (0: none):
	// the sim with --acceptor against the emulated ID-003 validator, its
	// power cut Validator/2 times, bills credited = notes stacked.
	Validator int
	// TITO is the tickets' kill run's SIGKILLs (0: none): the sim with
	// --sas, --acceptor and --printer against the casino, validator and
	// printer emulators, cashing out to tickets and taking them back in.
	TITO int
	Dir  string   // work directory ("" = a temporary one, removed unless Keep)
	Keep bool     // keep the work directory
	Env  []string // extra environment for the child
	Out  io.Writer
}

const usage = `usage: cabinet crashtest [--kills N] [--corrupt N] [--powercut R [--subsets N] [--torn N] [--flips N]] [--validator N] [--tito N] [--seed S] [--rounds R] [--game all] [--bin PATH] [--config FILE] [--dir DIR] [--keep]

  --validator N SIGKILL ` + "`sim --acceptor`" + ` N times (and cut the emulated ID-003 validator's power N/2 times) while
                the emulator inserts notes; after every kill the store is checked, at the end the bills
                credited must be exactly the notes the emulator stacked (--rounds: 8 per kill at least)
  --tito N      SIGKILL ` + "`sim --sas --acceptor --printer --cashout-every 5`" + ` N times (and cut the validator's power
                N/2 times) while a player inserts notes and puts the printed tickets back in (now and then a
                copy of a redeemed one); after every kill and at the end: money conserved, bills = notes
                stacked, tickets credited = tickets stacked, none paid twice, every ticket printed known to the
                casino (--rounds: 8 per kill at least)

  --kills N     SIGKILL the sim child N times at random moments, restart it, compare with an uninterrupted run
  --corrupt N   damage N copies of the finished store and boot each: refused, memory error, or identical
  --powercut R  play R rounds under strace, build every crash state a power cut may leave between two
                syncs (unsynced-write subsets, torn 512-byte sectors) and boot each (needs strace);
                at --flips N of those syncs (-1: all) and after the run, flip each byte of each proof slot
                and boot each: none may hold a commit older than the one shown`

// Run implements `cabinet crashtest`.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("crashtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, usage); fs.PrintDefaults() }
	c := Config{Out: stdout}
	fs.IntVar(&c.Kills, "kills", 0, "number of SIGKILLs")
	fs.IntVar(&c.Corrupt, "corrupt", 0, "number of corruption cases")
	fs.Int64Var(&c.PowerCut, "powercut", 0, "rounds played under strace for the power-cut harness")
	fs.IntVar(&c.Subsets, "subsets", 256, "power cut: subsets of unsynced writes tried per sync (all up to 64)")
	fs.IntVar(&c.Torn, "torn", 0, "power cut: torn variants per write (0: every 512-byte sector)")
	fs.IntVar(&c.Validator, "validator", 0, "SIGKILLs of the note validator's kill run (sim --acceptor against the emulator)")
	fs.IntVar(&c.TITO, "tito", 0, "SIGKILLs of the tickets' kill run (sim --sas --acceptor --printer against the emulators)")
	fs.IntVar(&c.Flips, "flips", 4, "power cut: syncs at which each proof byte is flipped, besides after the run (-1: every sync; 0: no flips)")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the sim, the kill moments and the damage")
	fs.Int64Var(&c.Rounds, "rounds", 300, "rounds the sim plays")
	fs.StringVar(&c.Game, "game", "all", "game of the sim")
	fs.StringVar(&c.Bin, "bin", "", "cabinet binary (default: this program)")
	fs.StringVar(&c.Config, "config", "", "configuration file passed to the sim")
	fs.StringVar(&c.Dir, "dir", "", "work directory (default: temporary)")
	fs.BoolVar(&c.Keep, "keep", false, "keep the work directory")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", ErrUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", ErrUsage, fs.Arg(0))
	}
	if c.Kills < 0 || c.Corrupt < 0 || c.Rounds < 1 || c.PowerCut < 0 || c.Subsets < 0 || c.Torn < 0 || c.Validator < 0 || c.TITO < 0 {
		return fmt.Errorf("%w: --kills, --corrupt, --powercut, --subsets, --torn, --validator, --tito must be >= 0 and --rounds >= 1", ErrUsage)
	}
	if (c.Validator > 0 || c.TITO > 0) && c.Kills == 0 && c.Corrupt == 0 && c.PowerCut == 0 {
		if c.Validator > 0 {
			if err := c.runValidator(ctx); err != nil {
				return err
			}
		}
		if c.TITO > 0 {
			return c.runTITO(ctx)
		}
		return nil
	}
	if c.Flips < -1 {
		return fmt.Errorf("%w: --flips %d: want -1 (every sync), 0 (none) or a number of syncs", ErrUsage, c.Flips)
	}
	if c.Kills == 0 && c.Corrupt == 0 && c.PowerCut == 0 {
		c.Kills = 20
	}
	return c.Run(ctx)
}

// Run runs the configured harnesses: the power-loss run (if Kills > 0) and
// the corruption cases (if Corrupt > 0) on its finished store.
func (c Config) Run(ctx context.Context) error {
	if c.Out == nil {
		c.Out = io.Discard
	}
	if c.Bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("crashtest: find the cabinet binary: %w", err)
		}
		c.Bin = exe
	}
	if c.Game == "" {
		c.Game = "all"
	}
	if c.Dir == "" {
		dir, err := os.MkdirTemp("", "cabinet-crashtest-")
		if err != nil {
			return fmt.Errorf("crashtest: work directory: %w", err)
		}
		c.Dir = dir
		if !c.Keep {
			defer os.RemoveAll(dir)
		}
	} else if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("crashtest: work directory: %w", err)
	}
	start := time.Now()
	ref := filepath.Join(c.Dir, "reference.db")
	fmt.Fprintf(c.Out, "crashtest: seed %d, %d rounds of %s, work directory %s\n", c.Seed, c.Rounds, c.Game, c.Dir)
	refTime, err := c.reference(ctx, ref)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Out, "reference: uninterrupted run took %s\n", refTime.Round(time.Millisecond))
	if c.Kills > 0 {
		if err := c.killRun(ctx, filepath.Join(c.Dir, "killed.db"), ref, refTime); err != nil {
			return err
		}
	}
	if c.Corrupt > 0 {
		s, err := Corrupt(ctx, ref, c.Dir, c.Corrupt, c.Seed, c.Out)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.Out, s)
		if s.Bad() {
			return fmt.Errorf("%w: %s", ErrSilentDamage, s)
		}
	}
	if c.PowerCut > 0 {
		s, err := PowerCut(ctx, PowerCutConfig{Bin: c.Bin, Config: c.Config, Game: c.Game, Rounds: c.PowerCut, Seed: c.Seed,
			Dir: c.Dir, MaxSubsets: c.Subsets, TornPerWrite: c.Torn, FlipSyncs: c.Flips, Out: c.Out})
		if err != nil {
			return err
		}
		fmt.Fprintln(c.Out, s)
		for _, f := range s.Failures {
			fmt.Fprintln(c.Out, "  FAIL", f)
		}
		if s.Failed > 0 || s.Flips.Failed > 0 {
			return fmt.Errorf("%w: %s", ErrMismatch, s)
		}
	}
	if c.Validator > 0 {
		if err := c.runValidator(ctx); err != nil {
			return err
		}
	}
	if c.TITO > 0 {
		if err := c.runTITO(ctx); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.Out, "crashtest: PASS in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// workDir completes c for a device kill run (Out, Bin) and gives its work
// directory: --dir, or a new one removed by done unless --keep.
func (c *Config) workDir() (dir string, done func(), err error) {
	done = func() {}
	if c.Out == nil {
		c.Out = io.Discard
	}
	if c.Bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", done, fmt.Errorf("crashtest: find the cabinet binary: %w", err)
		}
		c.Bin = exe
	}
	if c.Dir != "" {
		if err := os.MkdirAll(c.Dir, 0o755); err != nil {
			return "", done, fmt.Errorf("crashtest: work directory: %w", err)
		}
		return c.Dir, done, nil
	}
	dir, err = os.MkdirTemp("", "cabinet-crashtest-")
	if err != nil {
		return "", done, fmt.Errorf("crashtest: work directory: %w", err)
	}
	if !c.Keep {
		done = func() { os.RemoveAll(dir) }
	}
	return dir, done, nil
}

// runValidator is the note validator's kill run (--validator).
func (c Config) runValidator(ctx context.Context) error {
	dir, done, err := c.workDir()
	if err != nil {
		return err
	}
	defer done()
	game := c.Game
	if game == "" {
		game = "classic"
	}
	rounds := max(c.Rounds, 8*int64(c.Validator))
	fmt.Fprintf(c.Out, "crashtest: note validator kill run: seed %d, %d rounds of %s, %d kills, work directory %s\n", c.Seed, rounds, game, c.Validator, dir)
	_, err = Validator(ctx, ValidatorConfig{Bin: c.Bin, Config: c.Config, Game: game, Rounds: rounds, Seed: c.Seed,
		Kills: c.Validator, Cuts: c.Validator / 2, Pace: 20 * time.Millisecond, Life: 2500 * time.Millisecond, Dir: dir, Env: c.Env, Out: c.Out})
	return err
}

// runTITO is the tickets' kill run (--tito).
func (c Config) runTITO(ctx context.Context) error {
	dir, done, err := c.workDir()
	if err != nil {
		return err
	}
	defer done()
	game := c.Game
	if game == "" || game == "all" {
		game = "classic" // --game's default is all: the tickets' run plays Classic unless told
	}
	rounds := max(c.Rounds, 8*int64(c.TITO))
	fmt.Fprintf(c.Out, "crashtest: TITO kill run: seed %d, %d rounds of %s, %d kills, work directory %s\n", c.Seed, rounds, game, c.TITO, dir)
	_, err = TITO(ctx, TITOConfig{Bin: c.Bin, Config: c.Config, Game: game, Rounds: rounds, Seed: c.Seed, Kills: c.TITO,
		Cuts: c.TITO / 2, Every: 5, Pace: 20 * time.Millisecond, Life: 2500 * time.Millisecond, Dir: dir, Env: c.Env, Out: c.Out})
	return err
}
