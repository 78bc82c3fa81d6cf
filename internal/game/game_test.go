package game

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestActionEncoding: grouping the Poker Duel fields in DuelAction left the
// stored encoding of an action unchanged: the same bytes out, and records
// written before the grouping read back into the same values.
func TestActionEncoding(t *testing.T) {
	tests := []struct {
		name string
		a    Action
		json string // as stored before DuelAction existed
	}{
		{"deal", Action{Kind: Deal, Funds: 5000, Bets: []Bet{{Spot: 1, Kind: Main, Amount: 500}}},
			`{"kind":"deal","funds":5000,"bets":[{"spot":1,"kind":"main","amount":500}]}`},
		{"void", Action{Kind: Void}, `{"kind":"void","funds":0}`},
		{"buy", Action{Kind: Buy, Funds: 100, DuelAction: DuelAction{Deck: 32, Level: "hard", Seed: 77}},
			`{"kind":"buy","funds":100,"deck":32,"level":"hard","seed":77}`},
		{"raise", Action{Kind: Raise, DuelAction: DuelAction{Amount: 20}}, `{"kind":"raise","funds":0,"amount":20}`},
		{"draw", Action{Kind: Draw, DuelAction: DuelAction{Discard: []int{0, 4}}}, `{"kind":"draw","funds":0,"discard":[0,4]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.a)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.json {
				t.Errorf("Marshal = %s, want %s", got, tc.json)
			}
			var back Action
			if err := json.Unmarshal([]byte(tc.json), &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tc.a) {
				t.Errorf("Unmarshal(%s) = %+v, want %+v", tc.json, back, tc.a)
			}
		})
	}
}
