package tcl

import (
	"errors"
	"fmt"

	"cabinet/internal/hw"
	"cabinet/internal/money"
	"cabinet/internal/serial"
)

// Device is a printer as the cabinet speaks of it (hw.TicketPrinter): a
// cash-out ticket of its own fields printed under Heading, and the
// printer's status as a condition. TCL's flags and stages stay here.
type Device struct {
	P *Printer
	// Heading is what every ticket carries besides its own fields:
	// Currency, Lang, Casino, Address1, Address2, Machine, Asset,
	// ExpiryDays.
	Heading Ticket
}

var _ hw.TicketPrinter = Device{}

// Print prints t under the heading. A failure's text is the attendant's
// record: the printer's condition and how far the print got.
func (d Device) Print(t hw.TicketOut) (hw.PrinterStatus, error) {
	tk := d.Heading
	tk.Validation, tk.Amount, tk.Issued, tk.Number = t.Validation, t.Amount, t.Issued, t.Number
	st, err := d.P.Print(tk)
	var pe *PrintError
	if errors.As(err, &pe) {
		err = fmt.Errorf("%v (%s)", pe.Err, pe.Stage)
	}
	return Condition(st, nil), err
}

// Status asks the printer's status.
func (d Device) Status() (hw.PrinterStatus, error) {
	st, err := d.P.Status()
	return Condition(st, err), err
}

// LineFaults are the printer line's fault reports since the last call
// (Printer.LineFaults).
func (d Device) LineFaults() []serial.FaultReport { return d.P.LineFaults() }

// Max is MaxAmount.
func (Device) Max() money.Cents { return MaxAmount }

// faults are the status flags that stop a print besides paper out (the
// refusal before the print command). A power-up reset, lost template data
// and journal mode are not: Print reloads the template.
const faults = PaperJam | HeadUp | ChassisOpen | Offline | SystemError | HeadError |
	VoltageError | TemperatureError | CutterError | LibraryLoadError | BufferOverflow |
	JobMemoryOverflow | CommandError | LibrariesCorrupt | FlashError | MissingSupplyIndex

// Condition is the condition a status request found: no answer (err),
// paper out, another fault (with its flags), paper low, or ready. Paper
// out comes first: it has its own SAS exception (61).
func Condition(st Status, err error) hw.PrinterStatus {
	s := hw.PrinterStatus{PaperLow: err == nil && st.Has(PaperLow)}
	switch {
	case err != nil:
		s.Cond = hw.PrinterNoAnswer
	case st.Has(PaperOut):
		s.Cond = hw.PrinterPaperOut
	case st.Flags&faults != 0:
		s.Cond, s.Faults = hw.PrinterFault, (st.Flags & faults).String()
	case st.Has(PaperLow):
		s.Cond = hw.PrinterPaperLow
	}
	return s
}
