package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Usage errors exit 2 in every sub-command (flag errors included, and the
// packages' own usage errors); `run --backend foo` and `sim --rounds -1`
// create nothing; `run` never creates a store (platform.md §6).
func TestUsageErrorsExit2(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "cabinet.db")
	cfg := filepath.Join("..", "..", "configs", "cabinet.toml")
	cases := [][]string{
		{"run", "--config", cfg, "--store", store, "--backend", "foo"},
		{"sim", "--config", cfg, "--store", store, "--rounds", "-1"},
		{"sim", "--nope"},
		{"run", "--nope"},
		{"init", "--nope"},
		{"init", "extra"},
		{"hwtest", "--nope"},
		{"screenshot", "--nope"},
		{"par", "--nope"},
		{"rng", "--nope"},
		{"duel-eval", "--nope"},
		{"audit", "--nope"},
		{"verify", "--nope"},
		{"verify", "--store", store, "x"},
		{"crashtest", "--kills", "-1"},
		{"nosuchcommand"},
	}
	for _, args := range cases {
		var out, errb bytes.Buffer
		err := run(context.Background(), args, &out, &errb)
		if err == nil || exitCode(err) != 2 {
			t.Errorf("cabinet %q: err %v, exit %d; want a usage error (exit 2)", args, err, exitCode(err))
		}
	}
	for _, p := range []string{store, store + ".mirror"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s created by a refused command (stat: %v)", p, err)
		}
	}
	// A real start without `cabinet init` is refused, and creates nothing.
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"run", "--config", cfg, "--store", store, "--backend", "sim"}, &out, &errb)
	if err == nil {
		t.Fatalf("run on a missing store = nil, want ErrNotInitialised")
	}
	if _, serr := os.Stat(store); !os.IsNotExist(serr) {
		t.Errorf("run created %s (err %v)", store, err)
	}
}
