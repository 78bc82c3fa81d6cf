package controller

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/view"
)

// TestSnapshotFromValues draws screens from values alone, with no store and
// no controller: the snapshot is a function of the committed state, the
// screen and the audit pages' data. Drawn twice, it is the same.
func TestSnapshotFromValues(t *testing.T) {
	set := testSettings()
	pr := presenter{set: &set, digest: "d1g35t", version: "v9"}
	draw := func(cs state, u *screen, pg pages) *view.Snapshot {
		t.Helper()
		s := pr.snapshot(7, cs, u, pg)
		if again := pr.snapshot(7, cs, u, pg); !cmp.Equal(s, again) {
			t.Fatalf("the same values drew two snapshots: %s", cmp.Diff(s, again))
		}
		return s
	}

	t.Run("menu, with the lamps of the screen's table", func(t *testing.T) {
		var cs state
		cs.m.Credits, cs.m.PoolUnits = 2500, 2000000*PoolUnitsPerCent
		u := &screen{mode: view.Menu, game: game.Classic}
		u.panel.set(hw.Deal, func() error { return nil })
		u.panel.refuse(hw.Hit, NoticeNoRound)
		s := draw(cs, u, pages{})
		if s.Seq != 7 || s.Mode != view.Menu || s.Credits != 2500 || s.Jackpot != 2000000 || s.Game != game.Classic || s.Message != "" {
			t.Errorf("snapshot = seq %d mode %s credits %v jackpot %v game %s message %q", s.Seq, s.Mode, s.Credits, s.Jackpot, s.Game, s.Message)
		}
		if want := (hw.ButtonSet(0)).With(hw.Deal); s.Lamps != want {
			t.Errorf("Lamps = %v, want %v (the entries with an action)", s.Lamps, want)
		}
		if len(s.Games) != len(set.Games) {
			t.Errorf("Games = %d, want %d", len(s.Games), len(set.Games))
		}
	})

	t.Run("a door open over the menu, the host's lock-out", func(t *testing.T) {
		var cs state
		cs.m.Credits = 100
		cs.switches[hw.MainDoor] = true
		cs.host.PlayLocked = true
		s := draw(cs, &screen{mode: view.Menu, game: game.Royal}, pages{})
		if s.Mode != view.Tilt || s.Under != view.Menu || !slices.Equal(s.Tilts, []string{"main_door"}) {
			t.Errorf("mode %s under %s tilts %v, want tilt over menu (main_door)", s.Mode, s.Under, s.Tilts)
		}
		cs.switches[hw.MainDoor] = false
		if s := draw(cs, &screen{mode: view.Menu, game: game.Royal}, pages{}); s.Message != NoticeHostLocked {
			t.Errorf("Message = %q, want %q while the host locks play out", s.Message, NoticeHostLocked)
		}
	})

	t.Run("the audit's event page from the pages' data", func(t *testing.T) {
		var cs state
		cs.switches[hw.AuditKey] = true
		cs.memErr = fmt.Errorf("%w: test", ErrMemory)
		var pg pages
		for i := range 25 {
			pg.events = append(pg.events, meters.Event{Seq: uint64(25 - i), At: time.Date(2026, 11, 25, 10, 0, i, 0, time.UTC), Kind: meters.KindDoor, Text: "main door opened"})
		}
		u := &screen{mode: view.Attract, auditPage: slices.Index(auditPages, "events"), eventPage: 1}
		s := draw(cs, u, pg)
		a := s.Audit
		if s.Mode != view.Audit || a == nil || a.Page != "events" || a.EventPages != 2 || a.EventPage != 1 || len(a.Events) != 5 || a.Events[0].Seq != 5 {
			t.Fatalf("audit = %+v, want page 2 of 2 of the events with 5 lines from seq 5", a)
		}
		if a.Digest != "d1g35t" || a.Version != "v9" || len(a.Checks) == 0 || a.Checks[0].Key != "memory_error" {
			t.Errorf("audit digest %q version %q checks %v", a.Digest, a.Version, a.Checks)
		}
		if !slices.Equal(s.Tilts, []string{"memory_error"}) {
			t.Errorf("Tilts = %v, want the memory error of the state", s.Tilts)
		}
	})
}
