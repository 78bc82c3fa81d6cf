package par

import (
	"bytes"
	"context"
	"testing"

	"cabinet/internal/analysis/par/partest"
	"cabinet/internal/game/blackjack"
)

// TestCapFloorGrid: over 1 to 3 spots and bets from a tenth of the cap to
// twice the cap (Zappit's 100.00 cap), the floor the guard uses is never
// above the return of the analyser's player simulated on the engine beyond
// the simulation's 95 % interval (it is a lower bound), and lies within 1
// point of it beyond that interval. The long grid is `cabinet par
// --cap-grid`.
func TestCapFloorGrid(t *testing.T) {
	if partest.RaceEnabled() {
		t.Skip("pure computation, run without -race by scripts/test")
	}
	r := blackjack.Zappit()
	r.WinCap = 10000
	pts, err := CapGrid(context.Background(), r, []int{1, 2, 3}, GridBets(r), partest.Rounds(100_000, CapRounds), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteCapGrid(&b, r.WinCap, pts, 0.01)
	t.Logf("\n%s", b.String())
	for _, p := range pts {
		const tol = 0.01
		switch {
		case p.Above():
			t.Errorf("%d spot(s) at %v: floor %.4f %% above the simulated %.4f %% ± %.4f", p.Spots, p.Bet, 100*p.Floor, 100*p.Sim, 100*p.HalfWidth)
		case p.Gap()-p.HalfWidth > tol:
			t.Errorf("%d spot(s) at %v: floor %.4f %% more than %.1f point(s) below the simulated %.4f %% ± %.4f", p.Spots, p.Bet, 100*p.Floor, 100*tol, 100*p.Sim, 100*p.HalfWidth)
		}
	}
}
