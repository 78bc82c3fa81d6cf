package rtp

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"cabinet/internal/analysis/par"
	"cabinet/internal/config"
	"cabinet/internal/game"
)

var update = flag.Bool("update", false, "rewrite known.json from the analyser")

func shipped(t testing.TB) *config.Config {
	t.Helper()
	cfg, err := config.Load(filepath.Join("..", "..", "..", "configs", "cabinet.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestKnown recomputes the bases of the shipped configuration's rules and
// compares them with the embedded known.json; -update rewrites it.
func TestKnown(t *testing.T) {
	in, err := FromConfig(shipped(t))
	if err != nil {
		t.Fatal(err)
	}
	g := newColdGuard() // nothing embedded: compute
	all := map[string]par.Base{}
	for _, id := range in.Games {
		r, ok := in.Rules[id]
		if !ok {
			continue
		}
		b, err := g.Base(context.Background(), r, in.Progressive)
		if err != nil {
			t.Fatal(err)
		}
		b.Report.Seconds = 0 // not a figure
		all[BaseKey(r, in.Progressive)] = b
	}
	if *update {
		b, err := json.MarshalIndent(all, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("known.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if d := cmp.Diff(known(), all, cmpopts.EquateApprox(0, 1e-12)); d != "" { // sums in parallel may differ in the last bit
		t.Errorf("known.json is stale: run `go test ./internal/analysis/rtp -run TestKnown -update` (-embedded +computed):\n%s", d)
	}
	// The embedded bases answer the shipped configuration as computing does
	// (g holds the bases it computed).
	cold, err := g.Check(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	warm, err := NewGuard().Check(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(cold, warm); d != "" {
		t.Errorf("figures from known.json differ from the computed ones:\n%s", d)
	}
}

// The shipped configuration passes the check, with every wager of every
// enabled blackjack game between min_rtp and 100 %, the main bet first.
func TestShippedPasses(t *testing.T) {
	cfg := shipped(t)
	figs, err := Check(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Check(shipped) = %v, want nil", err)
	}
	for _, id := range []game.ID{game.Royal, game.FreeBet, game.Zappit, game.Classic} {
		fs := figs[id]
		if len(fs) == 0 || fs[0].Bet != game.Main || fs[0].Basis != PerStaked || fs[0].Initial == 0 {
			t.Fatalf("figures of %s = %+v, want the main bet first per money staked with its per-initial figure", id, fs)
		}
		for _, f := range fs {
			if f.RTP >= 10000 || f.RTP < cfg.MinRTP() {
				t.Errorf("%s %s = %s, want within [min_rtp, 100 %%)", id, f.Bet, Percent(f.RTP))
			}
		}
	}
	if _, ok := figs[game.Duel]; ok {
		t.Errorf("figures include Poker Duel, which pays no money")
	}
	// Figures pinned by the published references (unchanged rules keep the
	// figures of internal/analysis/figures.json).
	want := map[game.ID]map[game.BetKind]int64{
		game.Classic: {game.Main: 9970, game.Insurance: 9260},
		game.Royal:   {game.Main: 9969, game.RoyalSide: 7999, game.Insurance: 9411},
		game.FreeBet: {game.Main: 9845, game.AnyPair: 9590, game.TwentyOne: 9629, game.Hot3: 9459, game.BustIt: 9411, game.Insurance: 9253},
		game.Zappit:  {game.Insurance: 9260},
	}
	for id, bets := range want {
		for _, f := range figs[id] {
			if w, ok := bets[f.Bet]; ok && f.RTP != w {
				t.Errorf("%s %s = %d, want %d", id, f.Bet, f.RTP, w)
			}
		}
	}
	// Zappit at the worst bet: three spots at 25.00 under the 100.00 cap.
	z := figs[game.Zappit][0]
	if z.WorstBet != 2500 || z.WorstSpots != 3 || z.RTP >= 9895 || z.RTP < 9700 {
		t.Errorf("Zappit main = %+v, want at the worst bet 3 × 25.00, below the uncapped 98.95 %% and above 97 %%", z)
	}
}

// A min_rtp above a game's return refuses it, naming the game, the wager,
// its figure and the minimum; the error is typed.
func TestRefusedByMinRTP(t *testing.T) {
	cfg := shipped(t)
	in, err := FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	in.MinRTP = 9300 // above Free Bet's insurance (92.53 %) and Royal Poker's side bet (79.99 %)
	_, err = NewGuard().Check(context.Background(), in)
	var re *RefusedError
	if !errors.As(err, &re) || !errors.Is(err, ErrRefused) {
		t.Fatalf("Check(min_rtp 93.00) = %v, want a *RefusedError", err)
	}
	if re.Game != game.Royal || re.Bet != game.RoyalSide || re.RTP != 7999 || re.MinRTP != 9300 {
		t.Errorf("refused %+v, want royal royalpoker 7999 under 9300", re)
	}
	for _, want := range []string{"royal", "royalpoker", "79.99 %", "93.00 %"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}

// The preset Zappit table (max bet 1000.00 on three spots, cap 100.00) is
// refused at the worst bet; with no cap it passes.
func TestZappitCapRefused(t *testing.T) {
	in, err := FromConfig(shipped(t))
	if err != nil {
		t.Fatal(err)
	}
	in.Games = []game.ID{game.Zappit}
	r := in.Rules[game.Zappit]
	r.MaxBet = 100000
	in.Rules[game.Zappit] = r
	_, err = NewGuard().Check(context.Background(), in)
	var re *RefusedError
	if !errors.As(err, &re) || re.Game != game.Zappit || re.Bet != game.Main || re.WorstBet != 100000 || re.WorstSpots != 3 {
		t.Fatalf("Check(zappit 1000.00 × 3, cap 100.00) = %v, want the main bet refused at the worst bet", err)
	}
	r.WinCap = 0
	in.Rules[game.Zappit] = r
	figs, err := NewGuard().Check(context.Background(), in)
	if err != nil || figs[game.Zappit][0].RTP != 9895 || figs[game.Zappit][0].WorstBet != 0 {
		t.Errorf("Check(zappit without cap) = %+v, %v; want 98.95 %% at any bet", figs[game.Zappit], err)
	}
}
