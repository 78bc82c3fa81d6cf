// Package id003emu is an ID-003 note validator emulated over a pty, for the
// tests and the simulator: the validator's side of the protocol written
// from the same public facts as package id003, scriptable (insert a note,
// jam, remove the stacker, fill it, fail, cut the power at any step, stop
// answering, garble a frame), and the ground truth for money tests: it
// records every note it stacked and every note it gave back.
//
// Time in the emulator is the host's polling: each status request is one
// step, so a transient status (accepting, stacking, stacked, returning,
// rejecting, initialize) is reported for exactly one status request and the
// tests never depend on the wall clock.
//
// Barcode tickets (TITO ticket-in) follow the public descriptions of ID-003
// with barcode that package id003 documents (to check on a real unit):
// InsertTicket feeds one, escrowed as TicketCode and its barcode; the bar
// inhibit (C7) and the barcode function (C6) are answered and requested as
// the other settings; hold keeps it in escrow (holding) until stack-1 or
// return, with no time limit unless HoldLimit is set; the snapshot records
// every ticket stacked and given back.
package id003emu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"cabinet/internal/hw/id003"
)

// Where a note is, physically: it survives a power cut.
type place uint8

const (
	nowhere  place = iota
	acceptor       // in the transport: accepting, escrow, holding, returning, rejecting
	stacker        // past escrow on its way in: stacking, vend valid not yet acknowledged
)

// Trap is something that happens at one step, armed once: when the
// validator is about to report Status (entering it), or when Command
// arrives (instead of acting on it). With Fault zero it is a power cut:
// Silent status requests go unanswered while the power is off, then the
// validator answers with its power-up status. With Fault set, the validator
// enters that error status (with Data) instead, as Fault does.
type Trap struct {
	Status  id003.Status
	Command id003.Command
	Silent  int
	Fault   id003.Status
	Data    byte
}

// Garbling says how a reply is damaged on the line.
type Garbling uint8

const (
	GarbleCRC     Garbling = iota + 1 // one bit of the CRC flipped
	GarbleLength                      // the length byte says 4
	GarbleNoise                       // noise bytes before the frame, then the frame intact
	GarbleTrunc                       // the frame cut short (the rest never comes)
	GarbleLateAck                     // an ACK, the late answer to an earlier command, goes out before the reply
)

// Snapshot is the validator as a test sees it.
type Snapshot struct {
	Status   id003.Status // what it would report now
	Stacked  []byte       // escrow codes of the notes in the stacker, in order
	Returned []byte       // escrow codes of the notes given back (returned, rejected, removed from a jam)
	Inhibit  bool         // acceptance inhibited by the host's setting
	Cuts     int          // power cuts so far
	Requests int          // status requests answered
	Invalid  int          // commands answered with invalid command
	BadIn    int          // frames from the host with a bad CRC or length
	// TicketsStacked and TicketsReturned are the barcodes of the tickets
	// stacked and given back, in order (not in Stacked and Returned).
	TicketsStacked  []string
	TicketsReturned []string
	Bar             byte // the bar inhibit setting (C7) in force
}

// Validator is the emulated validator. Its methods are safe for concurrent
// use; the line is served by its own goroutine from Open to Close.
type Validator struct {
	master, slave *os.File
	// Path is the pty the host opens (id003.OpenPort).
	Path string
	// HoldLimit, when above zero, is how long one hold keeps an item in
	// escrow (real units: about 10 s); then the validator reports escrow
	// again (the public descriptions do not say whether a unit returns
	// the item instead; the host re-decides either way). Zero: held until
	// stack-1 or return. Set it before the host's first command.
	HoldLimit time.Duration

	mu      sync.Mutex
	changed chan struct{} // closed and replaced at every change
	done    chan struct{}

	// physical, survives a cut
	code     byte
	barcode  string // the ticket's, when code is id003.TicketCode
	at       place
	stacked  []byte
	returned []byte
	tStacked []string
	tReturnd []string
	full     bool // the stacker is full: reported after the next stacked note
	fault    id003.Status
	faultB   byte

	// volatile
	status     id003.Status
	data       byte
	inhibit    bool
	settings   map[id003.Command][]byte
	reject     byte      // reject reason for the note being accepted (0: valid)
	holdUntil  time.Time // with HoldLimit: when the hold runs out
	shown      bool      // the status has been reported once: time may move on
	ignoreMask bool

	// script
	traps   []Trap
	silent  int
	mute    bool
	garble  []Garbling
	always  []Garbling // GarbleAll: every reply damaged, in turn
	nAlways int
	nCuts   int
	nReq    int
	nInv    int
	nBadIn  int
	version string
}

