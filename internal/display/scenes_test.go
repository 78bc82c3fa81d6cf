package display

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	var s view.Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		tb.Fatal(err)
	}
	return &s
}
