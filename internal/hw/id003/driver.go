package id003

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"cabinet/internal/money"
	"cabinet/internal/serial"
)

// Link is the line to the validator (a Port, in production and tests).
type Link interface {
	// Write sends b whole.
	Write(b []byte) error
	// Read waits up to d for bytes and reads what is there; 0 on timeout.
	Read(buf []byte, d time.Duration) (int, error)
	// Discard drops received bytes not yet read.
	Discard() error
}

var _ Link = (*Port)(nil)

// Config is the driver's part of the [acceptor] section.
type Config struct {
	// Notes maps each escrow code the cabinet accepts to its value. Codes
	// not listed are inhibited in the validator (set denomination) and, if
	// one is offered anyway, returned with a reason.
	Notes map[byte]money.Cents
	// Tickets: the validator reads barcode tickets (TITO ticket-in). The
	// settings then include the barcode function (C6: interleaved 2 of
	// 5, 18 characters) and the bar inhibit (C7), which the driver keeps
	// to what the cabinet accepts (SetAcceptance for notes, SetTickets
	// for tickets); set inhibit (C3) enables the unit when either is
	// wanted. Without it a ticket escrowed anyway is returned.
	Tickets bool
	// PollInterval is the pause between status requests (default 100 ms;
	// ID-003 hosts poll every 100–200 ms).
	PollInterval time.Duration
	// ReplyTimeout is how long an answer may take (default 300 ms).
	ReplyTimeout time.Duration
	// Retries is the number of unanswered status requests after which the
	// validator is reported gone (default 3).
	Retries int
	// LineQuiet is the number of clean exchanges in a row that end a line
	// fault (default serial.DefaultQuiet: 5 s at the 100 ms poll).
	LineQuiet int
}

