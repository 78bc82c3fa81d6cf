package controller

import (
	"errors"
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/duel"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
)

// TestDuelMarksSurvivePowerCut: the cards the player marks for Poker Duel's
// draw are committed in the open round's record (duel.go, draw marks). A
// power cut after the marks and before DRAW (the store reopened by a new
// controller) resumes the deal showing the same marks, and DRAW then
// exchanges exactly those cards and clears them.
func TestDuelMarksSurvivePowerCut(t *testing.T) {
	r := newRig(t, 3)
	// Autoplay buys a session and plays the betting up to the player's draw.
	for i := 0; ; i++ {
		if rd, ok := r.c.Round().(*duel.Round); ok && rd.Phase == duel.PhaseDraw && slices.Contains(rd.Legal(r.c.Credits()), game.Draw) {
			break
		}
		if i == 200 {
			t.Fatal("no player's draw in 200 autoplay steps")
		}
		if err := r.c.Handle(Input{Auto: &AutoStep{Game: game.Duel}}); err != nil {
			t.Fatalf("AutoStep: %v", err)
		}
	}
	want := [5]bool{true, false, true, false, false}
	r.pressLit(hw.Special) // card 1
	r.pressLit(hw.Spot)
	r.pressLit(hw.Spot)
	r.pressLit(hw.Special) // card 3
	r.pressLit(hw.Spot)
	r.pressLit(hw.Spot)
	r.pressLit(hw.Special) // card 5, then unmarked
	r.pressLit(hw.Special)
	if got := r.c.Snapshot().DuelInput.Marked; got != want {
		t.Fatalf("marks shown before the cut %v, want %v", got, want)
	}
	table := string(mustJSON(r.c.Round().Table()))

	r.boot() // the power cut: a new controller on the same bbolt file

	if got := string(mustJSON(r.c.Round().Table())); got != table {
		t.Fatalf("resume changed the deal:\n before %s\n after  %s", table, got)
	}
	if got := r.c.Snapshot().DuelInput.Marked; got != want {
		t.Fatalf("marks shown after the power cut %v, want %v (lost across the cut)", got, want)
	}
	var stored []int
	if err := r.st.View(func(tx *recovery.Tx) error {
		o, err := tx.OpenRound()
		if o != nil {
			stored = o.Marks
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(stored, []int{0, 2}) {
		t.Fatalf("open round record marks %v, want [0 2]", stored)
	}

	// DRAW exchanges the marked cards, as if the power had not gone.
	b, ok := litButtonFor(r.be.Lamps(), r.c.Round().Legal(r.c.Credits()), game.Draw)
	if !ok {
		t.Fatalf("no lit DRAW after the resume (lamps %b)", r.be.Lamps())
	}
	r.pressLit(b)
	var steps []meters.Step
	if o := r.c.led.cur().open; o != nil {
		steps = o.Steps
		if len(o.Marks) != 0 {
			t.Fatalf("marks %v left in the open round after the draw", o.Marks)
		}
	} else {
		if err := r.st.View(func(tx *recovery.Tx) error {
			recs, err := tx.Recall(1)
			if len(recs) > 0 {
				steps = recs[0].Steps
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	var drew *duel.Params
	for _, st := range steps {
		if st.Action.Kind == game.Draw {
			p, err := duel.ParamsOf(st.Action)
			if err != nil {
				t.Fatal(err)
			}
			drew = &p
		}
	}
	if drew == nil || !slices.Equal(drew.Discard, []int{0, 2}) {
		t.Fatalf("the player's draw %+v, want the marked cards [0 2] exchanged", drew)
	}
	if got := r.c.Snapshot().DuelInput.Marked; got != ([5]bool{}) {
		t.Fatalf("marks shown after the draw %v, want none", got)
	}
}

// TestDuelMarkRefusedWithoutDeal: a mark with no Poker Duel deal open is
// refused, naming why, and writes nothing.
func TestDuelMarkRefusedWithoutDeal(t *testing.T) {
	r := newRig(t, 3)
	before := r.c.led.commits()
	if err := r.c.scr.duelMark(0); !errors.Is(err, ErrNotNow) {
		t.Fatalf("mark with no deal = %v, want ErrNotNow", err)
	}
	if err := r.c.scr.duelMark(5); err == nil {
		t.Fatal("mark of card position 5 accepted")
	}
	if r.c.led.commits() != before {
		t.Fatalf("%d commits for refused marks", r.c.led.commits()-before)
	}
}
