package display

import (
	"cabinet/internal/game/duel"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cabinet/internal/hw"
	"cabinet/internal/scenario"
	"cabinet/internal/view"
)

// One hidden window serves every rendering test of the package (raylib has
// one window per process); TestMain-free: each test opens and closes it.

func px(img *image.RGBA, x, y float32) color.RGBA {
	c := img.RGBAAt(int(x), int(y))
	return c
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) int {
		if x > y {
			return int(x - y)
		}
		return int(y - x)
	}
	return d(a.R, b.R) <= tol && d(a.G, b.G) <= tol && d(a.B, b.B) <= tol
}

// litAt reports whether the on-screen button b is drawn lit in img (its face
// just under the top edge, clear of the label).
func litAt(img *image.RGBA, b hw.Button) (lit bool, c color.RGBA) {
	r := ButtonRect(b)
	c = px(img, r.X+r.W/2, r.Y+7)
	return near(c, colLit, 40), c
}

// TestScreens renders every scenario screen in both languages: no catalogue
// key is missing, the frame is not blank, the buttons mirror the lamps, and
// the picture matches its full-size golden under testdata/golden (at most
// goldenPixels pixels off by more than goldenChannel). After an intended
// change, regenerate the goldens with
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test ./internal/display -run TestScreens -update
func TestScreens(t *testing.T) {
	o := offscreen(t)
	dir := filepath.Join("testdata", "golden")
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range scenario.Screens() {
		for _, lang := range []string{"fr", "en"} {
			t.Run(name+"/"+lang, func(t *testing.T) {
				s := screen(t, name)
				s.Lang = lang
				var missing []string
				img, err := o.image(s, 0, true, func(k string) {
					if !slices.Contains(missing, k) {
						missing = append(missing, k)
					}
				})
				if err != nil {
					t.Fatalf("Image(%s) = %v", name, err)
				}
				if len(missing) > 0 {
					t.Errorf("render(%s, %s) looked up keys missing from the catalogue: %q", name, lang, missing)
				}
				if n := distinctColors(img, 64); n < 8 && s.Mode != view.Boot {
					t.Errorf("render(%s, %s) has %d distinct colours, want a picture", name, lang, n)
				}
				checkGolden(t, img, filepath.Join(dir, name+"-"+lang+".png"))
				if s.Mode == view.Boot || s.Mode == view.Tilt || s.Mode == view.Handpay {
					return // overlays dim the panel; boot has none
				}
				for b := hw.Button(0); b < hw.NumButtons; b++ {
					lit, c := litAt(img, b)
					if want := s.Lamps.Has(b); lit != want {
						t.Errorf("render(%s): button %v lit = %v (colour %v), want %v (lamps)", name, b, lit, c, want)
					}
				}
			})
		}
	}
}

func lamps(bs ...hw.Button) hw.ButtonSet {
	var s hw.ButtonSet
	for _, b := range bs {
		s = s.With(b)
	}
	return s
}

func distinctColors(img *image.RGBA, step int) int {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += step / 2 {
		for x := b.Min.X; x < b.Max.X; x += step / 2 {
			seen[img.RGBAAt(x, y)] = true
		}
	}
	return len(seen)
}

// TestButtonsMirrorLamps lights each button alone and then all of them.
func TestButtonsMirrorLamps(t *testing.T) {
	o := offscreen(t)
	sets := []hw.ButtonSet{0}
	for b := hw.Button(0); b < hw.NumButtons; b += 3 {
		sets = append(sets, lamps(b, b+1))
	}
	sets = append(sets, hw.ButtonSet(1<<hw.NumButtons-1))
	for _, set := range sets {
		s := screen(t, "classic")
		s.Lamps = set
		img, err := o.Image(s, 0)
		if err != nil {
			t.Fatal(err)
		}
		for b := hw.Button(0); b < hw.NumButtons; b++ {
			lit, c := litAt(img, b)
			if lit != set.Has(b) {
				t.Errorf("lamps %015b: button %v lit = %v (colour %v), want %v", set, b, lit, c, set.Has(b))
			}
		}
	}
}