// Validate checks the denomination table.
func (c Config) Validate() error {
	if len(c.Notes) == 0 && !c.Tickets {
		return fmt.Errorf("%w: no note accepted (give at least one escrow code 0x%02X–0x%02X with its value, or accept tickets)", ErrConfig, FirstEscrowCode, LastEscrowCode)
	}
	for code, v := range c.Notes {
		if code < FirstEscrowCode || code > LastEscrowCode {
			return fmt.Errorf("%w: escrow code 0x%02X (allowed 0x%02X–0x%02X)", ErrConfig, code, FirstEscrowCode, LastEscrowCode)
		}
		if v <= 0 {
			return fmt.Errorf("%w: escrow code 0x%02X has value %s (must be above 0)", ErrConfig, code, v)
		}
	}
	if c.PollInterval < 0 || c.ReplyTimeout < 0 || c.Retries < 0 || c.LineQuiet < 0 {
		return fmt.Errorf("%w: negative poll interval %s, reply timeout %s, retries %d or line quiet %d", ErrConfig, c.PollInterval, c.ReplyTimeout, c.Retries, c.LineQuiet)
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.PollInterval == 0 {
		c.PollInterval = 100 * time.Millisecond
	}
	if c.ReplyTimeout == 0 {
		c.ReplyTimeout = 300 * time.Millisecond
	}
	if c.Retries == 0 {
		c.Retries = 3
	}
	return c
}

// denominationMask is the set-denomination data: a set bit inhibits the
// escrow code 0x61+bit (byte 0); byte 1 is reserved and inhibits nothing.
func (c Config) denominationMask() []byte {
	var m byte = 0xFF
	for code := range c.Notes {
		m &^= 1 << (code - FirstEscrowCode)
	}
	return []byte{m, 0x00}
}

// Info is what the self-test page shows of the validator.
type Info struct {
	Version string // the answer to the version request ("" until read)
	Status  Status // the last status reported (0 before the first)
	Gone    bool   // the validator stopped answering
	Enabled bool   // acceptance enabled in the validator
}

// Driver is the host side of ID-003: it polls the validator, runs the
// power-up sequence, asks the Cashbox at escrow and credits at vend valid.
// Run owns the line; SetAcceptance and Info may be called from any
// goroutine.
type Driver struct {
	link  Link
	cfg   Config
	box   Cashbox
	event func(Event)

	mu      sync.Mutex
	max     money.Cents // acceptance: notes up to max; 0 inhibits
	tickets bool        // ticket acceptance (with Config.Tickets)
	info    Info

	// owned by Run
	buf        []byte
	configured bool // settings sent since the last reset
	bar        byte // the bar inhibit the validator echoed (Config.Tickets)
	held       string
	last       Status
	missed     int
	// gone: the validator was reported gone (EvTimeout) and not yet back:
	// it is back once it answers on a line without a fault in progress,
	// so a line that garbles most answers makes one timeout, not one per
	// answer that happens to go through.
	gone bool
	// line coalesces the line's errors (serial.LineFault): reported as
	// EvLine when a fault begins, while it lasts and when it clears.
	line serial.LineFault
	// dirty: the exchange in progress met a line error.
	dirty bool
}

// New returns a driver on link. event receives every Event, from Run's
// goroutine; it must not block for long (the validator waits).
func New(link Link, cfg Config, box Cashbox, event func(Event)) (*Driver, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if event == nil {
		event = func(Event) {}
	}
	d := &Driver{link: link, cfg: cfg.withDefaults(), box: box, event: event}
	d.line.Quiet = d.cfg.LineQuiet
	return d, nil
}

// SetAcceptance enables acceptance for notes up to max; 0 inhibits. It
// takes effect at the next poll (the validator's inhibit setting), and a
// note above max offered meanwhile is returned without asking the
// Cashbox.
func (d *Driver) SetAcceptance(max money.Cents) {
	d.mu.Lock()
	d.max = max
	d.mu.Unlock()
}

func (d *Driver) acceptance() money.Cents {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.max
}

// SetTickets enables (true) or inhibits ticket acceptance; it needs
// Config.Tickets. It takes effect at the next poll (the validator's bar
// inhibit), and a ticket offered meanwhile while off is returned without
// asking the Cashbox.
func (d *Driver) SetTickets(on bool) {
	d.mu.Lock()
	d.tickets = on
	d.mu.Unlock()
}

func (d *Driver) ticketsOn() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tickets
}

// Info returns the validator's version and state.
func (d *Driver) Info() Info {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.info
}

func (d *Driver) setInfo(f func(*Info)) {
	d.mu.Lock()
	f(&d.info)
	d.mu.Unlock()
}

// Run polls the validator until ctx ends. It returns ctx's error, or a
// line error (the port failed). It sends nothing when it stops: a host
// that dies sends nothing either, and the protocol is built for that.
func (d *Driver) Run(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := d.status()
		switch {
		case errors.Is(err, ErrNoReply):
			d.missed++
			if d.missed >= d.cfg.Retries && !d.gone {
				d.gone = true
				d.setInfo(func(i *Info) { i.Gone = true; i.Enabled = false })
				d.event(Event{Kind: EvTimeout, Text: fmt.Sprintf("no valid answer to %d status requests in a row (%s each)", d.missed, d.cfg.ReplyTimeout)})
				// Whatever it does when it comes back (most likely a
				// power-up), the driver sets it up again.
				d.configured = false
			}
		case errors.Is(err, ErrUnexpected):
			// A line error; the next poll asks again. Never a reason to
			// stop serving the validator.
			d.lineError(err.Error())
		case err != nil:
			return err
		default:
			if d.gone && !d.line.Active() {
				d.gone = false
				d.setInfo(func(i *Info) { i.Gone = false })
				d.event(Event{Kind: EvBack})
			}
			d.missed = 0
			if err := d.handle(ctx, f); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d.cfg.PollInterval):
		}
	}
}

