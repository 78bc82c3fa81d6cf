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
	for i, p := range pts {
		// A larger bet (or more spots) under the same cap never returns
		// more: the floor falls with the bet along each row.
		if i > 0 && pts[i-1].Spots == p.Spots && pts[i-1].Bet < p.Bet && p.Floor > pts[i-1].Floor+1e-12 {
			t.Errorf("%d spot(s): floor %.6f at %v above %.6f at %v", p.Spots, p.Floor, p.Bet, pts[i-1].Floor, pts[i-1].Bet)
		}
		const tol = 0.01
		switch {
		case p.Above():
			t.Errorf("%d spot(s) at %v: floor %.4f %% above the simulated %.4f %% ± %.4f", p.Spots, p.Bet, 100*p.Floor, 100*p.Sim, 100*p.HalfWidth)
		case p.Gap()-p.HalfWidth > tol:
			t.Errorf("%d spot(s) at %v: floor %.4f %% more than %.1f point(s) below the simulated %.4f %% ± %.4f", p.Spots, p.Bet, 100*p.Floor, 100*tol, 100*p.Sim, 100*p.HalfWidth)
		}
	}
}
