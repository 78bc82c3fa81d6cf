package tcl

import (
	"fmt"
	"strings"
)

// Flags are the conditions a TCL status reply reports, one bit each.
//
// The reply carries them in five flag bytes (f1…f5). Each byte has bit 6
// (0x40) set so that it is printable, bit 7 clear, and its flags in bits
// 0–5 (FutureLogic GEN2/GEN3 developer manuals; the same layout on the
// TransAct and Nanoptix TCL emulations):
//
//	f1: 0x20 busy, 0x10 system error, 0x08 platen (head) up, 0x04 paper out,
//	    0x02 head error, 0x01 voltage error
//	f2: 0x20 temperature error, 0x10 library reference error, 0x08 print
//	    region data error, 0x04 library load error, 0x02 buffer overflow,
//	    0x01 job memory overflow
//	f3: 0x20 command error, 0x10 print libraries corrupted, 0x08 paper in
//	    chute, 0x04 flash programming error, 0x02 printer offline,
//	    0x01 missing supply index
//	f4: 0x08 journal (line) printing mode, 0x04 cutter error, 0x02 paper jam,
//	    0x01 paper low
//	f5: 0x20 validation number done, 0x10 top of form, 0x08 XOFF sent,
//	    0x04 chassis open, 0x02 barcode data accessed, 0x01 power-up reset
//
// Bits of a flag byte that no flag names are kept in Status.Reserved.
type Flags uint32

// The flags, in reply order.
const (
	Busy Flags = 1 << iota
	SystemError
	HeadUp
	PaperOut
	HeadError
	VoltageError

	TemperatureError
	LibraryRefError
	RegionDataError
	LibraryLoadError
	BufferOverflow
	JobMemoryOverflow

	CommandError
	LibrariesCorrupt
	PaperInChute
	FlashError
	Offline
	MissingSupplyIndex

	JournalMode
	CutterError
	PaperJam
	PaperLow

	ValidationDone
	TopOfForm
	XOff
	ChassisOpen
	BarcodeAccessed
	PowerUpReset
)

// flagBits is the one table of where each flag sits: decoding, encoding
// and the names all read it.
var flagBits = [5][]struct {
	f    Flags
	mask byte
	name string
}{
	{{Busy, 0x20, "busy"}, {SystemError, 0x10, "system error"}, {HeadUp, 0x08, "head up"},
		{PaperOut, 0x04, "paper out"}, {HeadError, 0x02, "head error"}, {VoltageError, 0x01, "voltage error"}},
	{{TemperatureError, 0x20, "temperature error"}, {LibraryRefError, 0x10, "library reference error"},
		{RegionDataError, 0x08, "print region data error"}, {LibraryLoadError, 0x04, "library load error"},
		{BufferOverflow, 0x02, "buffer overflow"}, {JobMemoryOverflow, 0x01, "job memory overflow"}},
	{{CommandError, 0x20, "command error"}, {LibrariesCorrupt, 0x10, "print libraries corrupted"},
		{PaperInChute, 0x08, "paper in chute"}, {FlashError, 0x04, "flash programming error"},
		{Offline, 0x02, "offline"}, {MissingSupplyIndex, 0x01, "missing supply index"}},
	{{JournalMode, 0x08, "journal mode"}, {CutterError, 0x04, "cutter error"},
		{PaperJam, 0x02, "paper jam"}, {PaperLow, 0x01, "paper low"}},
	{{ValidationDone, 0x20, "validation number done"}, {TopOfForm, 0x10, "top of form"},
		{XOff, 0x08, "XOFF"}, {ChassisOpen, 0x04, "chassis open"},
		{BarcodeAccessed, 0x02, "barcode data accessed"}, {PowerUpReset, 0x01, "power-up reset"}},
}

