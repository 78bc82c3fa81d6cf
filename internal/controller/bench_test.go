package controller

import (
	"testing"

	"cabinet/internal/game"
)

// BenchmarkAutoStep measures whole committed steps through the controller on
// a real store file (engine step + one fsync'd bbolt transaction + snapshot).
// Compare with recovery's BenchmarkStepCommit and BenchmarkRawFdatasync.
func BenchmarkAutoStep(b *testing.B) {
	for _, id := range []game.ID{game.Classic, game.FreeBet, game.Royal, game.Zappit, game.Duel} {
		b.Run(string(id), func(b *testing.B) {
			r := newRig(b, 1)
			for b.Loop() {
				if err := r.c.Handle(Input{Auto: &AutoStep{Game: id}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
