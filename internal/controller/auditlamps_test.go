package controller

import (
	"encoding/json"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/hw"
)

// TestAuditLampsAct: on every audit page, each lit button acts there (its
// press changes what the page shows) and an unlit one is refused (issue
// 35: HIT, STAND, DOUBLE and SPLIT were lit on the meters, tickets,
// self-test and program pages, where they do nothing, and on the recall
// page past its oldest round or its first step). The recall's rounds and
// steps and the log's pages are walked to both ends.
func TestAuditLampsAct(t *testing.T) {
	r := newRig(t, 5)
	r.bill(5000)
	for start := r.c.Completed(); r.c.Completed() < start+3; {
		if err := r.c.Handle(Input{Auto: &AutoStep{Game: game.Classic}}); err != nil {
			t.Fatal(err)
		}
	}
	for range 15 { // events for two pages of the log
		r.set(hw.MainDoor, true)
		r.set(hw.MainDoor, false)
	}
	r.set(hw.AuditKey, true)
	shown := func() string {
		b, err := json.Marshal(r.c.Snapshot().Audit)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	back := map[hw.Button]hw.Button{hw.Hit: hw.Stand, hw.Stand: hw.Hit, hw.Double: hw.Split, hw.Split: hw.Double}
	// check presses every button but SPOT where the page is (but HIT and
	// STAND while walking a recalled round's steps: another round starts
	// at its last step), and comes back after each that moved.
	check := func(page string, steps bool) {
		t.Helper()
		for b := hw.Button(0); b < hw.NumButtons; b++ {
			if b == hw.Spot || steps && (b == hw.Hit || b == hw.Stand) {
				continue
			}
			lit, before := r.c.Snapshot().Lamps.Has(b), shown()
			err := r.press(b)
			after := shown()
			switch {
			case lit && (err != nil || after == before):
				t.Errorf("%s page: %s is lit but does nothing there (err %v)", page, b, err)
			case !lit && err == nil:
				t.Errorf("%s page: %s is unlit but was accepted", page, b)
			}
			if lit && after != before {
				if u := back[b]; r.c.Snapshot().Lamps.Has(u) {
					r.mustPress(u)
				}
				// DOUBLE from a round's last step goes round to its
				// first: DOUBLE again comes back.
				for i := 0; b == hw.Double && shown() != before && i < 50; i++ {
					r.mustPress(hw.Double)
				}
				// (Another round of the recall starts at its last step.)
				if shown() != before && !(page == "recall" && (b == hw.Hit || b == hw.Stand)) {
					t.Fatalf("%s page: %s then %s does not come back", page, b, back[b])
				}
			}
		}
	}
	pages := 0
	for seen := map[string]bool{}; ; {
		page := r.c.Snapshot().Audit.Page
		if seen[page] {
			break
		}
		seen[page] = true
		pages++
		check(page, false)
		for _, walk := range []hw.Button{hw.Hit, hw.Split} { // to the oldest round, then to its first step
			for i := 0; r.c.Snapshot().Lamps.Has(walk); i++ {
				if i > 50 {
					t.Fatalf("%s page: %s still lit after 50 presses", page, walk)
				}
				r.mustPress(walk)
				check(page, walk == hw.Split)
			}
		}
		want := hw.ButtonSet(0).With(hw.Spot)
		if l := r.c.Snapshot().Lamps; (page == "meters" || page == "tickets" || page == "selftest" || page == "program") && l != want {
			t.Errorf("%s page: lamps %v, want SPOT alone", page, l)
		}
		r.mustPress(hw.Spot)
	}
	if pages != len(auditPages) {
		t.Errorf("walked %d pages, want %d", pages, len(auditPages))
	}
}
