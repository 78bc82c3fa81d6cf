package display

import (
	"testing"

	"cabinet/internal/view"
)

// TestLayeredMatchesFull: a frame drawn as Run draws it (the cached still
// layer and the moving layer over it) is the full frame but for the pulse
// of the halos (a few pixels), for every layered scenario screen; and a new
// snapshot is drawn at once, not the cached picture of the previous one.
func TestLayeredMatchesFull(t *testing.T) {
	o := offscreen(t)
	for _, name := range []string{"classic", "classic-bet", "royal", "freebet", "zappit", "menu", "help-royal", "audit-meters", "operator", "tilt", "handpay", "refuse-max"} {
		s := screen(t, name)
		if !layered(s) {
			t.Errorf("%s: not layered", name)
			continue
		}
		full, err := o.image(s, 0, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		lay, err := o.layeredImage(s, 0)
		if err != nil {
			t.Fatal(err)
		}
		off, err := offPixels(lay, full)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d pixels differ", name, off)
		if off > ScreenW*ScreenH/100 {
			t.Errorf("%s: layered frame differs from the full frame in %d pixels, want under 1 %%", name, off)
		}
	}
	// A change of snapshot (one cent of credit) shows in the next frame.
	a := screen(t, "classic")
	b := screen(t, "classic")
	b.Seq++
	b.Credits++
	ia, err := o.layeredImage(a, 0)
	if err != nil {
		t.Fatal(err)
	}
	ib, err := o.layeredImage(b, 0)
	if err != nil {
		t.Fatal(err)
	}
	if off, _ := offPixels(ib, ia); off < 50 {
		t.Errorf("new snapshot drew %d pixels differently from the previous one, want its credit digits redrawn", off)
	}
	if layered(&view.Snapshot{Mode: view.Attract}) || layered(screen(t, "duel")) {
		t.Error("attract and Poker Duel move as a whole: they must be drawn in full")
	}
}
