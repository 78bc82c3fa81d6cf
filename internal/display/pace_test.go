package display

import (
	"path/filepath"
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/scenario"
	"cabinet/internal/view"
)

// paceShots plays a Classic round step by step through the real
// controller: betting, the deal, the stand that lets the dealer play and
// settles the round.
func paceShots(t *testing.T) []scenario.Shot {
	t.Helper()
	shots, err := scenario.Play(scenario.Scenario{Name: "pace", Seed: 7, Script: `
		bill 100.00
		menu classic
		press deal
		press bet
		shot betting
		press deal
		shot dealt
		press stand
		shot settled
	`}, scenario.Options{Config: filepath.Join("..", "..", "configs", "cabinet.toml"), Dir: t.TempDir(), Digest: "x"})
	if err != nil {
		t.Fatal(err)
	}
	return shots
}

// cardsOf lists the cards a table shows face up, by place.
func cardsOf(tb *game.Table) map[int][]string {
	out := map[int][]string{}
	if tb == nil {
		return out
	}
	for i, h := range tb.Hands {
		for _, c := range h.Cards {
			out[i] = append(out[i], c.String())
		}
	}
	for _, c := range tb.Dealer.Cards {
		out[-1] = append(out[-1], c.String())
	}
	return out
}

// TestPaceNeverAhead: at every moment of every reveal, each card drawn is
// a card of the last committed snapshot, at its place (a prefix of that
// hand): the animation never shows anything the store has not committed.
// Cards come one at a time, the meters and results wait for the reveal,
// and the committed picture is shown whole at the end.
func TestPaceNeverAhead(t *testing.T) {
	shots := paceShots(t)
	p := newPacer(0.5)
	now := 0.0
	var before *view.Snapshot
	turned := false
	for _, sh := range shots {
		s := sh.Snap
		prevCount := -1
		for step := 0; step < 40; step++ {
			f := p.frame(s, now)
			if f.flying != nil && f.flying.Turn {
				turned = true
			}
			got, want := cardsOf(f.s.Round), cardsOf(s.Round)
			count := 0
			for place, cs := range got {
				if len(cs) > len(want[place]) || !slices.Equal(cs, want[place][:len(cs)]) {
					t.Fatalf("%s at %.2fs: place %d shows %v, committed %v", sh.Name, now, place, cs, want[place])
				}
				count += len(cs)
			}
			if prevCount >= 0 && count > prevCount+1 {
				t.Errorf("%s at %.2fs: %d cards appeared at once", sh.Name, now, count-prevCount)
			}
			prevCount = count
			if f.s != s && (f.s.Credits != before.Credits || f.s.Win != before.Win || f.s.Round.Paid != 0 || outcomes(f.s.Round)) {
				t.Errorf("%s at %.2fs: results shown during the reveal (credits %v, before %v)", sh.Name, now, f.s.Credits, before.Credits)
			}
			now += 0.125
		}
		if f := p.frame(s, now); f.s != s {
			t.Errorf("%s: after the reveal the committed snapshot is not shown whole", sh.Name)
		}
		before = s
	}
	if !turned {
		t.Error("the dealer's hole card never turned on its own before the draws")
	}
	// The deal was paced (one card at a time), not shown at once.
	p = newPacer(0.5)
	p.frame(shots[0].Snap, 0)
	if f := p.frame(shots[1].Snap, 0.01); f.s == shots[1].Snap || f.flying == nil {
		t.Error("the deal was not paced")
	}
	p.skip()
	if f := p.frame(shots[1].Snap, 0.02); f.s != shots[1].Snap {
		t.Error("skip did not show the committed picture at once")
	}
}

// TestPaceResumedAtOnce: a round resumed after a power cut, the first
// snapshot after boot, and a cabinet with pacing off show the committed
// picture at once.
func TestPaceResumedAtOnce(t *testing.T) {
	shots := paceShots(t)
	rec := screen(t, "recovered")
	if !rec.Recovered {
		t.Fatal("recovered screen not marked Recovered")
	}
	p := newPacer(0.5)
	p.frame(shots[0].Snap, 0)
	if f := p.frame(rec, 1); f.s != rec || f.flying != nil {
		t.Error("a resumed round was paced: it must show at once")
	}
	if f := newPacer(0.5).frame(shots[1].Snap, 0); f.s != shots[1].Snap {
		t.Error("the first snapshot after boot was paced")
	}
	off := newPacer(0)
	off.frame(shots[0].Snap, 0)
	if f := off.frame(shots[1].Snap, 0); f.s != shots[1].Snap {
		t.Error("pacing off still paced")
	}
}

