package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"cabinet/internal/cabinet"
	"cabinet/internal/controller"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
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
	mirrorF := fs.String("mirror", "", "newest-store proof file (default: [cabinet] store_mirror, or <store>.mirror with --store)")
	fullscreen := fs.Bool("fullscreen", false, "full screen window")
	sasF := fs.String("sas", "", "serve SAS on this serial port or pty (overrides [sas] port; address 1 if [sas] address is 0)")
	printerF := fs.String("printer", "", "ticket printer on this serial port or pty (overrides [printer] port)")
	accF := fs.String("acceptor", "", "the ID-003 note validator's serial port or pty (selects it and overrides [hardware.acceptor] port)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	_, cfg, err := loadSettings(*cfgF)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("run: unexpected argument %q", fs.Arg(0))}
	}
	backend := *backendF
	if backend == "" {
		backend = cfg.Backend()
	}
	if backend != "sim" && backend != "periph" { // before anything is opened or created
		return usageError{fmt.Sprintf("run: unknown backend %q (want sim or periph)", backend)}
	}
	rules, err := cabinet.FromConfig(ctx, *cfgF, cfg)
	if err != nil {
		return err
	}
	val, err := newValidatorLink(cfg, *accF)
	if err != nil {
		return err
	}
	if err := checkSerialPorts(cfg, *sasF, *printerF, *accF); err != nil { // before the store is opened
		return fmt.Errorf("run: %w", err)
	}
	path, mirror := storePaths(cfg, *storeF, *mirrorF)
	log := slog.New(slog.NewTextHandler(stderr, nil))
	digest, err := programDigest()
	if err != nil {
		return err
	}
	// Open never creates a store: a new cabinet is initialised by `cabinet
	// init`. A memory error (damaged, older or missing store where the proof
	// shows a cabinet has run) opens a failed store: the controller tilts and
	// the audit screens read what can be read. A file too damaged to open
	// at all does not stop the program either: the cabinet runs in a
	// memory-error tilt (Options.StoreErr). Any other failure to open
	// (locked, permissions) is an error.
	var store controller.Store
	st, storeErr := recovery.Open(path, recovery.Options{RecallDepth: cfg.RecallDepth(), EventDepth: cfg.EventDepth(), Mirror: mirror})
	switch {
	case storeErr == nil:
		defer st.Close()
		store = st
		if err := st.Err(); err != nil {
			log.Error("store memory error: play disabled until a memory clear, audit available", "err", err)
		}
	case errors.Is(storeErr, recovery.ErrNotInitialised):
		return fmt.Errorf("run: %w\n(a new cabinet: run `cabinet init` once; it creates the store and its proof and logs it)", storeErr)
	case errors.Is(storeErr, recovery.ErrCorrupt):
		log.Error("store damaged: memory-error tilt, audit available", "store", path, "err", storeErr)
	default:
		return storeErr
	}

	be, simBE, err := openBackend(backend, cfg)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	var panel touchInput = simBE
	closeHW := be.Close
	if simBE == nil { // real hardware: the touch screen presses buttons too
		tp := withTouch(be)
		be, panel, closeHW = tp, tp, tp.Close
	}
	defer func() {
		// The touch merge's Close names any hardware input (a stacked
		// bill above all) the controller never read.
		if err := closeHW(); err != nil {
			log.Error("hardware close", "err", err)
		}
	}()

	link := newSASLink(cfg, *sasF)
	if err := checkTicketIn(cfg, val != nil, link != nil); err != nil {
		return err
	}
	opt := cabinet.Parts{Rules: rules, Store: store, StoreErr: storeErr, HW: be, Log: log, Digest: digest, Version: Version,
		CheckDigest: true}
	link.options(&opt)
	tito, closePrinter, err := openPrinter(cfg, *printerF, log)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	defer closePrinter()
	opt.TITO = tito
	val.options(&opt)
	var shown func(view.Shown)
	if windowed { // the table waits for what the window has shown (platform.md §7)
		opt.Display = controller.NewPresentation()
		shown = opt.Display.Report
	}
	c, err := cabinet.New(opt)
	if err != nil {
		return err
	}
	if err := c.Err(); err != nil {
		log.Error("cabinet tilted at boot: play disabled, audit available", "err", err)
	}
	log.Info("cabinet running", "store", path, "backend", backend, "sha256", digest)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if link != nil && st == nil {
		// Nothing can be read: the host hears nothing rather than figures
		// that are not the store's (decided; the tilt is on screen).
		log.Error("SAS not served: the store could not be opened", "err", storeErr)
	} else if _, err := link.start(ctx, st, c, log); err != nil {
		return err
	}
	// The validator's driver starts once the controller is up: its first
	// power-up status is resolved by Run's loop before the reset.
	stopVal, err := val.start(ctx, log)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	err = runDisplay(ctx, c, panel, demoScreens(*cfgF), simBE != nil, *fullscreen, shown)
	cancel()
	if rerr := <-done; err == nil {
		err = rerr
	}
	stopVal()
	return err
}
