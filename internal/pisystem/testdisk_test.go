package pisystem

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/config"
)

// TestGuestConfig: the guest's configuration is the shipped one with the
// test's store and lines, and the cabinet's own loader accepts it.
func TestGuestConfig(t *testing.T) {
	shipped, err := os.ReadFile(filepath.Join("..", "..", "configs", "cabinet.toml"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := GuestConfig(string(shipped))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cabinet.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatalf("config.Load of the guest's configuration: %v", err)
	}
	if cfg.Backend() != "sim" {
		t.Errorf("backend %q, want sim", cfg.Backend())
	}
	for _, want := range []string{`store = "/var/lib/cabinet/cabinet.db"`, `port = "/dev/ttyAMA0"`, `mode = "id003"`,
		`port = "` + GuestValidator + `"`, `port = "` + GuestPrinter + `"`, "address = 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("guest configuration lacks %s", want)
		}
	}
	if _, err := SetKey(text, "sas", "nosuchkey", "1"); err == nil {
		t.Error("SetKey of a missing key: no error")
	}
}