// handle acts on one status reply.
func (d *Driver) handle(ctx context.Context, f Frame) error {
	st := Status(f.Code)
	var data byte
	if len(f.Data) > 0 {
		data = f.Data[0]
	}
	if st != StEscrow && st != StHolding {
		d.held = "" // the ticket the driver held has left the escrow
	}
	if st != d.last {
		d.changed(d.last, st, f.Data)
		d.last = st
		d.setInfo(func(i *Info) { i.Status = st })
	}
	switch st {
	case StPowerUp, StPowerUpBillAcceptor:
		return d.reset()
	case StPowerUpBillStacker:
		// The note is in the stacker; Reset finishes stacking it and the
		// validator will not report it again. Credit first, reset after.
		if ok, err := d.credit(ctx); !ok || err != nil {
			return err
		}
		return d.reset()
	case StInitialize:
		if !d.configured {
			return d.configure()
		}
		// The status never shows the bar inhibit: after any initialize
		// (a fault cleared) it is sent again.
		d.bar = 0
	case StDisabled, StIdling:
		if !d.configured {
			return d.configure()
		}
		return d.applyInhibit()
	case StEscrow:
		if data == TicketCode {
			return d.ticket(ctx, f.Data[1:])
		}
		return d.escrow(ctx, data)
	case StHolding:
		if d.held != "" {
			return d.decideTicket(ctx, d.held)
		}
		// This driver holds only the tickets it remembers, so this is a
		// hold left by an earlier host (holding carries no data): what
		// is held is unknown; return it.
		d.event(Event{Kind: EvReturned, Text: "a note or ticket held in escrow by an earlier host (unknown)"})
		return d.operate(CmdReturn)
	case StVendValid:
		if ok, err := d.credit(ctx); !ok || err != nil {
			return err
		}
		return d.link.Write(MustEncode(byte(CmdAck)))
	}
	return nil
}

// changed reports a change of status.
func (d *Driver) changed(from, to Status, all []byte) {
	var data byte
	if len(all) > 0 {
		data = all[0]
	}
	ev := Event{Kind: EvStatus, Status: to}
	switch to {
	case StFailure:
		ev.Failure = FailureCode(data)
	case StRejecting:
		ev.Reject = RejectReason(data)
	case StEscrow:
		ev.Note = Note{Code: data, Value: d.cfg.Notes[data]}
		if data == TicketCode {
			ev.Note, ev.Ticket = Note{Code: TicketCode}, string(all[1:])
		}
	case StHolding:
		if d.held != "" {
			ev.Note, ev.Ticket = Note{Code: TicketCode}, d.held
		}
	}
	d.event(ev)
	if from.Fault() && !to.Fault() {
		d.event(Event{Kind: EvFaultCleared, Status: from})
	}
	switch {
	case to.PowerUp():
		d.event(Event{Kind: EvPowerUp, Status: to})
		d.configured = false
		d.setInfo(func(i *Info) { i.Enabled = false })
	case to.Fault():
		d.event(Event{Kind: EvFault, Status: to, Failure: ev.Failure})
		d.setInfo(func(i *Info) { i.Enabled = false })
	case to == StRejecting:
		d.event(Event{Kind: EvRejected, Reject: ev.Reject})
	case to == StCommError:
		d.lineError("the validator reports a garbled frame from the host (communication error)")
	case to == StInvalidCommand:
		d.lineError("the validator answered a status request with invalid command")
	case !to.Known():
		d.lineError(fmt.Sprintf("unknown status 0x%02X (% X)", byte(to), all))
	}
}

// credit asks the Cashbox to credit the note in the stacker and reports
// whether the validator may be told so (acknowledged, or reset). If ctx
// ended meanwhile, the driver stops there and tells the validator nothing.
func (d *Driver) credit(ctx context.Context) (bool, error) {
	n, fresh, err := d.box.Credit()
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	switch {
	case errors.Is(err, ErrNotOrdered):
		d.event(Event{Kind: EvUncredited, Text: fmt.Sprintf("%s with no note ordered stacked in the store: not credited", d.last)})
		return true, nil
	case err != nil:
		d.event(Event{Kind: EvStoreError, Text: fmt.Sprintf("credit at %s: %v (not acknowledged; asked again)", d.last, err)})
		return false, nil
	case fresh:
		d.event(Event{Kind: EvCredited, Note: n})
	default:
		d.event(Event{Kind: EvCreditRepeated, Note: n})
	}
	return true, nil
}

