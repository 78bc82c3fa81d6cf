package game

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestActionEncoding: an action encodes its game's payload as params; a
// record of the first format, Poker Duel's fields at the top level, reads
// back into the same params (every recorded round replays).
func TestActionEncoding(t *testing.T) {
	tests := []struct {
		name   string
		a      Action
		json   string // as written now
		legacy string // as the first format stored it ("" = the same)
	}{
		{"deal", Action{Kind: Deal, Funds: 5000, Bets: []Bet{{Spot: 1, Kind: Main, Amount: 500}}},
			`{"kind":"deal","funds":5000,"bets":[{"spot":1,"kind":"main","amount":500}]}`, ""},
		{"void", Action{Kind: Void}, `{"kind":"void","funds":0}`, ""},
		{"buy", Action{Kind: Buy, Funds: 100, Params: json.RawMessage(`{"deck":32,"level":"hard","seed":77}`)},
			`{"kind":"buy","funds":100,"params":{"deck":32,"level":"hard","seed":77}}`,
			`{"kind":"buy","funds":100,"deck":32,"level":"hard","seed":77}`},
		{"raise", Action{Kind: Raise, Params: json.RawMessage(`{"amount":20}`)}, `{"kind":"raise","funds":0,"params":{"amount":20}}`,
			`{"kind":"raise","funds":0,"amount":20}`},
		{"draw", Action{Kind: Draw, Params: json.RawMessage(`{"discard":[0,4]}`)}, `{"kind":"draw","funds":0,"params":{"discard":[0,4]}}`,
			`{"kind":"draw","funds":0,"discard":[0,4]}`},
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
			for _, stored := range []string{tc.json, tc.legacy} {
				if stored == "" {
					continue
				}
				var back Action
				if err := json.Unmarshal([]byte(stored), &back); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(back, tc.a) {
					t.Errorf("Unmarshal(%s) = %+v, want %+v", stored, back, tc.a)
				}
			}
		})
	}
}