// Open creates the pty pair and starts serving it, powered up with no note.
func Open() (*Validator, error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0) // non-blocking: Close ends a pending Read
	if err != nil {
		return nil, fmt.Errorf("id003emu: open /dev/ptmx: %w", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, fmt.Errorf("id003emu: unlock pty: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("id003emu: pty number: %w", err)
	}
	name := fmt.Sprintf("/dev/pts/%d", n)
	// The emulator keeps the slave open too, so the master never reads
	// EIO while the host is between two opens (a host restart).
	s, err := os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("id003emu: open %s: %w", name, err)
	}
	t, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err == nil {
		t.Iflag = 0
		t.Oflag = 0
		t.Lflag = 0
		t.Cflag = t.Cflag&^(unix.CSIZE|unix.PARENB) | unix.CS8
		err = unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, t)
	}
	if err != nil {
		m.Close()
		s.Close()
		return nil, fmt.Errorf("id003emu: set %s raw: %w", name, err)
	}
	v := &Validator{master: m, slave: s, Path: name, changed: make(chan struct{}), done: make(chan struct{}),
		version: "ID003-EMU(EUR)-100-SS ID003-05V100-00 01JAN26"}
	v.powerUp()
	go v.serve()
	return v, nil
}

// Close stops serving and closes the pty.
func (v *Validator) Close() error {
	err := v.master.Close()
	<-v.done
	return errors.Join(err, v.slave.Close())
}

func (v *Validator) serve() {
	defer close(v.done)
	var buf []byte
	chunk := make([]byte, 256)
	for {
		n, err := v.master.Read(chunk)
		if err != nil {
			return
		}
		buf = append(buf, chunk[:n]...)
		for len(buf) > 0 {
			f, used, err := id003.Decode(buf)
			if errors.Is(err, id003.ErrShort) {
				break
			}
			if err != nil {
				buf = buf[used:]
				if errors.Is(err, id003.ErrCRC) || errors.Is(err, id003.ErrLength) {
					// A damaged frame from the host: the rest of it is
					// noise; answer communication error once.
					buf = buf[:0]
					v.badFrame()
				}
				continue
			}
			buf = buf[used:]
			if out := v.command(f); out != nil {
				if _, err := v.master.Write(out); err != nil {
					return
				}
			}
		}
	}
}

func (v *Validator) notify() {
	close(v.changed)
	v.changed = make(chan struct{})
}

func (v *Validator) badFrame() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.nBadIn++
	v.notify()
	if v.mute || v.silent > 0 {
		return
	}
	_, _ = v.master.Write(v.damage(id003.MustEncode(byte(id003.StCommError))))
}

