package controller

import (
	"errors"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
)

// TestDuelBetClamped: whatever amount BET+ has chosen, the lit YES (open)
// button is accepted: the controller offers the amount clamped into what the
// deal allows now (duel.Round.BetRange), and the snapshot shows that amount;
// BET+ steps the amount shown by the ante up to the most allowed, then
// back to the ante.
func TestDuelBetClamped(t *testing.T) {
	tests := []struct {
		name    string
		cfg     func(*duel.Config)
		presses int   // BET+ presses before YES
		chosen  int64 // the amount BET+ has chosen (an ante more than shown, up to the most allowed, then the ante)
		want    int64 // the amount opened
	}{
		// 40 chips, ante 5: the player can put at most 35 in; six presses
		// step 10, 15 … 35, a seventh goes back to the ante.
		{"up to what the player can pay", func(c *duel.Config) { c.Stack = 40 }, 6, 35, 35},
		{"past it, back to the ante", func(c *duel.Config) { c.Stack = 40 }, 7, 5, 5},
		// The smallest open is 10; BET+ never pressed offers the ante, 5.
		{"below the minimum bet", func(c *duel.Config) { c.MinBet = 10 }, 0, 5, 10},
		// Issue 35: each press steps the amount shown, the first too.
		{"within the range", func(c *duel.Config) {}, 2, 15, 15},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := duel.DefaultConfig()
			tt.cfg(&cfg)
			r := newRigWith(t, 9, func(s *InForce) { s.Duel.Config = cfg })
			mustOK(r, r.insert(1000))
			r.chooseGame(game.Duel)
			r.pressLit(hw.Deal) // buy a session
			r.pressLit(hw.Deal) // deal: the player speaks first
			rd, ok := r.c.Round().(*duel.Round)
			if !ok || !r.be.Lamps().Has(hw.Yes) {
				t.Fatalf("deal: round %T lamps %b, want the player to open with YES lit", r.c.Round(), r.be.Lamps())
			}
			for range tt.presses {
				r.pressLit(hw.BetPlus)
			}
			if got := max(r.c.scr.duelAmount, cfg.Ante); got != tt.chosen {
				t.Fatalf("BET+ chose %d, want %d", got, tt.chosen)
			}
			lo, hi := rd.BetRange()
			if tt.want != tt.chosen && tt.chosen >= lo && tt.chosen <= hi {
				t.Fatalf("range %d..%d: the chosen %d would not need clamping", lo, hi, tt.chosen)
			}
			if got := r.c.Snapshot().DuelInput.Amount; got != tt.want {
				t.Fatalf("amount shown %d, want %d (range %d..%d)", got, tt.want, lo, hi)
			}
			// Unclamped, the engine would refuse the chosen amount.
			if tt.want != tt.chosen {
				scratch, err := decodeDuel(mustJSON(rd))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := scratch.Apply(duel.Act(game.Open, duel.Params{Amount: tt.chosen}), card.NewStack()); !errors.Is(err, game.ErrIllegal) {
					t.Fatalf("engine open %d = %v, want ErrIllegal", tt.chosen, err)
				}
			}
			r.pressLit(hw.Yes)
			var opened *duel.Move
			rd2, _ := r.c.Round().(*duel.Round)
			if rd2 == nil {
				rd2 = lastDuel(t, r)
			}
			for i, m := range rd2.Moves {
				if m.Who == duel.WhoPlayer && m.Kind == game.Open {
					opened = &rd2.Moves[i]
				}
			}
			if opened == nil || opened.Amount != tt.want {
				t.Fatalf("moves %+v, want the player's open of %d", rd2.Moves, tt.want)
			}
		})
	}
}

// lastDuel replays the last settled duel round from the recall.
func lastDuel(t *testing.T, r *rig) *duel.Round {
	t.Helper()
	var recs []meters.Recall
	if err := r.st.View(func(tx *recovery.Tx) error {
		var err error
		recs, err = tx.Recall(1)
		return err
	}); err != nil || len(recs) == 0 {
		t.Fatalf("recall: %v", err)
	}
	g, err := replay(recs[0].Game, recs[0].Rules, recs[0].Round, recs[0].Steps)
	if err != nil {
		t.Fatal(err)
	}
	rd, ok := g.(*duel.Round)
	if !ok {
		t.Fatalf("last round is %T", g)
	}
	return rd
}
