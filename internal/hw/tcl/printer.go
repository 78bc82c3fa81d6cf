package tcl

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"time"

	"cabinet/internal/serial"
)

// Options tune the conversation with the printer. Zero fields take the
// defaults shown.
type Options struct {
	// Reply is how long one status request waits for its reply (300 ms;
	// a reply is about 30 bytes, 31 ms at 9600 baud).
	Reply time.Duration
	// NoAnswer is how long the printer may go without a reply that
	// decodes before Print gives up with ErrNoAnswer (3 s).
	NoAnswer time.Duration
	// Poll is the pause between status requests while printing (100 ms).
	Poll time.Duration
	// Start is how long the printer has to show the print started
	// (busy, or validation-done cleared) after the command (3 s).
	Start time.Duration
	// Finish bounds a whole print, from the command to print done (30 s).
	Finish time.Duration
	// LineQuiet is the number of status replies in a row that decode
	// without a garbled byte before them and end a line fault (3: 15 s
	// at the cabinet's 5 s status poll, less while printing).
	LineQuiet int
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.Reply, 300*time.Millisecond)
	def(&o.NoAnswer, 3*time.Second)
	def(&o.Poll, 100*time.Millisecond)
	def(&o.Start, 3*time.Second)
	def(&o.Finish, 30*time.Second)
	if o.LineQuiet <= 0 {
		o.LineQuiet = 3
	}
	return o
}

// Printer is a TCL ticket printer on a serial port. Print and Status
// hold the line for their whole conversation, one at a time; Close may be
// called from any goroutine, during either.
type Printer struct {
	port    *Port
	opt     Options
	closing chan struct{} // closed by Close: end the conversation in progress

	mu     sync.Mutex // the line: held by Print, Status and Close
	closed bool
	loaded bool // the ticket template is in the printer's RAM
	once   sync.Once
	// line coalesces the line's garbled replies (under mu); its reports
	// wait in reports (under rmu) for LineFaults.
	line    serial.LineFault
	rmu     sync.Mutex
	reports []serial.FaultReport
}

// Open opens the printer's port at baud (OpenPort) without talking to it:
// the cabinet starts whether or not the printer is on.
func Open(path string, baud int, opt Options) (*Printer, error) {
	port, err := OpenPort(path, baud)
	if err != nil {
		return nil, err
	}
	p := &Printer{port: port, opt: opt.withDefaults(), closing: make(chan struct{})}
	p.line.Quiet = p.opt.LineQuiet
	return p, nil
}

// LineFaults returns the line fault reports since the last call, in order
// (serial.LineFault: garbled status replies, coalesced into a fault that
// begins with the first bytes seen, goes on with its count and clears).
// The cabinet logs them as device noise after each Status or Print.
func (p *Printer) LineFaults() []serial.FaultReport {
	p.rmu.Lock()
	defer p.rmu.Unlock()
	r := p.reports
	p.reports = nil
	return r
}

// lineReport keeps a line fault report for LineFaults.
func (p *Printer) lineReport(r serial.FaultReport, ok bool) {
	if !ok {
		return
	}
	p.rmu.Lock()
	p.reports = append(p.reports, r)
	p.rmu.Unlock()
}

// Close ends a Print or Status in progress (it returns an error wrapping
// ErrClosed within about Options.Reply) and waits for it before closing
// the port; Print and Status after Close fail with ErrClosed without
// touching the line.
//
// The wait is what keeps the conversation on its own line: the port is a
// file descriptor, and a descriptor closed under a goroutine still
// polling it is reused by the next file the process opens. The goroutine
// would then send its status requests, and its print command, on that
// line (the next Open of the same printer, another device) and read the
// replies meant for its owner, which then never sees its own print start.
func (p *Printer) Close() error {
	p.once.Do(func() { close(p.closing) })
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	return p.port.Close()
}

// lock takes the line for one conversation, or reports ErrClosed.
func (p *Printer) lock() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrClosed, p.port.Name())
	}
	return nil
}

// pause waits d, or reports ErrClosed as soon as Close is called.
func (p *Printer) pause(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-p.closing:
		return fmt.Errorf("%w: %s", ErrClosed, p.port.Name())
	}
}

