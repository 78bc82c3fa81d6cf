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
