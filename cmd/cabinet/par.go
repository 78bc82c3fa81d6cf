package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"cabinet/internal/analysis/par"
	"cabinet/internal/analysis/rtp"
	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/recovery"
)

// cmdPar is `cabinet par`: the PAR sheets of the rules in force of a
// configuration file (the shipped configs/cabinet.toml by default, plus the
// operator overrides kept in a store with --store, opened read-only), said
// at the top, then the return check of platform.md §6 for them — what the
// cabinet would run. --presets prints the engines' built-in rules instead,
// saying so and what the return check says of them (the Zappit preset's
// 1000.00 bet under the 100.00 cap is refused). --cap-grid checks the win
// cap's floor against the simulated return over spots and bets instead.
func cmdPar(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("par", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gameF := fs.String("game", "all", "royal|freebet|zappit|classic|all")
	asJSON := fs.Bool("json", false, "print one JSON object")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	cfgF := fs.String("config", defaultConfig, "configuration file whose rules in force are analysed")
	storeF := fs.String("store", "", "store whose operator overrides apply (read-only)")
	presets := fs.Bool("presets", false, "the engines' built-in rules instead of a configuration's")
	capGrid := fs.Bool("cap-grid", false, "check the win cap's floor against the simulation over 1 to 3 spots and bets from a tenth of the cap to twice the cap (--cap-rounds each)")
	capRounds := fs.Int("cap-rounds", par.CapRounds, "rounds simulated for a win cap at the worst bet (0: the floor)")
	cutShoes := fs.Int("cut-shoes", par.CutShoes, "shoes simulated for a cut-card shoe (0: the full shoe)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("par: unexpected argument %q", fs.Arg(0))}
	}
	if *capRounds < 0 || *cutShoes < 0 {
		return usageError{fmt.Sprintf("par: --cap-rounds %d, --cut-shoes %d (want 0 or more)", *capRounds, *cutShoes)}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *presets && (set["config"] || set["store"]) {
		return usageError{"par: --presets analyses the engines' built-in rules: no --config or --store with it"}
	}
	ids := []game.ID{game.Royal, game.FreeBet, game.Zappit, game.Classic}
	if *gameF != "all" {
		id := game.ID(*gameF)
		if _, err := blackjack.Preset(id); err != nil {
			return usageError{fmt.Sprintf("par: unknown game %q (want royal, freebet, zappit, classic or all)", *gameF)}
		}
		ids = []game.ID{id}
	}
	var in rtp.Input
	var source string
	if *presets {
		in = rtp.Input{Games: ids, Rules: map[game.ID]blackjack.Rules{}, Progressive: par.DefaultProgressive()}
		for _, id := range ids {
			in.Rules[id], _ = blackjack.Preset(id)
		}
		in.MinRTP = config.DefaultMinRTPBP()
		source = "the engines' built-in presets (no configuration: the cabinet never runs these as they are; the return check below uses the default min_rtp)"
	} else {
		if _, err := os.Stat(*cfgF); errors.Is(err, os.ErrNotExist) && !set["config"] {
			return fmt.Errorf("par: the shipped configuration %s is not here (run from the repository root, give --config FILE, or --presets for the engines' built-in rules): %w", *cfgF, err)
		}
		cfg, err := parConfig(*cfgF, *storeF)
		if err != nil {
			return err
		}
		if in, err = rtp.FromConfig(cfg); err != nil {
			return err
		}
		source = "the rules in force of " + *cfgF
		if *storeF != "" {
			source += " with the operator overrides of " + *storeF
		}
		for _, id := range ids {
			if _, ok := in.Rules[id]; !ok && *gameF != "all" {
				return fmt.Errorf("par: game %q is not enabled in %s", id, *cfgF)
			}
		}
	}
	if *capGrid {
		return parCapGrid(ctx, in, *capRounds, *quiet, stdout, stderr)
	}
	if !*asJSON {
		fmt.Fprintf(stdout, "rules: %s\n\n", source)
	}
	opt := par.Options{Games: ids, Rules: in.Rules, Progressive: in.Progressive, JSON: *asJSON, Quiet: *quiet,
		Sim: par.Sim{CapRounds: *capRounds, CutShoes: *cutShoes}}
	if err := par.Par(ctx, opt, stdout, stderr); err != nil {
		return err
	}
	if *asJSON {
		return nil
	}
	in.Games = ids
	_, err := rtp.NewGuard().Check(ctx, in)
	var re *rtp.RefusedError
	switch {
	case errors.As(err, &re):
		fmt.Fprintf(stdout, "return check (min_rtp %s): REFUSED: %v\n", rtp.Percent(in.MinRTP), err)
	case err != nil:
		return err
	default:
		fmt.Fprintf(stdout, "return check (min_rtp %s): every wager within [min_rtp, 100 %%)\n", rtp.Percent(in.MinRTP))
	}
	return nil
}

// parCapGrid is `cabinet par --cap-grid`: Zappit's floor against the
// simulated return over 1 to 3 spots and bets from a tenth of the cap to
// twice the cap, under the configuration's cap; an error when a floor lies
// above its simulation beyond the interval.
func parCapGrid(ctx context.Context, in rtp.Input, rounds int, quiet bool, stdout, stderr io.Writer) error {
	r, ok := in.Rules[game.Zappit]
	if !ok || r.WinCap <= 0 {
		return fmt.Errorf("par: --cap-grid: Zappit with a win cap is not in force")
	}
	if rounds <= 0 {
		return usageError{"par: --cap-grid needs --cap-rounds 1 or more"}
	}
	start := time.Now()
	progress := func(s string) {
		if !quiet {
			fmt.Fprintf(stderr, "[%5.1fs] %s\n", time.Since(start).Seconds(), s)
		}
	}
	pts, err := par.CapGrid(ctx, r, []int{1, 2, 3}, par.GridBets(r), rounds, progress)
	if err != nil {
		return fmt.Errorf("par: %w", err)
	}
	bad := par.WriteCapGrid(stdout, r.WinCap, pts, 0.01)
	fmt.Fprintf(stdout, "%d point(s), %d round(s) each, seed %d: %d outside (above the simulation, or more than 1 point below it beyond the interval)\n", len(pts), rounds, par.CapSeed, bad)
	for _, p := range pts {
		if p.Above() {
			return fmt.Errorf("par: --cap-grid: the floor of %d spot(s) at %v lies above the simulated return", p.Spots, p.Bet)
		}
	}
	return nil
}

// parConfig is the configuration file with the store's overrides applied.
func parConfig(path, store string) (*config.Config, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if store == "" {
		return cfg, nil
	}
	st, err := recovery.Open(store, recovery.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("par: %w", err)
	}
	defer st.Close()
	var o map[string]string
	if err := st.View(func(tx *recovery.Tx) error {
		var err error
		o, err = tx.Overrides()
		return err
	}); err != nil {
		return nil, fmt.Errorf("par: read overrides of %s: %w", store, err)
	}
	return cfg.With(o)
}
