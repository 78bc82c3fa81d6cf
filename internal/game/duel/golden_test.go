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
// 2) and of their events: a change here breaks rounds already in a store and
// must come with a new Version and a case in Decode. (The version-1 round
// stays in testdata: TestDecodeVersions reads it.)
func TestGoldenEncoding(t *testing.T) {
	buy, deal, evs := goldenRounds(t)
	for name, v := range map[string]any{"buy-v2.json": buy, "round-v2.json": deal, "events-v2.json": evs} {
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

// TestDecodeVersions: the pinned version-2 record decodes to a round that
// encodes to the same bytes; a version-1 record (version 2 without the
// session's ai_rev) and a version-0 one (the same without "v") read as
// version 2 at the computer's revision 0, the play they were recorded with;
// an unknown version, an unknown field or broken chips are refused with
// ErrCorrupt.
func TestDecodeVersions(t *testing.T) {
	v2, err := os.ReadFile(filepath.Join("testdata", "round-v2.json"))
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Decode(v2)
	if err != nil {
		t.Fatalf("Decode(version 2) = %v", err)
	}
	if got, _ := json.MarshalIndent(r2, "", "  "); string(got)+"\n" != string(v2) {
		t.Errorf("version 2 encodes as\n%s\nwant\n%s", got, v2)
	}
	if r2.Sess == nil || r2.Sess.AIRev != CurrentAIRev {
		t.Errorf("version 2 session %+v, want ai_rev %d", r2.Sess, CurrentAIRev)
	}
	v1, err := os.ReadFile(filepath.Join("testdata", "round-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	// A version-1 record re-encodes as itself marked version 2 (ai_rev 0
	// is left out).
	v1as2 := strings.Replace(string(v1), "  \"v\": 1,\n", "  \"v\": 2,\n", 1)
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
		{"version 3", strings.Replace(string(v1), `"v": 1,`, `"v": 3,`, 1), true},
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
			if string(got)+"\n" != v1as2 {
				t.Errorf("decoded round encodes as\n%s\nwant\n%s", got, v1as2)
			}
			if r.Sess != nil && r.Sess.AIRev != 0 {
				t.Errorf("a version-%s record read at ai_rev %d, want 0 (the play it was recorded with)", tc.name, r.Sess.AIRev)
			}
		})
	}
}
