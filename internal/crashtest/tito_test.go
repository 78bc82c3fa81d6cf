package crashtest

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var (
	titoKills  = flag.Int("tito-kills", 6, "SIGKILLs of TestTITOKills (the long version: `cabinet crashtest --tito 200`)")
	titoRounds = flag.Int64("tito-rounds", 120, "sim rounds of TestTITOKills")
)

// TestTITOKills: `cabinet sim --sas --acceptor --printer --cashout-every`
// against the casino, validator and printer emulators, cashing out to
// tickets and taking them back in while SIGKILLed at random moments: money
// conserved, bills = notes stacked, tickets credited = tickets stacked at
// the casino's amounts, none paid twice, every printed ticket the casino's.
func TestTITOKills(t *testing.T) {
	bin, root := cabinetBinary(t)
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s, err := TITO(context.Background(), TITOConfig{Bin: bin, Rounds: *titoRounds, Seed: *seed, Kills: *titoKills,
		Cuts: *titoKills / 2, Every: 5, Pace: 20 * time.Millisecond, Life: 2500 * time.Millisecond, Dir: t.TempDir(), Out: &out})
	t.Logf("seed %d:\n%s", *seed, out.String())
	if err != nil {
		t.Fatal(err)
	}
	if s.Kills == 0 || s.Printed == 0 || s.TicketsIn == 0 {
		t.Errorf("%s: the run killed nothing, printed no ticket or took none back", s)
	}
}

// The run's configuration is refused, naming the problem, when the file it
// is made from does not parse.
func TestTITOFileRefused(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(src, []byte("[cabinet]\nnope = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := TITOFile(src, filepath.Join(dir, "tito.toml"))
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("TITOFile(bad) = %v, want refused", err)
	}
}

func TestTITOUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if err := Run(context.Background(), []string{"--tito", "-1"}, &out, &errb); err == nil || !strings.Contains(err.Error(), "--tito") {
		t.Errorf("Run(--tito -1) = %v, want a usage error naming --tito", err)
	}
}
