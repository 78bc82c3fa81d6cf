package auditcmd

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// ticketsOut is `cabinet audit tickets --json`.
type ticketsOut struct {
	Store string `json:"store"`
	// Meters are the ticket meters (amounts in cents, counts).
	Meters []meters.Line `json:"meters"`
	// Outstanding is the amount of the ticket out being printed or
	// waiting for the attendant (0: none).
	Outstanding money.Cents          `json:"outstanding"`
	Out         []recovery.TicketOut `json:"tickets_out"`
	In          []recovery.TicketIn  `json:"tickets_in"`
	// Note is the note between escrow and stacked (ID-003), if any.
	Note *recovery.Note `json:"note,omitempty"`
}

// ticketMeters are the ticket lines of the meters, in Lines order.
func ticketMeters(m *meters.Meters) []meters.Line {
	var out []meters.Line
	for _, l := range m.Lines() {
		if strings.HasPrefix(l.Name, "tickets_") {
			out = append(out, l)
		}
	}
	return out
}

func (o *options) tickets(st *recovery.Store) error {
	out := ticketsOut{Store: o.store, Out: []recovery.TicketOut{}, In: []recovery.TicketIn{}}
	if err := st.View(func(tx *recovery.Tx) error {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		out.Meters = ticketMeters(&m.Meters)
		out.Outstanding, _ = m.Meters.TicketsOutstanding()
		tout, err := tx.TicketsOut(o.n)
		if err != nil {
			return err
		}
		tin, err := tx.TicketsIn(o.n)
		if err != nil {
			return err
		}
		out.Out, out.In = append(out.Out, tout...), append(out.In, tin...)
		out.Note, err = tx.Note()
		return err
	}); err != nil {
		return fmt.Errorf("audit: tickets of %s: %w", o.store, err)
	}
	switch {
	case o.json:
		return writeJSON(o.stdout, out)
	case o.csv:
		rows := [][]string{{"direction", "seq", "validation", "amount", "time", "status", "reason", "reprints", "resolved"}}
		for _, t := range out.Out {
			rows = append(rows, []string{"out", strconv.FormatUint(t.Seq, 10), t.Validation, t.Amount.String(),
				t.Created.Format(time.RFC3339), string(t.Status), t.Reason, strconv.Itoa(t.Reprints), rfc3339(t.Resolved)})
		}
		for _, t := range out.In {
			rows = append(rows, []string{"in", strconv.FormatUint(t.Seq, 10), t.Validation, t.Amount.String(),
				t.Inserted.Format(time.RFC3339), string(t.Status), t.Reason, "", rfc3339(t.Resolved)})
		}
		return writeCSV(o.stdout, rows)
	}
	fmt.Fprintf(o.stdout, "store %s\n", o.store)
	tw := tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, l := range out.Meters {
		fmt.Fprintf(tw, "%s\t%s\t\n", l.Name, formatValue(l))
	}
	fmt.Fprintf(tw, "outstanding\t%s\t\n", out.Outstanding)
	if err := tw.Flush(); err != nil {
		return err
	}
	if out.Note != nil {
		fmt.Fprintf(o.stdout, "note in the validator: %s %s since %s\n", out.Note.Value, out.Note.Status, out.Note.At.Format(time.DateTime))
	}
	tw = tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\ntickets out\n")
	if len(out.Out) == 0 {
		fmt.Fprintln(tw, "none")
	} else {
		fmt.Fprintln(tw, "seq\tvalidation\tamount\ttime\tstatus\treprints\treason")
	}
	for _, t := range out.Out {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\n", t.Seq, t.Validation, t.Amount, t.Created.Format(time.DateTime),
			t.Status, t.Reprints, t.Reason)
	}
	fmt.Fprintf(tw, "\ntickets in\n")
	if len(out.In) == 0 {
		fmt.Fprintln(tw, "none")
	} else {
		fmt.Fprintln(tw, "seq\tvalidation\tamount\ttime\tstatus\treason")
	}
	for _, t := range out.In {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", t.Seq, t.Validation, t.Amount, t.Inserted.Format(time.DateTime), t.Status, t.Reason)
	}
	return tw.Flush()
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}
