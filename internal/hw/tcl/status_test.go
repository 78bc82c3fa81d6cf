package tcl_test

import (
	"bytes"
	"errors"
	"testing"

	"cabinet/internal/hw/tcl"
)

// reply builds a status reply from literal flag bytes.
func reply(f1, f2, f3, f4, f5 byte) []byte {
	return []byte("*S|0|GURUS1.2|" + string([]byte{f1, '|', f2, '|', f3, '|', f4, '|', f5, '|'}) + "PT|*")
}

// TestDecodeStatusFlags: each flag from its byte and bit as the TCL
// manuals lay them out, written here as literal bytes.
func TestDecodeStatusFlags(t *testing.T) {
	const z = 0x40
	tests := []struct {
		b    []byte
		want tcl.Flags
	}{
		{reply(z, z, z, z, z), 0},
		{reply(z|0x20, z, z, z, z), tcl.Busy},
		{reply(z|0x10, z, z, z, z), tcl.SystemError},
		{reply(z|0x08, z, z, z, z), tcl.HeadUp},
		{reply(z|0x04, z, z, z, z), tcl.PaperOut},
		{reply(z|0x02, z, z, z, z), tcl.HeadError},
		{reply(z|0x01, z, z, z, z), tcl.VoltageError},
		{reply(z, z|0x20, z, z, z), tcl.TemperatureError},
		{reply(z, z|0x10, z, z, z), tcl.LibraryRefError},
		{reply(z, z|0x08, z, z, z), tcl.RegionDataError},
		{reply(z, z|0x04, z, z, z), tcl.LibraryLoadError},
		{reply(z, z|0x02, z, z, z), tcl.BufferOverflow},
		{reply(z, z|0x01, z, z, z), tcl.JobMemoryOverflow},
		{reply(z, z, z|0x20, z, z), tcl.CommandError},
		{reply(z, z, z|0x10, z, z), tcl.LibrariesCorrupt},
		{reply(z, z, z|0x08, z, z), tcl.PaperInChute},
		{reply(z, z, z|0x04, z, z), tcl.FlashError},
		{reply(z, z, z|0x02, z, z), tcl.Offline},
		{reply(z, z, z|0x01, z, z), tcl.MissingSupplyIndex},
		{reply(z, z, z, z|0x08, z), tcl.JournalMode},
		{reply(z, z, z, z|0x04, z), tcl.CutterError},
		{reply(z, z, z, z|0x02, z), tcl.PaperJam},
		{reply(z, z, z, z|0x01, z), tcl.PaperLow},
		{reply(z, z, z, z, z|0x20), tcl.ValidationDone},
		{reply(z, z, z, z, z|0x10), tcl.TopOfForm},
		{reply(z, z, z, z, z|0x08), tcl.XOff},
		{reply(z, z, z, z, z|0x04), tcl.ChassisOpen},
		{reply(z, z, z, z, z|0x02), tcl.BarcodeAccessed},
		{reply(z, z, z, z, z|0x01), tcl.PowerUpReset},
		// f1 = 0x7C is '|': busy, system error, head up, paper out.
		{reply('|', z, z, z, z), tcl.Busy | tcl.SystemError | tcl.HeadUp | tcl.PaperOut},
		// The usual idle printer after a ticket: validation done, top of form.
		{reply(z, z, z, z, z|0x30), tcl.ValidationDone | tcl.TopOfForm},
	}
	for _, tt := range tests {
		st, n, err := tcl.DecodeStatus(tt.b)
		if err != nil {
			t.Errorf("DecodeStatus(%q): %v", tt.b, err)
			continue
		}
		if st.Flags != tt.want || n != len(tt.b) {
			t.Errorf("DecodeStatus(%q) = %v, %d bytes; want %v, %d", tt.b, st.Flags, n, tt.want, len(tt.b))
		}
		if st.Unit != "0" || st.Version != "GURUS1.2" || st.Template != 'T' || st.Reserved != [5]byte{} {
			t.Errorf("DecodeStatus(%q) = %+v, want unit 0, version GURUS1.2, template T", tt.b, st)
		}
		if back := tcl.AppendStatus(nil, st); !bytes.Equal(back, tt.b) {
			t.Errorf("AppendStatus(DecodeStatus(%q)) = %q", tt.b, back)
		}
	}
	// f4 bits 0x10 and 0x20 name no flag: kept, not lost.
	st, _, err := tcl.DecodeStatus(reply(z, z, z, z|0x30, z))
	if err != nil || st.Flags != 0 || st.Reserved[3] != 0x30 {
		t.Errorf("DecodeStatus(f4 0x70) = %+v, %v; want no flag, reserved f4 0x30", st, err)
	}
}

