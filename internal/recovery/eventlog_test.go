package recovery

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"cabinet/internal/meters"
)

// TestNoiseNeverEvictsSignificant: however much device noise is logged,
// the significant events stay (each ring trims only itself), the log
// reads back in one sequence, newest first, and the store checks.
func TestNoiseNeverEvictsSignificant(t *testing.T) {
	s, _ := openTest(t, Options{Init: true, EventDepth: 1000})
	sig := []string{meters.KindPowerUp, meters.KindMemoryClear, meters.KindConfigChange, meters.KindDoor, meters.KindTilt, meters.KindHost}
	update(t, s, "significant", func(tx *Tx) error {
		for _, k := range sig {
			if err := tx.Log(k, k); err != nil {
				return err
			}
		}
		return nil
	})
	for batch := range 5 {
		update(t, s, "noise", func(tx *Tx) error {
			for i := range 1000 {
				if err := tx.LogEvent(meters.Event{Kind: meters.KindDevice, Text: fmt.Sprintf("noise %d.%d", batch, i)}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	update(t, s, "door", func(tx *Tx) error { return tx.Log(meters.KindDoor, "last") })
	var evs []meters.Event
	if err := s.View(func(tx *Tx) error { var err error; evs, err = tx.Events(0); return err }); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for i, e := range evs {
		kinds[e.Kind]++
		if i > 0 && e.Seq >= evs[i-1].Seq {
			t.Fatalf("Events(0)[%d].Seq = %d after %d, want newest first, no repeat", i, e.Seq, evs[i-1].Seq)
		}
	}
	for _, k := range sig {
		if kinds[k] == 0 {
			t.Errorf("after 5000 noise events the log has no %s event: %v", k, kinds)
		}
	}
	if kinds[meters.KindDevice] != 1000 {
		t.Errorf("noise kept = %d, want the ring's 1000", kinds[meters.KindDevice])
	}
	// 1 initialisation + 6 + 5000 noise + 1 door
	if evs[0].Text != "last" || evs[0].Seq != 5008 || evs[1].Text != "noise 4.999" || evs[1].Seq != 5007 {
		t.Errorf("newest = %+v, %+v, want the door (5008) then the last noise (5007)", evs[0], evs[1])
	}
	var three []meters.Event
	if err := s.View(func(tx *Tx) error { var err error; three, err = tx.Events(3); return err }); err != nil || len(three) != 3 || three[2].Seq != 5006 {
		t.Errorf("Events(3) = %v, %v, want the 3 newest", three, err)
	}
}

// TestCheckEventRings: a noise event in the ring of significant events, a
// significant one among the noise, or one sequence number in both rings is
// a corrupt store.
func TestCheckEventRings(t *testing.T) {
	tests := []struct {
		name string
		edit func(t *testing.T, path string)
		text string
	}{
		{"noise among the significant", func(t *testing.T, path string) {
			rawPut(t, path, bEvents, seqKey(50), meters.Event{Seq: 50, Kind: meters.KindDevice})
		}, "events/#50: device noise (device) in the ring of significant events"},
		{"significant among the noise", func(t *testing.T, path string) {
			rawPut(t, path, bNoise, seqKey(50), meters.Event{Seq: 50, Kind: meters.KindDoor})
		}, "noise/#50: significant event door in the ring of device noise"},
		{"one number in both rings", func(t *testing.T, path string) {
			rawPut(t, path, bNoise, seqKey(1), meters.Event{Seq: 1, Kind: meters.KindDevice})
		}, "noise/#1: sequence number also used in events"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, path := openCut(t)
			update(t, s, "noise", func(tx *Tx) error { return tx.LogEvent(meters.Event{Kind: meters.KindDevice, Text: "x"}) })
			if err := s.Check(); err != nil {
				t.Fatalf("Check before = %v", err)
			}
			s.Close()
			tt.edit(t, path)
			err := checkPath(t, path)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("Check = %v, want ErrCorrupt mentioning %q", err, tt.text)
			}
		})
	}
}

// TestFormatOneStoreGetsTheNoiseRing: a store made before the noise ring
// (format 1) checks as it is, and its first noise event creates the ring
// and marks it format 2; a format-1 store with a noise ring, or a format
// newer than this program's, is corrupt.
func TestFormatOneStoreGetsTheNoiseRing(t *testing.T) {
	format := func(t *testing.T, path string) int {
		t.Helper()
		s, err := Open(path, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var sm storeMeta
		if err := s.View(func(tx *Tx) error { _, err := tx.get(bMeta, kStore, &sm); return err }); err != nil {
			t.Fatal(err)
		}
		return sm.Format
	}
	old := func(t *testing.T) string {
		t.Helper()
		s, path := openCut(t)
		var sm storeMeta
		if err := s.View(func(tx *Tx) error { _, err := tx.get(bMeta, kStore, &sm); return err }); err != nil {
			t.Fatal(err)
		}
		s.Close()
		sm.Format = 1
		rawPut(t, path, bMeta, kStore, sm)
		return path
	}
	path := old(t)
	if err := checkPath(t, path); err != nil {
		t.Fatalf("Check of a format-1 store = %v", err)
	}
	s, err := Open(path, Options{Now: fixedClock()})
	if err != nil {
		t.Fatal(err)
	}
	update(t, s, "noise", func(tx *Tx) error { return tx.LogEvent(meters.Event{Kind: meters.KindDevice, Text: "x"}) })
	s.Close()
	if f := format(t, path); f != 2 {
		t.Errorf("format after the first noise event = %d, want 2", f)
	}
	if err := checkPath(t, path); err != nil {
		t.Errorf("Check after the first noise event = %v", err)
	}

	path = old(t)
	rawPut(t, path, bNoise, seqKey(9), meters.Event{Seq: 9, Kind: meters.KindDevice})
	if err := checkPath(t, path); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "a noise ring in a store of format 1") {
		t.Errorf("Check of a format-1 store with a noise ring = %v", err)
	}
	path = old(t)
	rawPut(t, path, bMeta, kStore, storeMeta{Format: 3})
	if err := checkPath(t, path); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "store format 3, want 2 at most") {
		t.Errorf("Check of a format-3 store = %v", err)
	}
}
