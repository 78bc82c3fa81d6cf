package poker_test

import (
	"fmt"

	"cabinet/internal/game/card"
	"cabinet/internal/game/poker"
)

func ExampleEval() {
	a := [5]card.Card(card.MustParse("AS 7D 8C 9H 10S"))
	b := [5]card.Card(card.MustParse("KS KD 7C 8H 9S"))
	va, vb := poker.Eval(a, true), poker.Eval(b, true)
	fmt.Println(va, "|", vb, "|", va > vb)
	// Output: straight 10 | one pair K 9 8 7 | true
}