// String lists the flags set, by name, in reply order ("busy, paper low"),
// or "none".
func (f Flags) String() string {
	var names []string
	for _, byteBits := range flagBits {
		for _, b := range byteBits {
			if f&b.f != 0 {
				names = append(names, b.name)
			}
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Status is one decoded TCL status reply:
//
//	*S|<unit>|<version>|<f1>|<f2>|<f3>|<f4>|<f5>|P<template>|*
//
// sent in answer to ENQ (0x05) or ^S|^. Unit is the printer's unit address
// (decimal digits), Version its firmware name, Template the id of the last
// template printed (a space before the first print).
type Status struct {
	Unit     string
	Version  string
	Flags    Flags
	Reserved [5]byte // flag-byte bits 0–5 that no flag names, per byte
	Template byte
}

// Has reports whether every flag of f is set.
func (s Status) Has(f Flags) bool { return s.Flags&f == f }

// String is a readable form for logs and error messages.
func (s Status) String() string {
	return fmt.Sprintf("unit %s firmware %q template %q: %s", s.Unit, s.Version, s.Template, s.Flags)
}

// AppendStatus appends s in its wire form. A unit that is not decimal
// digits, or a version holding '|' or '*', is a caller's bug: it panics.
func AppendStatus(b []byte, s Status) []byte {
	if s.Unit == "" || strings.Trim(s.Unit, "0123456789") != "" {
		panic(fmt.Sprintf("BUG: tcl status unit %q is not decimal digits", s.Unit))
	}
	if strings.ContainsAny(s.Version, "|*") {
		panic(fmt.Sprintf("BUG: tcl status version %q holds '|' or '*'", s.Version))
	}
	b = append(b, "*S|"...)
	b = append(b, s.Unit...)
	b = append(b, '|')
	b = append(b, s.Version...)
	b = append(b, '|')
	for i, byteBits := range flagBits {
		v := 0x40 | s.Reserved[i]&0x3F
		for _, fb := range byteBits {
			if s.Flags&fb.f != 0 {
				v |= fb.mask
			}
		}
		b = append(b, v, '|')
	}
	return append(b, 'P', s.Template, '|', '*')
}

// maxStatus bounds a reply: unit and version are short names, and a reply
// longer than this is garbage, not one still arriving.
const maxStatus = 64

// DecodeStatus decodes the status reply at the start of b and returns it
// with the number of bytes it took. It returns ErrShortStatus when b is a
// proper beginning of a reply (read more), and an error wrapping
// ErrBadStatus, naming the offending byte, when it cannot be one.
//
// The flag bytes are read by position, not by splitting on '|': a flag
// byte can itself be 0x7C ('|') when busy, system error, head up and
// paper out are all set.
func DecodeStatus(b []byte) (Status, int, error) {
	var s Status
	bad := func(i int, what string) (Status, int, error) {
		return Status{}, 0, fmt.Errorf("%w: byte %d (%s): %s", ErrBadStatus, i, quoteByte(b, i), what)
	}
	need := func(i int) bool { return i >= len(b) }
	const head = "*S|"
	for i := range len(head) {
		if need(i) {
			return Status{}, 0, ErrShortStatus
		}
		if b[i] != head[i] {
			return bad(i, fmt.Sprintf("want %q", head[i]))
		}
	}
	i := len(head)
	start := i
	for ; ; i++ { // unit address: decimal digits, then '|'
		if need(i) {
			return Status{}, 0, short(i)
		}
		if b[i] == '|' {
			break
		}
		if b[i] < '0' || b[i] > '9' {
			return bad(i, "unit address must be decimal digits")
		}
		if i-start >= 8 {
			return bad(i, "unit address longer than 8 digits")
		}
	}
	if i == start {
		return bad(i, "empty unit address")
	}
	s.Unit = string(b[start:i])
	i++
	start = i
	for ; ; i++ { // firmware version: printable, then '|'
		if need(i) {
			return Status{}, 0, short(i)
		}
		if b[i] == '|' {
			break
		}
		if b[i] < 0x20 || b[i] > 0x7E || b[i] == '*' {
			return bad(i, "firmware version must be printable ASCII")
		}
		if i-start >= 32 {
			return bad(i, "firmware version longer than 32 bytes")
		}
	}
	s.Version = string(b[start:i])
	i++
	for n, byteBits := range flagBits {
		if need(i) {
			return Status{}, 0, short(i)
		}
		v := b[i]
		if v&0xC0 != 0x40 {
			return bad(i, fmt.Sprintf("flag byte f%d must have bit 6 set and bit 7 clear", n+1))
		}
		v &= 0x3F
		for _, fb := range byteBits {
			if v&fb.mask != 0 {
				s.Flags |= fb.f
				v &^= fb.mask
			}
		}
		s.Reserved[n] = v
		i++
		if need(i) {
			return Status{}, 0, short(i)
		}
		if b[i] != '|' {
			return bad(i, fmt.Sprintf("want '|' after flag byte f%d", n+1))
		}
		i++
	}
	if need(i) {
		return Status{}, 0, short(i)
	}
	if b[i] != 'P' {
		return bad(i, "want 'P' before the template id")
	}
	i++
	if need(i) {
		return Status{}, 0, short(i)
	}
	if b[i] < 0x20 || b[i] > 0x7E {
		return bad(i, "template id must be printable ASCII")
	}
	s.Template = b[i]
	i++
	for _, c := range []byte("|*") {
		if need(i) {
			return Status{}, 0, short(i)
		}
		if b[i] != c {
			return bad(i, fmt.Sprintf("want %q", c))
		}
		i++
	}
	return s, i, nil
}

// short reports an incomplete reply, or a bad one when it is already
// longer than any reply can be.
func short(i int) error {
	if i >= maxStatus {
		return fmt.Errorf("%w: no end after %d bytes", ErrBadStatus, i)
	}
	return ErrShortStatus
}

func quoteByte(b []byte, i int) string {
	if i >= len(b) {
		return "end"
	}
	return fmt.Sprintf("0x%02X %q", b[i], b[i])
}
