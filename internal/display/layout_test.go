package display

import (
	"fmt"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/hw"
)

func TestButtonRects(t *testing.T) {
	bar := buttonBar()
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		r := ButtonRect(b)
		if !r.Within(bar) {
			t.Errorf("ButtonRect(%v) = %+v, want within the button bar %+v", b, r, bar)
		}
		if r.W < 60 || r.H < 60 {
			t.Errorf("ButtonRect(%v) = %+v, want at least 60×60 (touch target)", b, r)
		}
		for c := b + 1; c < hw.NumButtons; c++ {
			if r.Overlaps(ButtonRect(c)) {
				t.Errorf("ButtonRect(%v) overlaps ButtonRect(%v)", b, c)
			}
		}
		x, y := r.Center()
		if got, ok := ButtonAt(x, y); !ok || got != b {
			t.Errorf("ButtonAt(%v, %v) = %v, %v, want %v, true", x, y, got, ok, b)
		}
	}
	if b, ok := ButtonAt(640, 300); ok {
		t.Errorf("ButtonAt(640, 300) = %v, true, want none (felt)", b)
	}
	// The gap between two buttons presses nothing.
	r0, r1 := ButtonRect(0), ButtonRect(1)
	if b, ok := ButtonAt((r0.X+r0.W+r1.X)/2, r0.Y+10); ok {
		t.Errorf("ButtonAt(gap) = %v, true, want none", b)
	}
}

func TestHandAreas(t *testing.T) {
	felt := feltArea()
	for spots := 1; spots <= 3; spots++ {
		for per := 1; per <= 3; per++ {
			t.Run(fmt.Sprintf("%dspots×%dhands", spots, per), func(t *testing.T) {
				var hands []game.HandView
				for s := range spots {
					for range per {
						hands = append(hands, game.HandView{Spot: s})
					}
				}
				as := HandAreas(hands, spots)
				if len(as) != len(hands) {
					t.Fatalf("HandAreas() returned %d rects, want %d", len(as), len(hands))
				}
				for i, a := range as {
					if !a.Within(felt) {
						t.Errorf("HandAreas()[%d] = %+v, want within the felt %+v", i, a, felt)
					}
					if a.W < 60 {
						t.Errorf("HandAreas()[%d].W = %v, want ≥ 60", i, a.W)
					}
					for j := i + 1; j < len(as); j++ {
						if a.Overlaps(as[j]) {
							t.Errorf("HandAreas()[%d] %+v overlaps [%d] %+v", i, a, j, as[j])
						}
					}
					if i > 0 && as[i-1].X >= a.X {
						t.Errorf("HandAreas()[%d].X = %v, not right of [%d].X = %v (play order is left to right)", i, a.X, i-1, as[i-1].X)
					}
				}
			})
		}
	}
}

func TestCardRects(t *testing.T) {
	area := Rect{100, 300, 170, cardH}
	for n := 1; n <= 13; n++ {
		rs := CardRects(area, n, cardW, cardH, 0.5)
		if len(rs) != n {
			t.Fatalf("CardRects(n=%d) returned %d rects", n, len(rs))
		}
		for i, r := range rs {
			if !r.Within(area) {
				t.Errorf("CardRects(n=%d)[%d] = %+v, want within %+v", n, i, r, area)
			}
			if i > 0 && r.X <= rs[i-1].X {
				t.Errorf("CardRects(n=%d)[%d].X = %v, want right of %v", n, i, r.X, rs[i-1].X)
			}
		}
	}
	if rs := CardRects(area, 0, cardW, cardH, 0.5); rs != nil {
		t.Errorf("CardRects(n=0) = %v, want nil", rs)
	}
	// Room to spare: cards keep their preferred step, centred.
	rs := CardRects(Rect{0, 0, 1000, cardH}, 2, cardW, cardH, 0.5)
	if got := rs[1].X - rs[0].X; got != cardW*0.5 {
		t.Errorf("step = %v, want %v", got, cardW*0.5)
	}
	if l, r := rs[0].X, 1000-(rs[1].X+cardW); l != r {
		t.Errorf("margins %v and %v, want centred", l, r)
	}
}

