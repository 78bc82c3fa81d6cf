package display

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"cabinet/internal/scenario"
)

// The hidden window every test of the package draws in: opened once (GLFW
// and Xvfb do not reliably open a fresh window per test under load) and
// closed by TestMain.
var (
	sharedOnce sync.Once
	sharedOff  *Offscreen
	sharedErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	closeShared()
	os.Exit(code)
}

// closeShared closes the shared window (raylib holds one window per
// process): for a test that opens its own, e.g. through Screenshot. The next
// offscreen call opens a new one.
func closeShared() {
	if sharedOff != nil {
		sharedOff.Close()
	}
	sharedOnce, sharedOff, sharedErr = sync.Once{}, nil, nil
}

// offscreen returns the shared hidden window, or skips the test when there
// is no display.
func offscreen(tb testing.TB) *Offscreen {
	tb.Helper()
	sharedOnce.Do(func() { sharedOff, sharedErr = NewOffscreen() })
	if errors.Is(sharedErr, ErrNoDisplay) {
		tb.Skip("no DISPLAY: run under xvfb-run (scripts/test does) to render screens")
	}
	if sharedErr != nil {
		tb.Fatalf("NewOffscreen() = %v", sharedErr)
	}
	return sharedOff
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
	for _, name := range scenario.Screens() {
		for _, lang := range []string{"fr", "en"} {
			s := screen(t, name)
			s.Lang = lang
			p := filepath.Join(dir, name+"-"+lang+".png")
			if err := o.Render(s, p); err != nil {
				t.Errorf("Render(%s, %s) = %v", name, lang, err)
			}
		}
	}
	t.Logf("screenshots in %s", dir)
}
