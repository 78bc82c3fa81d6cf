package id003emu

import (
	"bytes"
	"errors"
	"slices"
	"strings"
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

// enabled resets the validator and enables it, as a host does.
func enabled(t *testing.T, l line) {
	t.Helper()
	l.ask(id003.CmdReset)
	l.ask(id003.CmdStatus) // initialize
	l.ask(id003.CmdSetInhibit, 0)
	if f := l.ask(id003.CmdStatus); id003.Status(f.Code) != id003.StIdling {
		t.Fatalf("after enabling: %v, want idling", f)
	}
}

const ticket = "001234567890123456"

var ticketEscrow = id003.Frame{Code: 0x13, Data: append([]byte{0x6F}, ticket...)}

// TestTicketConversation walks a ticket through the barcode settings,
// escrow, holds, stack-1 and vend valid, and a second one through the bar
// inhibit and a hold then return, command by command.
func TestTicketConversation(t *testing.T) {
	v, l := open(t)
	l.ask(id003.CmdReset)
	insert := func(b string) func() {
		return func() {
			if err := v.InsertTicket(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := []struct {
		cmd  id003.Command
		data []byte
		want id003.Frame
		then func()
	}{
		{id003.CmdGetBarcode, nil, id003.Frame{Code: 0x86, Data: []byte{0x01, 0x12}}, nil}, // power-on values
		{id003.CmdGetBarInhibit, nil, id003.Frame{Code: 0x87, Data: []byte{0xFC}}, nil},
		{id003.CmdSetBarcode, []byte{0x01, 0x12}, id003.Frame{Code: 0xC6, Data: []byte{0x01, 0x12}}, nil},
		{id003.CmdSetBarInhibit, []byte{0xFF}, id003.Frame{Code: 0xC7, Data: []byte{0xFF}}, nil},
		{id003.CmdGetBarInhibit, nil, id003.Frame{Code: 0x87, Data: []byte{0xFF}}, nil},
		{id003.CmdSetBarInhibit, []byte{0xFC, 0x00}, id003.Frame{Code: 0x4B}, nil}, // one byte too many
		{id003.CmdSetBarInhibit, []byte{0xFD}, id003.Frame{Code: 0xC7, Data: []byte{0xFD}}, nil},
		{id003.CmdSetInhibit, []byte{0x00}, id003.Frame{Code: 0xC3, Data: []byte{0x00}}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x1B}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x11}, insert(ticket)},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x12}, nil},
		{id003.CmdStatus, nil, ticketEscrow, nil},
		{id003.CmdHold, nil, id003.Frame{Code: 0x50}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x19}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x19}, nil}, // held until told
		{id003.CmdHold, nil, id003.Frame{Code: 0x50}, nil},   // the host repeats it
		{id003.CmdStatus, nil, id003.Frame{Code: 0x19}, nil},
		{id003.CmdStack1, nil, id003.Frame{Code: 0x50}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x14}, nil},
		{id003.CmdHold, nil, id003.Frame{Code: 0x4B}, nil}, // nothing to hold
		{id003.CmdStatus, nil, id003.Frame{Code: 0x15}, func() { l.write(id003.MustEncode(byte(id003.CmdAck))) }},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x16}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x11}, insert("0001")}, // a short barcode: escrowed as read
		{id003.CmdStatus, nil, id003.Frame{Code: 0x12}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x13, Data: []byte{0x6F, '0', '0', '0', '1'}}, nil},
		{id003.CmdReturn, nil, id003.Frame{Code: 0x50}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x18}, nil},
		{id003.CmdSetBarInhibit, []byte{0xFE}, id003.Frame{Code: 0xC7, Data: []byte{0xFE}}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x11}, insert(ticket)}, // tickets inhibited: rejected
		{id003.CmdStatus, nil, id003.Frame{Code: 0x12}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x17, Data: []byte{0x79}}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x11}, func() {
			if err := v.Insert(0x61); err != nil {
				t.Fatal(err)
			}
		}},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x12}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x13, Data: []byte{0x61}}, nil}, // notes enabled
		{id003.CmdHold, nil, id003.Frame{Code: 0x50}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x19}, nil},
		{id003.CmdReturn, nil, id003.Frame{Code: 0x50}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x18}, nil},
		{id003.CmdSetBarInhibit, []byte{0xFD}, id003.Frame{Code: 0xC7, Data: []byte{0xFD}}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x11}, func() {
			if err := v.Insert(0x61); err != nil { // notes inhibited by the bar inhibit
				t.Fatal(err)
			}
		}},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x12}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x17, Data: []byte{0x79}}, nil},
		{id003.CmdSetInhibit, []byte{0x01}, id003.Frame{Code: 0xC3, Data: []byte{0x01}}, nil},
		{id003.CmdStatus, nil, id003.Frame{Code: 0x1A}, nil},
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
	s := v.Snapshot()
	if !slices.Equal(s.TicketsStacked, []string{ticket}) || !slices.Equal(s.TicketsReturned, []string{"0001", ticket}) ||
		len(s.Stacked) != 0 || !slices.Equal(s.Returned, []byte{0x61, 0x61}) || s.Bar != 0xFD {
		t.Errorf("tickets stacked %q returned %q, notes stacked % X returned % X, bar %02X", s.TicketsStacked, s.TicketsReturned, s.Stacked, s.Returned, s.Bar)
	}
	if err := v.InsertTicket(ticket); !errors.Is(err, ErrBusy) {
		t.Errorf("InsertTicket while disabled = %v, want ErrBusy", err)
	}
}

