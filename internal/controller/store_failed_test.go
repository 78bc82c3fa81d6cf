package controller

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"cabinet/internal/hw/sim"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// TestFailedStoreTilts: every store failure boots a tilted controller, never
// an error that would make `cabinet run` exit (platform.md §4): a store
// rolled back behind its proof (readable: the audit still reads it), and a
// store bbolt cannot open (both meta pages damaged: nothing readable). Added
// by the store side (recovery now returns a failed Store for memory errors).
func TestFailedStoreTilts(t *testing.T) {
	setup := func(t *testing.T) (store, mirror string) {
		dir := t.TempDir()
		store, mirror = filepath.Join(dir, "c.db"), filepath.Join(dir, "c.mirror")
		_, st := testCabinet(t, Options{HW: sim.New(), RNG: SeededRNG{Seed: 1}, InForce: testSettings(), Now: time.Now},
			kitStore{path: store, opts: recovery.Options{Mirror: mirror}})
		_ = st.Close()
		return store, mirror
	}
	cases := map[string]func(t *testing.T, store, mirror string){
		"rolled back": func(t *testing.T, store, mirror string) {
			old, _ := os.ReadFile(store)
			_, st := testCabinet(t, Options{HW: sim.New(), RNG: SeededRNG{Seed: 1}, InForce: testSettings(), Now: time.Now},
				kitStore{path: store, opts: recovery.Options{Mirror: mirror}})
			_ = st.Close()
			if err := os.WriteFile(store, old, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"unopenable": func(t *testing.T, store, mirror string) {
			data, _ := os.ReadFile(store)
			ps := os.Getpagesize()
			clear(data[16:80])
			clear(data[ps+16 : ps+80])
			if err := os.WriteFile(store, data, 0o600); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			store, mirror := setup(t)
			damage(t, store, mirror)
			c, st := testCabinet(t, Options{HW: sim.New(), RNG: SeededRNG{Seed: 1}, InForce: testSettings(), Now: time.Now},
				kitStore{path: store, opts: recovery.Options{Mirror: mirror}, damaged: true})
			if st == nil {
				t.Fatalf("Open refused the store (StoreErr %v), want a failed store", c.Err())
			}
			if !errors.Is(c.Err(), recovery.ErrCorrupt) {
				t.Errorf("Err() = %v, want a memory error", c.Err())
			}
			s := c.Snapshot()
			if s.Mode != view.Tilt || !slices.Contains(s.Tilts, "memory_error") {
				t.Errorf("snapshot mode %s tilts %v, want the memory-error tilt", s.Mode, s.Tilts)
			}
		})
	}
}
