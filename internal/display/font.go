package display

import (
	_ "embed"
	"fmt"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// The fonts are DejaVu Sans and DejaVu Sans Bold (Bitstream Vera licence,
// see assets/LICENSE-DejaVu.txt), embedded so the cabinet needs no font on
// the system: they cover French accents, € and the card suits.
var (
	//go:embed assets/DejaVuSans.ttf
	fontRegular []byte
	//go:embed assets/DejaVuSans-Bold.ttf
	fontBold []byte
)

// fontSizes are the pixel sizes rasterised at start-up; text is drawn with
// the nearest size at or above the one asked for, scaled down.
var fontSizes = [...]int32{14, 18, 22, 28, 36, 48, 72}

// codepoints are the characters the screens use.
func codepoints() []rune {
	var cps []rune
	for r := rune(32); r <= 126; r++ {
		cps = append(cps, r)
	}
	for r := rune(160); r <= 255; r++ {
		cps = append(cps, r)
	}
	return append(cps, '€', '—', '–', '…', '’', '«', '»', '·', '•', '→', '←', '↑', '↓', '✓', '✗',
		'♠', '♥', '♦', '♣', '★', '×', '±', '≤', '≥', '›', '‹', 'Œ', 'œ', '▲', '▼', '⚡', '⚠', '⇄')
}

// fonts holds the rasterised fonts; loaded after the window exists.
type fonts struct {
	regular [len(fontSizes)]rl.Font
	bold    [len(fontSizes)]rl.Font
}

func loadFonts() (*fonts, error) {
	f := new(fonts)
	cps := codepoints()
	for i, sz := range fontSizes {
		f.regular[i] = rl.LoadFontFromMemory(".ttf", fontRegular, sz, cps)
		f.bold[i] = rl.LoadFontFromMemory(".ttf", fontBold, sz, cps)
		if f.regular[i].Texture.ID == 0 || f.bold[i].Texture.ID == 0 {
			return nil, fmt.Errorf("display: load font size %d: %w", sz, ErrFont)
		}
		toRGBA(&f.regular[i])
		toRGBA(&f.bold[i])
	}
	return f, nil
}

func (f *fonts) unload() {
	for i := range fontSizes {
		rl.UnloadFont(f.regular[i])
		rl.UnloadFont(f.bold[i])
	}
}

// pick returns the font to draw size px with.
func (f *fonts) pick(size float32, bold bool) rl.Font {
	i := len(fontSizes) - 1
	for j, sz := range fontSizes {
		if float32(sz) >= size {
			i = j
			break
		}
	}
	if bold {
		return f.bold[i]
	}
	return f.regular[i]
}

// toRGBA re-uploads a font atlas as RGBA8: raylib makes it grey+alpha, which
// software GL (Mesa llvmpipe, the Pi's fallback) samples many times slower.
func toRGBA(f *rl.Font) {
	img := rl.LoadImageFromTexture(f.Texture)
	rl.ImageFormat(img, rl.UncompressedR8g8b8a8)
	tex := rl.LoadTextureFromImage(img)
	rl.UnloadImage(img)
	if tex.ID == 0 {
		return // keep the original atlas
	}
	rl.UnloadTexture(f.Texture)
	f.Texture = tex
	rl.SetTextureFilter(f.Texture, rl.FilterBilinear)
}
