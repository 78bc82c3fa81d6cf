package periph

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

func TestDefaultConfigValid(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("DefaultConfig().Validate() = %v, want nil", err)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		want   []string // substrings of the error
	}{
		{"pin twice", func(c *Config) { c.Buttons["hit"] = ButtonPins{Input: "GPIO4", Lamp: "LAMP_HIT"} },
			[]string{"hardware.buttons.hit.input", `"GPIO4"`, "hardware.buttons.deal.input"}},
		{"lamp reuses input", func(c *Config) { c.Tower.Tilt = "GPIO26" },
			[]string{"hardware.acceptor.pulse", `"GPIO26"`, "hardware.tower.tilt"}},
		{"empty pin", func(c *Config) { c.Switches["main_door"] = SwitchPin{Input: "", Active: High} },
			[]string{"hardware.switches.main_door.input", "pin name"}},
		{"unknown button", func(c *Config) { c.Buttons["fold"] = ButtonPins{Input: "X1", Lamp: "X2"} },
			[]string{"hardware.buttons.fold", "deal, hit"}},
		{"missing button", func(c *Config) { delete(c.Buttons, "cashout") },
			[]string{"hardware.buttons.cashout", "(missing)"}},
		{"unknown switch", func(c *Config) { c.Switches["back_door"] = SwitchPin{Input: "X1", Active: Low} },
			[]string{"hardware.switches.back_door", "main_door"}},
		{"missing switch", func(c *Config) { delete(c.Switches, "reset_key") },
			[]string{"hardware.switches.reset_key", "(missing)"}},
		{"bad level", func(c *Config) { c.Switches["audit_key"] = SwitchPin{Input: "GPIO23", Active: "up"} },
			[]string{"hardware.switches.audit_key.active", `"up"`, `"low" or "high"`}},
		{"lamp level", func(c *Config) { c.LampActive = "" }, []string{"hardware.lamp_active"}},
		{"zero debounce", func(c *Config) { c.Debounce = 0 }, []string{"hardware.debounce", `"0s"`}},
		{"width min above max", func(c *Config) { c.Acceptor.WidthMin = Duration(200 * time.Millisecond) },
			[]string{"hardware.acceptor.width_min", `"200ms"`, "width_max 120ms"}},
		{"gap min above max", func(c *Config) { c.Acceptor.GapMin = Duration(time.Second) },
			[]string{"hardware.acceptor.gap_min", "gap_max"}},
		{"end gap not above gap", func(c *Config) { c.Acceptor.EndGap = c.Acceptor.GapMax },
			[]string{"hardware.acceptor.end_gap", `"200ms"`, "longer than gap_max"}},
		{"jam shorter than a pulse", func(c *Config) { c.Acceptor.JamAfter = Duration(100 * time.Millisecond) },
			[]string{"hardware.acceptor.jam_after", `"100ms"`, "longer than width_max (120ms)"}},
		{"pull sideways", func(c *Config) {
			c.Switches["main_door"] = SwitchPin{Input: "GPIO21", Active: High, Pull: "left"}
		}, []string{"hardware.switches.main_door.pull", `"left"`, `"up", "down"`}},
		{"zero width", func(c *Config) { c.Acceptor.WidthMax = 0 }, []string{"hardware.acceptor.width_max", "above 0"}},
		{"bill not multiple", func(c *Config) { c.Acceptor.Bills = []Amount{500, 750} },
			[]string{"hardware.acceptor.bills", `"7.50"`, "multiples of value_per_pulse 5.00"}},
		{"no bills", func(c *Config) { c.Acceptor.Bills = nil }, []string{"hardware.acceptor.bills"}},
		{"zero value per pulse", func(c *Config) { c.Acceptor.ValuePerPulse = 0 }, []string{"hardware.acceptor.value_per_pulse"}},
		{"bad mode", func(c *Config) { c.Acceptor.Mode = "serial" }, []string{"hardware.acceptor.mode", `"serial"`}},
		{"inhibit twice", func(c *Config) { c.Acceptor.Inhibit = c.Acceptor.Pulse }, []string{"hardware.acceptor.inhibit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.change(&c)
			err := c.Validate()
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("Validate() = %v, want ErrConfig", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate() = %q, want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestAcceptorNone(t *testing.T) {
	c := DefaultConfig()
	c.Acceptor = Acceptor{Mode: AcceptorNone}
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate() = %v, want nil", err)
	}
}

func TestConfigTOML(t *testing.T) {
	doc := `
debounce = "35ms"
button_active = "low"
lamp_active = "low"
[buttons.deal]
input = "GPIO3"
lamp = "LAMP_DEAL"
[switches.main_door]
input = "GPIO21"
active = "high"
[tower]
attendant = "T1"
tilt = "T2"
[acceptor]
mode = "pulse"
pulse = "GPIO26"
value_per_pulse = "1.00"
bills = ["5.00", "10.00"]
width_min = "20ms"
end_gap = "1s"
`
	c := DefaultConfig()
	md, err := toml.Decode(doc, &c)
	if err != nil {
		t.Fatalf("toml.Decode = %v", err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		t.Fatalf("undecoded keys %v", u)
	}
	if c.Debounce.Std() != 35*time.Millisecond || c.LampActive != Low || c.Acceptor.ValuePerPulse != 100 ||
		len(c.Acceptor.Bills) != 2 || c.Acceptor.Bills[1] != 1000 || c.Acceptor.WidthMin.Std() != 20*time.Millisecond ||
		c.Acceptor.EndGap.Std() != time.Second || c.Buttons["deal"].Lamp != "LAMP_DEAL" || c.Tower.Tilt != "T2" {
		t.Errorf("decoded %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("Validate() = %v, want nil", err)
	}
	var bad Config
	if _, err := toml.Decode(`debounce = "20"`, &bad); err == nil || !strings.Contains(err.Error(), "unit") {
		t.Errorf(`Decode(debounce = "20") = %v, want a unit error`, err)
	}
	if _, err := toml.Decode(`[acceptor]
value_per_pulse = "1.005"`, &bad); err == nil {
		t.Errorf(`Decode(value_per_pulse = "1.005") = nil, want an error`)
	}
}

func TestConfigJSONRoundTrip(t *testing.T) {
	c := DefaultConfig()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var d Config
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("Unmarshal(%s) = %v", b, err)
	}
	b2, _ := json.Marshal(d)
	if string(b) != string(b2) {
		t.Errorf("round trip\n%s\nwant\n%s", b2, b)
	}
	if !strings.Contains(string(b), `"debounce":"20ms"`) || !strings.Contains(string(b), `"value_per_pulse":"5.00"`) {
		t.Errorf("json %s lacks text durations/amounts", b)
	}
}

func TestPins(t *testing.T) {
	pins := DefaultConfig().Pins()
	if len(pins) != 39 {
		t.Errorf("len(Pins()) = %d, want 39", len(pins))
	}
}
