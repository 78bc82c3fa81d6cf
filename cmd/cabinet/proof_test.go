package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/auditcmd"
	"cabinet/internal/recovery"
)

// cabinetCmd runs one cabinet command as main does.
func cabinetCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String() + errb.String(), err
}

// TestProofMissingSameAnswer (issue 27): the proof of a store with history
// deleted, every command gives the same answer, the memory error of
// recovery.Open (run opens the same way as init's look; its tilt is the
// controller's): `sim` stops on it instead of making a new proof and playing
// on, `audit check` reports it instead of OK, `init` refuses; none writes
// either file.
func TestProofMissingSameAnswer(t *testing.T) {
	cfg := filepath.Join("..", "..", "configs", "cabinet.toml")
	store := filepath.Join(t.TempDir(), "cab.db")
	mirror := store + ".mirror"
	sim := []string{"sim", "--config", cfg, "--store", store, "--rounds", "2", "--seed", "3", "--quiet"}
	if out, err := cabinetCmd(t, sim...); err != nil {
		t.Fatalf("sim: %v\n%s", err, out)
	}
	if out, err := cabinetCmd(t, "audit", "--store", store, "check"); err != nil {
		t.Fatalf("audit check with the proof: %v\n%s", err, out)
	}
	if err := os.Remove(mirror); err != nil {
		t.Fatal(err)
	}
	before := fileBytesT(t, store)
	sim[len(sim)-4] = "4" // two more rounds
	if out, err := cabinetCmd(t, sim...); !errors.Is(err, recovery.ErrMirror) {
		t.Errorf("sim with the proof deleted = %v, want the memory error (ErrMirror)\n%s", err, out)
	}
	out, err := cabinetCmd(t, "audit", "--store", store, "check")
	if !errors.Is(err, auditcmd.ErrCheckFailed) || !strings.Contains(out, "no proof file") {
		t.Errorf("audit check with the proof deleted = %v, want FAILED naming the missing proof\n%s", err, out)
	}
	out, err = cabinetCmd(t, "init", "--config", cfg, "--store", store)
	if !errors.Is(err, recovery.ErrHistory) || !strings.Contains(out+err.Error(), "memory clear") {
		t.Errorf("init over the store with history = %v, want ErrHistory naming the memory clear\n%s", err, out)
	}
	if _, err := os.Stat(mirror); err == nil {
		t.Errorf("a command made a new proof for the store with history")
	}
	if !bytes.Equal(before, fileBytesT(t, store)) {
		t.Errorf("a command wrote the store")
	}
}

// TestInitRefusesStoreWithHistory (issue 27): `cabinet init` on a store that
// has history refuses whatever its proof — its own, or none after an older
// copy was put back with its proof deleted (init kept its meters) — and
// makes a new cabinet only where there is none.
func TestInitRefusesStoreWithHistory(t *testing.T) {
	cfg := filepath.Join("..", "..", "configs", "cabinet.toml")
	store := filepath.Join(t.TempDir(), "cab.db")
	mirror := store + ".mirror"
	if out, err := cabinetCmd(t, "init", "--config", cfg, "--store", store); err != nil || !strings.Contains(out, "initialised") {
		t.Fatalf("init of a new cabinet = %v\n%s", err, out)
	}
	sim := []string{"sim", "--config", cfg, "--store", store, "--rounds", "1", "--seed", "5", "--quiet"}
	if out, err := cabinetCmd(t, sim...); err != nil {
		t.Fatalf("sim: %v\n%s", err, out)
	}
	older := fileBytesT(t, store)
	sim[len(sim)-4] = "3"
	if out, err := cabinetCmd(t, sim...); err != nil {
		t.Fatalf("sim: %v\n%s", err, out)
	}
	if out, err := cabinetCmd(t, "init", "--config", cfg, "--store", store); !errors.Is(err, recovery.ErrHistory) {
		t.Errorf("init on a healthy store with history = %v, want ErrHistory\n%s", err, out)
	}
	if err := os.WriteFile(store, older, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(mirror); err != nil {
		t.Fatal(err)
	}
	if out, err := cabinetCmd(t, "init", "--config", cfg, "--store", store); !errors.Is(err, recovery.ErrHistory) {
		t.Errorf("init on an older copy with its proof deleted = %v, want ErrHistory\n%s", err, out)
	}
	if _, err := os.Stat(mirror); err == nil {
		t.Errorf("init made a proof for the older copy")
	}
	if !bytes.Equal(older, fileBytesT(t, store)) {
		t.Errorf("init wrote the refused store")
	}
}

func fileBytesT(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
