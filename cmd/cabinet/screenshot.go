package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"cabinet/internal/cabinet"
	"cabinet/internal/controller"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/recovery"
	"cabinet/internal/scenario"
	"cabinet/internal/view"
)

// storeScreens are the screens `cabinet screenshot --store` can show from a
// real store, and the inputs that lead there from boot.
var storeScreens = map[string][]hw.Input{
	"boot":         nil,
	"audit-meters": {{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: true}},
	"audit-recall": {{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: true}, {Kind: hw.ButtonPressed, Button: hw.Spot}},
	"audit-events": {{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: true}, {Kind: hw.ButtonPressed, Button: hw.Spot}, {Kind: hw.ButtonPressed, Button: hw.Spot}},
	"audit-tickets": {{Kind: hw.SwitchChanged, Switch: hw.AuditKey, On: true}, {Kind: hw.ButtonPressed, Button: hw.Spot}, {Kind: hw.ButtonPressed, Button: hw.Spot},
		{Kind: hw.ButtonPressed, Button: hw.Spot}},
	"help":     {{Kind: hw.ButtonPressed, Button: hw.Help}},
	"operator": {{Kind: hw.SwitchChanged, Switch: hw.OperatorKey, On: true}},
}

func cmdScreenshot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("screenshot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	screen := fs.String("screen", "", "screen name (see --list)")
	lang := fs.String("lang", "", "language: fr|en (default: the snapshot's)")
	out := fs.String("out", "", "PNG file to write")
	storeF := fs.String("store", "", "render from this store (a copy is used; the file is not changed)")
	cfgF := fs.String("config", defaultConfig, "configuration file (with --store)")
	list := fs.Bool("list", false, "list screen names")
	seed := fs.Uint64("seed", 0, "with --screen and no --store: play the screen's scenario with this seed instead of its own")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *list {
		if *storeF != "" {
			for n := range storeScreens {
				fmt.Fprintln(stdout, n)
			}
			return nil
		}
		for _, n := range scenario.Screens() {
			fmt.Fprintln(stdout, n)
		}
		return nil
	}
	if *screen == "" || *out == "" {
		return usageError{"screenshot: --screen and --out are required (--list shows the screens)"}
	}
	if *lang != "" && *lang != "fr" && *lang != "en" {
		return usageError{fmt.Sprintf("screenshot: --lang %q, want fr or en", *lang)}
	}
	var snap *view.Snapshot
	var err error
	if *storeF != "" {
		snap, err = snapshotFromStore(*storeF, *cfgF, *screen)
	} else {
		snap, err = scenarioSnapshot(*cfgF, *screen, *seed)
	}
	if err != nil {
		return err
	}
	if *lang != "" {
		cp := *snap
		cp.Lang = *lang
		snap = &cp
	}
	if err := renderPNG(snap, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %s)\n", *out, *screen, snap.Lang)
	return nil
}

// scenarioSnapshot plays the scenario that shows the named screen through
// the real controller, on a store in a temp dir, and returns that screen.
func scenarioSnapshot(cfgPath, screen string, seed uint64) (*view.Snapshot, error) {
	dir, err := os.MkdirTemp("", "cabinet-scenario-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	digest, _ := programDigest()
	opt := scenario.Options{Config: cfgPath, Dir: dir, Digest: digest}
	if seed != 0 {
		return scenario.ScreenSeed(screen, seed, opt)
	}
	snap, err := scenario.Screen(screen, opt)
	if errors.Is(err, scenario.ErrUnknown) {
		return nil, usageError{fmt.Sprintf("screenshot: %v", err)}
	}
	return snap, err
}

// snapshotFromStore boots a controller on a copy of the store (sim hardware)
// and leads it to the named screen.
func snapshotFromStore(path, cfgPath, screen string) (*view.Snapshot, error) {
	inputs, ok := storeScreens[screen]
	if !ok {
		names := make([]string, 0, len(storeScreens))
		for n := range storeScreens {
			names = append(names, n)
		}
		return nil, usageError{fmt.Sprintf("screenshot: screen %q not available from a store (want one of %s)", screen, strings.Join(names, ", "))}
	}
	_, cfg, err := loadSettings(cfgPath)
	if err != nil {
		return nil, err
	}
	rules, err := cabinet.FromConfig(context.Background(), cfgPath, cfg)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "cabinet-shot-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("screenshot: read store: %w", err)
	}
	cp := filepath.Join(dir, "copy.db")
	if err := os.WriteFile(cp, data, 0o600); err != nil {
		return nil, err
	}
	st, err := recovery.Open(cp, recovery.Options{RecallDepth: cfg.RecallDepth(), EventDepth: cfg.EventDepth()})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	be := sim.New()
	defer be.Close()
	digest, _ := programDigest()
	c, err := cabinet.New(cabinet.Parts{Rules: rules, Store: st, HW: be, Digest: digest})
	if err != nil {
		return nil, err
	}
	for _, in := range inputs {
		_ = c.Handle(controller.HW(in)) // a refused input still leaves a screen to show
	}
	return c.Snapshot(), nil
}
