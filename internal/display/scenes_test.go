package display

import (
	"cabinet/internal/game/duel"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cabinet/internal/scenario"
	"cabinet/internal/view"
)

// The screens every test draws: the scenario library played once through
// the real controller (shipped configuration, a bbolt store in a temp dir,
// seeded cards), never hand-made snapshots.
var (
	scenesOnce sync.Once
	scenes     map[string][]byte
	scenesErr  error
)

// screen returns a fresh copy of the named scenario screen (tests may
// change it).
func screen(tb testing.TB, name string) *view.Snapshot {
	tb.Helper()
	scenesOnce.Do(func() {
		dir, err := os.MkdirTemp("", "display-scenes-")
		if err != nil {
			scenesErr = err
			return
		}
		defer os.RemoveAll(dir)
		all, err := scenario.PlayAll(scenario.Options{Config: filepath.Join("..", "..", "configs", "cabinet.toml"),
			Dir: dir, Digest: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"})
		if err != nil {
			scenesErr = err
			return
		}
		scenes = map[string][]byte{}
		for n, s := range all {
			if scenes[n], err = json.Marshal(s); err != nil {
				scenesErr = err
				return
			}
		}
	})
	if scenesErr != nil {
		tb.Fatalf("scenarios: %v", scenesErr)
	}
	b, ok := scenes[name]
	if !ok {
		tb.Fatalf("no scenario screen %q (have %v)", name, scenario.Screens())
	}
	return decodeSnapshot(tb, b)
}

// decodeSnapshot is a deep copy's way back from JSON. A table's Detail is an
// interface the generic picture cannot decode by itself (its type is the
// game's): Poker Duel's is decoded here into a duel.Picture.
func decodeSnapshot(tb testing.TB, b []byte) *view.Snapshot {
	tb.Helper()
	var s view.Snapshot
	err := json.Unmarshal(b, &s)
	var te *json.UnmarshalTypeError
	if err != nil && !(errors.As(err, &te) && strings.HasSuffix(te.Field, ".detail")) {
		tb.Fatal(err)
	}
	type detail struct {
		Detail *duel.Picture `json:"detail"`
	}
	var aux struct {
		Round *detail `json:"round"`
		Audit *struct {
			Recall *struct {
				Table detail `json:"table"`
			} `json:"recall"`
		} `json:"audit"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		tb.Fatal(err)
	}
	if aux.Round != nil && aux.Round.Detail != nil {
		s.Round.Detail = aux.Round.Detail
	}
	if a := aux.Audit; a != nil && a.Recall != nil && a.Recall.Table.Detail != nil {
		s.Audit.Recall.Table.Detail = a.Recall.Table.Detail
	}
	return &s
}