func TestDecodeStatusRefuses(t *testing.T) {
	const z = 0x40
	tests := []struct {
		name string
		b    string
		want error
	}{
		{"empty", "", tcl.ErrShortStatus},
		{"header only", "*S|", tcl.ErrShortStatus},
		{"cut in flags", string(reply(z, z, z, z, z)[:18]), tcl.ErrShortStatus},
		{"no final star", string(reply(z, z, z, z, z)[:25]), tcl.ErrShortStatus},
		{"wrong start", "#S|0|V|@|@|@|@|@|PT|*", tcl.ErrBadStatus},
		{"wrong letter", "*s|0|V|@|@|@|@|@|PT|*", tcl.ErrBadStatus},
		{"unit not digits", "*S|A|V|@|@|@|@|@|PT|*", tcl.ErrBadStatus},
		{"empty unit", "*S||V|@|@|@|@|@|PT|*", tcl.ErrBadStatus},
		{"flag without bit 6", "*S|0|V|\x00|@|@|@|@|PT|*", tcl.ErrBadStatus},
		{"flag with bit 7", "*S|0|V|\xC0|@|@|@|@|PT|*", tcl.ErrBadStatus},
		{"four flags", "*S|0|V|@|@|@|@|PT|*", tcl.ErrBadStatus},
		{"no P", "*S|0|V|@|@|@|@|@|T|*", tcl.ErrBadStatus},
		{"version with star", "*S|0|V*1|@|@|@|@|@|PT|*", tcl.ErrBadStatus},
		{"bad end", "*S|0|V|@|@|@|@|@|PT|#", tcl.ErrBadStatus},
		{"long version", "*S|0|" + string(bytes.Repeat([]byte("V"), 40)) + "|", tcl.ErrBadStatus},
	}
	for _, tt := range tests {
		_, _, err := tcl.DecodeStatus([]byte(tt.b))
		if !errors.Is(err, tt.want) {
			t.Errorf("DecodeStatus(%s %q) = %v, want %v", tt.name, tt.b, err, tt.want)
		}
	}
}

// FuzzDecodeStatus: any bytes either fail cleanly or decode to a status
// that encodes back to exactly the bytes taken.
func FuzzDecodeStatus(f *testing.F) {
	f.Add(reply(0x40, 0x40, 0x40, 0x40, 0x70))
	f.Add(reply('|', '|', '|', '|', '|'))
	f.Add([]byte("*S|12|GEN2|@|@|@|@|@|P |*trailing"))
	f.Add([]byte("*S|0|V|\x00|@|@|@|@|PT|*"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, n, err := tcl.DecodeStatus(b)
		if err != nil {
			if !errors.Is(err, tcl.ErrShortStatus) && !errors.Is(err, tcl.ErrBadStatus) {
				t.Fatalf("DecodeStatus(%q) = %v, not a status error", b, err)
			}
			return
		}
		if n <= 0 || n > len(b) {
			t.Fatalf("DecodeStatus(%q) took %d bytes", b, n)
		}
		if back := tcl.AppendStatus(nil, st); !bytes.Equal(back, b[:n]) {
			t.Fatalf("AppendStatus(DecodeStatus(%q)) = %q", b[:n], back)
		}
	})
}

func TestFlagsString(t *testing.T) {
	if got, want := (tcl.Busy | tcl.PaperLow).String(), "busy, paper low"; got != want {
		t.Errorf("Flags.String() = %q, want %q", got, want)
	}
	if got := tcl.Flags(0).String(); got != "none" {
		t.Errorf("Flags(0).String() = %q, want none", got)
	}
}
