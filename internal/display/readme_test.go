package display

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/i18n"
)

// The README's key map lies between these lines.
const (
	keymapBegin = "<!-- keymap: generated from internal/display/keys.go; go test ./internal/display -run TestReadmeKeyMap -update rewrites it -->"
	keymapEnd   = "<!-- end of keymap -->"
)

// keymapMarkdown is the keyboard map as a Markdown table, one row per key
// of keymap(), in its order.
func keymapMarkdown() string {
	var b strings.Builder
	b.WriteString("| key | what it does on the simulated cabinet |\n|---|---|\n")
	for _, k := range keymap() {
		var what string
		switch {
		case k.isBtn:
			what = fmt.Sprintf("presses the **%s** button (`%s`)", i18n.T(i18n.EN, "btn."+k.button.String()), k.button)
		case k.isSw && strings.HasSuffix(k.sw.String(), "_door"):
			what = fmt.Sprintf("opens or closes the **%s** (`%s`)", i18n.T(i18n.EN, "sw."+k.sw.String()), k.sw)
		case k.isSw:
			what = fmt.Sprintf("turns the **%s** on or off (`%s`)", i18n.T(i18n.EN, "sw."+k.sw.String()), k.sw)
		case k.jam:
			what = "jams the bill acceptor, or frees it (a bill-jam tilt)"
		default:
			what = fmt.Sprintf("inserts a bill of %s (in the cabinet's currency)", k.bill)
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", k.name, what)
	}
	return b.String()
}

// TestReadmeKeyMap: the README's key map is the one the window uses
// (keymap()), so it cannot go stale; -update rewrites it.
func TestReadmeKeyMap(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, keymapBegin), strings.Index(readme, keymapEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no key map between %q and %q", keymapBegin, keymapEnd)
	}
	want := keymapMarkdown()
	got := readme[i+len(keymapBegin)+1 : j]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme[:i+len(keymapBegin)+1]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's key map is stale (go test ./internal/display -run TestReadmeKeyMap -update rewrites it):\ngot\n%s\nwant\n%s", got, want)
}
