package display

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// offscreen opens the shared hidden window for a test, or skips the test
// when there is no display.
func offscreen(tb testing.TB) *Offscreen {
	tb.Helper()
	o, err := NewOffscreen()
	if errors.Is(err, ErrNoDisplay) {
		tb.Skip("no DISPLAY: run under xvfb-run (scripts/test does) to render screens")
	}
	if err != nil {
		tb.Fatalf("NewOffscreen() = %v", err)
	}
	tb.Cleanup(func() { o.Close() })
	return o
}

// shotDir is where screenshots go: $DISPLAY_SHOTS if set (for review),
// else the test's temp dir.
func shotDir(t *testing.T) string {
	if d := os.Getenv("DISPLAY_SHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// TestShots renders every sample screen in both languages to PNG files.
func TestShots(t *testing.T) {
	o := offscreen(t)
	dir := shotDir(t)
	for _, name := range SampleNames() {
		for _, lang := range []string{"fr", "en"} {
			s := Samples()[name]
			s.Lang = lang
			p := filepath.Join(dir, name+"-"+lang+".png")
			if err := o.Render(s, p); err != nil {
				t.Errorf("Render(%s, %s) = %v", name, lang, err)
			}
		}
	}
	t.Logf("screenshots in %s", dir)
}
