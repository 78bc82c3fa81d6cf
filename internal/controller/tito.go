package controller

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/serial"
)

// Cash-out by ticket (TITO out, docs/tito.md). With a printer and a SAS
// validation mode configured (Options.TITO) and SAS on, CASH OUT prints a
// ticket instead of locking a handpay:
//
//  1. The ticket's validation number is found: under secure-enhanced
//     validation the cabinet computes it (the LP 4C state's next sequence
//     number, committed with the ticket); under system validation the
//     cabinet commits a new cash-out ID (recovery NextCashoutID), shows
//     "waiting for the casino system", and the SAS link raises exception
//     57 until the host reads the amount (LP 57) and answers its number
//     (LP 58, a HostRequest.Validation here). No answer within TITO.Wait,
//     or a denial (system ID 00): a handpay, with the reason on screen.
//  2. One commit records the ticket pending (recovery IssueTicket: amount,
//     validation number) and takes its credits off the meter
//     (Meters.TicketIssued). Only then does the printer start, on its own
//     goroutine; its result comes back as a TicketEvent through Handle.
//  3. The printer's confirmation commits the ticket printed
//     (Meters.TicketPrinted; the SAS link then reports exception 3D and
//     the validation record LP 4D reads). Any printer failure, whatever
//     its stage, commits it uncertain with the printer's reason; so does a
//     boot that finds it still pending (a power cut while printing).
//  4. An uncertain ticket locks play until the attendant resolves it: the
//     reset key alone reprints it with the same validation number; the
//     reset key with the audit key on voids it (its number is never
//     valid, Meters.TicketVoided) and the attendant pays it by hand. The
//     cabinet never prints a second ticket for the same credits by itself.
//
// No printer, SAS off, validation "none", a secure-enhanced cabinet whose
// validation ID the host never set, or an amount no ticket can carry: the
// cash-out is a handpay as without tickets, with the reason on screen.

// TicketValidation is how ticket validation numbers are obtained (the
// [sas] validation key; sas.ValidationMode's values, kept apart so that
// the controller does not import the protocol).
type TicketValidation int

// Validation modes.
const (
	ValidateNone           TicketValidation = iota // no tickets: every cash-out is a handpay
	ValidateSystem                                 // the host numbers each ticket (exception 57, LP 57/58)
	ValidateSecureEnhanced                         // the cabinet numbers them after LP 4C
)

// TITO wires cash-out by ticket (Options.TITO; nil: every cash-out is a
// handpay).
type TITO struct {
	Printer    hw.TicketPrinter // nil: no printer (tcl.Device: a TCL printer)
	Validation TicketValidation
	// Wait is how long a cash-out waits for the host's validation number
	// under system validation, and a ticket in escrow for the host's LP 71
	// (0: 10 s).
	Wait time.Duration
	// StatusEvery is how often the printer's status is asked between
	// tickets (0: never; cmd/cabinet asks every 5 s): paper low, paper
	// out, a fault or a printer that does not answer is shown, logged and
	// raised to the host once per change, and a cash-out while the
	// printer cannot print is a handpay at once.
	StatusEvery time.Duration
	// TicketIn turns ticket redemption on (ticketin.go): the note
	// validator (Options.Validator) reads tickets, the casino system
	// redeems them over SAS (exception 67, LP 70/71).
	TicketIn bool
	// ExpiryDays is how long a ticket out can be redeemed (0: never
	// expires), recorded with it; the printer prints it in its heading.
	ExpiryDays int
}

// TicketEventKind names a TicketEvent.
type TicketEventKind int

// Ticket events.
const (
	TicketPrintResult       TicketEventKind = iota + 1 // the printer's result for ticket Seq
	TicketValidationTimeout                            // cash-out Cashout waited TITO.Wait for the host's number
	TicketPrinterStatus                                // the printer's status between tickets (TITO.StatusEvery)
)

// TicketEvent comes back from the printer's goroutine or the validation
// timer; Run hands it to Handle (Input.Ticket), a loop of its own reads
// TicketEvents.
type TicketEvent struct {
	Kind    TicketEventKind
	Seq     uint64 // TicketPrintResult: the ticket out printed
	Cashout uint64 // TicketValidationTimeout: the cash-out ID
	Status  hw.PrinterStatus
	Err     error // nil: print done (TicketPrinterStatus: the printer answered)
	// Line are the printer line's fault reports of that conversation
	// (lineFaults), logged as device noise.
	Line []serial.FaultReport
}

