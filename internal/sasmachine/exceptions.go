package sasmachine

import (
	"cabinet/internal/controller"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
)

// Exceptions is the one table from the events the controller emits to the
// SAS exceptions they raise, wired as controller.Options.Exceptions: the
// controller queues the codes in the transaction that commits the event,
// so a power cut can neither lose nor invent one. A round's start and end,
// the game selected and a bill jam have their codes; a logged event is
// mapped by its kind, detail and arguments (loggedCodes).
func Exceptions(e controller.HostEvent) []byte {
	switch e.Kind {
	case controller.HostGameStarted:
		return []byte{exGameStarted}
	case controller.HostGameEnded:
		return []byte{exGameEnded}
	case controller.HostGameSelected:
		return []byte{exGameSelected}
	case controller.HostBillJam:
		return []byte{exBillJam}
	case controller.HostCashout:
		return []byte{exCashout}
	case controller.HostStackerRemoved:
		return []byte{exCashboxRemoved}
	case controller.HostStackerInstalled:
		return []byte{exCashboxInstalled}
	case controller.HostStackerFull:
		return []byte{exCashboxFull}
	case controller.HostValidatorFailure:
		return []byte{exBillAcceptorFailure}
	case controller.HostLogged:
		return loggedCodes(e.Log)
	}
	return nil
}

// SAS exception codes the cabinet raises (SAS 6.02 Appendix A). Handpay
// pending (51) is a priority exception derived from the machine record by
// the SAS link, not queued; memory error (34) likewise, since a store in
// error is not written.
const (
	exSlotDoorOpen   = 0x11
	exSlotDoorClosed = 0x12
	exPowerUp        = 0x17
	exPowerLost      = 0x18
	exCashDoorOpen   = 0x19
	exCashDoorClosed = 0x1A
	exCashboxRemoved = 0x1B // the note validator's stacker removed (ID-003 stacker open)
	// 1C: cash box installed (the stacker back), 27: cash box full, 29:
	// bill acceptor hardware failure (a validator failure, a fraud attempt,
	// a validator that stopped answering).
	exCashboxInstalled    = 0x1C
	exCashboxFull         = 0x27
	exBillJam             = 0x28
	exBillAcceptorFailure = 0x29
	exBillRejected        = 0x2B
	exOptionsChanged      = 0x3C
	exBillAccepted        = 0x4F // a bill with no code of its own (billAccepted)
	exHandpayReset        = 0x52
	exPrinterCommError    = 0x60 // printer communication error
	exPrinterPaperOut     = 0x61 // printer paper out
	exCashout             = 0x66
	exPrinterPaperLow     = 0x74 // printer paper low
	exGameStarted         = 0x7E
	exGameEnded           = 0x7F
	exAttendantIn         = 0x82
	exAttendantOut        = 0x83
	exOperatorIn          = 0x84
	exOperatorOut         = 0x85
	exRecall              = 0x8A
	exGameSelected        = 0x8C
)

// billAcceptedCodes are the bill accepted exceptions by the bill's value in
// whole currency units (SAS 6.02 Appendix A, non-RTE: 47–4E and 50; Monaco's
// SasBillException the same); any other bill is 4F. The cabinet reports in
// non-RTE mode (it advertises no RTE in A0).
var billAcceptedCodes = map[money.Cents]byte{
	100: 0x47, 500: 0x48, 1000: 0x49, 2000: 0x4A, 5000: 0x4B, 10000: 0x4C, 200: 0x4D, 50000: 0x4E, 20000: 0x50,
}

// billAccepted is the exception of a bill accepted event: by its value
// (the event's money argument), 4F where the value has no code.
func billAccepted(e meters.Event) byte {
	for _, a := range e.Args {
		if a.Type != meters.ArgMoney {
			continue
		}
		if v, err := money.Parse(a.Value); err == nil {
			if code, ok := billAcceptedCodes[v]; ok {
				return code
			}
		}
	}
	return exBillAccepted
}

// loggedCodes maps a logged event to the exceptions it raises. Power up raises
// 18 (AC power lost) then 17 (applied): the cabinet has no power-fail
// detector, so the loss is reported at the next boot (decided; every boot
// follows a power loss or a restart, both of which a host must hear of).
// The audit key is the attendant's menu (82/83), the operator key the
// operator's (84/85; a refused turn opens no menu).
func loggedCodes(e meters.Event) []byte {
	sw := ""
	if len(e.Args) > 0 {
		sw = e.Args[0].Value
	}
	switch e.Kind {
	case meters.KindPowerUp:
		return []byte{exPowerLost, exPowerUp}
	case meters.KindDoor:
		switch {
		case sw == hw.MainDoor.String() && e.Detail == "switch_opened":
			return []byte{exSlotDoorOpen}
		case sw == hw.MainDoor.String() && e.Detail == "switch_closed":
			return []byte{exSlotDoorClosed}
		case sw == hw.CashDoor.String() && e.Detail == "switch_opened":
			return []byte{exCashDoorOpen}
		case sw == hw.CashDoor.String() && e.Detail == "switch_closed":
			return []byte{exCashDoorClosed}
		}
	case meters.KindKey:
		switch {
		case sw == hw.AuditKey.String() && e.Detail == "switch_on":
			return []byte{exAttendantIn}
		case sw == hw.AuditKey.String() && e.Detail == "switch_off":
			return []byte{exAttendantOut}
		case sw == hw.OperatorKey.String() && e.Detail == "switch_on":
			return []byte{exOperatorIn}
		case sw == hw.OperatorKey.String() && e.Detail == "switch_off":
			return []byte{exOperatorOut}
		}
	case meters.KindBillAccepted:
		return []byte{billAccepted(e)}
	case meters.KindBillRefused:
		return []byte{exBillRejected}
	case meters.KindTilt:
		if e.Detail == "bill_jam" {
			return []byte{exBillJam}
		}
	case meters.KindHandpayClear:
		return []byte{exHandpayReset}
	case meters.KindConfigChange:
		if e.Detail != "pool_set" {
			return []byte{exOptionsChanged}
		}
	case meters.KindRecall:
		return []byte{exRecall}
	case meters.KindTicketOut:
		// The ticket printer's condition between tickets, logged once
		// per change (internal/desk tickets.go): paper out 61; a fault (head
		// open, jam, offline, an error flag) or no answer 60, the only
		// other printer failure SAS names that covers them; paper low 74.
		switch e.Detail {
		case "printer_paper_out":
			return []byte{exPrinterPaperOut}
		case "printer_fault", "printer_no_answer":
			return []byte{exPrinterCommError}
		case "printer_paper_low":
			return []byte{exPrinterPaperLow}
		}
	}
	return nil
}
