package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"cabinet/internal/analysis/par"
	"cabinet/internal/analysis/rtp"
	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/recovery"
)

// cmdPar is `cabinet par`: the PAR sheets of the engine's default rules, or
// with --config of the rules in force of a configuration file (plus the
// operator overrides kept in a store with --store, opened read-only), then
// the return check of platform.md §6 for that configuration.
func cmdPar(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("par", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gameF := fs.String("game", "all", "royal|freebet|zappit|classic|all")
	asJSON := fs.Bool("json", false, "print one JSON object")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	cfgF := fs.String("config", "", "configuration file (default: the engine's default rules)")
	storeF := fs.String("store", "", "store whose operator overrides apply (read-only; needs --config)")
	capRounds := fs.Int("cap-rounds", par.CapRounds, "rounds simulated for a win cap at the worst bet (0: the bound)")
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
	if *cfgF == "" {
		if *storeF != "" {
			return usageError{"par: --store needs --config (the overrides apply to a configuration file)"}
		}
		return par.Command(ctx, args, stdout, stderr)
	}
	cfg, err := parConfig(*cfgF, *storeF)
	if err != nil {
		return err
	}
	in, err := rtp.FromConfig(cfg)
	if err != nil {
		return err
	}
	ids := []game.ID{game.Royal, game.FreeBet, game.Zappit, game.Classic}
	if *gameF != "all" {
		id := game.ID(*gameF)
		if _, err := blackjack.Preset(id); err != nil {
			return usageError{fmt.Sprintf("par: unknown game %q (want royal, freebet, zappit, classic or all)", *gameF)}
		}
		if _, ok := in.Rules[id]; !ok {
			return fmt.Errorf("par: game %q is not enabled in %s", id, *cfgF)
		}
		ids = []game.ID{id}
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
	_, err = rtp.NewGuard().Check(ctx, in)
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
