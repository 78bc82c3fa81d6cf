package controller

import (
	"testing"

	"cabinet/internal/game"
)

// BenchmarkAutoStep measures whole committed steps of autoplay through the
// controller's entry point on a real store file: the lit-button presses
// that lead to the step (each published), the engine step, one fsync'd
// bbolt transaction and the snapshot.
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