// Stage says how far a failed print got, for the attendant's record.
type Stage int

const (
	// NotSent: the print command was not sent; no ticket was printed.
	NotSent Stage = iota
	// Sent: the print command was sent and the printer did not report
	// the validation number printed. A partial ticket may exist; it may
	// still carry the barcode if the printer failed before reporting.
	Sent
	// ValidationPrinted: the printer reported the validation number
	// printed, then failed before print done. A ticket carrying a
	// readable barcode may be in the player's hands.
	ValidationPrinted
)

func (s Stage) String() string {
	switch s {
	case NotSent:
		return "not sent"
	case Sent:
		return "sent, validation number not reported printed"
	case ValidationPrinted:
		return "validation number printed, print not finished"
	}
	return fmt.Sprintf("stage %d", int(s))
}

// PrintError is a print that failed: the ticket, how far it got, the last
// status the printer gave (zero if none) and the condition, which wraps
// one of ErrNoAnswer, ErrPaperOut, ErrHeadOpen, ErrJam, ErrOffline,
// ErrPrinterReset or ErrPrinterError.
type PrintError struct {
	Number     int
	Validation string
	Stage      Stage
	Status     Status
	Err        error
}

func (e *PrintError) Error() string {
	return fmt.Sprintf("tcl: print ticket %04d (validation %s): %s: %v",
		e.Number, FormatValidation(e.Validation), e.Stage, e.Err)
}

func (e *PrintError) Unwrap() error { return e.Err }

// Print prints t and follows the printer's status until it reports the
// print done: the validation number printed, then no longer busy, with no
// failure flag. It returns that last status (the caller warns on
// PaperLow). Before printing it loads the ticket template into the
// printer's RAM when the printer is new to it or reports a power-up reset.
//
// A ticket that fails Validate is refused with a *TicketError and nothing
// is sent. A printer that cannot print before the command (paper out, head
// open, jam, offline, error, no answer) gives a *PrintError with Stage
// NotSent: nothing was printed. A failure after the command gives a
// *PrintError with Stage Sent or ValidationPrinted.
//
// The money rule the caller follows (docs/tito.md, "The printer"):
//
//   - Before calling Print, the controller commits "ticket pending" with
//     the amount and validation number, and the credits leave the credit
//     meter in that same transaction.
//   - Only a nil error marks the ticket printed (committed after Print
//     returns); the ticket-out meters count it then.
//   - A *PrintError with Stage NotSent leaves the ticket pending, never
//     printed: the controller may fall back to a handpay for it, recorded
//     against the same pending record.
//   - Any other error, and a power cut during Print (the store holds
//     "pending" on restart), leaves a recorded "print unknown" state that
//     the attendant resolves: with Stage ValidationPrinted the player may
//     hold a valid ticket. The cabinet never prints that amount again by
//     itself; a reprint of the same validation number needs the attendant
//     key, and never a second validation number for the same credits.
func (p *Printer) Print(t Ticket) (Status, error) {
	fields, err := t.Fields()
	if err != nil {
		return Status{}, err
	}
	fail := func(stage Stage, st Status, err error) (Status, error) {
		return st, &PrintError{Number: t.Number, Validation: t.Validation, Stage: stage, Status: st, Err: err}
	}
	if err := p.lock(); err != nil {
		return fail(NotSent, Status{}, err)
	}
	defer p.mu.Unlock()
	st, err := p.status()
	if err != nil {
		return fail(NotSent, st, err)
	}
	if !p.loaded || st.Flags&(PowerUpReset|LibraryRefError|RegionDataError|JournalMode) != 0 {
		if st, err = p.load(); err != nil {
			return fail(NotSent, st, err)
		}
	}
	if err := refusal(st); err != nil {
		return fail(NotSent, st, err)
	}
	if st.Has(Busy) { // finishing a form feed, or a ticket not yet presented
		if st, err = p.waitIdle(); err != nil {
			return fail(NotSent, st, err)
		}
	}
	before := st
	if err := p.port.Discard(); err != nil {
		return fail(NotSent, st, err)
	}
	if err := p.port.Write(printCommand(fields)); err != nil {
		// Some bytes may have left: the printer may print.
		return fail(Sent, st, fmt.Errorf("%w: %w", ErrPrinterError, err))
	}
	sent := time.Now()
	started, validated := false, false
	for {
		cur, err := p.pauseStatus()
		if err == nil {
			st = cur
			// The validation-done flag of the previous ticket stays set
			// until this print starts: only a status that differs from the
			// one before the command (busy, validation done changed, top
			// of form left) shows the start and makes a later flag ours.
			// A late reply to a request made before the command can be
			// read here, but the line keeps replies in order: it shows
			// the idle printer at or after `before` (not busy, the same
			// validation flag, top of form only ever arriving), so it
			// never passes for the start. Replies dropped (a retry's
			// Discard) only hide states: a print whose every sign is
			// missed fails "not started" (Stage Sent), never a success.
			if !started && (st.Has(Busy) || st.Has(ValidationDone) != before.Has(ValidationDone) ||
				before.Has(TopOfForm) && !st.Has(TopOfForm)) {
				started = true
			}
			if started && st.Has(ValidationDone) {
				validated = true
			}
		}
		stage := Sent
		if validated {
			stage = ValidationPrinted
		}
		if err != nil {
			return fail(stage, st, err) // with the last status that decoded
		}
		if st.Has(PowerUpReset) {
			p.loaded = false
			return fail(stage, st, fmt.Errorf("%w: power-up reset reported during the print (%s)", ErrPrinterReset, st.Flags))
		}
		// Any condition reported with the end of the print (paper out,
		// head open, jam, offline, an error) fails it, even with the
		// validation number printed: the flags cannot tell a whole ticket
		// from a torn one, so the attendant looks (Stage ValidationPrinted).
		if err := refusal(st); err != nil {
			return fail(stage, st, err)
		}
		if started && validated && !st.Has(Busy) {
			return st, nil
		}
		if !started && time.Since(sent) > p.opt.Start {
			return fail(stage, st, fmt.Errorf("%w: print not started %v after the command (%s)", ErrPrinterError, p.opt.Start, st.Flags))
		}
		if time.Since(sent) > p.opt.Finish {
			return fail(stage, st, fmt.Errorf("%w: print not finished %v after the command (%s)", ErrPrinterError, p.opt.Finish, st.Flags))
		}
	}
}