func TestInsertTicketBadBarcode(t *testing.T) {
	v, _ := open(t)
	for _, tt := range []struct {
		barcode, want string
	}{
		{"00123456789012345\xC3", `byte 0xC3 at position 18 is not ASCII`},
		{strings.Repeat("1", 250), "barcode of 250 characters (at most 249 fit in a frame)"},
	} {
		if err := v.InsertTicket(tt.barcode); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("InsertTicket(%.20q) = %v, want %q", tt.barcode, err, tt.want)
		}
	}
}

// TestHoldLimit: with HoldLimit, a hold runs out and the ticket is in
// escrow again (the limit is a nanosecond: it has run out by the second
// status request, whatever the clock).
func TestHoldLimit(t *testing.T) {
	v, l := open(t)
	v.HoldLimit = time.Nanosecond
	v.Snapshot() // the field's write is published by the lock
	enabled(t, l)
	if err := v.InsertTicket(ticket); err != nil {
		t.Fatal(err)
	}
	for _, want := range []id003.Frame{{Code: 0x12}, ticketEscrow} {
		if f := l.ask(id003.CmdStatus); f.Code != want.Code || !bytes.Equal(f.Data, want.Data) {
			t.Fatalf("status %v, want %v", f, want)
		}
	}
	l.ask(id003.CmdHold)
	if f := l.ask(id003.CmdStatus); f.Code != 0x19 {
		t.Fatalf("after hold: %v, want holding", f)
	}
	if f := l.ask(id003.CmdStatus); f.Code != 0x13 || !bytes.Equal(f.Data, ticketEscrow.Data) {
		t.Fatalf("after the hold ran out: %v, want the ticket in escrow", f)
	}
}

// TestTicketPowerUp: a cut while a ticket is held leaves 41 (Reset gives it
// back), one while it is stacking leaves 42 (Reset stacks it).
func TestTicketPowerUp(t *testing.T) {
	for _, tt := range []struct {
		name    string
		trap    Trap
		want    id003.Status
		stacked bool
	}{
		{"holding", Trap{Status: id003.StHolding}, id003.StPowerUpBillAcceptor, false},
		{"hold received", Trap{Command: id003.CmdHold}, id003.StPowerUpBillAcceptor, false},
		{"stacking", Trap{Status: id003.StStacking}, id003.StPowerUpBillStacker, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, l := open(t)
			enabled(t, l)
			if err := v.InsertTicket(ticket); err != nil {
				t.Fatal(err)
			}
			v.Arm(tt.trap)
			held := false
			for f := l.ask(id003.CmdStatus); !id003.Status(f.Code).PowerUp(); f = l.ask(id003.CmdStatus) {
				switch {
				case id003.Status(f.Code) == id003.StEscrow && !held:
					held = true
					l.write(id003.MustEncode(byte(id003.CmdHold)))
					if tt.trap.Command == 0 {
						l.read()
					}
				case id003.Status(f.Code) == id003.StHolding:
					l.ask(id003.CmdStack1)
				}
			}
			if f := l.ask(id003.CmdStatus); id003.Status(f.Code) != tt.want {
				t.Fatalf("after the cut: %v, want %s", f, tt.want)
			}
			l.ask(id003.CmdReset)
			l.ask(id003.CmdStatus) // initialize
			if f := l.ask(id003.CmdStatus); id003.Status(f.Code) != id003.StDisabled {
				t.Errorf("after reset: %v, want disabled", f)
			}
			s := v.Snapshot()
			if got := slices.Equal(s.TicketsStacked, []string{ticket}); got != tt.stacked || len(s.TicketsStacked)+len(s.TicketsReturned) != 1 {
				t.Errorf("tickets stacked %q returned %q, want stacked=%v", s.TicketsStacked, s.TicketsReturned, tt.stacked)
			}
		})
	}
}
