package display

import (
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// Every font size draws visible text. On OpenGL ES 2 (the Pi's DRM/KMS
// build) the atlas read back from the GPU to make it RGBA came back empty,
// and the booted image showed no text at all: this draws a word with each
// font into the render target and counts its lit pixels. The ES 2 path is
// checked on the build machine with `xvfb-run -a go test -tags es2 -run
// TestFontAtlasNotEmpty ./internal/display` (scripts/test runs it).
func TestFontAtlasNotEmpty(t *testing.T) {
	o := offscreen(t)
	for i, sz := range fontSizes {
		for _, bold := range []bool{false, true} {
			img, err := o.pixels(func() {
				f := o.fonts.regular[i]
				if bold {
					f = o.fonts.bold[i]
				}
				rl.BeginTextureMode(o.target)
				rl.ClearBackground(rl.Black)
				rl.DrawTextEx(f, "DEAL 20.00", rl.Vector2{X: 10, Y: 10}, float32(sz), 0, rl.White)
				rl.EndTextureMode()
			})
			if err != nil {
				t.Fatal(err)
			}
			lit := 0
			for p := 0; p < len(img.Pix); p += 4 {
				if img.Pix[p] > 128 {
					lit++
				}
			}
			// "DEAL 20.00" at sz px covers far more than sz pixels.
			if lit < int(sz) {
				t.Errorf("size %d bold %v: %d lit pixels: the text is not drawn (rlgl version %d)", sz, bold, lit, rl.GetVersion())
			}
		}
	}
}