// refusal maps the conditions that stop a print to their error, the most
// specific first; nil when the printer can print.
func refusal(st Status) error {
	for _, c := range []struct {
		f   Flags
		err error
	}{
		{PaperJam, ErrJam},
		{PaperOut, ErrPaperOut},
		{HeadUp | ChassisOpen, ErrHeadOpen},
		{Offline, ErrOffline},
		{SystemError | HeadError | VoltageError | TemperatureError | CutterError |
			LibraryRefError | RegionDataError | LibraryLoadError | BufferOverflow | JobMemoryOverflow |
			CommandError | LibrariesCorrupt | FlashError | MissingSupplyIndex | JournalMode, ErrPrinterError},
	} {
		if st.Flags&c.f != 0 {
			return fmt.Errorf("%w (%s)", c.err, st.Flags&c.f)
		}
	}
	return nil
}

// load puts the printer in template mode, clears its error flags and defines the ticket regions
// and template in its RAM, which a power cycle empties.
func (p *Printer) load() (Status, error) {
	cmds := [][]byte{templateMode, clearErrors, deleteRegion}
	for _, r := range Layout {
		cmds = append(cmds, regionCommand(r))
	}
	cmds = append(cmds, templateCommand())
	for _, c := range cmds {
		if err := p.port.Write(c); err != nil {
			return Status{}, fmt.Errorf("%w: load the ticket template: %w", ErrPrinterError, err)
		}
	}
	st, err := p.status()
	if err != nil {
		return st, err
	}
	if bad := st.Flags & (CommandError | RegionDataError | LibraryRefError | PowerUpReset); bad != 0 {
		return st, fmt.Errorf("%w: the printer refused the ticket template (%s)", ErrPrinterError, bad)
	}
	p.loaded = true
	return st, nil
}

