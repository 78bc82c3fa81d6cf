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
	"cabinet/internal/config"
	"cabinet/internal/recovery"
)

// cmdInit is the explicit, logged act that makes a new cabinet: it creates
// the store and its newest-store proof (or finishes a creation cut before its
// proof was made). It refuses any store that has history, whatever its proof
// (recovery.Init): only the technician's memory clear (audit + reset keys)
// starts over on a cabinet that has run, keeping the old store as evidence.
func cmdInit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgF := fs.String("config", defaultConfig, "configuration file")
	storeF := fs.String("store", "", "store file (default: [cabinet] store)")
	mirrorF := fs.String("mirror", "", "newest-store proof file (default: [cabinet] store_mirror, or <store>.mirror with --store)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("init: unexpected argument %q", fs.Arg(0))}
	}
	_, cfg, err := loadSettings(*cfgF)
	if err != nil {
		return err
	}
	if _, err := cabinet.FromConfig(ctx, *cfgF, cfg); err != nil {
		return err // a cabinet is not made for rules it would refuse to run
	}
	path, mirror := storePaths(cfg, *storeF, *mirrorF)
	log := slog.New(slog.NewTextHandler(stderr, nil))
	for _, dir := range []string{filepath.Dir(path), filepath.Dir(mirror)} {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return fmt.Errorf("init: %w", err)
		}
	}
	created, err := recovery.Init(path, recovery.Options{RecallDepth: cfg.RecallDepth(), EventDepth: cfg.EventDepth(), Mirror: mirror})
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if !created {
		fmt.Fprintf(stdout, "init: %s is already initialised (proof %s) and has no history: nothing done\n", path, mirror)
		return nil
	}
	log.Info("cabinet initialised (logged in the store's event log)", "store", path, "proof", mirror)
	fmt.Fprintf(stdout, "init: %s initialised, proof %s\n", path, mirror)
	return nil
}

// storePaths is the store file and its newest-store proof for run and init:
// the flags when given, else the configuration's; a --store without --mirror
// keeps its proof beside it (<store>.mirror), never the configured cabinet's.
func storePaths(cfg *config.Config, store, mirror string) (string, string) {
	if mirror == "" {
		mirror = cfg.MirrorPath()
		if store != "" {
			mirror = store + ".mirror"
		}
	}
	if store == "" {
		store = cfg.StorePath()
	}
	return store, mirror
}