func TestRowRects(t *testing.T) {
	for _, area := range []Rect{duelPlayerCards(), duelComputerCards(), {0, 0, 300, 100}} {
		rs := RowRects(area, 5, 96, 136, 16)
		for i, r := range rs {
			if !r.Within(area) {
				t.Errorf("RowRects(%+v)[%d] = %+v, want within", area, i, r)
			}
			if i > 0 && r.Overlaps(rs[i-1]) {
				t.Errorf("RowRects(%+v)[%d] overlaps [%d]", area, i, i-1)
			}
		}
	}
}

func TestSideBetCircles(t *testing.T) {
	felt := feltArea()
	kinds := []game.BetKind{game.AnyPair, game.TwentyOne, game.Hot3, game.BustIt}
	for spots := 1; spots <= 3; spots++ {
		var circles []Rect
		for s := range spots {
			for j := range kinds {
				x, y, r := sideBetCenter(kinds[j], j, s, spots)
				c := Rect{x - r, y - r, 2 * r, 2 * r}
				if !c.Within(felt) {
					t.Errorf("spots %d: side bet %d of spot %d at %+v, want within the felt", spots, j, s, c)
				}
				for _, o := range circles {
					if c.Overlaps(o) {
						t.Errorf("spots %d: side bet %d of spot %d %+v overlaps %+v", spots, j, s, c, o)
					}
				}
				circles = append(circles, c)
			}
		}
		if spots == 1 {
			// Right of the hands, never under a split hand's chips.
			hands := HandAreas([]game.HandView{{Spot: 0}, {Spot: 0}}, 1)
			for _, c := range circles {
				for _, h := range hands {
					if c.X < h.X+h.W {
						t.Errorf("side bet %+v starts left of the hand area's right edge %v", c, h.X+h.W)
					}
				}
			}
		}
	}
	x, y, r := sideBetCenter(game.RoyalSide, 0, 0, 2)
	if x != ScreenW/2 || r <= 0 || y <= 0 {
		t.Errorf("Royal Poker circle at %v,%v r %v, want centred between the spots", x, y, r)
	}
}

func TestMenuTiles(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for i := range n {
			r := menuTile(i, n)
			if !r.Within(feltArea()) {
				t.Errorf("menuTile(%d, %d) = %+v, want within the felt", i, n, r)
			}
			if i > 0 && r.Overlaps(menuTile(i-1, n)) {
				t.Errorf("menuTile(%d, %d) overlaps its left neighbour", i, n)
			}
		}
	}
}

func TestLetterbox(t *testing.T) {
	tests := []struct {
		sw, sh float32
		want   Rect
	}{
		{1280, 720, Rect{0, 0, 1280, 720}},
		{1920, 1080, Rect{0, 0, 1920, 1080}},
		{1280, 800, Rect{0, 40, 1280, 720}},
		{800, 480, Rect{0, 15, 800, 450}},
		{1024, 768, Rect{0, 96, 1024, 576}},
	}
	for _, tt := range tests {
		got := letterbox(tt.sw, tt.sh)
		if d := abs(got.X-tt.want.X) + abs(got.Y-tt.want.Y) + abs(got.W-tt.want.W) + abs(got.H-tt.want.H); d > 0.01 {
			t.Errorf("letterbox(%v, %v) = %+v, want %+v", tt.sw, tt.sh, got, tt.want)
		}
	}
}

func abs(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}

func TestKeymap(t *testing.T) {
	seen := map[int32]string{}
	buttons := map[hw.Button]bool{}
	switches := map[hw.Switch]bool{}
	bills, jams := 0, 0
	for _, k := range keymap() {
		if prev, ok := seen[k.key]; ok {
			t.Errorf("key %s bound twice (also %s)", k.name, prev)
		}
		seen[k.key] = k.name
		switch {
		case k.isBtn:
			buttons[k.button] = true
		case k.isSw:
			switches[k.sw] = true
		case k.jam:
			jams++
		default:
			bills++
		}
	}
	if len(buttons) != int(hw.NumButtons) {
		t.Errorf("keymap binds %d buttons, want all %d", len(buttons), hw.NumButtons)
	}
	if len(switches) != int(hw.NumSwitches) {
		t.Errorf("keymap binds %d switches, want all %d", len(switches), hw.NumSwitches)
	}
	if bills != 5 || jams != 1 {
		t.Errorf("keymap binds %d bills and %d jam keys, want 5 and 1", bills, jams)
	}
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		if keyName(b) == "" {
			t.Errorf("keyName(%v) = \"\", want its key", b)
		}
	}
}
