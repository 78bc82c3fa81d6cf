package recovery

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"cabinet/internal/meters"
)

// checkTickets verifies the ticket records against the machine's ticket
// meters: every total of tito/state equals its meter (so no ticket is
// credited without TicketStacked, nor debited without IssueTicket, nor
// twice), and what the meters say is outstanding is the open ticket out's
// amount. Update runs it before committing a transaction that wrote the
// machine or a ticket record; Check at boot. The error wraps ErrInvariant.
func (tx *Tx) checkTickets() error {
	st, err := tx.titoState()
	if err != nil {
		return err
	}
	mt := (*meters.Meters)(nil)
	if tx.machine != nil { // read only: no copy on the commit path
		mt = &tx.machine.Meters
	} else {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		mt = &m.Meters
	}
	var bad []string
	cmp := func(name string, meter, rec int64) {
		if meter != rec {
			bad = append(bad, fmt.Sprintf("%s: meter %d, records %d", name, meter, rec))
		}
	}
	cmp("tickets_issued", int64(mt.TicketsIssued), int64(st.Issued))
	cmp("tickets_issued_count", mt.TicketsIssuedCount, st.IssuedCount)
	cmp("tickets_out", int64(mt.TicketsOut), int64(st.Printed))
	cmp("tickets_out_count", mt.TicketsOutCount, st.PrintedCount)
	cmp("tickets_voided", int64(mt.TicketsVoided), int64(st.Voided))
	cmp("tickets_voided_count", mt.TicketsVoidedCount, st.VoidedCount)
	cmp("tickets_in", int64(mt.TicketsIn), int64(st.In))
	cmp("tickets_in_count", mt.TicketsInCount, st.InCount)
	outstanding, n := mt.TicketsOutstanding()
	if st.OpenOut == 0 {
		if outstanding != 0 || n != 0 {
			bad = append(bad, fmt.Sprintf("%v in %d ticket(s) outstanding with no ticket pending or uncertain", outstanding, n))
		}
	} else {
		t, ok, err := tx.ticketOut(st.OpenOut)
		switch {
		case err != nil:
			return err
		case !ok:
			bad = append(bad, fmt.Sprintf("open ticket out %d not in the ring", st.OpenOut))
		case !t.Unresolved():
			bad = append(bad, fmt.Sprintf("open ticket out %d is %s", t.Seq, t.Status))
		case t.Amount != outstanding || n != 1:
			bad = append(bad, fmt.Sprintf("open ticket out %d of %v, meters say %v in %d ticket(s) outstanding", t.Seq, t.Amount, outstanding, n))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: ticket meters and ticket records disagree: %s", ErrInvariant, strings.Join(bad, "; "))
	}
	return nil
}

// checkTITO verifies the ticket and note buckets record by record (Check):
// envelopes, keys, statuses, validation numbers, amounts, the open tickets
// named by tito/state and nothing unresolved besides them, then the meters
// against the records (checkTickets).
func checkTITO(tx *Tx, machineOK bool, add func(error)) {
	ttx := tx.tx
	var st titoState
	stOK := true
	if b := ttx.Bucket(bTITO); b != nil {
		_ = b.ForEach(func(k, raw []byte) error {
			switch {
			case raw == nil:
				add(corrupt(bTITO, k, "unexpected nested bucket"))
			case bytes.Equal(k, kTITOState):
				if err := decode(bTITO, k, raw, &st); err != nil {
					stOK = false
					add(err)
				}
			case bytes.Equal(k, kTITONote):
				var n Note
				if err := decode(bTITO, k, raw, &n); err != nil {
					add(err)
				} else if n.Value <= 0 || (n.Status != NoteStacking && n.Status != NoteCreditedAwaitingAck) {
					add(corrupt(bTITO, k, "note of %v in status %q", n.Value, n.Status))
				}
			default:
				add(corrupt(bTITO, k, "unexpected key"))
			}
			return nil
		})
	}
	ring := func(bucket []byte, next, open uint64, rec func(k, raw []byte) (seq uint64, unresolved bool, err error)) {
		b := ttx.Bucket(bucket)
		if b == nil {
			return
		}
		var prev uint64
		_ = b.ForEach(func(k, raw []byte) error {
			if raw == nil {
				add(corrupt(bucket, k, "unexpected nested bucket"))
				return nil
			}
			if len(k) != 8 {
				add(corrupt(bucket, k, "ring key is not an 8-byte sequence number"))
				return nil
			}
			n := binary.BigEndian.Uint64(k)
			if n <= prev {
				add(corrupt(bucket, k, "sequence %d after %d", n, prev))
			}
			prev = n
			seq, unresolved, err := rec(k, raw)
			switch {
			case err != nil:
				add(err)
			case seq != n:
				add(corrupt(bucket, k, "record says sequence %d", seq))
			case stOK && n > next:
				add(corrupt(bucket, k, "ticket %d after the last one numbered, %d", n, next))
			case stOK && unresolved != (n == open):
				add(corrupt(bucket, k, "ticket %d unresolved %v, the open ticket is %d", n, unresolved, open))
			}
			return nil
		})
	}
	ring(bTicketsOut, st.NextOut, st.OpenOut, func(k, raw []byte) (uint64, bool, error) {
		var t TicketOut
		if err := decode(bTicketsOut, k, raw, &t); err != nil {
			return 0, false, err
		}
		if err := checkValidation(t.Validation); err != nil {
			return 0, false, corrupt(bTicketsOut, k, "%v", err)
		}
		switch t.Status {
		case TicketPending, TicketUncertain, TicketPrinted, TicketVoided:
		default:
			return 0, false, corrupt(bTicketsOut, k, "unknown status %q", t.Status)
		}
		if t.Amount <= 0 || t.Reprints < 0 {
			return 0, false, corrupt(bTicketsOut, k, "amount %v, reprints %d", t.Amount, t.Reprints)
		}
		return t.Seq, t.Unresolved(), nil
	})
	ring(bTicketsIn, st.NextIn, st.OpenIn, func(k, raw []byte) (uint64, bool, error) {
		var t TicketIn
		if err := decode(bTicketsIn, k, raw, &t); err != nil {
			return 0, false, err
		}
		if err := checkValidation(t.Validation); err != nil {
			return 0, false, corrupt(bTicketsIn, k, "%v", err)
		}
		if r := t.Redemption(); t.Status != ticketInStatus(r) {
			return 0, false, corrupt(bTicketsIn, k, "status %q at redemption %s", t.Status, r.State())
		}
		if t.Status == TicketInStacked && t.Amount <= 0 {
			return 0, false, corrupt(bTicketsIn, k, "stacked for %v", t.Amount)
		}
		return t.Seq, t.Unresolved(), nil
	})
	if stOK && st.OpenIn != 0 {
		if b := ttx.Bucket(bTicketsIn); b == nil || b.Get(seqKey(st.OpenIn)) == nil {
			add(corrupt(bTITO, kTITOState, "open ticket in %d not in the ring", st.OpenIn))
		}
	}
	if stOK && machineOK {
		add(tx.checkTickets())
	}
}
