package duel

import (
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// BenchmarkHardDecision measures one decision of the hard level before the
// draw (its sampling estimate dominates the cost of a computer move).
func BenchmarkHardDecision(b *testing.B) {
	v := View{Deck: 52, Phase: PhaseBet1, Hand: [5]card.Card(card.MustParse("AS KD 9C 9H 2S")),
		Drew: -1, OpponentDrew: -1, Stack: 495, OpponentStack: 495, Pot: 10, Ante: 5,
		Legal: []game.ActionKind{game.Open, game.Wait, game.Pass}, MinBet: 5, MaxBet: 100}
	for b.Loop() {
		v.Rand++
		HardStrategy{}.Decide(v)
	}
}

// BenchmarkDeal measures a whole deal between the hard level and a
// checking player, JSON-free (what duel-eval runs).
func BenchmarkDeal(b *testing.B) {
	cfg := DefaultConfig()
	n := uint64(0)
	for b.Loop() {
		n++
		r, _ := New(cfg, NewSession(cfg, 52, Hard, n), n)
		shoe := &card.Shoe{Cards: card.Deck(), Rand: card.NewSeeded(n)}
		a := game.Action{Kind: game.Deal}
		for !r.Done() {
			if _, err := r.Apply(a, shoe); err != nil {
				b.Fatal(err)
			}
			if v, ok := r.PlayerView(); ok {
				a = (&script{}).Decide(v).Action()
			}
		}
	}
}
