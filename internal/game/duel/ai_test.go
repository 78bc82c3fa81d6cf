package duel

import (
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// TestComputerDrawsSensibly: at both levels the computer draws as games.md
// §5 asks of it — keeps pairs and better, four to a flush or to an open
// straight, stands pat on a made hand. The Easy level's first revision
// (AIRev 0, kept to replay the deals recorded with it) threw the draws away.
func TestComputerDrawsSensibly(t *testing.T) {
	tests := []struct {
		name, hand string
		deck       int
		discard    []int // positions exchanged
	}{
		{"four to a flush", "AS KS QS 9S 2H", 52, []int{4}},
		{"open straight", "9H 10D JC QS 3H", 52, []int{4}},
		{"open straight, 32 cards", "7H 8D 9C 10S KH", 32, []int{4}},
		{"a pair", "QH QD 2C 7S 9H", 52, []int{2, 3, 4}},
		{"two pairs", "QH QD 7C 7S 9H", 52, []int{4}},
		{"a straight stands pat", "5H 6D 7C 8S 9H", 52, nil},
	}
	for _, tt := range tests {
		var h [5]card.Card
		copy(h[:], card.MustParse(tt.hand))
		v := View{Deck: tt.deck, Phase: PhaseDraw, Hand: h, Legal: []game.ActionKind{game.Draw}}
		for _, s := range []Strategy{LevelStrategy(Easy, CurrentAIRev), LevelStrategy(Hard, CurrentAIRev)} {
			d := s.Decide(v)
			got := slices.Sorted(slices.Values(d.Discard))
			if d.Kind != game.Draw || !slices.Equal(got, tt.discard) {
				t.Errorf("%T.Decide(%s) = %s %v, want draw %v", s, tt.name, d.Kind, got, tt.discard)
			}
		}
	}
	// Revision 0 of the Easy level, as recorded deals replay it.
	var h [5]card.Card
	copy(h[:], card.MustParse("AS KS QS 9S 2H"))
	d := LevelStrategy(Easy, 0).Decide(View{Deck: 52, Phase: PhaseDraw, Hand: h})
	if got := slices.Sorted(slices.Values(d.Discard)); !slices.Equal(got, []int{2, 3, 4}) {
		t.Errorf("Easy at revision 0 draws %v to a four-flush, want [2 3 4] (its recorded play)", got)
	}
}
