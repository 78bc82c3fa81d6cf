package blackjack

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGoldenEncoding pins the stored encoding of a round (version 1) and of
// its events: a change here breaks rounds already in a store and must come
// with a new Version.
func TestGoldenEncoding(t *testing.T) {
	r, err := New(FreeBet(), 42)
	if err != nil {
		t.Fatal(err)
	}
	shoe := card.NewStack(card.MustParse("8S 10H 8D 6C 3H KD")...)
	var evs []game.Event
	for _, a := range []game.Action{
		{Kind: game.Deal, Funds: 10000, Bets: []game.Bet{main(0, 1000), side(0, game.AnyPair, 100), side(0, game.BustIt, 100)}},
		{Kind: game.Split, Funds: 8800},
		{Kind: game.Stand, Funds: 8800},
	} {
		ev, err := r.Apply(a, shoe)
		if err != nil {
			t.Fatalf("Apply(%v) = %v, want success", a.Kind, err)
		}
		evs = append(evs, ev...)
	}
	for name, v := range map[string]any{"round-v1.json": r, "events-v1.json": evs} {
		got, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(append(got, '\n'), want) {
			t.Errorf("encoding of %s changed:\n%s\nwant:\n%s", name, got, want)
		}
	}
}