// TestTableDetails checks the table pictures where they are drawn.
func TestTableDetails(t *testing.T) {
	o := offscreen(t)
	render := func(s *view.Snapshot) *image.RGBA {
		t.Helper()
		img, err := o.Image(s, 0)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	t.Run("card faces", func(t *testing.T) {
		s := screen(t, "classic")
		img := render(s)
		areas := HandAreas(s.Round.Hands, 3)
		sc := cardScale(len(s.Round.Hands))
		for i, h := range s.Round.Hands {
			rs := CardRects(Rect{areas[i].X, areas[i].Y, areas[i].W, cardH * sc}, len(h.Cards), cardW*sc, cardH*sc, 0.5)
			for j, r := range rs {
				c := px(img, r.X+6, r.Y+r.H*0.72)
				if !near(c, colWhite, 30) {
					t.Errorf("hand %d card %d (%v): pixel at its left edge = %v, want card white %v", i, j, h.Cards[j], c, colWhite)
				}
			}
		}
		// A card back is not white.
		d := CardRects(dealerArea(), 2, cardW, cardH, 0.62)
		if c := px(img, d[1].X+d[1].W/2, d[1].Y+20); near(c, colWhite, 60) {
			t.Errorf("dealer hole card pixel = %v, want a card back", c)
		}
	})
	t.Run("active hand highlighted", func(t *testing.T) {
		s := screen(t, "classic")
		a := HandAreas(s.Round.Hands, 3)[s.Round.Active]
		x, y := a.X+a.W/2, a.Y+cardH*cardScale(len(s.Round.Hands))+20 // below the cards, inside the highlight
		on := px(render(s), x, y)
		s.Round.Active = -1
		off := px(render(s), x, y)
		if on.R <= off.R+10 {
			t.Errorf("pixel under the active hand = %v, without highlight %v: want a yellow tint", on, off)
		}
	})
	t.Run("doubled card sideways", func(t *testing.T) {
		s := screen(t, "classic")
		h := &s.Round.Hands[0]
		h.Cards = append(h.Cards, h.Cards[0])
		areas := HandAreas(s.Round.Hands, 3)
		sc := cardScale(len(s.Round.Hands))
		rs := CardRects(Rect{areas[0].X, areas[0].Y, areas[0].W, cardH * sc}, len(h.Cards), cardW*sc, cardH*sc, 0.5)
		last := rs[len(rs)-1]
		// Beyond the upright card's right edge, inside the sideways one.
		x, y := last.X+last.W/2+last.H/2-6, last.Y+last.H/2
		upright := px(render(s), x, y)
		h.Doubled = true
		side := px(render(s), x, y)
		if !near(side, colWhite, 30) || near(upright, colWhite, 30) {
			t.Errorf("pixel right of the third card: %v doubled, %v not: want the doubled card lying sideways", side, upright)
		}
	})
	t.Run("free bet token", func(t *testing.T) {
		s := screen(t, "freebet")
		img := render(s)
		a := HandAreas(s.Round.Hands, 1)[1]
		cx := a.X + a.W/2 + 30
		if c := px(img, cx, betCircleY-24*0.55); !near(c, colToken, 40) {
			t.Errorf("token pixel = %v, want token gold %v", c, colToken)
		}
	})
	t.Run("tilt covers the screen", func(t *testing.T) {
		under := render(screen(t, "classic"))
		over := render(screen(t, "tilt"))
		for _, p := range [][2]float32{{5, 5}, {1275, 5}, {5, 715}, {1275, 715}, {640, 600}, {100, 300}} {
			u, o := px(under, p[0], p[1]), px(over, p[0], p[1])
			if u == o || int(o.R) < int(o.G)+60 {
				t.Errorf("tilt pixel at %v = %v (under %v), want a red cover", p, o, u)
			}
		}
	})
	t.Run("french and english differ", func(t *testing.T) {
		for _, name := range []string{"classic", "menu", "tilt", "help-royal", "duel"} {
			fr := screen(t, name)
			en := screen(t, name)
			en.Lang = "en"
			a, b := thumb(render(fr), 2), thumb(render(en), 2)
			if n := diffPixels(a, b, Rect{0, 0, ScreenW / 2, ScreenH / 2}); n < 150 {
				t.Errorf("%s: French and English renders differ in %d (half-size) pixels, want the words to change", name, n)
			}
		}
		// The HIT button's label differs ("Carte" / "Hit").
		en := screen(t, "classic")
		en.Lang = "en"
		if n := diffPixels(render(screen(t, "classic")), render(en), ButtonRect(hw.Hit)); n < 30 {
			t.Errorf("HIT button differs in %d pixels between languages, want its label translated", n)
		}
	})
	t.Run("duel outfit", func(t *testing.T) {
		s := screen(t, "duel")
		ca := duelCharacterArea()
		inner := Rect{ca.X + 20, ca.Y + 6, ca.W - 40, 420}
		sc := inner.W / 380
		hat := [2]float32{inner.X + inner.W/2, inner.Y + 30*sc} // crown of the top hat
		shoe := [2]float32{inner.X + inner.W/2 - 28*sc, inner.Y + 472*sc}
		with := func(items ...string) *image.RGBA {
			s2 := *s
			d := *duel.PictureOf(*s.Round)
			d.Outfit, d.Pawned = items, nil
			t2 := *s.Round
			t2.Detail = &d
			s2.Round = &t2
			return render(&s2)
		}
		all := with("hat", "glasses", "scarf", "jacket", "gloves", "shoes")
		none := with()
		if c := px(all, hat[0], hat[1]); !near(c, colInk, 30) {
			t.Errorf("hat worn: pixel %v, want the black hat", c)
		}
		if c := px(none, hat[0], hat[1]); near(c, colInk, 30) {
			t.Errorf("hat off: pixel %v, want no hat", c)
		}
		if c := px(all, shoe[0], shoe[1]); !near(c, colShoe, 30) {
			t.Errorf("shoes worn: pixel %v, want a shoe", c)
		}
		if c := px(none, shoe[0], shoe[1]); !near(c, colSock, 40) {
			t.Errorf("shoes off: pixel %v, want a sock", c)
		}
		if n := diffPixels(all, none, ca); n < 2000 {
			t.Errorf("outfit on/off differ in %d pixels of the character, want accessories to come off", n)
		}
	})
}

func diffPixels(a, b *image.RGBA, r Rect) int {
	n := 0
	for y := int(r.Y); y < int(r.Y+r.H); y++ {
		for x := int(r.X); x < int(r.X+r.W); x++ {
			if !near(a.RGBAAt(x, y), b.RGBAAt(x, y), 24) {
				n++
			}
		}
	}
	return n
}

// TestScreenshot writes a PNG through the one-shot API.
func TestScreenshot(t *testing.T) {
	if err := checkDisplay(); err != nil {
		t.Skip("no DISPLAY: run under xvfb-run (scripts/test does) to render screens")
	}
	closeShared() // Screenshot opens its own window
	p := filepath.Join(t.TempDir(), "royal.png")
	if err := Screenshot(screen(t, "royal"), p); err != nil {
		t.Fatalf("Screenshot() = %v", err)
	}
	img, err := loadPNG(p)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != ScreenW || b.Dy() != ScreenH {
		t.Errorf("screenshot is %v, want %dx%d", b, ScreenW, ScreenH)
	}
}