// lineFaults returns the line fault reports of a printer that keeps them
// (a tcl.Device: garbled status replies, coalesced), nil otherwise.
func lineFaults(p hw.TicketPrinter) []serial.FaultReport {
	if lf, ok := p.(interface{ LineFaults() []serial.FaultReport }); ok {
		return lf.LineFaults()
	}
	return nil
}

// HostValidation is the host's LP 58 for cash-out Cashout: its validation
// system ID (01–99) and 16-digit number, or SystemID 0: denied.
type HostValidation struct {
	Cashout  uint64
	SystemID int
	Number   uint64
}

// HostValidationID is the host's LP 4C: the machine validation ID and
// sequence number (secure-enhanced validation; MachineID 0 only reads).
type HostValidationID struct {
	MachineID, Sequence uint32
}

// ValidationState is the committed secure-enhanced validation state
// (sas.ValidationID's fields).
type ValidationState struct {
	MachineID, Sequence, SetID, SetSeq uint32
}

// TITOInfo is what the SAS link reads of the cabinet's tickets besides the
// store (safe for concurrent use: published with every snapshot).
type TITOInfo struct {
	Validation TicketValidation
	// Cashout is the cash-out waiting for the host's validation number (0:
	// none), for CashoutAmount.
	Cashout       uint64
	CashoutAmount money.Cents
	// ID is the secure-enhanced validation state as committed.
	ID ValidationState
	// Redemption is the newest ticket in's SAS redemption record as
	// committed (zero before the first), and TicketRoom the largest
	// ticket the credit meter can take now (ticketin.go).
	Redemption recovery.Redemption
	TicketRoom money.Cents
	// HostDown: the SAS link is down (HostLink): no ticket now.
	HostDown bool
}

// defaultWait is TITO.Wait's default: Monaco re-posts exception 57 every
// 800 ms, so a host has a dozen chances to answer.
const defaultWait = 10 * time.Second

// wait is TITO.Wait or its default: how long a cash-out waits for the
// host's validation number, and a ticket in escrow for its LP 71.
func (t *TITO) wait() time.Duration {
	if t == nil || t.Wait <= 0 {
		return defaultWait
	}
	return t.Wait
}

// ticketDesk owns cash-out by ticket: the printer and its goroutine, the
// wait for the host's validation number, the channel their results come
// back on (Input.Ticket), and the secure-enhanced validation state read
// from the store. It writes only through the ledger; of the rest of the
// cabinet it asks the screen to clear the bets placed when the credits
// leave, and the clock for a ticket's expiry.
type ticketDesk struct {
	led       deskLedger
	log       *slog.Logger
	cfg       *TITO            // Options.TITO; nil: every cash-out is a handpay
	now       func() time.Time // Options.Now
	clearBets func()           // the screen's bets placed go with the credits

	events   chan TicketEvent
	id       ValidationState // committed secure-enhanced state (read at boot, updated after commits)
	printing bool            // a Print is running on the printer's goroutine
	info     atomic.Pointer[TITOInfo]

	// line is held by whoever talks to the printer: the print's goroutine
	// or a status poll's (one conversation at a time on the serial line).
	line sync.Mutex
	// printer is the printer's condition as last logged: set by the
	// commit of its event-log entry, forgotten at a boot (the first poll
	// finds it again).
	printer hw.PrinterCondition
}

// init wires the desk to the ledger l (before boot).
func (d *ticketDesk) init(l deskLedger, log *slog.Logger, cfg *TITO, now func() time.Time, clearBets func()) {
	d.led, d.log, d.cfg, d.now, d.clearBets = l, log, cfg, now, clearBets
}

// TicketEvents is the channel of printer results and validation timeouts
// that Run hands to Handle (a loop of its own must do the same). nil
// without Options.TITO.
func (c *Controller) TicketEvents() <-chan TicketEvent { return c.tickets.events }

// TITOInfo returns the last published ticket information.
func (c *Controller) TITOInfo() TITOInfo {
	if p := c.tickets.info.Load(); p != nil {
		return *p
	}
	return TITOInfo{}
}

