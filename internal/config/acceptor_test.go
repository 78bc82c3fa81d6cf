package config

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/money"
)

// The shipped file keeps the pulse acceptor and states the validator's
// note table, so `--acceptor PORT` needs nothing else.
func TestShippedValidatorTable(t *testing.T) {
	c := loadShipped(t)
	if _, _, ok, err := c.Validator(""); ok || err != nil {
		t.Errorf("Validator(\"\") on the shipped file = ok %v, %v; want no validator (pulse mode)", ok, err)
	}
	port, notes, ok, err := c.Validator("/dev/pts/7")
	if err != nil || !ok || port != "/dev/pts/7" {
		t.Fatalf("Validator(/dev/pts/7) = %q, ok %v, %v", port, ok, err)
	}
	want := map[byte]money.Cents{0x62: 500, 0x63: 1000, 0x64: 2000, 0x65: 5000, 0x66: 10000}
	if d := cmp.Diff(want, notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}

// withAcceptor is the shipped file with its [hardware.acceptor] mode, port
// and notes replaced by section (the pulse keys kept).
func withAcceptor(t *testing.T, section string) []byte {
	t.Helper()
	b, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "[") {
			in = strings.HasPrefix(l, "[hardware.acceptor]")
			if in {
				out = append(out, strings.TrimSuffix(section, "\n"))
				continue
			}
		}
		if in && (strings.HasPrefix(l, "mode ") || strings.HasPrefix(l, "port ") || strings.HasPrefix(l, "notes ")) {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}

func TestValidatorMode(t *testing.T) {
	doc := "[hardware.acceptor]\nmode = \"id003\"\nport = \"/dev/ttyUSB1\"\nnotes = { 0x61 = \"5.00\", 0x68 = \"100.00\" }\n"
	c, err := Parse(withAcceptor(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	port, notes, ok, err := c.Validator("")
	if err != nil || !ok || port != "/dev/ttyUSB1" || len(notes) != 2 || notes[0x68] != 10000 {
		t.Errorf("Validator(\"\") = %q, %v, ok %v, %v", port, notes, ok, err)
	}
	if port, _, _, _ := c.Validator("/dev/pts/3"); port != "/dev/pts/3" {
		t.Errorf("--acceptor does not override the port: %q", port)
	}
	// Pins: a validator uses no GPIO.
	for _, p := range c.Hardware.Pins() {
		if strings.HasPrefix(p.Key, "hardware.acceptor") {
			t.Errorf("id003 mode lists pin %+v", p)
		}
	}
}

func TestValidatorBadValues(t *testing.T) {
	for _, tc := range []struct {
		name, doc        string
		key, value, want string
	}{
		{"bad mode", "[hardware.acceptor]\nmode = \"serial\"\n", "hardware.acceptor.mode", `"serial"`, `"id003"`},
		{"no port", "[hardware.acceptor]\nmode = \"id003\"\nport = \" \"\nnotes = { 0x62 = \"5.00\" }\n", "hardware.acceptor.port", `" "`, "serial port"},
		{"no notes", "[hardware.acceptor]\nmode = \"id003\"\nport = \"/dev/ttyUSB0\"\nnotes = {}\n", "hardware.acceptor.notes", "(none)", "at least one escrow code"},
		{"code out of range", "[hardware.acceptor]\nnotes = { 0x69 = \"5.00\" }\n", "hardware.acceptor.notes.0x69", `"0x69"`, `"0x61" to "0x68"`},
		{"code not hex", "[hardware.acceptor]\nnotes = { five = \"5.00\" }\n", "hardware.acceptor.notes.five", `"five"`, "escrow code"},
		{"code without 0x", "[hardware.acceptor]\nnotes = { 62 = \"5.00\" }\n", "hardware.acceptor.notes.62", `"62"`, "escrow code"},
		{"code twice", "[hardware.acceptor]\nnotes = { 0x62 = \"5.00\", 0X62 = \"5.00\" }\n", "hardware.acceptor.notes.0x62", `"0x62"`, "once"},
		{"zero note", "[hardware.acceptor]\nnotes = { 0x62 = \"0\" }\n", "hardware.acceptor.notes.0x62", `"0.00"`, "above 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse(withAcceptor(t, tc.doc))
			if err == nil {
				t.Fatalf("Parse(%q) = %v, nil, want an error", tc.doc, c)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("Parse(%q) = %v, want errors.Is ErrInvalid", tc.doc, err)
			}
			for _, s := range []string{tc.key, tc.value, tc.want} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Parse(%q) = %q, want it to contain %q", tc.doc, err, s)
				}
			}
		})
	}
	// --acceptor with a file that gives no notes.
	c, err := Parse(withAcceptor(t, "[hardware.acceptor]\nmode = \"pulse\"\nnotes = {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := c.Validator("/dev/pts/1"); err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "hardware.acceptor.notes") {
		t.Errorf("Validator(--acceptor) without notes = %v, want a KeyError naming hardware.acceptor.notes", err)
	}
}