// waitIdle polls until the printer is not busy, within Options.Finish.
func (p *Printer) waitIdle() (Status, error) {
	deadline := time.Now().Add(p.opt.Finish)
	for {
		st, err := p.pauseStatus()
		if err != nil {
			return st, err
		}
		if err := refusal(st); err != nil {
			return st, err
		}
		if !st.Has(Busy) {
			return st, nil
		}
		if time.Now().After(deadline) {
			return st, fmt.Errorf("%w: busy for %v before the print", ErrPrinterError, p.opt.Finish)
		}
	}
}

// Status asks the printer for its status (ENQ), repeating the request
// each Options.Reply until a reply decodes. After Options.NoAnswer with no
// reply that decodes it returns an error wrapping ErrNoAnswer, and also
// ErrBadStatus when replies came but did not decode (a garbled line:
// wrong speed, noise). It waits for a Print in progress, and fails with
// ErrClosed once Close is called.
func (p *Printer) Status() (Status, error) {
	if err := p.lock(); err != nil {
		return Status{}, err
	}
	defer p.mu.Unlock()
	return p.status()
}

// pauseStatus is status after Options.Poll.
func (p *Printer) pauseStatus() (Status, error) {
	if err := p.pause(p.opt.Poll); err != nil {
		return Status{}, err
	}
	return p.status()
}

// status is Status with the line held.
func (p *Printer) status() (Status, error) {
	deadline := time.Now().Add(p.opt.NoAnswer)
	var garbled error
	buf := make([]byte, 0, 2*maxStatus)
	chunk := make([]byte, 128)
	for time.Now().Before(deadline) {
		if err := p.port.Discard(); err != nil {
			return Status{}, err
		}
		if err := p.port.Write(enq); err != nil {
			return Status{}, fmt.Errorf("%w: %w", ErrNoAnswer, err)
		}
		buf = buf[:0]
		until := time.Now().Add(p.opt.Reply)
		for time.Now().Before(until) {
			select {
			case <-p.closing:
				return Status{}, fmt.Errorf("%w: %s", ErrClosed, p.port.Name())
			default:
			}
			n, err := p.port.Read(chunk, time.Until(until))
			if err != nil {
				return Status{}, fmt.Errorf("%w: %w", ErrNoAnswer, err)
			}
			buf = append(buf, chunk[:n]...)
			seen := serial.Hex(buf)
			st, rest, err := scan(buf)
			buf = rest
			if err == nil {
				if garbled == nil {
					p.lineReport(p.line.Clean())
				}
				return st, nil
			}
			if !errors.Is(err, ErrShortStatus) {
				garbled = err
				p.lineReport(p.line.Error(fmt.Sprintf("status reply: %v (%s)", err, seen)))
			}
		}
	}
	if garbled != nil {
		return Status{}, fmt.Errorf("%w for %v: last reply: %w", ErrNoAnswer, p.opt.NoAnswer, garbled)
	}
	return Status{}, fmt.Errorf("%w for %v: no reply", ErrNoAnswer, p.opt.NoAnswer)
}

// scan looks for a status reply in buf: bytes before a '*' are noise, a
// reply that does not decode is dropped up to the next '*'. It returns the
// reply, or the bytes still to keep with ErrShortStatus or the last
// decoding error.
func scan(buf []byte) (Status, []byte, error) {
	var last error = ErrShortStatus
	for {
		i := bytes.IndexByte(buf, '*')
		if i < 0 {
			if len(buf) > 0 {
				last = fmt.Errorf("%w: %d bytes with no reply start", ErrBadStatus, len(buf))
			}
			return Status{}, buf[:0], last
		}
		if i > 0 {
			last = fmt.Errorf("%w: %d bytes before the reply", ErrBadStatus, i)
		}
		buf = buf[i:]
		st, n, err := DecodeStatus(buf)
		switch {
		case err == nil:
			return st, buf[n:], nil
		case errors.Is(err, ErrShortStatus):
			if last == nil || errors.Is(last, ErrShortStatus) {
				return Status{}, buf, ErrShortStatus
			}
			return Status{}, buf, last
		}
		last = err
		buf = buf[1:]
	}
}
