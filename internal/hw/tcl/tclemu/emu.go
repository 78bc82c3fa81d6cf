// Package tclemu is a TCL ticket printer on a pseudo-terminal, for tests
// and for `cabinet sim --printer`: it answers status requests, keeps the
// regions and templates the host defines in its RAM, prints (records)
// every ticket with its fields, and fails on demand: paper out, head open,
// jam, offline, printer error, silence, a power cycle mid-print, garbled
// replies.
//
// The emulator has no clock: a print advances one step per status request
// the host makes, so a test is the same however fast the machine runs.
// With the default Options the printer reports, after a print command,
// busy at the 1st status request, validation number done at the 2nd,
// print done (not busy) at the 4th and top of form at the 5th.
package tclemu

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"cabinet/internal/hw/tcl"
)

// Failure is a condition the emulator can be told to produce.
type Failure int

const (
	None       Failure = iota
	PaperOut           // paper out flag; the print stops
	HeadOpen           // platen (head) up; the print stops
	Jam                // paper jam; the print stops
	Offline            // offline flag; the print stops
	Error              // system error flag; the print stops
	Silent             // no more replies until SetSilent(false)
	PowerCycle         // no replies for Options.PowerOff requests, then a fresh printer
	Garble             // replies no longer decode (the print goes on)
	Drop               // the next print command is lost on the line (FailAt's at is ignored)
)

func (f Failure) String() string {
	names := [...]string{"none", "paper out", "head open", "jam", "offline", "error", "silent", "power cycle", "garble", "drop"}
	if f >= 0 && int(f) < len(names) {
		return names[f]
	}
	return fmt.Sprintf("failure %d", int(f))
}

// Options shape the emulated printer. Zero fields take the defaults.
type Options struct {
	Version       string // firmware name in the status ("EMU-TCL-1")
	ValidateAfter int    // status requests from the print command to validation done (2)
	DoneAfter     int    // status requests from the print command to print done (4)
	PowerOff      int    // status requests left unanswered by a power cycle (3)
}

// Field is one data field of a printed ticket, with the region it went to.
type Field struct {
	Region  byte
	Barcode bool // the region is an interleaved 2 of 5 barcode
	Data    string
}

// Ticket is one print command the printer accepted, with its data
// unescaped. Complete is set when the printer reported print done;
// ValidationPrinted when it got as far as printing the validation number.
type Ticket struct {
	Template          byte
	Copies            int
	Fields            []Field
	ValidationPrinted bool
	Complete          bool
}

// Data lists the fields' data in order.
func (t Ticket) Data() []string {
	out := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		out[i] = f.Data
	}
	return out
}

type region struct{ barcode bool }

type job struct {
	ticket int // index in tickets
	polls  int
}

// Printer is the emulated printer. Path is the pty the host opens.
type Printer struct {
	Path string

	master, slave *os.File
	done          chan struct{}

	mu        sync.Mutex
	opt       Options
	flags     tcl.Flags
	last      byte // template of the last print, for the status
	regions   map[byte]region
	templates map[byte][]byte
	printing  *job
	tofNext   bool
	armed     Failure
	armedAt   int
	silent    bool
	garble    int // replies still to garble; <0: all
	busyFor   int // idle status requests still answered busy; <0: all
	powerOff  int // requests still to ignore before the reboot
	tickets   []Ticket
	received  []string
	requests  int
}

