package par

import (
	"context"
	"fmt"
	"math"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// The win cap at the worst bet (Zappit, games.md §3: the round's net win,
// every hand and insurance together, is capped) joins every spot's hands in
// one sum, which the recursion over one hand cannot value. Its cost is
// therefore simulated on the real engine: every spot at the maximum bet,
// every hand played by the analyser's own player (Values.Choose), a freshly
// shuffled shoe every round as the game deals, the money the engine
// withholds above the cap (its "wincap" note) averaged. The capped return
// is the exact uncapped one less that average:
//
//	RTP = 1 + EV/Staked − Excess/(Spots·Staked)
//
// (EV and Staked per spot, exact; a spot's expectation does not depend on
// the other spots' cards, which it never sees). The figure carries the
// simulation's 95 % interval. The simulation is deterministic: rounds are
// played in blocks, each seeded from (CapSeed, block number), and summed in
// block order, so the figure does not depend on the number of cores.
// The player does not change its play near the cap (as the analyser
// assumes everywhere: a fixed, composition-dependent strategy).

// CapRounds and CapSeed are the simulation's size and seed.
const (
	CapRounds = 3_000_000
	CapSeed   = 20261124
	capBlock  = 20_000
)

// CapEstimate is the simulated cost of a win cap.
type CapEstimate struct {
	Rounds int    `json:"rounds"`
	Seed   uint64 `json:"seed"`
	Spots  int    `json:"spots"`
	// Excess is the mean money withheld per round, in units of one spot's
	// bet, and ExcessSE its standard error; Capped the share of rounds the
	// cap bound.
	Excess   float64 `json:"excess"`
	ExcessSE float64 `json:"excess_se"`
	Capped   float64 `json:"capped"`
}

// simulateCap plays rounds of r (its cap in force) at the worst bet.
func simulateCap(ctxt context.Context, r blackjack.Rules, rounds int, seed uint64) (CapEstimate, error) {
	spots := max(1, r.MaxSpots)
	est := CapEstimate{Rounds: rounds, Seed: seed, Spots: spots}
	bets := make([]game.Bet, spots)
	for i := range bets {
		bets[i] = game.Bet{Spot: i, Kind: game.Main, Amount: r.MaxBet}
	}
	nb := (rounds + capBlock - 1) / capBlock
	type sums struct{ x, xx, capped float64 }
	blocks := make([]sums, nb)
	err := simWorkers(ctxt, r, nb, func(b int, rd *blackjack.Round, ch *roundChooser, buf *simBuf) error {
		// A block starts from a new shoe in deck order: the lazy
		// Fisher–Yates draw permutes the cards in place, so a shoe carried
		// over from another block would make the figure depend on which
		// worker played which block.
		shoe := card.NewShoe(r.Decks)
		shoe.Rand = blockSeed(seed, b)
		var s sums
		for k := range min(capBlock, rounds-b*capBlock) {
			shoe.Pos = 0 // a fresh shuffle, drawn lazily
			var x float64
			err := buf.play(rd, ch, shoe, uint64(b*capBlock+k+1), bets, func(e game.Event) {
				if e.Kind == game.Note && e.Text == "wincap" {
					x += float64(e.Amount) / float64(r.MaxBet)
				}
			})
			if err != nil {
				return fmt.Errorf("par: cap simulation, round %d: %w", b*capBlock+k+1, err)
			}
			s.x += x
			s.xx += x * x
			if x > 0 {
				s.capped++
			}
		}
		blocks[b] = s
		return nil
	})
	if err != nil {
		return est, fmt.Errorf("par: cap simulation: %w", err)
	}
	var t sums
	for _, s := range blocks {
		t.x += s.x
		t.xx += s.xx
		t.capped += s.capped
	}
	n := float64(rounds)
	est.Excess = t.x / n
	est.ExcessSE = math.Sqrt(max(0, t.xx/n-est.Excess*est.Excess) / n)
	est.Capped = t.capped / n
	return est, nil
}