// command handles one frame from the host and returns the reply (nil:
// none).
func (v *Validator) command(f id003.Frame) []byte {
	v.mu.Lock()
	defer v.mu.Unlock()
	defer v.notify()
	c := id003.Command(f.Code)
	before := v.status
	defer func() {
		if v.status != before && c != id003.CmdStatus {
			v.shown = false
		}
	}()
	if v.mute {
		return nil
	}
	if v.silent > 0 {
		if c == id003.CmdStatus {
			v.silent--
		}
		return nil
	}
	if k, ok := v.sprung(func(k Trap) bool { return k.Command == c && k.Command != 0 }); ok {
		if k.Fault == 0 {
			return nil
		}
		c = id003.CmdStatus // the fault is the answer
	}
	ack := id003.MustEncode(byte(id003.StAck))
	switch {
	case c == id003.CmdStatus:
		if v.shown && (v.fault == 0 || v.status != v.fault) {
			v.step()
		}
		v.shown = true
		if k, ok := v.sprung(func(k Trap) bool { return k.Status == v.status && k.Status != 0 }); ok && k.Fault == 0 && v.silent > 0 {
			v.silent--
			return nil
		}
		v.nReq++
		switch {
		case v.status == id003.StEscrow && v.data == id003.TicketCode:
			return v.damage(id003.MustEncode(byte(v.status), append([]byte{id003.TicketCode}, v.barcode...)...))
		case v.status.DataLen() > 0:
			return v.damage(id003.MustEncode(byte(v.status), v.data))
		}
		return v.damage(id003.MustEncode(byte(v.status)))
	case c == id003.CmdReset:
		if len(f.Data) != 0 {
			return v.invalid()
		}
		v.status = id003.StInitialize
		return v.damage(ack)
	case c == id003.CmdStack1 || c == id003.CmdStack2:
		if v.status != id003.StEscrow && v.status != id003.StHolding {
			return v.invalid()
		}
		v.status, v.at = id003.StStacking, stacker
		return v.damage(ack)
	case c == id003.CmdReturn:
		if v.status != id003.StEscrow && v.status != id003.StHolding {
			return v.invalid()
		}
		v.status = id003.StReturning
		return v.damage(ack)
	case c == id003.CmdHold:
		if v.status != id003.StEscrow && v.status != id003.StHolding {
			return v.invalid()
		}
		// Each hold (again) restarts the hold time.
		v.status = id003.StHolding
		if v.HoldLimit > 0 {
			v.holdUntil = time.Now().Add(v.HoldLimit)
		}
		return v.damage(ack)
	case c == id003.CmdWait:
		return v.damage(ack)
	case c == id003.CmdAck:
		if v.status == id003.StVendValid {
			v.stack()
			v.status = id003.StStacked
		}
		return nil // the host's ACK is never answered
	case c == id003.CmdGetVersion:
		return v.damage(id003.MustEncode(byte(c), []byte(v.version)...))
	case c == id003.CmdGetBootVersion:
		return v.damage(id003.MustEncode(byte(c), []byte("BOOT-EMU 1.00")...))
	}
	n, ok := id003.SettingLen(c)
	if !ok || v.status.PowerUp() {
		return v.invalid()
	}
	if c >= id003.CmdSetDenomination {
		if len(f.Data) != n {
			return v.invalid()
		}
		v.settings[c] = slices.Clone(f.Data)
		if c == id003.CmdSetInhibit {
			v.inhibit = f.Data[0]&1 != 0
			switch {
			case v.status == id003.StIdling && v.inhibit:
				v.status = id003.StDisabled
			case v.status == id003.StDisabled && !v.inhibit:
				v.status = id003.StIdling
			}
		}
		return v.damage(id003.MustEncode(byte(c), f.Data...))
	}
	if len(f.Data) != 0 {
		return v.invalid()
	}
	return v.damage(id003.MustEncode(byte(c), v.settings[c+0x40]...))
}

func (v *Validator) invalid() []byte {
	v.nInv++
	return v.damage(id003.MustEncode(byte(id003.StInvalidCommand)))
}

// damage applies the next armed garbling to a reply.
func (v *Validator) damage(b []byte) []byte {
	var g Garbling
	switch {
	case len(v.garble) > 0:
		g = v.garble[0]
		v.garble = v.garble[1:]
	case len(v.always) > 0:
		g = v.always[v.nAlways%len(v.always)]
		v.nAlways++
	default:
		return b
	}
	b = slices.Clone(b)
	switch g {
	case GarbleCRC:
		b[len(b)-1] ^= 0x10
	case GarbleLength:
		b[1] = 4
	case GarbleNoise:
		b = append([]byte{0x00, 0x13, 0xFF}, b...)
	case GarbleTrunc:
		b = b[:len(b)-2]
	case GarbleLateAck:
		b = append(id003.MustEncode(byte(id003.StAck)), b...)
	}
	return b
}

// idle is the resting status for the inhibit setting.
func (v *Validator) idle() id003.Status {
	if v.inhibit {
		return id003.StDisabled
	}
	return id003.StIdling
}