// outcomes reports whether any hand of t shows a result.
func outcomes(t *game.Table) bool {
	for _, h := range t.Hands {
		if h.Outcome != "" {
			return true
		}
	}
	return t.Dealer.Outcome != "" || len(t.Side) > 0
}

// TestHoleCardTurnsAlone: while the dealer's hole card turns over, its
// back does not stay drawn full width under the narrowing card: at a
// quarter of the turn, the strips of its place left and right of the
// narrowed card show the felt.
func TestHoleCardTurnsAlone(t *testing.T) {
	o := offscreen(t)
	shots := paceShots(t)
	p := newPacer(1)
	now := 0.0
	for _, sh := range shots {
		for step := 0; step < 400; step++ {
			f := p.frame(sh.Snap, now)
			if f.flying != nil && f.flying.Turn && f.f > 0.2 && f.f < 0.3 {
				d := f.s.Round.Dealer
				slot := CardRects(dealerArea(), len(d.Cards)+d.Hidden, cardW, cardH, 0.62)[len(d.Cards)]
				img, err := o.pacedImage(f, now)
				if err != nil {
					t.Fatal(err)
				}
				// Right strip only: the left one may lie under the card before it.
				x := int(slot.X + slot.W - 6)
				felt, back := 0, 0
				for y := int(slot.Y + 10); y < int(slot.Y+slot.H-10); y += 4 {
					c := img.RGBAAt(x, y)
					if c.G > c.R {
						felt++
					} else {
						back++
					}
				}
				if back > 0 {
					t.Fatalf("at %.2f of the turn, %d of %d points of the hole card's place right of the turning card are not felt", f.f, back, back+felt)
				}
				return
			}
			now += 0.05
		}
	}
	t.Fatal("no hole card turned in the paced shots")
}

// TestChipsMoveAtSettlement: once the settling step's cards are shown,
// the settled hands' chips move (a win from the tray, a lost stake to it),
// for a while only; a button skips them; they replay the committed result
// (the same amounts), and a resumed round moves none.
func TestChipsMoveAtSettlement(t *testing.T) {
	shots := paceShots(t)
	settled := shots[len(shots)-1].Snap
	if !settled.Round.Done {
		t.Fatal("the last shot does not settle the round")
	}
	want := chipFlights(settled.Round)
	if len(want) == 0 {
		t.Fatal("the settled round has no chips to move")
	}
	p := newPacer(0.2)
	now := 0.0
	var seen []chipFlight
	moving := 0
	for _, sh := range shots {
		for step := 0; step < 200; step++ {
			f := p.frame(sh.Snap, now)
			if len(f.chips) > 0 {
				if f.s != settled || f.flying != nil {
					t.Fatalf("chips moving before the settlement is shown whole")
				}
				seen, moving = f.chips, moving+1
			}
			now += 0.02
		}
	}
	if moving == 0 || !slices.Equal(seen, want) {
		t.Fatalf("chips moved in %d frames: %+v, want %+v", moving, seen, want)
	}
	if moving >= 200 {
		t.Errorf("chips still moving after %d frames", moving)
	}
	// A skip ends them at once.
	p2 := newPacer(0.2)
	p2.frame(shots[len(shots)-2].Snap, 0)
	for now := 0.0; now < 5; now += 0.02 {
		if f := p2.frame(settled, now); len(f.chips) > 0 {
			p2.skip()
			if f := p2.frame(settled, now); len(f.chips) != 0 {
				t.Fatal("a skip left the chips moving")
			}
			break
		}
	}
	// A round resumed after a power cut shows at once: no chips.
	rec := *settled
	rec.Recovered = true
	p3 := newPacer(0.2)
	p3.frame(shots[len(shots)-2].Snap, 0)
	if f := p3.frame(&rec, 0.1); len(f.chips) != 0 || f.flying != nil {
		t.Error("a resumed round replayed its chips")
	}
}
