package rtp

import (
	"os"
	"path/filepath"
	"testing"

	"encoding/json"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/analysis"
	"cabinet/internal/game"
)

// TestFigures checks internal/analysis/figures.json (the figures of the
// shipped configuration used by samples and docs) against the figures the
// return check computes; -update rewrites it.
func TestFigures(t *testing.T) {
	figs, err := Check(t.Context(), shipped(t))
	if err != nil {
		t.Fatal(err)
	}
	all := map[game.ID][]analysis.Figure{}
	for id, fs := range figs {
		for _, f := range fs {
			all[id] = append(all[id], analysis.Figure{Bet: f.Bet, RTP: f.RTP, Method: f.Method})
		}
	}
	if *update {
		b, err := json.MarshalIndent(all, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "figures.json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed, err := analysis.DecodeFigures(analysis.Committed())
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(committed, all); d != "" {
		t.Errorf("figures.json is stale: run `go test ./internal/analysis/rtp -run TestFigures -update` (-committed +computed):\n%s", d)
	}
	for _, id := range []game.ID{game.Royal, game.FreeBet, game.Zappit, game.Classic} {
		fs, err := analysis.Figures(id)
		if err != nil || len(fs) == 0 || fs[0].Bet != game.Main {
			t.Errorf("Figures(%s) = %v, %v; want the main bet first", id, fs, err)
		}
	}
	if _, err := analysis.Figures(game.Duel); err == nil {
		t.Errorf("Figures(duel) succeeded, want ErrUnknownGame")
	}
}
