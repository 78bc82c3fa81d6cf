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

// checkGolden compares img's thumbnail with the golden file at p, or
// writes it with -update.
func checkGolden(t *testing.T, img *image.RGBA, p string) {
	t.Helper()
	th := thumb(img, 4)
	if *update {
		if err := writePNG(th, p); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := loadPNG(p)
	if err != nil {
		t.Errorf("golden %s: %v (run with -update to create it)", p, err)
		return
	}
	mean, bad, err := compare(th, want)
	if err != nil || mean > 4 || bad > 0.01 {
		out := filepath.Join(t.TempDir(), filepath.Base(p))
		_ = writePNG(img, out)
		t.Errorf("render vs %s: mean diff %.2f, %.2f %% pixels off, err %v; got %s", p, mean, 100*bad, err, out)
	}
}
