package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/analysis/rtp"
)

// shippedWith is the shipped configuration with some lines replaced.
func shippedWith(t *testing.T, repl ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "configs", "cabinet.toml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(s, repl[i]) {
			t.Fatalf("shipped configuration has no %q", repl[i])
		}
		s = strings.Replace(s, repl[i], repl[i+1], 1)
	}
	p := filepath.Join(t.TempDir(), "cabinet.toml")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A min_rtp above a wager's return stops `cabinet sim` and `cabinet run`
// before the store is opened, naming the game, the wager, its return and
// min_rtp; the store file is not created.
func TestStartRefusedByMinRTP(t *testing.T) {
	cfg := shippedWith(t, `min_rtp = "75.00"`, `min_rtp = "80.00"`)
	for _, cmd := range []string{"sim", "run"} {
		store := filepath.Join(t.TempDir(), "cabinet.db")
		var out, errOut bytes.Buffer
		err := run(context.Background(), []string{cmd, "--config", cfg, "--store", store}, &out, &errOut)
		var re *rtp.RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("%s: err = %v, want a refusal", cmd, err)
		}
		for _, want := range []string{"royal", "royalpoker", "79.99 %", "min_rtp 80.00 %", cfg} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not name %q", cmd, err, want)
			}
		}
		if _, err := os.Stat(store); !os.IsNotExist(err) {
			t.Errorf("%s: store %s touched (stat: %v)", cmd, store, err)
		}
	}
}

// `cabinet sim`'s computed figure is the one of the rules in force, and
// `cabinet par --config` prints it with the return check.
func TestSimAndParUseRulesInForce(t *testing.T) {
	cfg := shippedWith(t, `dealing = "american"`, `dealing = "european"`, `decks = 6 `, `decks = 1 `, `hit_soft17 = false`, `hit_soft17 = true `)
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"par", "--quiet", "--config", cfg, "--game", "classic"}, &out, &errOut); err != nil {
		t.Fatalf("par: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"=== classic: 1 deck(s), H17, peek no-hole", "return per money staked  99.92", "return check (min_rtp 75.00 %): every wager"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("par --config output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"sim", "--quiet", "--json", "--config", cfg, "--game", "classic", "--rounds", "50"}, &out, &errOut); err != nil {
		t.Fatalf("sim: %v\n%s", err, errOut.String())
	}
	var res simResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Games) != 1 || len(res.Games[0].Bets) == 0 || res.Games[0].Bets[0].Computed != "99.92%" {
		t.Errorf("sim computed = %+v, want the main bet at 99.92%% (European, 1 deck, H17), not the default rules' 99.70%%", res.Games)
	}
}

// Every command that runs the cabinet's rules applies the same return
// check before it touches a store: init, sim, run and screenshot (from a
// store) refuse a configuration the guard refuses, naming every refused
// wager with its figure; nothing is created.
func TestEveryCommandRefusesEveryWager(t *testing.T) {
	// 93.00 % refuses Royal Poker's side bet (79.99 %) and every insurance
	// below it (Free Bet 92.53 %, Zappit 92.60 %, ...).
	cfg := shippedWith(t, `min_rtp = "75.00"`, `min_rtp = "93.00"`)
	dir := t.TempDir()
	store := filepath.Join(dir, "cabinet.db")
	for _, args := range [][]string{
		{"init", "--config", cfg, "--store", store},
		{"sim", "--config", cfg, "--store", store},
		{"run", "--config", cfg, "--store", store},
		{"screenshot", "--config", cfg, "--store", store, "--screen", "help", "--out", filepath.Join(dir, "x.png")},
	} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), args, &out, &errOut)
		var re *rtp.RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("%s: err = %v, want a refusal", args[0], err)
		}
		if len(re.Refused()) < 3 {
			t.Errorf("%s: refused %d wager(s), want every one below 93.00 %%: %v", args[0], len(re.Refused()), err)
		}
		for _, want := range []string{"royal royalpoker returns 79.99 %", "freebet insurance returns 92.53 %", "zappit insurance returns 92.60 %", "min_rtp 93.00 %"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not name %q", args[0], err, want)
			}
		}
	}
	for _, p := range []string{store, store + ".mirror", filepath.Join(dir, "x.png")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s created by a refused command (stat: %v)", p, err)
		}
	}
}

// `cabinet par` with no --config analyses the shipped configuration and
// says so at the top; its return check passes. --presets says it prints
// the engines' built-in rules and what the check says of them.
func TestParDefaultsToTheShippedConfiguration(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(filepath.Join("..", "..")); err != nil { // where configs/cabinet.toml is
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(wd) })
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"par", "--quiet", "--game", "zappit", "--cap-rounds", "0"}, &out, &errOut); err != nil {
		t.Fatalf("par: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"rules: the rules in force of configs/cabinet.toml", "3 spot(s) at 25.00 under the win cap 100.00", "return check (min_rtp 75.00 %): every wager"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("par output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"par", "--quiet", "--presets", "--game", "zappit", "--cap-rounds", "0"}, &out, &errOut); err != nil {
		t.Fatalf("par --presets: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"rules: the engines' built-in presets", "3 spot(s) at 1000.00", "REFUSED"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("par --presets output lacks %q:\n%s", want, out.String())
		}
	}
}