// New starts a printer on a new pty pair, powered up: top of form, the
// power-up reset flag set, no regions or templates in RAM.
func New(opt Options) (*Printer, error) {
	if opt.Version == "" {
		opt.Version = "EMU-TCL-1"
	}
	if opt.ValidateAfter <= 0 {
		opt.ValidateAfter = 2
	}
	if opt.DoneAfter <= opt.ValidateAfter {
		opt.DoneAfter = opt.ValidateAfter + 2
	}
	if opt.PowerOff <= 0 {
		opt.PowerOff = 3
	}
	// Non-blocking, so the runtime poller serves the reads and Close
	// ends a read in progress.
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("tclemu: open /dev/ptmx: %w", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, fmt.Errorf("tclemu: unlock pty: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("tclemu: pty number: %w", err)
	}
	name := fmt.Sprintf("/dev/pts/%d", n)
	// The emulator holds the slave open too, so that the host closing and
	// reopening its end does not hang up the master.
	s, err := os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("tclemu: open %s: %w", name, err)
	}
	t, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err == nil {
		t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
		t.Oflag &^= unix.OPOST
		t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
		t.Cflag = t.Cflag&^(unix.CSIZE|unix.PARENB) | unix.CS8
		err = unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, t)
	}
	if err != nil {
		m.Close()
		s.Close()
		return nil, fmt.Errorf("tclemu: set %s raw: %w", name, err)
	}
	p := &Printer{Path: name, master: m, slave: s, done: make(chan struct{}), opt: opt}
	p.reboot()
	go p.serve()
	return p, nil
}

// Close stops the printer and closes the pty.
func (p *Printer) Close() error {
	err := p.master.Close()
	<-p.done
	return errorsJoin(err, p.slave.Close())
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// reboot is the printer after power-up: RAM empty, not busy, top of form,
// power-up reset flagged; conditions of the mechanism (paper, head, jam)
// are physical and stay.
func (p *Printer) reboot() {
	p.flags = p.flags&(tcl.PaperOut|tcl.PaperLow|tcl.HeadUp|tcl.ChassisOpen|tcl.PaperJam) | tcl.TopOfForm | tcl.PowerUpReset
	p.regions = map[byte]region{}
	p.templates = map[byte][]byte{}
	p.printing = nil
	p.tofNext = false
	p.last = ' '
}

// Set raises conditions (tcl.PaperOut, tcl.PaperLow, tcl.HeadUp, …) as a
// technician would cause them; Clear lowers them.
func (p *Printer) Set(f tcl.Flags) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flags |= f
}

// Clear lowers conditions raised by Set or by a failure.
func (p *Printer) Clear(f tcl.Flags) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flags &^= f
}

// FailAt arms f for the next print: it happens at the at-th status
// request after the print command (1-based), after that request's normal
// progress (so at = Options.ValidateAfter fails with the validation number
// already printed).
func (p *Printer) FailAt(f Failure, at int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armed, p.armedAt = f, at
}

// SetSilent stops (true) or resumes (false) all replies.
func (p *Printer) SetSilent(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.silent = on
}

// GarbleReplies garbles the next n status replies (n < 0: all of them,
// n = 0: none).
func (p *Printer) GarbleReplies(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.garble = n
}

// BusyFor makes the idle printer answer busy to the next n status
// requests (a form feed, a ticket being presented); n < 0: until BusyFor(0).
func (p *Printer) BusyFor(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busyFor = n
}

// PowerCycle switches the printer off and on now: the next
// Options.PowerOff status requests go unanswered, then it is a fresh
// printer.
func (p *Printer) PowerCycle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.powerCycle()
}

func (p *Printer) powerCycle() {
	p.stopJob()
	p.powerOff = p.opt.PowerOff
}

// Tickets returns a copy of every ticket the printer accepted, in order.
func (p *Printer) Tickets() []Ticket {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Ticket, len(p.tickets))
	for i, t := range p.tickets {
		t.Fields = slices.Clone(t.Fields)
		out[i] = t
	}
	return out
}

// Received returns the commands received so far, one string each:
// "ENQ", "ESC [^]", or the command between its carets ("P|T|1|…|").
func (p *Printer) Received() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.received)
}

// Flags returns the status flags the next reply would carry.
func (p *Printer) Flags() tcl.Flags {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.flags
}

