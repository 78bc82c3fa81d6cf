package pisystem

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestPanelLit: panelLit on two screendumps of the image booted in QEMU
// (testdata): a round resumed after a power cut, drawn before any button
// is lit, and a table waiting for a bet with its buttons lit.
func TestPanelLit(t *testing.T) {
	for name, want := range map[string]bool{"resumed-unlit.png": false, "table-lit.png": true} {
		f, err := os.Open(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := panelLit(img); got != want {
			t.Errorf("%s: panelLit %v, want %v", name, got, want)
		}
	}
}