// step lets one poll's worth of time pass: transient statuses end.
func (v *Validator) step() {
	switch v.status {
	case id003.StInitialize:
		// Reset finished: a note in the transport went back, a note
		// past escrow went in.
		switch v.at {
		case acceptor:
			v.giveBack()
		case stacker:
			v.stack()
		}
		v.status = v.idle()
		if v.fault != 0 {
			v.status, v.data = v.fault, v.faultB
		}
	case id003.StAccepting:
		mask := v.settings[id003.CmdSetDenomination]
		bar := v.settings[id003.CmdSetBarInhibit][0]
		inhibited := v.code < id003.FirstEscrowCode || v.code > id003.LastEscrowCode ||
			(!v.ignoreMask && len(mask) > 0 && mask[0]&(1<<(v.code-id003.FirstEscrowCode)) != 0) ||
			(!v.ignoreMask && bar&id003.BarInhibitNotes != 0)
		if v.code == id003.TicketCode {
			inhibited = !v.ignoreMask && bar&id003.BarInhibitTickets != 0
		}
		switch {
		case v.reject != 0:
			v.status, v.data = id003.StRejecting, v.reject
		case inhibited:
			v.status, v.data = id003.StRejecting, 0x79
		default:
			v.status, v.data = id003.StEscrow, v.code
		}
	case id003.StHolding:
		if v.HoldLimit > 0 && !time.Now().Before(v.holdUntil) {
			v.status, v.data = id003.StEscrow, v.code // the hold ran out
		}
	case id003.StStacking:
		v.status = id003.StVendValid
	case id003.StStacked:
		v.status = v.idle()
		if v.full {
			v.status, v.fault = id003.StStackerFull, id003.StStackerFull
		}
	case id003.StRejecting, id003.StReturning:
		v.giveBack()
		v.status = v.idle()
	}
}

func (v *Validator) stack() {
	if v.code == id003.TicketCode {
		v.tStacked = append(v.tStacked, v.barcode)
	} else {
		v.stacked = append(v.stacked, v.code)
	}
	v.code, v.barcode, v.at = 0, "", nowhere
}

func (v *Validator) giveBack() {
	if v.code == id003.TicketCode {
		v.tReturnd = append(v.tReturnd, v.barcode)
	} else {
		v.returned = append(v.returned, v.code)
	}
	v.code, v.barcode, v.at, v.reject = 0, "", nowhere, 0
}

// powerUp is the state after power-on: the status says where the note is.
func (v *Validator) powerUp() {
	v.inhibit = true
	v.settings = map[id003.Command][]byte{
		id003.CmdSetDenomination: {0, 0}, id003.CmdSetSecurity: {0, 0}, id003.CmdSetCommMode: {0},
		id003.CmdSetInhibit: {1}, id003.CmdSetDirection: {0}, id003.CmdSetOptional: {0, 0},
		// Reading taken: the barcode settings' power-on values are
		// 18-digit interleaved 2 of 5, both enabled (set inhibit C3
		// disables the unit), as set denomination's enable every note.
		id003.CmdSetBarcode:    {id003.BarcodeInterleaved25, id003.TicketDigits},
		id003.CmdSetBarInhibit: {id003.BarInhibitNone},
	}
	switch v.at {
	case acceptor:
		v.status = id003.StPowerUpBillAcceptor
	case stacker:
		v.status = id003.StPowerUpBillStacker
	default:
		v.status = id003.StPowerUp
	}
}

// cut is a power cut: silent for n status requests, then powered up.
func (v *Validator) cut(n int) {
	v.shown = false
	v.nCuts++
	v.silent = n
	v.powerUp()
}

// sprung springs the first armed trap that match accepts.
func (v *Validator) sprung(match func(Trap) bool) (Trap, bool) {
	i := slices.IndexFunc(v.traps, match)
	if i < 0 {
		return Trap{}, false
	}
	k := v.traps[i]
	v.traps = slices.Delete(v.traps, i, i+1)
	if k.Fault == 0 {
		v.cut(k.Silent)
	} else {
		v.fault, v.faultB = k.Fault, k.Data
		v.status, v.data = k.Fault, k.Data
	}
	v.shown = false
	return k, true
}

// PowerCycle cuts the power now and brings it back (the validator answers
// the next status request with its power-up status).
func (v *Validator) PowerCycle() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.cut(0)
	v.notify()
}

// Arm arms a trap for one step (see Trap).
func (v *Validator) Arm(k Trap) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.traps = append(v.traps, k)
}

// ErrBusy is returned by Insert when the validator cannot take a note (not
// idling: inhibited, busy with a note, faulty, powering up).
var ErrBusy = errors.New("id003emu: not idling")

// Insert feeds a note of escrow code code. A code the host inhibited (or
// outside 0x61–0x68) is rejected by the validator itself.
func (v *Validator) Insert(code byte) error { return v.insert(code, 0) }

// InsertReject feeds a note the validator will refuse with reason r.
func (v *Validator) InsertReject(code byte, r id003.RejectReason) error {
	return v.insert(code, byte(r))
}

