package periph_test

import (
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"

	"cabinet/internal/hw/periph"
)

// The [hardware] section of the shipped configuration writes out every key
// of DefaultConfig, with the same values (decoded onto an empty Config, so
// a key left out of the file shows up as a difference).
func TestShippedHardwareSection(t *testing.T) {
	var doc struct {
		Hardware periph.Config `toml:"hardware"`
	}
	md, err := toml.DecodeFile("../../../configs/cabinet.toml", &doc)
	if err != nil {
		t.Fatalf("DecodeFile(configs/cabinet.toml) = %v", err)
	}
	if !md.IsDefined("hardware") {
		t.Fatal("configs/cabinet.toml has no [hardware] section")
	}
	if d := cmp.Diff(periph.DefaultConfig(), doc.Hardware); d != "" {
		t.Errorf("configs/cabinet.toml [hardware] differs from DefaultConfig (-want +got):\n%s", d)
	}
	for _, k := range md.Undecoded() {
		if len(k) > 0 && k[0] == "hardware" {
			t.Errorf("configs/cabinet.toml: unknown key %s", k)
		}
	}
}
