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
		var err error
		if f.regular[i], err = loadFont(fontRegular, sz, cps); err != nil {
			return nil, err
		}
		if f.bold[i], err = loadFont(fontBold, sz, cps); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// fontPadding is raylib's FONT_TTF_DEFAULT_CHARS_PADDING, the padding
// LoadFontFromMemory gives each glyph in the atlas.
const fontPadding = 4

// loadFont rasterises data at size px, as raylib's LoadFontFromMemory
// does, but uploads the atlas as RGBA8 made on the CPU: raylib makes it
// grey+alpha, which software GL (Mesa llvmpipe, the Pi's fallback) samples
// many times slower. Reading a grey+alpha texture back to convert it works
// on desktop OpenGL only: OpenGL ES 2 (the Pi's DRM/KMS build) reads it
// through a framebuffer, which a grey+alpha texture cannot be attached to,
// so the atlas came back empty and no text was drawn at all
// (TestFontAtlasNotEmpty).
func loadFont(data []byte, size int32, cps []rune) (rl.Font, error) {
	glyphs := rl.LoadFontData(data, size, cps, int32(len(cps)), rl.FontDefault)
	if len(glyphs) == 0 {
		return rl.Font{}, fmt.Errorf("display: load font size %d: %w", size, ErrFont)
	}
	recs := []*rl.Rectangle{nil}
	atlas := rl.GenImageFontAtlas(glyphs, recs, size, fontPadding, 0)
	rl.ImageFormat(&atlas, rl.UncompressedR8g8b8a8)
	tex := rl.LoadTextureFromImage(&atlas)
	rl.UnloadImage(&atlas)
	f := rl.Font{BaseSize: size, CharsCount: int32(len(glyphs)), CharsPadding: fontPadding,
		Texture: tex, Recs: recs[0], Chars: &glyphs[0]}
	if tex.ID == 0 || recs[0] == nil {
		rl.UnloadFont(f)
		return rl.Font{}, fmt.Errorf("display: load font size %d: %w", size, ErrFont)
	}
	rl.SetTextureFilter(f.Texture, rl.FilterBilinear)
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
