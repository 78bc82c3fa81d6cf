package crashtest

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var (
	kills          = flag.Int("kills", 24, "SIGKILLs of TestPowerLoss (the long version: -kills 1000 -rounds 2000)")
	rounds         = flag.Int64("rounds", 60, "sim rounds of TestPowerLoss")
	seed           = flag.Uint64("seed", 11, "seed of TestPowerLoss")
	corruptOnSim   = flag.Int("corrupt-sim", 40, "corruption cases on the sim store of TestPowerLoss")
	powerCutRounds = flag.Int64("powercut-rounds", 8, "rounds traced by TestPowerCut (the long version: -powercut-rounds 200)")
)

// cabinetBinary builds cmd/cabinet into the test's directory, or skips the
// test when the command (or its sim subcommand) is not available yet.
func cabinetBinary(t *testing.T) (bin, root string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Skipf("crashtest: go env GOMOD: %v", err)
	}
	root = filepath.Dir(strings.TrimSpace(string(out)))
	if _, err := os.Stat(filepath.Join(root, "cmd", "cabinet")); err != nil {
		t.Skipf("crashtest needs cmd/cabinet with a sim command: %v", err)
	}
	bin = filepath.Join(t.TempDir(), "cabinet")
	// The sim is headless: try the build without the display first.
	var buildErr []byte
	for _, tags := range [][]string{{"-tags", "nogui"}, nil} {
		args := append(append([]string{"build"}, tags...), "-o", bin, "./cmd/cabinet")
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		if buildErr, err = cmd.CombinedOutput(); err == nil {
			break
		}
	}
	if err != nil {
		t.Skipf("crashtest needs cmd/cabinet to build (go build ./cmd/cabinet: %v)\n%s", err, buildErr)
	}
	probe := exec.Command(bin, "sim", "--rounds", "1", "--seed", "1", "--store", filepath.Join(t.TempDir(), "probe.db"))
	probe.Dir = root
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("crashtest needs `cabinet sim` (the integrator enables it): %v\n%s", err, out)
	}
	return bin, root
}

// TestPowerLoss is the short power-loss harness of the default suite: dozens
// of SIGKILLs of a real `cabinet sim` on a real file, every kill checked,
// the end compared with an uninterrupted run.
func TestPowerLoss(t *testing.T) {
	bin, root := cabinetBinary(t)
	if err := os.Chdir(root); err != nil { // the sim finds configs/cabinet.toml from the module root
		t.Fatal(err)
	}
	var out bytes.Buffer
	c := Config{Bin: bin, Rounds: *rounds, Seed: *seed, Kills: *kills, Corrupt: *corruptOnSim, Dir: t.TempDir(), Out: &out}
	err := c.Run(context.Background())
	t.Logf("seed %d:\n%s", *seed, out.String())
	if err != nil {
		t.Fatalf("crashtest (seed %d, %d kills, %d rounds) = %v", *seed, *kills, *rounds, err)
	}
	if !strings.Contains(out.String(), "identical to the uninterrupted run") {
		t.Errorf("no comparison reported")
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"--kills", "-1"}, {"--rounds", "0"}, {"extra"}, {"--nope"}} {
		var out, errb bytes.Buffer
		if err := Run(context.Background(), args, &out, &errb); err == nil || !strings.Contains(err.Error(), "usage") {
			t.Errorf("Run(%q) = %v, want a usage error", args, err)
		}
	}
}

// TestPowerCut is the short power-cut harness of the default suite: a few
// rounds of a real `cabinet sim` under strace, every crash state a power cut
// may leave between two syncs booted (platform.md §4). The long one:
// `cabinet crashtest --powercut 200 --subsets 1024`.
func TestPowerCut(t *testing.T) {
	if _, err := exec.LookPath("strace"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the power-cut harness needs strace (scripts/test installs it): %v", err)
		}
		t.Skip("the power-cut harness needs strace (scripts/test installs it)")
	}
	bin, root := cabinetBinary(t)
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s, err := PowerCut(context.Background(), PowerCutConfig{Bin: bin, Game: "all", Rounds: *powerCutRounds, Seed: *seed,
		Dir: t.TempDir(), MaxSubsets: 64, TornPerWrite: 4, FlipSyncs: 1, Out: &out})
	t.Logf("%s%s", out.String(), s)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range s.Failures {
		t.Errorf("crash state: %s", f)
	}
	// With the store's order (bbolt's pages and meta page, one sync, then
	// the proof written and synced: the commit point) no power cut needs a
	// memory error — a commit the proof does not name is discarded at boot —
	// so one here means a sync is missing somewhere: the short run is strict
	// about it.
	if s.MemoryError > 0 {
		t.Errorf("%d crash states booted as memory errors, want none (a missing sync?)", s.MemoryError)
	}
	// The proof-damage case (issue 27): each byte of each proof slot
	// flipped at the last sync (the last commit's proof, written or not)
	// and after the run. None may boot older than the commit shown (a
	// failure above); with four copies per slot none needs a memory error.
	if f := s.Flips; f.States < 2*1024 || f.MemoryError > 0 || f.Failed > 0 {
		t.Errorf("proof damage: %+v, want at least 2048 states, every one exact", f)
	}
	if s.Commits < 10 || s.Clean == 0 {
		t.Errorf("only %d commits traced, %d clean boots: the harness did not exercise the store", s.Commits, s.Clean)
	}
}

var (
	validatorKills  = flag.Int("validator-kills", 16, "SIGKILLs of TestValidatorKills (the long version: -validator-kills 300 -validator-rounds 3000, or `cabinet crashtest --validator 300`)")
	validatorRounds = flag.Int64("validator-rounds", 400, "sim rounds of TestValidatorKills")
	validatorCuts   = flag.Int("validator-cuts", 8, "validator power cuts of TestValidatorKills")
)

// TestValidatorKills: `cabinet sim --acceptor` against the emulated ID-003
// validator inserting notes while the sim plays, SIGKILLed at random
// moments and the validator's power cut at others: the bills credited are
// exactly the notes the emulator stacked.
func TestValidatorKills(t *testing.T) {
	bin, root := cabinetBinary(t)
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s, err := Validator(context.Background(), ValidatorConfig{Bin: bin, Rounds: *validatorRounds, Seed: *seed, Kills: *validatorKills,
		Cuts: *validatorCuts, Pace: 20 * time.Millisecond, Life: 2500 * time.Millisecond, Dir: t.TempDir(), Out: &out})
	t.Logf("seed %d:\n%s", *seed, out.String())
	if err != nil {
		t.Fatal(err)
	}
	if s.Stacked == 0 || s.Kills == 0 {
		t.Errorf("%s: the run stacked no note or killed nothing", s)
	}
}
