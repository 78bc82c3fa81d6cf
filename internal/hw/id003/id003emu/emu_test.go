package id003emu

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"cabinet/internal/hw/id003"
)

// line is a bare host on the emulator's pty: one command, one answer.
type line struct {
	t *testing.T
	p *id003.Port
}

func (l line) write(b []byte) {
	l.t.Helper()
	if err := l.p.Write(b); err != nil {
		l.t.Fatal(err)
	}
}

// read returns the next frame (a bounded wait: the emulator answers at
// once; the bound only stops a broken test).
func (l line) read() id003.Frame {
	l.t.Helper()
	var buf []byte
	chunk := make([]byte, 64)
	for {
		f, _, err := id003.Decode(buf)
		if err == nil {
			f.Data = slices.Clone(f.Data)
			return f
		}
		if !errors.Is(err, id003.ErrShort) {
			l.t.Fatalf("answer % X: %v", buf, err)
		}
		n, err := l.p.Read(chunk, 5*time.Second)
		if err != nil || n == 0 {
			l.t.Fatalf("no answer (have % X): %v", buf, err)
		}
		buf = append(buf, chunk[:n]...)
	}
}

func (l line) ask(c id003.Command, data ...byte) id003.Frame {
	l.t.Helper()
	l.write(id003.MustEncode(byte(c), data...))
	return l.read()
}

func open(t *testing.T) (*Validator, line) {
	t.Helper()
	v, err := Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() { v.Close() })
	p, err := id003.OpenPort(v.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return v, line{t, p}
}

// TestConversation walks the validator through power-up, reset, the
// settings, a note returned and a note stacked, command by command.
func TestConversation(t *testing.T) {
	v, l := open(t)
	steps := []struct {
		cmd  id003.Command
		data []byte
		want id003.Frame
		then func()
	}{
		{id003.CmdStatus, nil, id003.Frame{Code: 0x40}, nil},
		{id003.CmdStack1, nil, id003.Frame{Code: 0x4B}, nil},           // not in escrow: invalid command
		{id003.CmdSetInhibit, []byte{0}, id003.Frame{Code: 0x4B}, nil}, // no settings before Reset
		{id003.CmdReset, nil, id003.Frame{Code: 0x50}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x1B}, nil},
		{id003.CmdSetDenomination, []byte{0x02, 0x00}, id003.Frame{Code: 0xC0, Data: []byte{0x02, 0x00}}, nil},
		{id003.CmdGetDenomination, nil, id003.Frame{Code: 0x80, Data: []byte{0x02, 0x00}}, nil},
		{id003.CmdSetDenomination, []byte{0x02}, id003.Frame{Code: 0x4B}, nil}, // one byte short
		{id003.CmdStatus, nil, id003.Frame{Code: 0x1A}, nil},
		{id003.CmdSetInhibit, []byte{0x00}, id003.Frame{Code: 0xC3, Data: []byte{0x00}}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x11}, func() {
			if err := v.Insert(0x63); err != nil {
				t.Fatal(err)
			}
		}},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x12}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x13, Data: []byte{0x63}}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x13, Data: []byte{0x63}}, nil}, // escrow waits
		{id003.CmdReturn, nil, id003.Frame{Code: 0x50}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x18}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x11}, func() {
			if err := v.Insert(0x62); err != nil { // inhibited by C0 02 00
				t.Fatal(err)
			}
		}},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x12}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x17, Data: []byte{0x79}}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x11}, func() {
			if err := v.Insert(0x61); err != nil {
				t.Fatal(err)
			}
		}},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x12}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x13, Data: []byte{0x61}}, nil},
		{id003.CmdStack1, nil, id003.Frame{Code: 0x50}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x14}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x15}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x15}, func() { // until the ACK
			l.write(id003.MustEncode(byte(id003.CmdAck))) // never answered
		}},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x16}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x11}, nil},
	}
	for i, s := range steps {
		got := l.ask(s.cmd, s.data...)
		if got.Code != s.want.Code || !bytes.Equal(got.Data, s.want.Data) {
			t.Fatalf("step %d: %s % X answered %v, want %v", i, s.cmd, s.data, got, s.want)
		}
		if s.then != nil {
			s.then()
		}
	}
	if f := l.ask(id003.CmdGetVersion); f.Code != 0x88 || !bytes.Contains(f.Data, []byte("ID003")) {
		t.Errorf("version request answered %v (%q)", f, f.Data)
	}
	s := v.Snapshot()
	if !slices.Equal(s.Stacked, []byte{0x61}) || !slices.Equal(s.Returned, []byte{0x63, 0x62}) || s.Invalid != 3 {
		t.Errorf("stacked % X returned % X invalid %d, want 61 / 63 62 / 3", s.Stacked, s.Returned, s.Invalid)
	}
}

func TestBadFrameAnsweredCommunicationError(t *testing.T) {
	v, l := open(t)
	bad := id003.MustEncode(byte(id003.CmdStatus))
	bad[3] ^= 0xFF
	l.write(bad)
	if f := l.read(); id003.Status(f.Code) != id003.StCommError {
		t.Errorf("a frame with a bad CRC answered %v, want 4A", f)
	}
	l.write([]byte{0xFC, 0x03, 0x11})
	if f := l.read(); id003.Status(f.Code) != id003.StCommError {
		t.Errorf("a frame with length 3 answered %v, want 4A", f)
	}
	if f := l.ask(id003.CmdStatus); id003.Status(f.Code) != id003.StPowerUp {
		t.Errorf("status after the bad frames = %v, want power up", f)
	}
	if n := v.Snapshot().BadIn; n != 2 {
		t.Errorf("BadIn = %d, want 2", n)
	}
}

// TestPowerUpStatusSaysWhereTheNoteIs: a cut leaves 41 with the note in
// the transport and 42 with it past escrow; Reset returns or stacks it.
func TestPowerUpStatusSaysWhereTheNoteIs(t *testing.T) {
	for _, tt := range []struct {
		name    string
		at      id003.Status // cut when about to report this
		want    id003.Status
		stacked bool
	}{
		{"escrow", id003.StEscrow, id003.StPowerUpBillAcceptor, false},
		{"vend valid", id003.StVendValid, id003.StPowerUpBillStacker, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, l := open(t)
			l.ask(id003.CmdReset)
			l.ask(id003.CmdStatus)
			l.ask(id003.CmdSetInhibit, 0)
			l.ask(id003.CmdStatus)
			if err := v.Insert(0x64); err != nil {
				t.Fatal(err)
			}
			v.Arm(Trap{Status: tt.at})
			for f := l.ask(id003.CmdStatus); !id003.Status(f.Code).PowerUp(); f = l.ask(id003.CmdStatus) {
				if id003.Status(f.Code) == id003.StEscrow {
					l.ask(id003.CmdStack1)
				}
			}
			if f := l.ask(id003.CmdStatus); id003.Status(f.Code) != tt.want {
				t.Fatalf("after the cut: %v, want %s", f, tt.want)
			}
			l.ask(id003.CmdReset)
			l.ask(id003.CmdStatus) // initialize
			if f := l.ask(id003.CmdStatus); id003.Status(f.Code) != id003.StDisabled {
				t.Errorf("after reset: %v, want disabled (settings back to power-on defaults)", f)
			}
			s := v.Snapshot()
			if got := slices.Equal(s.Stacked, []byte{0x64}); got != tt.stacked || len(s.Stacked)+len(s.Returned) != 1 {
				t.Errorf("stacked % X returned % X, want stacked=%v", s.Stacked, s.Returned, tt.stacked)
			}
		})
	}
}
