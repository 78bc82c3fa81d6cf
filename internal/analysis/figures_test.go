package analysis

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
)

var update = flag.Bool("update", false, "rewrite figures.json from the analyser")

// TestFigures recomputes every figure under the default rules (the main
// games with the analyser shared by the engine tests) and compares with the
// committed figures.json; -update rewrites it.
func TestFigures(t *testing.T) {
	all := map[game.ID][]Figure{}
	for _, id := range blackjackGames {
		r, _ := blackjack.Preset(id)
		_, main := strategyFor(t, r)
		rep, err := analyseSides(context.Background(), r, DefaultProgressive())
		if err != nil {
			t.Fatal(err)
		}
		rep.Main = main
		all[id] = reportFigures(rep)
		for _, f := range all[id] {
			if f.RTP <= 5000 || f.RTP >= 10000 {
				t.Errorf("%s %s: RTP %d hundredths of a percent, want a house game between 50 %% and 100 %%", id, f.Bet, f.RTP)
			}
		}
	}
	if *update {
		b, err := json.MarshalIndent(all, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("figures.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed, err := decodeFigures(figuresJSON)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(committed, all); d != "" {
		t.Errorf("%v: run `go test ./internal/analysis -run TestFigures -update` (-committed +computed):\n%s", ErrStale, d)
	}
	for _, id := range blackjackGames {
		fs, err := Figures(id)
		if err != nil || len(fs) == 0 || fs[0].Bet != game.Main {
			t.Errorf("Figures(%s) = %v, %v; want the main bet first", id, fs, err)
		}
	}
	if _, err := Figures(game.Duel); err == nil {
		t.Errorf("Figures(duel) succeeded, want ErrUnknownGame")
	}
}