// escrow decides the note in escrow.
func (d *Driver) escrow(ctx context.Context, code byte) error {
	v, ok := d.cfg.Notes[code]
	n := Note{Code: code, Value: v}
	refuse := func(why string) error {
		d.event(Event{Kind: EvReturned, Note: n, Text: why})
		return d.operate(CmdReturn)
	}
	if !ok {
		return refuse(fmt.Sprintf("escrow code 0x%02X is not an accepted note (accepted: %s)", code, d.accepted()))
	}
	max := d.acceptance()
	if max == 0 {
		return refuse("acceptance is off")
	}
	if v > max {
		return refuse(fmt.Sprintf("above the acceptance limit %s", max))
	}
	dec, err := d.box.Escrow(n)
	if ctx.Err() != nil {
		return ctx.Err() // stopped while deciding: the note stays in escrow
	}
	if err != nil {
		return refuse(fmt.Sprintf("escrow decision failed: %v", err))
	}
	if !dec.Stack {
		return refuse(dec.Reason)
	}
	return d.operate(CmdStack1)
}

// ticket checks the barcode of the ticket in escrow and decides it.
func (d *Driver) ticket(ctx context.Context, barcode []byte) error {
	d.held = ""
	number, err := ticketNumber(barcode)
	switch {
	case err != nil:
		return d.returnTicket(string(barcode), err.Error())
	case !d.cfg.Tickets:
		return d.returnTicket(number, "this cabinet takes no tickets (not configured)")
	case !d.ticketsOn():
		return d.returnTicket(number, "tickets are not accepted now")
	}
	return d.decideTicket(ctx, number)
}

// decideTicket asks the Cashbox about the ticket in escrow or held and
// acts on its answer.
func (d *Driver) decideTicket(ctx context.Context, number string) error {
	dec, err := d.box.Ticket(number)
	if ctx.Err() != nil {
		return ctx.Err() // stopped while deciding: the ticket stays (a real unit's hold runs out)
	}
	if err != nil {
		return d.returnTicket(number, fmt.Sprintf("ticket decision failed: %v", err))
	}
	switch dec.Action {
	case TicketHold:
		d.held = number
		return d.operate(CmdHold)
	case TicketStack:
		d.held = ""
		return d.operate(CmdStack1)
	case TicketReturn:
		return d.returnTicket(number, dec.Reason)
	}
	return d.returnTicket(number, fmt.Sprintf("unknown answer %s (want hold, stack or return)", dec.Action))
}

func (d *Driver) returnTicket(barcode, why string) error {
	d.held = ""
	d.event(Event{Kind: EvReturned, Note: Note{Code: TicketCode}, Ticket: barcode, Text: why})
	return d.operate(CmdReturn)
}

// ticketNumber checks the barcode read from a ticket: a TITO validation
// number is TicketDigits ASCII digits. The error names what was read.
func ticketNumber(b []byte) (string, error) {
	if len(b) != TicketDigits {
		return "", fmt.Errorf("barcode %q is not a ticket number: %d characters, want %d digits", b, len(b), TicketDigits)
	}
	for i, c := range b {
		if c < '0' || c > '9' {
			return "", fmt.Errorf("barcode %q is not a ticket number: %q at position %d, want only digits 0–9", b, c, i+1)
		}
	}
	return string(b), nil
}

