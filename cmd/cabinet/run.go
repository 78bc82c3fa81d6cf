package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"cabinet/internal/cabinet"
	"cabinet/internal/recovery"
)

const defaultConfig = "configs/cabinet.toml"

// cmdRun starts the cabinet: store, hardware, controller, and the window on
// the main OS thread (raylib needs it; main locks it).
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgF := fs.String("config", defaultConfig, "configuration file")
	storeF := fs.String("store", "", "store file (default: [cabinet] store of the configuration)")
	backendF := fs.String("backend", "", "hardware backend: sim|periph (default: configuration)")
	fullscreen := fs.Bool("fullscreen", false, "full screen window")
	if err := fs.Parse(args); err != nil {
		return err
	}
	set, cfg, err := loadSettings(*cfgF)
	if err != nil {
		return err
	}
	ret, err := checkReturns(ctx, *cfgF, cfg)
	if err != nil {
		return err
	}
	path := *storeF
	if path == "" {
		path = cfg.StorePath()
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return fmt.Errorf("run: store directory: %w", err)
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	digest, err := programDigest()
	if err != nil {
		return err
	}
	st, err := recovery.Open(path, recovery.Options{RecallDepth: cfg.RecallDepth(), EventDepth: cfg.EventDepth()})
	if err != nil {
		return err
	}
	defer st.Close()

	backend := *backendF
	if backend == "" {
		backend = cfg.Backend()
	}
	be, simBE, err := openBackend(backend, cfg)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	defer be.Close()
	var panel touchInput = simBE
	if simBE == nil { // real hardware: the touch screen presses buttons too
		tp := withTouch(be)
		be, panel = tp, tp
	}

	c, err := cabinet.New(cabinet.Options{Store: st, HW: be, Settings: set, Overrides: overridesFunc(cfg, ret),
		Operator: operatorMenu(cfg), Returns: ret, Log: log, Digest: digest, WantDigest: cfg.ExpectedDigest()})
	if err != nil {
		return err
	}
	if err := c.Err(); err != nil {
		log.Error("cabinet tilted at boot: play disabled, audit available", "err", err)
	}
	log.Info("cabinet running", "store", path, "backend", backend, "sha256", digest)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	err = runDisplay(ctx, c, panel, demoScreens(*cfgF), simBE != nil, *fullscreen)
	cancel()
	if rerr := <-done; err == nil {
		err = rerr
	}
	return err
}
