package display

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
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

// thumb box-filters img down by factor k (goldens are 320×180 so small
// rasteriser differences average out and the files stay small).
func thumb(img *image.RGBA, k int) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/k, b.Dy()/k))
	for y := 0; y < b.Dy()/k; y++ {
		for x := 0; x < b.Dx()/k; x++ {
			var r, g, bl int
			for dy := range k {
				for dx := range k {
					c := img.RGBAAt(x*k+dx, y*k+dy)
					r, g, bl = r+int(c.R), g+int(c.G), bl+int(c.B)
				}
			}
			n := k * k
			out.Pix[out.PixOffset(x, y)+0] = uint8(r / n)
			out.Pix[out.PixOffset(x, y)+1] = uint8(g / n)
			out.Pix[out.PixOffset(x, y)+2] = uint8(bl / n)
			out.Pix[out.PixOffset(x, y)+3] = 255
		}
	}
	return out
}

// compare returns the mean absolute channel difference and the share of
// pixels differing by more than 48 in some channel.
func compare(a *image.RGBA, b image.Image) (mean float64, bad float64, err error) {
	if a.Bounds() != b.Bounds() {
		return 0, 0, fmt.Errorf("size %v, golden %v", a.Bounds(), b.Bounds())
	}
	var sum, n, worse int
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			c := a.RGBAAt(x, y)
			r, g, bl, _ := b.At(x, y).RGBA()
			d := []int{absi(int(c.R) - int(r>>8)), absi(int(c.G) - int(g>>8)), absi(int(c.B) - int(bl>>8))}
			sum += d[0] + d[1] + d[2]
			if max(d[0], d[1], d[2]) > 48 {
				worse++
			}
			n++
		}
	}
	return float64(sum) / float64(3*n), float64(worse) / float64(n), nil
}

func absi(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestGolden compares every sample screen, in both languages, with its
// golden thumbnail under testdata/golden (tolerant: mean channel difference
// ≤ 4 and at most 1 % of pixels off by more than 48). Regenerate after an
// intended change with: xvfb-run -a go test ./internal/display -run TestGolden -update
func TestGolden(t *testing.T) {
	o := offscreen(t)
	dir := filepath.Join("testdata", "golden")
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range SampleNames() {
		for _, lang := range []string{"fr", "en"} {
			s := Samples()[name]
			s.Lang = lang
			img, err := o.Image(s, 0)
			if err != nil {
				t.Fatalf("Image(%s) = %v", name, err)
			}
			th := thumb(img, 4)
			p := filepath.Join(dir, name+"-"+lang+".png")
			if *update {
				if err := writePNG(th, p); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := loadPNG(p)
			if err != nil {
				t.Errorf("golden %s: %v (run with -update to create it)", p, err)
				continue
			}
			mean, bad, err := compare(th, want)
			if err != nil || mean > 4 || bad > 0.01 {
				out := filepath.Join(t.TempDir(), name+"-"+lang+".png")
				_ = writePNG(img, out)
				t.Errorf("render(%s, %s) vs %s: mean diff %.2f, %.2f %% pixels off, err %v; got %s", name, lang, p, mean, 100*bad, err, out)
			}
		}
	}
}