func (d *ticketDesk) publish(cs state, creditLimit money.Cents) {
	ti := &TITOInfo{ID: d.id, TicketRoom: max(creditLimit-cs.m.Credits, 0), HostDown: d.led.hostDown()}
	if cs.ticketIn != nil {
		ti.Redemption = cs.ticketIn.Redemption()
	}
	if d.cfg != nil {
		ti.Validation = d.cfg.Validation
	}
	if cs.cashout != nil {
		ti.Cashout, ti.CashoutAmount = cs.cashout.id, cs.cashout.amount
	}
	d.info.Store(ti)
}

// waitingCashout is a cash-out waiting for the host's validation number
// (committed state: set by the commit of its cash-out ID, cleared by the
// commit of its ticket or handpay; a boot forgets it, the credits being
// still on the meter).
type waitingCashout struct {
	id     uint64
	amount money.Cents
}

// boot reads the ticket records at boot and makes a ticket still
// pending uncertain: the printer may or may not have printed it before the
// power went (recovery TicketOutAtBoot). Called at the end of boot.
func (d *ticketDesk) boot() error {
	if d.cfg != nil {
		d.events = make(chan TicketEvent, 4)
		d.printer = hw.PrinterReady
		d.schedulePoll()
	}
	var ok bool
	err := d.led.store().View(func(tx *recovery.Tx) error {
		var err error
		if _, ok, err = tx.OpenTicketOut(); err != nil {
			return err
		}
		v, err := tx.ValidationID()
		if err != nil {
			return err
		}
		d.id = ValidationState{v.MachineID, v.Sequence, v.SetID, v.SetSeq}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: read tickets at boot: %w", ErrMemory, err)
	}
	if !ok {
		return nil
	}
	return d.led.commit("tickets at boot", func(tx *recovery.Tx, s *state) error {
		t, changed, err := tx.TicketOutAtBoot()
		if err != nil {
			return err
		}
		s.ticket = &t
		if !changed {
			return nil
		}
		return d.led.logDetail(tx, meters.KindTicketOut, fmt.Sprintf("ticket %s of %v uncertain: %s; the attendant reprints or voids it", t.Validation, t.Amount, t.Reason),
			"ticket_uncertain", meters.TextArg(t.Validation), meters.MoneyArg(t.Amount), meters.TextArg(t.Reason))
	})
}

// ticketBusy is why play waits for a ticket: a cash-out waiting for the
// host's number, a ticket printing, or one the attendant must resolve.
func (s state) ticketBusy() string {
	switch {
	case s.cashout != nil:
		return "waiting for the casino system's validation number"
	case s.ticket != nil && s.ticket.Status == recovery.TicketPending:
		return "printing a ticket"
	case s.ticketUncertain():
		return "a ticket awaits the attendant"
	}
	return ""
}

// ticketUncertain reports a ticket waiting for the attendant (the tower
// calls them, as for a handpay).
func (s state) ticketUncertain() bool {
	return s.ticket != nil && s.ticket.Status == recovery.TicketUncertain
}

// Handpay reasons of a cash-out that could not be a ticket (the screen
// shows "msg.tito_"+reason while the handpay is pending).
const (
	ticketNoPrinter    = "no_printer"
	ticketNoValidation = "no_validation"
	ticketNoHost       = "no_host"
	ticketNoID         = "no_validation_id"
	ticketTooLarge     = "too_large"
	ticketHostTimeout  = "host_timeout"
	ticketHostDenied   = "host_denied"
	// the printer cannot print, as its last status said (TITO.StatusEvery)
	ticketPrinterPaperOut = "printer_paper_out"
	ticketPrinterFault    = "printer_fault"
	ticketPrinterNoAnswer = "printer_no_answer"
)

// refusal is why a cash-out of the credits cannot be a ticket now,
// "" when it can; "-" when tickets are not configured at all (a handpay
// as always, nothing to explain).
func (d *ticketDesk) refusal() string {
	t := d.cfg
	switch {
	case t == nil:
		return "-"
	case t.Printer == nil:
		return ticketNoPrinter
	case d.printer == hw.PrinterPaperOut:
		return ticketPrinterPaperOut
	case d.printer == hw.PrinterFault:
		return ticketPrinterFault
	case d.printer == hw.PrinterNoAnswer:
		return ticketPrinterNoAnswer
	case t.Validation == ValidateNone:
		return ticketNoValidation
	case !d.led.sasOn() || d.led.hostDown():
		return ticketNoHost
	case t.Validation == ValidateSecureEnhanced && d.id.MachineID == 0:
		return ticketNoID
	case d.led.cur().m.Credits > t.Printer.Max():
		return ticketTooLarge
	}
	return ""
}

// cashOut starts a cash-out of the whole credit meter by ticket
// (refusal said it can).
func (d *ticketDesk) cashOut() error {
	amount := d.led.cur().m.Credits
	if d.cfg.Validation == ValidateSystem {
		var id uint64
		err := d.led.commit("cash out: ask the host", func(tx *recovery.Tx, s *state) error {
			var err error
			if id, err = tx.NextCashoutID(); err != nil {
				return err
			}
			s.cashout = &waitingCashout{id: id, amount: amount}
			if err := d.led.emit(tx, HostEvent{Kind: HostCashout}); err != nil {
				return err
			}
			return d.led.logDetail(tx, meters.KindTicketOut, fmt.Sprintf("cash out %v: waiting for the casino system's validation number (cash-out %d)", amount, id),
				"ticket_validation_wait", meters.MoneyArg(amount))
		})
		if err != nil {
			return fmt.Errorf("cabinet: cash out by ticket: %w", err)
		}
		events := d.events
		time.AfterFunc(d.cfg.wait(), func() { events <- TicketEvent{Kind: TicketValidationTimeout, Cashout: id} })
		return nil
	}
	return d.issue("cash out by ticket", amount, true, func(tx *recovery.Tx) (string, error) {
		v, err := tx.ValidationID()
		if err != nil {
			return "", err
		}
		next, n, err := v.Next()
		if err != nil {
			return "", err
		}
		if err := tx.PutValidationID(next); err != nil {
			return "", err
		}
		return recovery.Validation(0, n)
	})
}

// issue commits ticket pending for amount, numbered by number (in
// the same transaction), with its credits off the meter, then starts the
// printer. pressed: this is the commit of the CASH OUT press (SAS 66).
func (d *ticketDesk) issue(op string, amount money.Cents, pressed bool, number func(tx *recovery.Tx) (string, error)) error {
	var t recovery.TicketOut
	var id ValidationState
	err := d.led.commit(op, func(tx *recovery.Tx, s *state) error {
		val, err := number(tx)
		if err != nil {
			return err
		}
		var expiry time.Time
		if days := d.cfg.ExpiryDays; days > 0 {
			expiry = d.now().AddDate(0, 0, days)
		}
		if t, err = tx.IssueTicket(recovery.TicketRequest{Validation: val, Amount: amount, Expiry: expiry}); err != nil {
			return err
		}
		if amount > s.m.Credits {
			return fmt.Errorf("%w: ticket %v above credits %v", ErrMemory, amount, s.m.Credits)
		}
		s.m.Credits -= amount
		s.m.Meters.TicketIssued(amount)
		s.cashout, s.ticket = nil, &t
		if pressed {
			if err := d.led.emit(tx, HostEvent{Kind: HostCashout}); err != nil {
				return err
			}
		}
		v, err := tx.ValidationID()
		id = ValidationState{v.MachineID, v.Sequence, v.SetID, v.SetSeq}
		if err != nil {
			return err
		}
		return d.led.logDetail(tx, meters.KindTicketOut, fmt.Sprintf("ticket %s of %v issued (ticket %04d): printing", t.Validation, amount, t.TicketNumber()),
			"ticket_issued", meters.TextArg(t.Validation), meters.MoneyArg(amount))
	})
	if err != nil {
		return fmt.Errorf("cabinet: %s: %w", op, err)
	}
	d.id = id
	d.clearBets()
	d.startPrint(t)
	return nil
}

// startPrint runs the printer on its own goroutine for ticket t (committed
// pending); the result comes back as a TicketEvent.
func (d *ticketDesk) startPrint(t recovery.TicketOut) {
	tk := hw.TicketOut{Validation: t.Validation, Amount: t.Amount, Issued: t.Created.Local(), Number: t.TicketNumber()}
	p, events, line := d.cfg.Printer, d.events, &d.line
	d.printing = true
	go func() {
		line.Lock()
		st, err := p.Print(tk)
		lf := lineFaults(p)
		line.Unlock()
		events <- TicketEvent{Kind: TicketPrintResult, Seq: t.Seq, Status: st, Err: err, Line: lf}
	}()
}

// printerWords are the printer's conditions as the screen shows them
// ("msg.printer_"+word) and the event log records them
// ("detail.printer_"+word).
var printerWords = map[hw.PrinterCondition]string{
	hw.PrinterPaperLow: "paper_low",
	hw.PrinterPaperOut: "paper_out",
	hw.PrinterFault:    "fault",
	hw.PrinterNoAnswer: "no_answer",
}

// schedulePoll asks the printer's status once, TITO.StatusEvery from now,
// off the controller's goroutine and after any print in progress (the
// line); the answer comes back as a TicketPrinterStatus event, whose
// handling schedules the next. One poll is outstanding at a time, and none
// once nobody hands the events to Handle.
func (d *ticketDesk) schedulePoll() {
	if d.cfg == nil || d.cfg.Printer == nil || d.cfg.StatusEvery <= 0 {
		return
	}
	p, events, line := d.cfg.Printer, d.events, &d.line
	time.AfterFunc(d.cfg.StatusEvery, func() {
		line.Lock()
		st, err := p.Status()
		lf := lineFaults(p)
		line.Unlock()
		events <- TicketEvent{Kind: TicketPrinterStatus, Status: st, Err: err, Line: lf}
	})
}

// printerStatus handles a status poll's answer: a condition other than the
// one last logged is committed as an event-log entry (which raises its
// SAS exception: 61 paper out, 60 a fault or no answer, 74 paper low;
// sasmachine's table), so each change is logged and raised once.
func (d *ticketDesk) printerStatus(ev TicketEvent) error {
	defer d.schedulePoll()
	cond, flags := ev.Status.Cond, ev.Status.Faults
	if cond == d.printer || d.led.cur().memErr != nil {
		return nil
	}
	var text, detail string
	var args []meters.Arg
	switch cond {
	case hw.PrinterReady:
		text, detail = "ticket printer ready", "printer_ok"
	case hw.PrinterPaperLow:
		text, detail = "ticket printer paper low", "printer_paper_low"
	case hw.PrinterPaperOut:
		text, detail = "ticket printer out of paper: cash-outs are handpays", "printer_paper_out"
	case hw.PrinterFault:
		text, detail, args = fmt.Sprintf("ticket printer fault (%s): cash-outs are handpays", flags), "printer_fault", []meters.Arg{meters.TextArg(flags)}
	case hw.PrinterNoAnswer:
		text, detail = fmt.Sprintf("ticket printer not answering (%v): cash-outs are handpays", ev.Err), "printer_no_answer"
	}
	err := d.led.commit("printer status", func(tx *recovery.Tx, s *state) error {
		return d.led.logDetail(tx, meters.KindTicketOut, text, detail, args...)
	})
	if err != nil {
		return fmt.Errorf("cabinet: printer status: %w", err)
	}
	d.printer = cond
	return nil
}

// printerNotice is the screen's notice of the printer's condition ("" when
// ready or not polled).
func (d *ticketDesk) printerNotice() string {
	if d.printer == hw.PrinterReady {
		return ""
	}
	return "printer_" + printerWords[d.printer]
}

// event handles a printer result or a validation timeout.
func (d *ticketDesk) event(ev TicketEvent) error {
	if d.led.cur().memErr != nil && ev.Kind == TicketValidationTimeout {
		return nil // the store is evidence: nothing to pay from
	}
	err := d.ticketEvent(ev)
	// The line's reports after the event's own record (a print result is
	// never held back by a log entry).
	for _, r := range ev.Line {
		err = errors.Join(err, d.led.lineFault(devicePrinter, r))
	}
	return err
}

// ticketEvent handles one TicketEvent's own business.
func (d *ticketDesk) ticketEvent(ev TicketEvent) error {
	switch ev.Kind {
	case TicketPrintResult:
		d.printing = false
		return d.printResult(ev)
	case TicketValidationTimeout:
		if d.led.cur().cashout == nil || d.led.cur().cashout.id != ev.Cashout {
			return nil // answered (or abandoned) meanwhile
		}
		return d.handpay(ticketHostTimeout, false)
	case TicketPrinterStatus:
		return d.printerStatus(ev)
	}
	return fmt.Errorf("cabinet: unknown ticket event %d", ev.Kind)
}

// printResult commits the printer's result for the pending ticket: printed
// on print done, uncertain on any failure.
func (d *ticketDesk) printResult(ev TicketEvent) error {
	if d.led.cur().memErr != nil {
		d.log.Error("ticket print result during memory error: not recorded (the boot finds it uncertain)", "seq", ev.Seq, "err", ev.Err)
		return nil
	}
	return d.led.commit("ticket print result", func(tx *recovery.Tx, s *state) error {
		if ev.Err == nil {
			t, err := tx.TicketPrintDone(ev.Seq)
			if err != nil {
				return err
			}
			s.m.Meters.TicketPrinted(t.Amount)
			s.ticket = &t
			text := fmt.Sprintf("ticket %s of %v printed", t.Validation, t.Amount)
			if ev.Status.PaperLow {
				text += " (printer paper low)"
			}
			return d.led.logDetail(tx, meters.KindTicketOut, text, "ticket_printed", meters.TextArg(t.Validation), meters.MoneyArg(t.Amount))
		}
		reason := printReason(ev.Err)
		t, err := tx.TicketPrintFailed(ev.Seq, reason)
		if err != nil {
			return err
		}
		s.ticket = &t
		return d.led.logDetail(tx, meters.KindTicketOut, fmt.Sprintf("ticket %s of %v uncertain: %s; the attendant reprints or voids it", t.Validation, t.Amount, reason),
			"ticket_uncertain", meters.TextArg(t.Validation), meters.MoneyArg(t.Amount), meters.TextArg(reason))
	})
}

// printReason is the attendant's record of a failed print: the printer's
// condition and how far the print got, in the driver's words.
func printReason(err error) string { return "printer: " + err.Error() }

// handpay locks a handpay for the credit meter, as a cash-out
// without tickets does, with the reason the ticket could not be printed
// (reason "" or "-": none to show). pressed: this is the commit of the
// CASH OUT press (SAS 66), not the end of a wait for the host that was.
func (d *ticketDesk) handpay(reason string, pressed bool) error {
	err := d.led.commit("cash out", func(tx *recovery.Tx, s *state) error {
		m := &s.m
		m.Handpay, m.HandpayKind = m.Credits, HandpayCashout
		s.cashout, s.ticketReason = nil, ""
		if pressed {
			if err := d.led.emit(tx, HostEvent{Kind: HostCashout}); err != nil {
				return err
			}
		}
		if err := d.led.logDetail(tx, meters.KindHandpay, "cash out: handpay "+m.Credits.String(), "cashout_handpay", meters.MoneyArg(m.Credits)); err != nil {
			return err
		}
		if reason == "" || reason == "-" {
			return nil
		}
		s.ticketReason = reason
		return d.led.logDetail(tx, meters.KindTicketOut, fmt.Sprintf("cash out %v by handpay, no ticket: %s", m.Credits, reason),
			"ticket_handpay", meters.MoneyArg(m.Credits), meters.KeyArg("tito_reason."+reason))
	})
	if err != nil {
		return fmt.Errorf("cabinet: cash out: %w", err)
	}
	d.clearBets()
	return nil
}

// hostValidation is the host's LP 58 for the waiting cash-out.
func (d *ticketDesk) hostValidation(v HostValidation) error {
	if d.led.cur().memErr != nil {
		return nil // the store is evidence: nothing is issued
	}
	w := d.led.cur().cashout
	if w == nil || w.id != v.Cashout {
		d.log.Warn("host validation number for a cash-out no longer waiting: ignored", "cashout", v.Cashout)
		return nil
	}
	if v.SystemID == 0 {
		return d.handpay(ticketHostDenied, false)
	}
	val, err := recovery.Validation(v.SystemID, v.Number)
	if err != nil {
		d.log.Error("host validation number refused: handpay", "err", err)
		return d.handpay(ticketHostDenied, false)
	}
	err = d.issue("cash out by ticket", w.amount, false, func(*recovery.Tx) (string, error) { return val, nil })
	if errors.Is(err, recovery.ErrBadTicket) {
		// e.g. a number already on a kept ticket: never two tickets with one number
		d.log.Error("host validation number refused: handpay", "err", err)
		return d.handpay(ticketHostDenied, false)
	}
	return err
}

// hostValidationID is the host's LP 4C: the new secure-enhanced state
// (sas.ValidationID.Apply) committed with its event-log entry.
func (d *ticketDesk) hostValidationID(h HostValidationID) error {
	var id ValidationState
	err := d.led.commit("host validation ID", func(tx *recovery.Tx, s *state) error {
		if tx == nil {
			return errNothing
		}
		v, err := tx.ValidationID()
		if err != nil {
			return err
		}
		next := v.Apply(h.MachineID, h.Sequence)
		if next == v {
			return errNothing
		}
		if err := tx.PutValidationID(next); err != nil {
			return err
		}
		id = ValidationState{next.MachineID, next.Sequence, next.SetID, next.SetSeq}
		return d.led.logDetail(tx, meters.KindHost, fmt.Sprintf("host: ticket validation ID %06X, sequence %d (LP 4C)", next.MachineID, next.Sequence),
			"host_validation_id", meters.TextArg(fmt.Sprintf("%06X", next.MachineID)), meters.CountArg(uint64(next.Sequence)))
	})
	if errors.Is(err, errNothing) {
		return nil
	}
	if err == nil {
		d.id = id
	}
	return err
}

// hostValidationRead records that the host read and acknowledged the LP
// 4D validation records of tickets seqs.
func (d *ticketDesk) hostValidationRead(seqs []uint64) error {
	return d.led.commit("host read validation records", func(tx *recovery.Tx, s *state) error {
		if tx == nil {
			return nil
		}
		for _, seq := range seqs {
			if err := tx.AckValidationRecord(seq); err != nil && !errors.Is(err, recovery.ErrTicketState) {
				return err
			}
		}
		return nil
	})
}

// attendant is the reset key while a ticket is uncertain: alone, the
// ticket is printed again with the same validation number; with the audit
// key on, it is voided and its amount paid by hand.
func (d *ticketDesk) attendant() error {
	t := d.led.cur().ticket
	if d.led.cur().switches[hw.AuditKey] {
		return d.led.commit("attendant voids ticket", func(tx *recovery.Tx, s *state) error {
			v, err := tx.TicketVoid(t.Seq)
			if err != nil {
				return err
			}
			s.m.Meters.TicketVoided(v.Amount)
			s.ticket = &v
			return d.led.logDetail(tx, meters.KindTicketOut, fmt.Sprintf("ticket %s voided: %v paid by the attendant", v.Validation, v.Amount),
				"ticket_voided", meters.TextArg(v.Validation), meters.MoneyArg(v.Amount))
		})
	}
	if d.cfg == nil || d.cfg.Printer == nil || d.printing {
		return fmt.Errorf("%w: no printer to reprint ticket %s", ErrNotNow, t.Validation)
	}
	var r recovery.TicketOut
	err := d.led.commit("attendant reprints ticket", func(tx *recovery.Tx, s *state) error {
		var err error
		if r, err = tx.TicketReprint(t.Seq); err != nil {
			return err
		}
		s.ticket = &r
		return d.led.logDetail(tx, meters.KindTicketOut, fmt.Sprintf("ticket %s of %v reprinted by the attendant (same validation number, reprint %d)", r.Validation, r.Amount, r.Reprints),
			"ticket_reprint", meters.TextArg(r.Validation), meters.MoneyArg(r.Amount))
	})
	if err != nil {
		return err
	}
	d.startPrint(r)
	return nil
}

// Notices of tickets (the display translates "msg."+notice).
const (
	NoticeTicketWait      = "tito_validating"
	NoticeTicketPrinting  = "tito_printing"
	NoticeTicketPrinted   = "tito_printed"
	NoticeTicketUncertain = "tito_uncertain"
)

// ticketNotice is what the screen says of tickets in committed state cs
// ("" for nothing): the wait for the host, the print, its result, or why a
// cash-out handpay is not a ticket.
func ticketNotice(cs state) string {
	switch {
	case cs.cashout != nil:
		return NoticeTicketWait
	case cs.m.Handpay > 0 && cs.m.HandpayKind == HandpayCashout && cs.ticketReason != "":
		return "tito_" + cs.ticketReason
	case cs.ticket == nil:
		return ""
	case cs.ticket.Status == recovery.TicketPending:
		return NoticeTicketPrinting
	case cs.ticket.Status == recovery.TicketUncertain:
		return NoticeTicketUncertain
	case cs.ticket.Status == recovery.TicketPrinted && cs.m.Credits == 0 && cs.open == nil:
		return NoticeTicketPrinted
	}
	return ""
}