func (p *Printer) serve() {
	defer close(p.done)
	buf := make([]byte, 512)
	var cmd []byte
	state := 0 // 0 idle, 1 in ^command^, 2 in ESC sequence ESC
	for {
		n, err := p.master.Read(buf)
		if errors.Is(err, unix.EIO) { // no slave open: cannot happen while we hold one
			time.Sleep(time.Millisecond)
			continue
		}
		if err != nil {
			return
		}
		for _, b := range buf[:n] {
			switch {
			case b == 0x05: // real time: answered even inside a command
				p.answer("ENQ")
			case state == 0 && b == '^':
				state, cmd = 1, cmd[:0]
			case state == 0 && b == 0x1B:
				state, cmd = 2, cmd[:0]
			case state == 1 && b == '^':
				state = 0
				if string(cmd) == "S|" {
					p.answer("S|")
				} else {
					p.command(string(cmd))
				}
			case state == 2 && b == 0x1B:
				state = 0
				p.escape(string(cmd))
			case state != 0:
				if len(cmd) < 4096 {
					cmd = append(cmd, b)
				}
			}
		}
	}
}

func (p *Printer) escape(seq string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.received = append(p.received, "ESC "+seq)
	if p.powerOff > 0 {
		return
	}
	if seq == "[^]" {
		p.flags &^= tcl.JournalMode
	}
}

// answer handles a status request.
func (p *Printer) answer(what string) {
	p.mu.Lock()
	p.received = append(p.received, what)
	p.requests++
	if p.powerOff > 0 {
		p.powerOff--
		if p.powerOff == 0 {
			p.reboot()
		}
		p.mu.Unlock()
		return
	}
	if p.silent {
		p.mu.Unlock()
		return
	}
	p.step()
	if p.silent || p.powerOff > 0 { // the failure of this step
		p.mu.Unlock()
		return
	}
	reply := tcl.AppendStatus(nil, tcl.Status{Unit: "0", Version: p.opt.Version, Flags: p.flags, Template: p.last})
	if p.garble != 0 {
		reply[len("*S|0|")+len(p.opt.Version)+1] = 0x00 // f1 without its bit 6
		if p.garble > 0 {
			p.garble--
		}
	}
	p.mu.Unlock()
	_, _ = p.master.Write(reply)
}

// step advances the print in progress by one status request.
func (p *Printer) step() {
	if p.printing == nil {
		switch {
		case p.busyFor > 0:
			p.busyFor--
			p.flags |= tcl.Busy
		case p.busyFor < 0:
			p.flags |= tcl.Busy
		default: // a feed ends; only a print or BusyFor sets busy
			p.flags &^= tcl.Busy
		}
		if p.tofNext {
			p.tofNext = false
			p.flags |= tcl.TopOfForm
		}
		return
	}
	j := p.printing
	j.polls++
	t := &p.tickets[j.ticket]
	if j.polls == p.opt.ValidateAfter {
		p.flags |= tcl.ValidationDone
		t.ValidationPrinted = true
	}
	if p.armed != None && j.polls == p.armedAt {
		f := p.armed
		p.armed = None
		switch f {
		case PaperOut:
			p.flags |= tcl.PaperOut
		case HeadOpen:
			p.flags |= tcl.HeadUp
		case Jam:
			p.flags |= tcl.PaperJam
		case Offline:
			p.flags |= tcl.Offline
		case Error:
			p.flags |= tcl.SystemError
		case Silent:
			p.silent = true
		case PowerCycle:
			p.powerCycle()
			return
		case Garble:
			p.garble = -1
			return // the print goes on
		}
		p.stopJob()
		return
	}
	if j.polls == p.opt.DoneAfter {
		t.Complete = true
		p.last = t.Template
		p.stopJob()
		p.tofNext = true
	}
}

func (p *Printer) stopJob() {
	p.printing = nil
	p.flags &^= tcl.Busy
}

// command handles ^cmd^.
func (p *Printer) command(c string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.received = append(p.received, c)
	if p.powerOff > 0 {
		return
	}
	f := strings.Split(c, "|")
	if len(f) < 2 || f[len(f)-1] != "" {
		p.flags |= tcl.CommandError
		return
	}
	f = f[:len(f)-1] // the empty field after the last '|'
	switch f[0] {
	case "C":
		p.flags &^= tcl.CommandError | tcl.RegionDataError | tcl.LibraryRefError | tcl.PowerUpReset
	case "R":
		p.defineRegion(f[1:])
	case "T":
		p.defineTemplate(f[1:])
	case "P":
		p.print(f[1:])
	case "f", "F": // form feed, flush: nothing to keep
	default:
		p.flags |= tcl.CommandError
	}
}

