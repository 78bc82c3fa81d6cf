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

// TestShots writes every sample screen in both languages, full size, to
// $DISPLAY_SHOTS for review (skipped when it is unset):
//
//	DISPLAY_SHOTS=/tmp/shots xvfb-run -a go test ./internal/display -run TestShots
func TestShots(t *testing.T) {
	dir := os.Getenv("DISPLAY_SHOTS")
	if dir == "" {
		t.Skip("set DISPLAY_SHOTS=dir to write the screenshots for review")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	o := offscreen(t)
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