// InsertTicket feeds a barcode ticket; barcode is any ASCII (up to 249
// characters, what fits in a frame), so a misread or a foreign ticket can be
// fed: the validator escrows whatever it read and the host checks it. A
// ticket inhibited by the bar inhibit (C7 bit 1) is rejected by the
// validator itself (inhibited, 0x79); one offered while set inhibit (C3)
// disables the unit is not drawn in (ErrBusy), as a note.
func (v *Validator) InsertTicket(barcode string) error {
	if max := id003.MaxFrame - id003.MinFrame - 1; len(barcode) > max {
		return fmt.Errorf("id003emu: barcode of %d characters (at most %d fit in a frame)", len(barcode), max)
	}
	for i := range len(barcode) {
		if barcode[i] >= 0x80 {
			return fmt.Errorf("id003emu: barcode %q: byte 0x%02X at position %d is not ASCII", barcode, barcode[i], i+1)
		}
	}
	return v.insertItem(id003.TicketCode, barcode, 0)
}

func (v *Validator) insert(code, reject byte) error { return v.insertItem(code, "", reject) }

func (v *Validator) insertItem(code byte, barcode string, reject byte) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.status != id003.StIdling || v.at != nowhere {
		return fmt.Errorf("%w: %s", ErrBusy, v.status)
	}
	v.code, v.barcode, v.at, v.reject = code, barcode, acceptor, reject
	v.status, v.shown = id003.StAccepting, false
	v.notify()
	return nil
}

// Fault puts the validator in error status s (stacker open, jam, pause,
// cheated, failure with code data...) until Clear. A note in the transport
// stays there; a jam's note is taken out by the attendant at Clear.
func (v *Validator) Fault(s id003.Status, data byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.shown = false
	v.fault, v.faultB = s, data
	v.status, v.data = s, data
	v.notify()
}

// Clear ends the fault: the attendant frees the jam (a note in the
// transport is given back), puts the stacker back (emptied: no longer full)
// and the validator initializes.
func (v *Validator) Clear() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.shown = false
	if v.at == acceptor {
		v.giveBack()
	}
	if v.fault == id003.StStackerOpen || v.fault == id003.StStackerFull {
		v.full = false
	}
	v.fault, v.faultB = 0, 0
	v.status = id003.StInitialize
	v.notify()
}

// SetFull makes the stacker full after the next note stacked.
func (v *Validator) SetFull() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.full = true
}

// IgnoreMask makes the validator escrow notes the host inhibited with set
// denomination or bar inhibit, and tickets it inhibited with bar inhibit (a
// unit whose currency table or DIP switches disagree with the host): the
// host must still refuse them.
func (v *Validator) IgnoreMask(on bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.ignoreMask = on
}

// Mute stops (true) or resumes (false) answering anything.
func (v *Validator) Mute(on bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.mute = on
	v.notify()
}

// GarbleAll damages every reply from now on, with each of g in turn (a
// bad cable, a hostile device), after the replies Garble damages; with
// none it stops.
func (v *Validator) GarbleAll(g ...Garbling) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.always, v.nAlways = slices.Clone(g), 0
}

// Garble damages the next replies, one per entry.
func (v *Validator) Garble(g ...Garbling) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.garble = append(v.garble, g...)
}

// Snapshot returns the validator's state.
func (v *Validator) Snapshot() Snapshot {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.snapshot()
}

func (v *Validator) snapshot() Snapshot {
	return Snapshot{Status: v.status, Stacked: slices.Clone(v.stacked), Returned: slices.Clone(v.returned),
		TicketsStacked: slices.Clone(v.tStacked), TicketsReturned: slices.Clone(v.tReturnd), Bar: v.settings[id003.CmdSetBarInhibit][0], Inhibit: v.inhibit, Cuts: v.nCuts, Requests: v.nReq, Invalid: v.nInv, BadIn: v.nBadIn}
}

// WaitFor waits until cond holds for the validator's state, or ctx ends.
func (v *Validator) WaitFor(ctx context.Context, cond func(Snapshot) bool) (Snapshot, error) {
	for {
		v.mu.Lock()
		s, ch := v.snapshot(), v.changed
		v.mu.Unlock()
		if cond(s) {
			return s, nil
		}
		select {
		case <-ctx.Done():
			return s, fmt.Errorf("id003emu: waiting (validator %s, %d requests): %w", s.Status, s.Requests, ctx.Err())
		case <-ch:
		case <-v.done:
			return s, errors.New("id003emu: closed")
		}
	}
}