func (d *Driver) accepted() string {
	codes := make([]byte, 0, len(d.cfg.Notes))
	for c := range d.cfg.Notes {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	s := ""
	for i, c := range codes {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("0x%02X=%s", c, d.cfg.Notes[c])
	}
	return s
}

// reset sends Reset; settings follow at initialize.
func (d *Driver) reset() error {
	d.configured = false
	d.held = ""
	return d.operate(CmdReset)
}

// configure sends every setting, inhibited, and reads the version.
func (d *Driver) configure() error {
	type setting struct {
		c    Command
		data []byte
	}
	settings := []setting{
		{CmdSetInhibit, []byte{0x01}},
		{CmdSetDenomination, d.cfg.denominationMask()},
		{CmdSetSecurity, []byte{0x00, 0x00}},
		{CmdSetCommMode, []byte{0x00}},
		{CmdSetDirection, []byte{0x00}},
		{CmdSetOptional, []byte{0x00, 0x00}},
	}
	if d.cfg.Tickets {
		// Tickets need the barcode function; both inhibited until the
		// next poll applies what the cabinet wants.
		settings = append(settings,
			setting{CmdSetBarcode, []byte{BarcodeInterleaved25, TicketDigits}},
			setting{CmdSetBarInhibit, []byte{0xFF}})
	}
	for _, s := range settings {
		if ok, err := d.setting(s.c, s.data); !ok || err != nil {
			return err
		}
	}
	f, err := d.exchange(CmdGetVersion, nil, func(f Frame) bool { return f.Code == byte(CmdGetVersion) })
	if err == nil {
		v := string(f.Data)
		d.setInfo(func(i *Info) { i.Version = v })
		d.event(Event{Kind: EvVersion, Text: v})
	} else if !d.soft(err, CmdGetVersion) {
		return err
	}
	d.configured = true
	d.bar = 0xFF
	return nil
}

// setting sends a setting command and checks the echo; false when it was
// not echoed (reported; the driver tries again at the next poll).
func (d *Driver) setting(c Command, data []byte) (bool, error) {
	f, err := d.exchange(c, data, func(f Frame) bool { return f.Code == byte(c) })
	if err != nil {
		return false, d.hard(err, c)
	}
	if string(f.Data) != string(data) {
		d.lineError(fmt.Sprintf("%s echoed % X, sent % X", c, f.Data, data))
		return false, nil
	}
	return true, nil
}

// applyInhibit sets the validator's inhibit to what the cabinet wants,
// when its status (idling: enabled; disabled: inhibited) says otherwise.
// With tickets, the bar inhibit (C7) is set first to the notes and
// tickets wanted (its echo is remembered: the status does not show it),
// and the unit is enabled when either is.
func (d *Driver) applyInhibit() error {
	want := d.acceptance() > 0
	if d.cfg.Tickets {
		tickets := d.ticketsOn()
		bar := BarInhibitNone
		if !want {
			bar |= BarInhibitNotes
		}
		if !tickets {
			bar |= BarInhibitTickets
		}
		if bar != d.bar {
			if ok, err := d.setting(CmdSetBarInhibit, []byte{bar}); !ok || err != nil {
				return err
			}
			d.bar = bar
		}
		want = want || tickets
	}
	if want == (d.last == StIdling) {
		d.setInfo(func(i *Info) { i.Enabled = want })
		return nil
	}
	var b byte = 0x01
	if want {
		b = 0x00
	}
	ok, err := d.setting(CmdSetInhibit, []byte{b})
	if ok {
		d.setInfo(func(i *Info) { i.Enabled = want })
	}
	return err
}

// operate sends an operation command and expects ACK. A missing or wrong
// answer is reported and left to the next poll (the status says what the
// validator did).
func (d *Driver) operate(c Command) error {
	_, err := d.exchange(c, nil, func(f Frame) bool { return f.Code == byte(StAck) })
	return d.hard(err, c)
}

// hard reports a soft failure of command c and returns only line errors.
func (d *Driver) hard(err error, c Command) error {
	if err == nil || d.soft(err, c) {
		return nil
	}
	return err
}

// soft reports err if the protocol caused it (no reply, unexpected
// answer), which the next poll recovers from.
func (d *Driver) soft(err error, c Command) bool {
	switch {
	case errors.Is(err, ErrNoReply), errors.Is(err, ErrUnexpected):
		d.lineError(fmt.Sprintf("%s: %v", c, err))
		return true
	}
	return false
}

// lineError counts one error of the line (what: its text, with the bytes
// seen) and reports the fault when it begins and at each power of ten.
func (d *Driver) lineError(what string) {
	d.dirty = true
	if r, ok := d.line.Error(what); ok {
		d.event(Event{Kind: EvLine, Line: r})
	}
}

// lineClean counts an exchange that went through without error and
// reports the end of a fault.
func (d *Driver) lineClean() {
	if r, ok := d.line.Clean(); ok {
		d.event(Event{Kind: EvLine, Line: r})
	}
}

// status sends a status request (once; Run counts the misses).
func (d *Driver) status() (Frame, error) {
	return d.exchange(CmdStatus, nil, func(f Frame) bool { return f.Code != byte(StAck) && f.Code < 0x80 })
}

// exchange sends command c and waits for one valid frame that answer
// accepts. Garbled frames on the way are reported with their reason; an
// invalid-command answer or any other frame is ErrUnexpected.
func (d *Driver) exchange(c Command, data []byte, answer func(Frame) bool) (Frame, error) {
	if err := d.link.Discard(); err != nil {
		return Frame{}, err
	}
	out, err := Encode(byte(c), data)
	if err != nil {
		return Frame{}, err
	}
	if err := d.link.Write(out); err != nil {
		return Frame{}, err
	}
	d.buf = d.buf[:0]
	d.dirty = false
	deadline := time.Now().Add(d.cfg.ReplyTimeout)
	var chunk [64]byte
	// skipped are the bytes dropped while resynchronising (no sync byte),
	// reported as one error when the run ends.
	var skipped []byte
	flush := func() {
		if len(skipped) > 0 {
			d.lineError(fmt.Sprintf("answer to %s: %d bytes skipped while resynchronising (%s)", c, len(skipped), serial.Hex(skipped)))
			skipped = skipped[:0]
		}
	}
	for {
		for len(d.buf) > 0 {
			f, n, err := Decode(d.buf)
			if errors.Is(err, ErrShort) {
				break
			}
			if errors.Is(err, ErrSync) {
				skipped = append(skipped, d.buf[:n]...)
				d.buf = d.buf[n:]
				continue
			}
			flush()
			if err != nil {
				d.lineError(fmt.Sprintf("answer to %s: %v", c, err))
				d.buf = d.buf[n:]
				continue
			}
			f.Data = slices.Clone(f.Data)
			d.buf = d.buf[n:]
			if answer(f) {
				if !d.dirty {
					d.lineClean()
				}
				return f, nil
			}
			if c == CmdStatus && Status(f.Code) == StInvalidCommand {
				return f, nil // a line error, counted by changed
			}
			if c == CmdStatus && Status(f.Code) == StAck {
				// The late ACK of an earlier command (its answer came after
				// the wait and after the discard): not this answer.
				d.lineError(fmt.Sprintf("answer to %s: a late ACK skipped", c))
				continue
			}
			return Frame{}, fmt.Errorf("%w: %s answered with %v", ErrUnexpected, c, f)
		}
		left := time.Until(deadline)
		if left <= 0 {
			flush()
			if len(d.buf) > 0 {
				d.lineError(fmt.Sprintf("answer to %s: %d bytes of an incomplete frame (%s)", c, len(d.buf), serial.Hex(d.buf)))
			}
			return Frame{}, fmt.Errorf("%w: %s within %s", ErrNoReply, c, d.cfg.ReplyTimeout)
		}
		n, err := d.link.Read(chunk[:], left)
		if err != nil {
			return Frame{}, err
		}
		d.buf = append(d.buf, chunk[:n]...)
	}
}
