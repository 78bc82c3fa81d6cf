package desk

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"cabinet/internal/hostev"
	"cabinet/internal/hw"
	"cabinet/internal/ledger"
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

// TicketDesk owns cash-out by ticket: the printer and its goroutine, the
// wait for the host's validation number, the channel their results come
// back on (Events), and the secure-enhanced validation state read from
// the store. It writes only through its Ledger, and of the committed state
// it reaches the money and its own Tickets; of the rest of the cabinet it
// asks the screen to clear the bets placed when the credits leave
// (TicketCabinet), and the clock for a ticket's expiry.
type TicketDesk struct {
	led Ledger[Tickets]
	cab TicketCabinet
	log *slog.Logger
	cfg *TITO            // the controller's Options.TITO; nil: every cash-out is a handpay
	now func() time.Time // Options.Now

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

// Publish stores the ticket information of committed values own with
// the credit meter at credits, the credit limit in force and the newest
// ticket in's redemption record r (TITOInfo).
func (d *TicketDesk) Publish(own Tickets, credits, creditLimit money.Cents, r recovery.Redemption) {
	ti := &TITOInfo{ID: d.id, TicketRoom: max(creditLimit-credits, 0), HostDown: d.led.HostDown(), Redemption: r}
	if d.cfg != nil {
		ti.Validation = d.cfg.Validation
	}
	if own.cashout != nil {
		ti.Cashout, ti.CashoutAmount = own.cashout.id, own.cashout.amount
	}
	d.info.Store(ti)
}

// Info returns the last published ticket information.
func (d *TicketDesk) Info() TITOInfo {
	if p := d.info.Load(); p != nil {
		return *p
	}
	return TITOInfo{}
}

// Events is the channel of printer results and validation timeouts that
// the controller hands back to Event (nil without a TITO configuration).
func (d *TicketDesk) Events() <-chan TicketEvent { return d.events }

// Printing reports a print running on the printer's goroutine.
func (d *TicketDesk) Printing() bool { return d.printing }

// TicketCabinet is what the ticket desk asks of the rest of the cabinet.
type TicketCabinet interface {
	// ClearBets: the credits left, the bets placed on screen go with them.
	ClearBets()
}

// NewTicketDesk is the ticket desk over l, asking cab (before boot). cfg
// is Options.TITO (nil: every cash-out is a handpay).
func NewTicketDesk(l Ledger[Tickets], cab TicketCabinet, log *slog.Logger, cfg *TITO, now func() time.Time) *TicketDesk {
	return &TicketDesk{led: l, cab: cab, log: log, cfg: cfg, now: now}
}

// ErrNoReprint is wrapped when the attendant's reset key asks to reprint
// an uncertain ticket and there is no printer to do it (or it is busy).
var ErrNoReprint = errors.New("desk: no printer to reprint the ticket")

// HandpayCashout is the machine record's handpay kind of a cash-out.
const HandpayCashout = "cashout"

// waitingCashout is a cash-out waiting for the host's validation number
// (committed state: set by the commit of its cash-out ID, cleared by the
// commit of its ticket or handpay; a boot forgets it, the credits being
// still on the meter).
type waitingCashout struct {
	id     uint64
	amount money.Cents
}

// Boot reads the ticket records at boot and makes a ticket still
// pending uncertain: the printer may or may not have printed it before the
// power went (recovery TicketOutAtBoot). Called at the end of boot.
func (d *TicketDesk) Boot() error {
	if d.cfg != nil {
		d.events = make(chan TicketEvent, 4)
		d.printer = hw.PrinterReady
		d.schedulePoll()
	}
	var ok bool
	err := d.led.View(func(tx *recovery.Tx) error {
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
		return fmt.Errorf("%w: read tickets at boot: %w", ledger.ErrMemory, err)
	}
	if !ok {
		return nil
	}
	return d.led.Commit("tickets at boot", func(tx *recovery.Tx, b *Books[Tickets]) error {
		t, changed, err := tx.TicketOutAtBoot()
		if err != nil {
			return err
		}
		b.Own.ticket = &t
		if !changed {
			return nil
		}
		return b.Log(meters.KindTicketOut, fmt.Sprintf("ticket %s of %v uncertain: %s; the attendant reprints or voids it", t.Validation, t.Amount, t.Reason),
			"ticket_uncertain", meters.TextArg(t.Validation), meters.MoneyArg(t.Amount), meters.TextArg(t.Reason))
	})
}

// Tickets are the ticket desk's committed values, held as one field of
// the controller's committed state and changed only through its commits:
// the cash-out waiting for the host's validation number, the last ticket
// out recorded this boot, and why the cash-out handpay pending is not a
// ticket.
type Tickets struct {
	cashout *waitingCashout
	ticket  *recovery.TicketOut
	reason  string
}

// Busy is why play waits for a ticket, as the player's notice ("" if it
// does not): a cash-out waiting for the host's number, a ticket printing,
// or one the attendant must resolve. The button table reads it.
func (t Tickets) Busy() string {
	switch {
	case t.cashout != nil:
		return NoticeTicketWait
	case t.ticket != nil && t.ticket.Status == recovery.TicketPending:
		return NoticeTicketPrinting
	case t.Uncertain():
		return NoticeTicketUncertain
	}
	return ""
}

// Uncertain reports a ticket waiting for the attendant (the tower calls
// them, as for a handpay).
func (t Tickets) Uncertain() bool {
	return t.ticket != nil && t.ticket.Status == recovery.TicketUncertain
}

// Notice is what the screen says of tickets ("" for nothing) with the
// machine record m and a round open or not: the wait for the host, the
// print, its result, or why a cash-out handpay is not a ticket.
func (t Tickets) Notice(m recovery.Machine, roundOpen bool) string {
	switch {
	case t.cashout != nil:
		return NoticeTicketWait
	case m.Handpay > 0 && m.HandpayKind == HandpayCashout && t.reason != "":
		return "tito_" + t.reason
	case t.ticket == nil:
		return ""
	case t.ticket.Status == recovery.TicketPending:
		return NoticeTicketPrinting
	case t.ticket.Status == recovery.TicketUncertain:
		return NoticeTicketUncertain
	case t.ticket.Status == recovery.TicketPrinted && m.Credits == 0 && !roundOpen:
		return NoticeTicketPrinted
	}
	return ""
}

// CanReprint reports an uncertain ticket the attendant's reset key
// would print again now (a printer, none printing).
func (d *TicketDesk) CanReprint() bool {
	return d.led.Cur().Own.Uncertain() && !d.led.Cur().Failed && !d.printing && d.cfg != nil && d.cfg.Printer != nil
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

// CashOut pays the whole credit meter out, the controller having
// checked that it may (between rounds, credits on the meter): on a ticket
// when one can be printed, else by locking a handpay with the reason a
// ticket could not be printed on screen. This is the commit of the CASH
// OUT press (SAS 66).
func (d *TicketDesk) CashOut() error {
	if reason := d.refusal(); reason != "" {
		return d.handpay(reason, true)
	}
	return d.cashOut()
}

// refusal is why a cash-out of the credits cannot be a ticket now,
// "" when it can; "-" when tickets are not configured at all (a handpay
// as always, nothing to explain).
func (d *TicketDesk) refusal() string {
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
	case !d.led.SASOn() || d.led.HostDown():
		return ticketNoHost
	case t.Validation == ValidateSecureEnhanced && d.id.MachineID == 0:
		return ticketNoID
	case d.led.Cur().Credits > t.Printer.Max():
		return ticketTooLarge
	}
	return ""
}

// cashOut starts a cash-out of the whole credit meter by ticket
// (refusal said it can).
func (d *TicketDesk) cashOut() error {
	amount := d.led.Cur().Credits
	if d.cfg.Validation == ValidateSystem {
		var id uint64
		err := d.led.Commit("cash out: ask the host", func(tx *recovery.Tx, b *Books[Tickets]) error {
			var err error
			if id, err = tx.NextCashoutID(); err != nil {
				return err
			}
			b.Own.cashout = &waitingCashout{id: id, amount: amount}
			if err := b.Emit(hostev.Event{Kind: hostev.Cashout}); err != nil {
				return err
			}
			return b.Log(meters.KindTicketOut, fmt.Sprintf("cash out %v: waiting for the casino system's validation number (cash-out %d)", amount, id),
				"ticket_validation_wait", meters.MoneyArg(amount))
		})
		if err != nil {
			return fmt.Errorf("cabinet: cash out by ticket: %w", err)
		}
		events := d.events
		time.AfterFunc(d.cfg.HostWait(), func() { events <- TicketEvent{Kind: TicketValidationTimeout, Cashout: id} })
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
func (d *TicketDesk) issue(op string, amount money.Cents, pressed bool, number func(tx *recovery.Tx) (string, error)) error {
	var t recovery.TicketOut
	var id ValidationState
	err := d.led.Commit(op, func(tx *recovery.Tx, b *Books[Tickets]) error {
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
		if amount > b.M.Credits {
			return fmt.Errorf("%w: ticket %v above credits %v", ledger.ErrMemory, amount, b.M.Credits)
		}
		b.M.Credits -= amount
		b.M.Meters.TicketIssued(amount)
		b.Own.cashout, b.Own.ticket = nil, &t
		if pressed {
			if err := b.Emit(hostev.Event{Kind: hostev.Cashout}); err != nil {
				return err
			}
		}
		v, err := tx.ValidationID()
		id = ValidationState{v.MachineID, v.Sequence, v.SetID, v.SetSeq}
		if err != nil {
			return err
		}
		return b.Log(meters.KindTicketOut, fmt.Sprintf("ticket %s of %v issued (ticket %04d): printing", t.Validation, amount, t.TicketNumber()),
			"ticket_issued", meters.TextArg(t.Validation), meters.MoneyArg(amount))
	})
	if err != nil {
		return fmt.Errorf("cabinet: %s: %w", op, err)
	}
	d.id = id
	d.cab.ClearBets()
	d.startPrint(t)
	return nil
}

// startPrint runs the printer on its own goroutine for ticket t (committed
// pending); the result comes back as a TicketEvent.
func (d *TicketDesk) startPrint(t recovery.TicketOut) {
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
func (d *TicketDesk) schedulePoll() {
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
func (d *TicketDesk) printerStatus(ev TicketEvent) error {
	defer d.schedulePoll()
	cond, flags := ev.Status.Cond, ev.Status.Faults
	if cond == d.printer || d.led.Cur().Failed {
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
	err := d.led.Commit("printer status", func(tx *recovery.Tx, b *Books[Tickets]) error {
		return b.Log(meters.KindTicketOut, text, detail, args...)
	})
	if err != nil {
		return fmt.Errorf("cabinet: printer status: %w", err)
	}
	d.printer = cond
	return nil
}

// PrinterNotice is the screen's notice of the printer's condition ("" when
// ready or not polled).
func (d *TicketDesk) PrinterNotice() string {
	if d.printer == hw.PrinterReady {
		return ""
	}
	return "printer_" + printerWords[d.printer]
}

// Event handles a printer result or a validation timeout.
func (d *TicketDesk) Event(ev TicketEvent) error {
	if d.led.Cur().Failed && ev.Kind == TicketValidationTimeout {
		return nil // the store is evidence: nothing to pay from
	}
	err := d.ticketEvent(ev)
	// The line's reports after the event's own record (a print result is
	// never held back by a log entry).
	for _, r := range ev.Line {
		err = errors.Join(err, d.led.LineFault(devicePrinter, r))
	}
	return err
}

// ticketEvent handles one TicketEvent's own business.
func (d *TicketDesk) ticketEvent(ev TicketEvent) error {
	switch ev.Kind {
	case TicketPrintResult:
		d.printing = false
		return d.printResult(ev)
	case TicketValidationTimeout:
		if d.led.Cur().Own.cashout == nil || d.led.Cur().Own.cashout.id != ev.Cashout {
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
func (d *TicketDesk) printResult(ev TicketEvent) error {
	if d.led.Cur().Failed {
		d.log.Error("ticket print result during memory error: not recorded (the boot finds it uncertain)", "seq", ev.Seq, "err", ev.Err)
		return nil
	}
	return d.led.Commit("ticket print result", func(tx *recovery.Tx, b *Books[Tickets]) error {
		if ev.Err == nil {
			t, err := tx.TicketPrintDone(ev.Seq)
			if err != nil {
				return err
			}
			b.M.Meters.TicketPrinted(t.Amount)
			b.Own.ticket = &t
			text := fmt.Sprintf("ticket %s of %v printed", t.Validation, t.Amount)
			if ev.Status.PaperLow {
				text += " (printer paper low)"
			}
			return b.Log(meters.KindTicketOut, text, "ticket_printed", meters.TextArg(t.Validation), meters.MoneyArg(t.Amount))
		}
		reason := printReason(ev.Err)
		t, err := tx.TicketPrintFailed(ev.Seq, reason)
		if err != nil {
			return err
		}
		b.Own.ticket = &t
		return b.Log(meters.KindTicketOut, fmt.Sprintf("ticket %s of %v uncertain: %s; the attendant reprints or voids it", t.Validation, t.Amount, reason),
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
func (d *TicketDesk) handpay(reason string, pressed bool) error {
	err := d.led.Commit("cash out", func(tx *recovery.Tx, b *Books[Tickets]) error {
		m := b.M
		m.Handpay, m.HandpayKind = m.Credits, HandpayCashout
		b.Own.cashout, b.Own.reason = nil, ""
		if pressed {
			if err := b.Emit(hostev.Event{Kind: hostev.Cashout}); err != nil {
				return err
			}
		}
		if err := b.Log(meters.KindHandpay, "cash out: handpay "+m.Credits.String(), "cashout_handpay", meters.MoneyArg(m.Credits)); err != nil {
			return err
		}
		if reason == "" || reason == "-" {
			return nil
		}
		b.Own.reason = reason
		return b.Log(meters.KindTicketOut, fmt.Sprintf("cash out %v by handpay, no ticket: %s", m.Credits, reason),
			"ticket_handpay", meters.MoneyArg(m.Credits), meters.KeyArg("tito_reason."+reason))
	})
	if err != nil {
		return fmt.Errorf("cabinet: cash out: %w", err)
	}
	d.cab.ClearBets()
	return nil
}

// HostValidation is the host's LP 58 for the waiting cash-out.
func (d *TicketDesk) HostValidation(v HostValidation) error {
	if d.led.Cur().Failed {
		return nil // the store is evidence: nothing is issued
	}
	w := d.led.Cur().Own.cashout
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

// HostValidationID is the host's LP 4C: the new secure-enhanced state
// (sas.ValidationID.Apply) committed with its event-log entry.
func (d *TicketDesk) HostValidationID(h HostValidationID) error {
	var id ValidationState
	err := d.led.Commit("host validation ID", func(tx *recovery.Tx, b *Books[Tickets]) error {
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
		return b.Log(meters.KindHost, fmt.Sprintf("host: ticket validation ID %06X, sequence %d (LP 4C)", next.MachineID, next.Sequence),
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

// HostValidationRead records that the host read and acknowledged the LP
// 4D validation records of tickets seqs.
func (d *TicketDesk) HostValidationRead(seqs []uint64) error {
	return d.led.Commit("host read validation records", func(tx *recovery.Tx, b *Books[Tickets]) error {
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

// Attendant is the reset key while a ticket is uncertain: alone, the
// ticket is printed again with the same validation number; with the audit
// key on, it is voided and its amount paid by hand.
func (d *TicketDesk) Attendant(auditKey bool) error {
	t := d.led.Cur().Own.ticket
	if auditKey {
		return d.led.Commit("attendant voids ticket", func(tx *recovery.Tx, b *Books[Tickets]) error {
			v, err := tx.TicketVoid(t.Seq)
			if err != nil {
				return err
			}
			b.M.Meters.TicketVoided(v.Amount)
			b.Own.ticket = &v
			return b.Log(meters.KindTicketOut, fmt.Sprintf("ticket %s voided: %v paid by the attendant", v.Validation, v.Amount),
				"ticket_voided", meters.TextArg(v.Validation), meters.MoneyArg(v.Amount))
		})
	}
	if d.cfg == nil || d.cfg.Printer == nil || d.printing {
		return fmt.Errorf("%w: ticket %s", ErrNoReprint, t.Validation)
	}
	var r recovery.TicketOut
	err := d.led.Commit("attendant reprints ticket", func(tx *recovery.Tx, b *Books[Tickets]) error {
		var err error
		if r, err = tx.TicketReprint(t.Seq); err != nil {
			return err
		}
		b.Own.ticket = &r
		return b.Log(meters.KindTicketOut, fmt.Sprintf("ticket %s of %v reprinted by the attendant (same validation number, reprint %d)", r.Validation, r.Amount, r.Reprints),
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
