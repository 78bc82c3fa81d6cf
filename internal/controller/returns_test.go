package controller

import (
	"context"
	"errors"
	"testing"

	"cabinet/internal/analysis/par"
	"cabinet/internal/analysis/rtp"
	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/hw"
	"cabinet/internal/settings"
	"cabinet/internal/view"
)

// returnsRig boots a controller on cfg with the return check wired as
// cmd/cabinet wires it.
func returnsRig(t *testing.T, cfg *config.Config) *rig {
	t.Helper()
	set, err := inForceFrom(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, 5)
	r.st.Close()
	r.c, r.st = testCabinet(t, Options{HW: r.be, RNG: SeededRNG{Seed: 5}, InForce: set,
		Settings: settings.New(cfg, rtp.NewGuard()), Operator: cfg}, kitStore{path: r.path})
	return r
}

// helpMain opens help on game id from attract and returns its main figure.
func helpMain(t *testing.T, r *rig, id game.ID) view.RTPLine {
	t.Helper()
	r.c.scr.game = id
	r.pressLit(hw.Help)
	defer r.pressLit(hw.Help) // back to attract
	s := r.c.Snapshot()
	if s.Mode != view.Help || s.Help == nil || s.Help.Game != id || len(s.Help.RTP) == 0 || s.Help.RTP[0].Bet != game.Main {
		t.Fatalf("help of %s: mode %s view %+v, want the main figure first", id, s.Mode, s.Help)
	}
	return s.Help.RTP[0]
}

// directMain is the analyser's main figure for the rules in force under s,
// computed without the guard's cache.
func directMain(t *testing.T, s InForce, id game.ID) int64 {
	t.Helper()
	rep, err := par.Analyse(context.Background(), s.Rules[id], par.Progressive{Reset: s.JackpotReset, RateE7: s.JackpotRateE7}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rtp.FromReport(rep)[0].RTP
}

// TestHelpFollowsOverride: the operator switches Classic to European
// dealing; the help snapshot's figure is then the one of the rules in force
// (not the default rules'), with its basis.
func TestHelpFollowsOverride(t *testing.T) {
	cfg, err := config.Load("../../configs/cabinet.toml")
	if err != nil {
		t.Fatal(err)
	}
	r := returnsRig(t, cfg)
	before := helpMain(t, r, game.Classic)
	if want := directMain(t, r.c.set, game.Classic); before.RTPBP != want || before.Basis != string(rtp.PerStaked) || before.InitialBP == 0 {
		t.Fatalf("help before = %+v, want %d per money staked with the per-initial figure", before, want)
	}
	if err := r.c.setOverride(describe(t, cfg, "games.classic.dealing"), "american", "european"); err != nil {
		t.Fatalf("setOverride(dealing european) = %v", err)
	}
	after := helpMain(t, r, game.Classic)
	want := directMain(t, r.c.set, game.Classic)
	if after.RTPBP != want || after.RTPBP == before.RTPBP {
		t.Errorf("help after european = %d, want %d (the rules in force), not %d (american)", after.RTPBP, want, before.RTPBP)
	}
	// Zappit's figure is the one at the worst bet, and says so.
	z := helpMain(t, r, game.Zappit)
	if z.WorstBet != r.c.set.Rules[game.Zappit].MaxBet || z.WorstSpots != r.c.set.Rules[game.Zappit].MaxSpots {
		t.Errorf("Zappit help figure %+v, want it at the worst bet %v × %d", z, r.c.set.Rules[game.Zappit].MaxBet, r.c.set.Rules[game.Zappit].MaxSpots)
	}
}

// TestOperatorChangeRefused: a change whose return falls below min_rtp is
// refused with the figure, nothing stored, the settings in force unchanged;
// PreviewReturns gives the same refusal before saving and the figure of an
// acceptable draft.
func TestOperatorChangeRefused(t *testing.T) {
	// One deck, H17, European dealing with surrender: about 99.9 %; the
	// same with American dealing gives the player the advantage.
	cfg, err := config.Parse(classicOneDeck)
	if err != nil {
		t.Fatal(err)
	}
	r := returnsRig(t, cfg)
	lines, err := r.c.PreviewReturns(game.Classic, "games.classic.max_hands", "2")
	if err != nil || len(lines) == 0 || lines[0].RTPBP >= 10000 || lines[0].RTPBP < 9900 {
		t.Fatalf("PreviewReturns(max_hands 2) = %+v, %v; want a figure in [99.00, 100.00)", lines, err)
	}
	_, perr := r.c.PreviewReturns(game.Classic, "games.classic.dealing", "american")
	err = r.c.setOverride(describe(t, cfg, "games.classic.dealing"), "european", "american")
	var re *rtp.RefusedError
	if !errors.As(err, &re) || re.Game != game.Classic || re.Bet != game.Main || re.RTP < 10000 {
		t.Fatalf("setOverride(dealing american) = %v, want a refusal of classic main at 100 %% or more", err)
	}
	if !errors.As(perr, &re) {
		t.Errorf("PreviewReturns(dealing american) = %v, want the same refusal", perr)
	}
	if r.c.set.Rules[game.Classic].Peek == blackjack.PeekAceTen {
		t.Errorf("American dealing in force although refused")
	}
	if o := r.storedOverrides(); len(o) != 0 {
		t.Errorf("overrides stored after a refusal: %v", o)
	}
	if r.c.scr.opError == nil {
		t.Errorf("no refusal shown to the operator")
	}
}

// describe is the operator menu's description of key.
func describe(t *testing.T, cfg *config.Config, key string) view.Setting {
	t.Helper()
	d, ok := cfg.Describe(key)
	if !ok {
		t.Fatalf("no operator setting %q", key)
	}
	return d
}
