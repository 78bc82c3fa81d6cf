package display

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"cabinet/internal/game/card"
	"cabinet/internal/view"
)

var update = flag.Bool("update", false, "rewrite the golden screenshots in testdata/golden")

func loadPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

// thumb box-filters img down by factor k (for tests comparing coarse areas).
func thumb(img *image.RGBA, k int) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/k, b.Dy()/k))
	w, h := b.Dx()/k, b.Dy()/k
	sum := make([]int, 3*w*h)
	pix, stride := img.Pix, img.Stride
	for y := 0; y < h*k; y++ {
		row := pix[y*stride:]
		acc := sum[(y/k)*3*w:]
		for x := 0; x < w*k; x++ {
			o, a := 4*x, 3*(x/k)
			acc[a] += int(row[o])
			acc[a+1] += int(row[o+1])
			acc[a+2] += int(row[o+2])
		}
	}
	n := k * k
	for i := 0; i < w*h; i++ {
		out.Pix[4*i], out.Pix[4*i+1], out.Pix[4*i+2], out.Pix[4*i+3] = uint8(sum[3*i]/n), uint8(sum[3*i+1]/n), uint8(sum[3*i+2]/n), 255
	}
	return out
}

// Golden tolerance: goldens are full-size frames; a pixel is off when one
// of its channels differs by more than goldenChannel, and a render matches
// when at most goldenPixels pixels are off. The renderer is deterministic
// (same fonts, same rasteriser), so the allowance only absorbs driver
// rounding; one changed digit moves far more pixels
// (TestGoldenCatchesOneDigit).
const (
	goldenChannel = 24
	goldenPixels  = 8
)

// offPixels counts the pixels of a that differ from b by more than
// goldenChannel in some channel.
func offPixels(a *image.RGBA, b image.Image) (int, error) {
	if a.Bounds() != b.Bounds() {
		return 0, fmt.Errorf("size %v, golden %v", a.Bounds(), b.Bounds())
	}
	off := 0
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			c := a.RGBAAt(x, y)
			r, g, bl, _ := b.At(x, y).RGBA()
			if max(absi(int(c.R)-int(r>>8)), absi(int(c.G)-int(g>>8)), absi(int(c.B)-int(bl>>8))) > goldenChannel {
				off++
			}
		}
	}
	return off, nil
}

func absi(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// checkGolden compares img with the full-size golden file at p, or writes
// it with -update.
func checkGolden(t *testing.T, img *image.RGBA, p string) {
	t.Helper()
	if *update {
		if err := writePNG(img, p); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := loadPNG(p)
	if err != nil {
		t.Errorf("golden %s: %v (run with -update to create it)", p, err)
		return
	}
	off, err := offPixels(img, want)
	if err != nil || off > goldenPixels {
		out := filepath.Join(t.TempDir(), filepath.Base(p))
		_ = writePNG(img, out)
		t.Errorf("render vs %s: %d pixels off (allowed %d), err %v; got %s", p, off, goldenPixels, err, out)
	}
}

// TestGoldenCatchesOneDigit: the golden comparison fails when one digit of
// the credit meter changes (1 cent) or one card of a hand changes rank, and
// passes for the unchanged screen.
func TestGoldenCatchesOneDigit(t *testing.T) {
	o := offscreen(t)
	p := filepath.Join("testdata", "golden", "classic-en.png")
	want, err := loadPNG(p)
	if err != nil {
		t.Fatalf("golden %s: %v", p, err)
	}
	for _, tc := range []struct {
		name   string
		change func(s *view.Snapshot)
		pass   bool
	}{
		{"unchanged", func(*view.Snapshot) {}, true},
		{"credits one cent more", func(s *view.Snapshot) { s.Credits++ }, false},
		{"one card one rank up", func(s *view.Snapshot) {
			c := &s.Round.Hands[len(s.Round.Hands)-1].Cards[0]
			if c.Rank == card.King {
				c.Rank = card.Queen
			} else {
				c.Rank++
			}
		}, false},
	} {
		s := screen(t, "classic")
		s.Lang = "en"
		tc.change(s)
		img, err := o.image(s, 0, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		off, err := offPixels(img, want)
		if err != nil {
			t.Fatal(err)
		}
		if pass := off <= goldenPixels; pass != tc.pass {
			t.Errorf("%s: %d pixels off (allowed %d): golden match %v, want %v", tc.name, off, goldenPixels, pass, tc.pass)
		}
		t.Logf("%s: %d pixels off", tc.name, off)
	}
}
