package duel

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/game"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenRounds plays the fixture: a session bought, then one deal to the
// showdown (the player checks, exchanges three cards and checks; the
// scripted computer checks and stands pat).
func goldenRounds(t *testing.T) (buy, deal *Round, evs []game.Event) {
	t.Helper()
	cfg := DefaultConfig()
	buy, err := New(cfg, nil, 41)
	if err != nil {
		t.Fatal(err)
	}
	evs = append(evs, apply(t, buy, funded(Act(game.Buy, Params{Deck: 52, Level: Hard, Seed: 5}), 100000), stacked(""))...)
	deal, src, dealEvs := dealtEvents(t, cfg, true, nil)
	evs = append(evs, dealEvs...)
	for _, a := range []game.Action{
		{Kind: game.Wait},
		Act(game.Draw, Params{Discard: []int{2, 3, 4}}),
		{Kind: game.See},
	} {
		if deal.Done() {
			t.Fatalf("deal over before %s", a.Kind)
		}
		evs = append(evs, apply(t, deal, a, src)...)
	}
	if !deal.Done() {
		t.Fatalf("deal not over (phase %s, legal %v)", deal.Phase, deal.Legal(0))
	}
	return buy, deal, evs
}

// TestGoldenEncoding pins the stored encoding of Poker Duel rounds (version
// 1) and of their events: a change here breaks rounds already in a store and
// must come with a new Version and a case in Decode.
func TestGoldenEncoding(t *testing.T) {
	buy, deal, evs := goldenRounds(t)
	for name, v := range map[string]any{"buy-v1.json": buy, "round-v1.json": deal, "events-v1.json": evs} {
		got, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("encoding of %s changed:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// TestDecodeVersions: the pinned version-1 records decode to rounds that
// encode to the same bytes; a version-0 record (the same without "v",
// written before the field existed) reads as version 1; an unknown version,
// an unknown field or broken chips are refused with ErrCorrupt.
func TestDecodeVersions(t *testing.T) {
	v1, err := os.ReadFile(filepath.Join("testdata", "round-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	v0 := strings.Replace(string(v1), "  \"v\": 1,\n", "", 1)
	if v0 == string(v1) {
		t.Fatal("fixture has no \"v\": 1 line to remove")
	}
	tests := []struct {
		name    string
		in      string
		wantErr bool
	}{
		{"version 1", string(v1), false},
		{"version 0 (no v field)", v0, false},
		{"version 2", strings.Replace(string(v1), `"v": 1,`, `"v": 2,`, 1), true},
		{"negative version", strings.Replace(string(v1), `"v": 1,`, `"v": -1,`, 1), true},
		{"unknown field", strings.Replace(string(v1), `"v": 1,`, `"v": 1, "extra": true,`, 1), true},
		{"chips do not add up", strings.Replace(string(v1), `"pot": 0,`, `"pot": 7,`, 1), true},
		{"not JSON", "{", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.wantErr && tc.in == string(v1) {
				t.Fatal("fixture edit did not apply")
			}
			r, err := Decode([]byte(tc.in))
			if tc.wantErr {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("Decode = %v, want ErrCorrupt", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode = %v, want success", err)
			}
			got, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if string(got)+"\n" != string(v1) {
				t.Errorf("decoded round encodes as\n%s\nwant\n%s", got, v1)
			}
		})
	}
}
