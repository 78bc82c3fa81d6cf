package tclemu_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"cabinet/internal/hw/tcl"
	"cabinet/internal/hw/tcl/tclemu"
)

// host is a bare host end: raw bytes in, status replies out, so the
// emulator's handling of bad commands is tested without the tcl host.
type host struct {
	t *testing.T
	f *os.File
}

func open(t *testing.T) (*tclemu.Printer, host) {
	t.Helper()
	emu, err := tclemu.New(tclemu.Options{})
	if err != nil {
		t.Fatalf("tclemu.New: %v", err)
	}
	t.Cleanup(func() { emu.Close() })
	f, err := os.OpenFile(emu.Path, os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatalf("open %s: %v", emu.Path, err)
	}
	t.Cleanup(func() { f.Close() })
	return emu, host{t, f}
}

func (h host) send(s string) {
	h.t.Helper()
	if _, err := h.f.Write([]byte(s)); err != nil {
		h.t.Fatalf("write %q: %v", s, err)
	}
}

// status sends ENQ and waits for the whole reply (commands before it are
// handled first: the emulator reads the line in order).
func (h host) status() tcl.Status {
	h.t.Helper()
	h.send("\x05")
	var buf []byte
	chunk := make([]byte, 64)
	if err := h.f.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		h.t.Fatalf("deadline: %v", err)
	}
	for {
		n, err := h.f.Read(chunk)
		if err != nil {
			h.t.Fatalf("read status: %v (have %q)", err, buf)
		}
		buf = append(buf, chunk[:n]...)
		st, _, err := tcl.DecodeStatus(buf)
		if errors.Is(err, tcl.ErrShortStatus) {
			continue
		}
		if err != nil {
			h.t.Fatalf("status %q: %v", buf, err)
		}
		return st
	}
}

func TestPowerUp(t *testing.T) {
	_, h := open(t)
	st := h.status()
	if st.Flags != tcl.PowerUpReset|tcl.TopOfForm || st.Template != ' ' {
		t.Errorf("status at power-up = %v, want power-up reset, top of form, template ' '", st)
	}
	h.send("^C|^")
	if st := h.status(); st.Flags != tcl.TopOfForm {
		t.Errorf("status after ^C|^ = %v, want top of form only", st)
	}
	h.send("^S|^") // the command form of the status request
	if st := h.status(); st.Flags != tcl.TopOfForm {
		t.Errorf("status after ^S|^ = %v", st)
	}
}

// TestCommandErrors: the emulator holds the host to the command forms.
func TestCommandErrors(t *testing.T) {
	region := "^R|0|R|10|10|20|100||1|1|2|1|1|0|0||^"
	barcode := "^R|1|R|10|10|20|100||1|1|l|3|3|100|0||^"
	tests := []struct {
		name string
		cmds string
		want tcl.Flags
	}{
		{"unknown command", "^Q|1|^", tcl.CommandError},
		{"no final bar", "^C^", tcl.CommandError},
		{"short region", "^R|0|R|10|^", tcl.CommandError},
		{"region not numeric", "^R|0|R|x|10|20|100||1|1|2|1|1|0|0||^", tcl.CommandError},
		{"template of unknown region", "^T|T|R|512|1240|9|^", tcl.LibraryRefError},
		{"print unknown template", "^P|T|1|A|^", tcl.LibraryRefError},
		{"print too few fields", region + "^T|T|R|512|1240|0|^^P|T|1|^", tcl.RegionDataError},
		{"print odd barcode", barcode + "^T|T|R|512|1240|1|^^P|T|1|123|^", tcl.RegionDataError},
		{"print bad escape", region + "^T|T|R|512|1240|0|^^P|T|1|a~1|^", tcl.RegionDataError},
		{"print zero copies", region + "^T|T|R|512|1240|0|^^P|T|0|a|^", tcl.CommandError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emu, h := open(t)
			h.send("^C|^" + tt.cmds)
			st := h.status()
			if !st.Has(tt.want) {
				t.Errorf("status after %q = %v, want %v", tt.cmds, st, tt.want)
			}
			if n := len(emu.Tickets()); n != 0 {
				t.Errorf("printer recorded %d tickets, want 0", n)
			}
		})
	}
}

// TestPrintSteps: one phase per status request, as the package doc says.
func TestPrintSteps(t *testing.T) {
	emu, h := open(t)
	h.send("^C|^^R|1|R|10|10|20|100||1|1|l|3|3|100|0||^^T|T|R|512|1240|1|^^P|T|1|001234567890123456|^")
	want := []tcl.Flags{
		tcl.Busy,
		tcl.Busy | tcl.ValidationDone,
		tcl.Busy | tcl.ValidationDone,
		tcl.ValidationDone,
		tcl.ValidationDone | tcl.TopOfForm,
	}
	for i, w := range want {
		if st := h.status(); st.Flags != w {
			t.Errorf("status %d after the print = %v, want %v", i+1, st.Flags, w)
		}
	}
	got := emu.Tickets()
	if len(got) != 1 || !got[0].Complete || got[0].Fields[0].Data != "001234567890123456" || !got[0].Fields[0].Barcode {
		t.Errorf("tickets = %+v", got)
	}
}