// defineRegion: id|R|da|pa|da_len|pa_len||rot|just|obj|m1|m2|att|pr_att|data
// or $|DR (delete all) or id|DR.
func (p *Printer) defineRegion(f []string) {
	if len(f) == 2 && f[1] == "DR" {
		if f[0] == "$" {
			p.regions = map[byte]region{}
		} else if len(f[0]) == 1 {
			delete(p.regions, f[0][0])
		}
		return
	}
	if len(f) != 15 || len(f[0]) != 1 || f[1] != "R" || f[6] != "" || f[9] == "" {
		p.flags |= tcl.CommandError
		return
	}
	for _, i := range []int{2, 3, 4, 5, 7, 8, 10, 11, 12, 13} {
		if _, err := strconv.Atoi(f[i]); err != nil {
			p.flags |= tcl.CommandError
			return
		}
	}
	p.regions[f[0][0]] = region{barcode: f[9] == tcl.BarcodeI2of5}
}

// defineTemplate: id|R|da|pa|r1|…|rn.
func (p *Printer) defineTemplate(f []string) {
	if len(f) == 2 && f[1] == "DR" && len(f[0]) == 1 {
		delete(p.templates, f[0][0])
		return
	}
	if len(f) < 5 || len(f[0]) != 1 || f[1] != "R" {
		p.flags |= tcl.CommandError
		return
	}
	var ids []byte
	for _, r := range f[4:] {
		if len(r) != 1 {
			p.flags |= tcl.CommandError
			return
		}
		if _, ok := p.regions[r[0]]; !ok {
			p.flags |= tcl.LibraryRefError
			return
		}
		ids = append(ids, r[0])
	}
	p.templates[f[0][0]] = ids
}

// print: id|copies|d1|…|dn.
func (p *Printer) print(f []string) {
	if len(f) < 2 || len(f[0]) != 1 {
		p.flags |= tcl.CommandError
		return
	}
	if p.armed == Drop {
		p.armed = None
		return
	}
	if p.printing != nil {
		p.flags |= tcl.CommandError
		return
	}
	if p.flags&(tcl.PaperOut|tcl.HeadUp|tcl.ChassisOpen|tcl.PaperJam|tcl.Offline|tcl.SystemError) != 0 {
		return // the mechanism cannot print; the flags tell why
	}
	ids, ok := p.templates[f[0][0]]
	if !ok {
		p.flags |= tcl.LibraryRefError
		return
	}
	copies, err := strconv.Atoi(f[1])
	if err != nil || copies < 1 || copies > 9999 {
		p.flags |= tcl.CommandError
		return
	}
	data := f[2:]
	if len(data) != len(ids) {
		p.flags |= tcl.RegionDataError
		return
	}
	t := Ticket{Template: f[0][0], Copies: copies}
	for i, d := range data {
		text, ok := unescape(d)
		r := p.regions[ids[i]]
		if !ok {
			p.flags |= tcl.RegionDataError
			return
		}
		if r.barcode {
			if _, err := tcl.BarcodeData(text); err != nil {
				p.flags |= tcl.RegionDataError
				return
			}
		}
		t.Fields = append(t.Fields, Field{Region: ids[i], Barcode: r.barcode, Data: text})
	}
	p.tickets = append(p.tickets, t)
	p.printing = &job{ticket: len(p.tickets) - 1}
	p.flags = p.flags&^(tcl.ValidationDone|tcl.TopOfForm) | tcl.Busy
	p.tofNext = false
}

// unescape turns ~NNN (a decimal byte code) back into its byte.
func unescape(s string) (string, bool) {
	if !strings.Contains(s, "~") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		if i+4 > len(s) {
			return "", false
		}
		n, err := strconv.Atoi(s[i+1 : i+4])
		if err != nil || n > 255 {
			return "", false
		}
		b.WriteByte(byte(n))
		i += 3
	}
	return b.String(), true
}
