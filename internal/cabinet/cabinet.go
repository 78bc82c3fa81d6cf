// Package cabinet assembles the cabinet: the one place a controller is
// built, for `cabinet run`, `cabinet sim` (and so the crash harnesses,
// which run it as a child), `cabinet screenshot` and the scenarios. Each
// brings its own store, hardware and devices; the settings in force, their
// return check, the operator menu and the digest check come from the
// configuration here, the same way for all.
package cabinet

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"cabinet/internal/analysis/rtp"
	"cabinet/internal/config"
	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/settings"
)

// Rules are the configuration's settings in force with their return
// check: the help figures follow the settings, a forbidden operator change
// is refused.
type Rules struct {
	Config  *config.Config
	InForce controller.InForce
	Returns *settings.Settings
}

// LoadRules reads the configuration at path, computes the return of every
// wager of its rules in force and refuses a forbidden one (platform.md §6)
// before any store is opened: the error names the game, the wager, its
// figure and min_rtp. Rules.Returns is the controller's Settings: it
// applies the operator's changes and refuses a forbidden return the same
// way.
func LoadRules(ctx context.Context, path string) (Rules, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return Rules{}, err
	}
	return FromConfig(ctx, path, cfg)
}

// FromConfig is LoadRules of a configuration already read from path.
func FromConfig(ctx context.Context, path string, cfg *config.Config) (Rules, error) {
	set, err := settings.FromConfig(cfg)
	if err != nil {
		return Rules{}, err
	}
	g := rtp.NewGuard()
	in, err := rtp.FromConfig(cfg)
	if err != nil {
		return Rules{}, err
	}
	if _, err := g.Check(ctx, in); err != nil {
		return Rules{}, fmt.Errorf("%s: configuration refused: %w", path, err)
	}
	return Rules{Config: cfg, InForce: controller.InForce(set), Returns: settings.New(cfg, g)}, nil
}

// Parts are what a command brings to the cabinet it builds.
type Parts struct {
	Rules Rules
	// Store is the open store (a *recovery.Store); StoreErr, instead, why
	// it could not be opened (the cabinet boots in a memory-error tilt).
	Store    controller.Store
	StoreErr error
	HW       hw.Backend
	RNG      controller.RNG   // nil: crypto/rand
	Now      func() time.Time // nil: time.Now
	Log      *slog.Logger
	Digest   string // the program's SHA-256
	Version  string
	// CheckDigest: the configuration's expected_digest is checked at boot
	// (`cabinet run`; a scratch store need not).
	CheckDigest bool
	// NoOperator: no operator menu (`cabinet sim` never turns the key).
	NoOperator bool
	// Display, if set, is the window's report of what it has shown.
	Display  *controller.Presentation
	OnCommit func(id game.ID, round uint64, evs []game.Event)
	// The devices: the SAS link (its exception table and the host's
	// requests), tickets out and in, the serial note validator.
	Exceptions func(controller.HostEvent) []byte
	Host       <-chan controller.HostRequest
	// Autoplay is autoplay's steps, one more input source of Run (sim).
	Autoplay  <-chan controller.AutoRequest
	TITO      *controller.TITO
	Validator controller.NoteValidator
}

// New builds the cabinet from its parts: the controller booted on the
// store (controller.New's only caller outside tests).
func New(p Parts) (*controller.Controller, error) {
	opt := controller.Options{Store: p.Store, StoreErr: p.StoreErr, HW: p.HW, RNG: p.RNG, Now: p.Now, Log: p.Log,
		InForce: p.Rules.InForce, Digest: p.Digest, Version: p.Version, Display: p.Display, OnCommit: p.OnCommit,
		Exceptions: p.Exceptions, Host: p.Host, Autoplay: p.Autoplay, TITO: p.TITO, Validator: p.Validator}
	if p.Rules.Returns != nil {
		opt.Settings = p.Rules.Returns
	}
	if cfg := p.Rules.Config; cfg != nil {
		if !p.NoOperator {
			opt.Operator = cfg
		}
		if p.CheckDigest {
			opt.WantDigest = cfg.ExpectedDigest()
		}
	}
	return controller.New(opt)
}
