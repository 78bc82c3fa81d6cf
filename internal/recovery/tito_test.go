package recovery

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"cabinet/internal/money"
	"cabinet/internal/sas"
)

// The caller's side of each transition, as the controller does it: the
// record and the money in one transaction.

func issue(tx *Tx, validation string, amount money.Cents) (TicketOut, error) {
	m, err := tx.Machine()
	if err != nil {
		return TicketOut{}, err
	}
	t, err := tx.IssueTicket(TicketRequest{Validation: validation, Amount: amount})
	if err != nil {
		return TicketOut{}, err
	}
	m.Credits -= t.Amount
	m.Meters.TicketIssued(t.Amount)
	return t, tx.PutMachine(m)
}

func printDone(tx *Tx, seq uint64) (TicketOut, error) {
	m, err := tx.Machine()
	if err != nil {
		return TicketOut{}, err
	}
	t, err := tx.TicketPrintDone(seq)
	if err != nil {
		return TicketOut{}, err
	}
	m.Meters.TicketPrinted(t.Amount)
	return t, tx.PutMachine(m)
}

func void(tx *Tx, seq uint64) (TicketOut, error) {
	m, err := tx.Machine()
	if err != nil {
		return TicketOut{}, err
	}
	t, err := tx.TicketVoid(seq)
	if err != nil {
		return TicketOut{}, err
	}
	m.Meters.TicketVoided(t.Amount)
	return t, tx.PutMachine(m)
}

func stacked(tx *Tx, seq uint64) (TicketIn, error) {
	m, err := tx.Machine()
	if err != nil {
		return TicketIn{}, err
	}
	t, err := tx.TicketStacked(seq)
	if err != nil {
		return TicketIn{}, err
	}
	m.Credits += t.Amount
	m.Meters.TicketRedeemed(t.Amount)
	return t, tx.PutMachine(m)
}

// openCut opens a new store for a test that closes it itself (a power
// cut) and reopens the file.
func openCut(t *testing.T) (*Store, string) {
	t.Helper()
	path := t.TempDir() + "/store.db"
	s, err := Open(path, Options{Init: true, Now: fixedClock()})
	if err != nil {
		t.Fatalf("Open(%s) = %v", path, err)
	}
	return s, path
}

func vn(n uint64) string { v, _ := Validation(0, n); return v }

// update runs fn and fails the test on error.
func update(t *testing.T, s *Store, what string, fn func(tx *Tx) error) {
	t.Helper()
	if err := s.Update(fn); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func ticketsOut(t *testing.T, s *Store) []TicketOut {
	t.Helper()
	var out []TicketOut
	if err := s.View(func(tx *Tx) error {
		var err error
		out, err = tx.TicketsOut(0)
		return err
	}); err != nil {
		t.Fatalf("TicketsOut: %v", err)
	}
	return out
}

func TestTicketOutLifecycle(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	credit(t, s, 5000)
	var tk TicketOut
	update(t, s, "issue", func(tx *Tx) error { var err error; tk, err = issue(tx, vn(1234), 5000); return err })
	if tk.Seq != 1 || tk.Status != TicketPending || tk.Validation != "000000000000001234" {
		t.Fatalf("IssueTicket = %+v, want seq 1 pending 000000000000001234", tk)
	}
	if m := machine(t, s); m.Credits != 0 || m.Meters.TicketsIssued != 5000 {
		t.Fatalf("after issue credits %v issued %v, want 0 and 50.00", m.Credits, m.Meters.TicketsIssued)
	}
	update(t, s, "print done", func(tx *Tx) error { var err error; tk, err = printDone(tx, 1); return err })
	if tk.Status != TicketPrinted || tk.Resolved.IsZero() {
		t.Fatalf("TicketPrintDone = %+v, want printed with a time", tk)
	}
	m := machine(t, s)
	if m.Meters.TicketsOut != 5000 || m.Meters.TicketsOutCount != 1 {
		t.Errorf("tickets out %v (%d), want 50.00 (1)", m.Meters.TicketsOut, m.Meters.TicketsOutCount)
	}
	// A second print done of the same ticket is refused.
	err := s.Update(func(tx *Tx) error { _, err := printDone(tx, 1); return err })
	var te *TransitionError
	if !errors.As(err, &te) || !errors.Is(err, ErrTicketState) || te.From != "printed" {
		t.Errorf("second print done = %v, want a TransitionError from printed", err)
	}
}

// TestTicketOutUncertain: a print that fails (or a power cut) leaves the
// ticket uncertain: no new ticket, no print done; only the attendant
// reprints (same number) or voids it.
func TestTicketOutUncertain(t *testing.T) {
	s, path := openCut(t)
	credit(t, s, 3000)
	update(t, s, "issue", func(tx *Tx) error { _, err := issue(tx, vn(77), 3000); return err })
	credit(t, s, 1000)
	// Another cash-out while the first is pending: refused.
	err := s.Update(func(tx *Tx) error { _, err := issue(tx, vn(78), 1000); return err })
	if !errors.Is(err, ErrTicketUnresolved) || !errors.Is(err, ErrTicketState) {
		t.Fatalf("issue while pending = %v, want ErrTicketUnresolved", err)
	}
	// Power cut mid-print.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{Now: fixedClock()})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	var tk TicketOut
	var ok bool
	update(t, s2, "boot", func(tx *Tx) error { var err error; tk, ok, err = tx.TicketOutAtBoot(); return err })
	if !ok || tk.Status != TicketUncertain || tk.Reason != ReasonPowerCut {
		t.Fatalf("TicketOutAtBoot = %+v, %v; want uncertain (%s)", tk, ok, ReasonPowerCut)
	}
	update(t, s2, "boot again", func(tx *Tx) error { var err error; _, ok, err = tx.TicketOutAtBoot(); return err })
	if ok {
		t.Errorf("TicketOutAtBoot on an uncertain ticket changed it")
	}
	for name, fn := range map[string]func(tx *Tx) error{
		"print done":   func(tx *Tx) error { _, err := printDone(tx, 1); return err },
		"print failed": func(tx *Tx) error { _, err := tx.TicketPrintFailed(1, "paper out"); return err },
		"new ticket":   func(tx *Tx) error { _, err := issue(tx, vn(79), 1000); return err },
	} {
		if err := s2.Update(fn); !errors.Is(err, ErrTicketState) {
			t.Errorf("%s on an uncertain ticket = %v, want ErrTicketState", name, err)
		}
	}
	update(t, s2, "reprint", func(tx *Tx) error { var err error; tk, err = tx.TicketReprint(1); return err })
	if tk.Status != TicketPending || tk.Reprints != 1 || tk.Validation != vn(77) {
		t.Fatalf("TicketReprint = %+v, want pending, 1 reprint, same number", tk)
	}
	update(t, s2, "fail again", func(tx *Tx) error { var err error; tk, err = tx.TicketPrintFailed(1, "paper jam"); return err })
	update(t, s2, "void", func(tx *Tx) error { var err error; tk, err = void(tx, 1); return err })
	if tk.Status != TicketVoided || tk.Reprints != 1 {
		t.Fatalf("TicketVoid = %+v, want voided", tk)
	}
	if err := s2.Update(func(tx *Tx) error { _, err := tx.TicketReprint(1); return err }); !errors.Is(err, ErrTicketState) {
		t.Errorf("reprint of a voided ticket = %v, want ErrTicketState", err)
	}
	// Resolved: the next cash-out is taken.
	update(t, s2, "next", func(tx *Tx) error { _, err := issue(tx, vn(80), 1000); return err })
	m := machine(t, s2)
	if m.Credits != 0 || m.Meters.TicketsVoided != 3000 || m.Meters.TicketsIssued != 4000 {
		t.Errorf("credits %v voided %v issued %v, want 0, 30.00, 40.00", m.Credits, m.Meters.TicketsVoided, m.Meters.TicketsIssued)
	}
	if err := s2.Check(); err != nil {
		t.Errorf("Check = %v", err)
	}
}

// TestTicketOutRefusals: bad input and wrong states change nothing.
func TestTicketOutRefusals(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	credit(t, s, 2000)
	update(t, s, "issue", func(tx *Tx) error { _, err := issue(tx, vn(5), 1000); return err })
	update(t, s, "print", func(tx *Tx) error { _, err := printDone(tx, 1); return err })
	before := ticketsOut(t, s)
	m0 := machine(t, s)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name string
		fn   func(tx *Tx) error
		want error
	}{
		{"zero amount", func(tx *Tx) error { _, err := tx.IssueTicket(TicketRequest{Validation: vn(6)}); return err }, ErrBadTicket},
		{"17 digits", func(tx *Tx) error {
			_, err := tx.IssueTicket(TicketRequest{Validation: "00000000000000001", Amount: 5})
			return err
		}, ErrBadTicket},
		{"letters", func(tx *Tx) error {
			_, err := tx.IssueTicket(TicketRequest{Validation: "00000000000000000x", Amount: 5})
			return err
		}, ErrBadTicket},
		{"expired", func(tx *Tx) error {
			_, err := tx.IssueTicket(TicketRequest{Validation: vn(6), Amount: 5, Expiry: now})
			return err
		}, ErrBadTicket},
		{"number already used", func(tx *Tx) error { _, err := issue(tx, vn(5), 500); return err }, ErrBadTicket},
		{"print done unknown", func(tx *Tx) error { _, err := tx.TicketPrintDone(9); return err }, ErrTicketState},
		{"void printed", func(tx *Tx) error { _, err := tx.TicketVoid(1); return err }, ErrTicketState},
		{"reprint printed", func(tx *Tx) error { _, err := tx.TicketReprint(1); return err }, ErrTicketState},
		{"empty reason", func(tx *Tx) error { _, err := tx.TicketPrintFailed(1, ""); return err }, ErrBadTicket},
		{"debit without a ticket", func(tx *Tx) error {
			m, _ := tx.Machine()
			m.Credits -= 500
			m.Meters.TicketIssued(500)
			return tx.PutMachine(m)
		}, ErrInvariant},
		{"ticket without a debit", func(tx *Tx) error {
			_, err := tx.IssueTicket(TicketRequest{Validation: vn(6), Amount: 500})
			return err
		}, ErrInvariant},
		{"printed meter twice", func(tx *Tx) error {
			m, _ := tx.Machine()
			m.Meters.TicketsIssued += 1000
			m.Meters.TicketsIssuedCount++
			m.Credits -= 1000
			m.Meters.TicketPrinted(1000)
			return tx.PutMachine(m)
		}, ErrInvariant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Update(tt.fn); !errors.Is(err, tt.want) {
				t.Fatalf("Update = %v, want %v", err, tt.want)
			}
			if got := ticketsOut(t, s); !sameJSONTest(got, before) {
				t.Errorf("tickets changed: %+v, want %+v", got, before)
			}
			if got := machine(t, s); !sameJSONTest(got, m0) {
				t.Errorf("machine changed: %+v", got)
			}
		})
	}
}

// TestTicketRingKeepsDepth: the ring keeps the newest TicketDepth tickets,
// and the validation log the newest 31 printed, oldest first.
func TestTicketRingKeepsDepth(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	n := TicketDepth + 5
	for i := 1; i <= n; i++ {
		credit(t, s, 100)
		update(t, s, "cash out", func(tx *Tx) error {
			tk, err := issue(tx, vn(uint64(1000+i)), 100)
			if err != nil {
				return err
			}
			_, err = printDone(tx, tk.Seq)
			return err
		})
	}
	got := ticketsOut(t, s)
	if len(got) != TicketDepth || got[0].Seq != uint64(n) || got[len(got)-1].Seq != uint64(n-TicketDepth+1) {
		t.Fatalf("ring holds %d tickets, %d…%d; want %d, %d…%d", len(got), got[0].Seq, got[len(got)-1].Seq, TicketDepth, n, n-TicketDepth+1)
	}
	var recs []sas.ValidationRecord
	update(t, s, "ack", func(tx *Tx) error { return tx.AckValidationRecord(uint64(n)) })
	if err := s.View(func(tx *Tx) error { var err error; recs, err = tx.ValidationRecords(); return err }); err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	if len(recs) != sas.MaxValidationRecords || last.Seq != uint64(n) || !last.Acked || last.Number != uint64(1000+n) || last.Amount != 100 {
		t.Errorf("ValidationRecords = %d records, last %+v; want 31, the newest acked", len(recs), last)
	}
}

func TestValidationIDPersists(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	v := sas.ValidationID{}.Apply(0x654321, 0)
	v, n, err := v.Next()
	if err != nil || n != 6429188185446104 {
		t.Fatalf("Next = %d, %v", n, err)
	}
	credit(t, s, 500)
	update(t, s, "issue", func(tx *Tx) error {
		if err := tx.PutValidationID(v); err != nil {
			return err
		}
		_, err := issue(tx, vn(n), 500)
		return err
	})
	var got sas.ValidationID
	var id1, id2 uint64
	update(t, s, "read", func(tx *Tx) error {
		var err error
		if got, err = tx.ValidationID(); err != nil {
			return err
		}
		if id1, err = tx.NextCashoutID(); err != nil {
			return err
		}
		id2, err = tx.NextCashoutID()
		return err
	})
	if got != v || id1 != 1 || id2 != 2 {
		t.Errorf("ValidationID = %+v, cash-out IDs %d %d; want %+v, 1 2", got, id1, id2, v)
	}
	if err := s.Update(func(tx *Tx) error { return tx.PutValidationID(sas.ValidationID{MachineID: 1 << 24}) }); !errors.Is(err, ErrBadTicket) {
		t.Errorf("PutValidationID(over 3 bytes) = %v, want ErrBadTicket", err)
	}
}

// host plays the SAS engine's part on the store: LP 70, LP 71, the read
// of the final status, through UpdateRedemption as the engine calls it.
func host(t *testing.T, s *Store, step func(r sas.Redemption) sas.Redemption) error {
	t.Helper()
	return s.Update(func(tx *Tx) error {
		cur, err := tx.Redemption()
		if err != nil {
			return err
		}
		return tx.UpdateRedemption(cur, step(cur))
	})
}

func lp70(r sas.Redemption) sas.Redemption { n, _ := r.Read(); return n }

func lp71(code sas.TransferCode, amount money.Cents) func(r sas.Redemption) sas.Redemption {
	return func(r sas.Redemption) sas.Redemption {
		n, _ := r.Redeem(sas.RedeemRequest{Code: code, Amount: amount, HasNumber: true, Number: r.Number}, 1, 0)
		return n
	}
}

func ticketIn(t *testing.T, s *Store, seq uint64) TicketIn {
	t.Helper()
	var tk TicketIn
	if err := s.View(func(tx *Tx) error {
		ts, err := tx.TicketsIn(0)
		for _, x := range ts {
			if x.Seq == seq {
				tk = x
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return tk
}

func TestTicketInLifecycle(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	v := "01" + "2345678901234567"
	update(t, s, "insert", func(tx *Tx) error { _, err := tx.TicketInserted(v); return err })
	if err := host(t, s, lp70); err != nil {
		t.Fatalf("LP 70: %v", err)
	}
	// Stacked before the host's answer: refused.
	if err := s.Update(func(tx *Tx) error { _, err := stacked(tx, 1); return err }); !errors.Is(err, ErrTicketState) {
		t.Fatalf("stacked before authorisation = %v, want ErrTicketState", err)
	}
	if err := host(t, s, lp71(sas.TransferCashable, 2500)); err != nil {
		t.Fatalf("LP 71: %v", err)
	}
	if tk := ticketIn(t, s, 1); tk.Status != TicketInAuthorised || tk.Amount != 2500 {
		t.Fatalf("after LP 71 %+v, want authorised 25.00", tk)
	}
	// Another ticket while this one is in the validator: refused.
	if err := s.Update(func(tx *Tx) error { _, err := tx.TicketInserted(vn(9)); return err }); !errors.Is(err, ErrTicketState) {
		t.Fatalf("insert while authorised = %v, want ErrTicketState", err)
	}
	// Stacking without crediting is refused at commit.
	if err := s.Update(func(tx *Tx) error { _, err := tx.TicketStacked(1); return err }); !errors.Is(err, ErrInvariant) {
		t.Fatalf("stacked without credit = %v, want ErrInvariant", err)
	}
	update(t, s, "stacked", func(tx *Tx) error { _, err := stacked(tx, 1); return err })
	if m := machine(t, s); m.Credits != 2500 || m.Meters.TicketsIn != 2500 || m.Meters.TicketsInCount != 1 {
		t.Fatalf("credits %v tickets in %v (%d), want 25.00 once", m.Credits, m.Meters.TicketsIn, m.Meters.TicketsInCount)
	}
	// Credited once: a second vend valid is refused.
	if err := s.Update(func(tx *Tx) error { _, err := stacked(tx, 1); return err }); !errors.Is(err, ErrTicketState) {
		t.Fatalf("second stacked = %v, want ErrTicketState", err)
	}
	var r sas.Redemption
	if err := s.View(func(tx *Tx) error { var err error; r, err = tx.Redemption(); return err }); err != nil {
		t.Fatal(err)
	}
	if r.Stage != sas.StageDone || r.Status != sas.RedeemedCashable || r.Cycle != 1 || r.Number != 12345678901234567 {
		t.Fatalf("Redemption = %+v, want done 00 cycle 1", r)
	}
	// The next ticket waits until the host has read the result.
	if err := s.Update(func(tx *Tx) error { _, err := tx.TicketInserted(vn(9)); return err }); !errors.Is(err, ErrTicketState) {
		t.Fatalf("insert before the host read the result = %v, want ErrTicketState", err)
	}
	if err := host(t, s, func(r sas.Redemption) sas.Redemption { return r.Acknowledge() }); err != nil {
		t.Fatal(err)
	}
	// A host rejection: returned with the host's reason.
	update(t, s, "insert 2", func(tx *Tx) error { _, err := tx.TicketInserted(vn(9)); return err })
	if err := host(t, s, lp70); err != nil {
		t.Fatal(err)
	}
	if err := host(t, s, lp71(0x84, 0)); err != nil {
		t.Fatal(err)
	}
	if tk := ticketIn(t, s, 2); tk.Status != TicketInRejected || tk.Reason != "ticket already redeemed" {
		t.Fatalf("rejected ticket %+v, want rejected: ticket already redeemed", tk)
	}
	if err := host(t, s, func(r sas.Redemption) sas.Redemption { return r.Acknowledge() }); err != nil {
		t.Fatal(err)
	}
	// The cabinet returns one (host timeout).
	update(t, s, "insert 3", func(tx *Tx) error { _, err := tx.TicketInserted(vn(10)); return err })
	update(t, s, "return", func(tx *Tx) error { _, err := tx.TicketReturned(3, sas.RedeemTimeout, ""); return err })
	if tk := ticketIn(t, s, 3); tk.Status != TicketInReturned || tk.SASStatus != sas.RedeemTimeout {
		t.Fatalf("returned ticket %+v", tk)
	}
	// The engine's stale or invented records are refused.
	if err := s.Update(func(tx *Tx) error {
		return tx.UpdateRedemption(sas.Redemption{Cycle: 3}, sas.Redemption{Cycle: 3, Stage: sas.StageIdle})
	}); !errors.Is(err, ErrTicketState) {
		t.Errorf("UpdateRedemption from a stale record = %v, want ErrTicketState", err)
	}
	if err := host(t, s, func(r sas.Redemption) sas.Redemption {
		r.Stage, r.Status = sas.StageDone, sas.RedeemedCashable
		return r
	}); !errors.Is(err, ErrTicketState) {
		t.Errorf("engine completing a redemption = %v, want ErrTicketState", err)
	}
	if m := machine(t, s); m.Credits != 2500 {
		t.Errorf("credits %v, want 25.00", m.Credits)
	}
}

// TestResolveAtBoot: every combination of note record and power-up status.
func TestResolveAtBoot(t *testing.T) {
	stacking := &Note{Value: 2000, Status: NoteStacking}
	credited := &Note{Value: 2000, Status: NoteCreditedAwaitingAck}
	tests := []struct {
		rec  *Note
		p    PowerUp
		want NoteAction
	}{
		{nil, PowerUpUnknown, NoteNothing},
		{nil, PowerUpEmpty, NoteNothing},
		{nil, PowerUpBillInAcceptor, NoteNothing},
		{nil, PowerUpBillInStacker, NoteUnknownInStacker},
		{stacking, PowerUpUnknown, NoteWait},
		{stacking, PowerUpEmpty, NoteReturnedToPlayer},
		{stacking, PowerUpBillInAcceptor, NoteReturnedToPlayer},
		{stacking, PowerUpBillInStacker, NoteCredit},
		{credited, PowerUpUnknown, NoteWait},
		{credited, PowerUpEmpty, NoteAlreadyCredited},
		{credited, PowerUpBillInAcceptor, NoteCreditedNotStacked},
		{credited, PowerUpBillInStacker, NoteAlreadyCredited},
		{credited, PowerUp(9), NoteWait},
	}
	for _, tt := range tests {
		name := "none"
		if tt.rec != nil {
			name = string(tt.rec.Status)
		}
		t.Run(fmt.Sprintf("%s/%s", name, tt.p), func(t *testing.T) {
			if got := ResolveAtBoot(tt.rec, tt.p); got != tt.want {
				t.Errorf("ResolveAtBoot(%v, %v) = %v, want %v", tt.rec, tt.p, got, tt.want)
			}
		})
	}
}

func TestResolveTicketInAtBoot(t *testing.T) {
	escrow := &TicketIn{Seq: 1, Status: TicketInEscrow, Stage: sas.StageWaiting, SASStatus: sas.RedeemWaiting, Code: sas.TransferStatus}
	auth := &TicketIn{Seq: 1, Status: TicketInAuthorised, Amount: 100, Stage: sas.StagePending, SASStatus: sas.RedeemPending}
	done := &TicketIn{Seq: 1, Status: TicketInStacked, Amount: 100, Stage: sas.StageDone, SASStatus: sas.RedeemedCashable}
	tests := []struct {
		t    *TicketIn
		p    PowerUp
		want TicketInAction
	}{
		{nil, PowerUpBillInStacker, TicketInNothing},
		{done, PowerUpBillInStacker, TicketInNothing},
		{done, PowerUpUnknown, TicketInNothing},
		{escrow, PowerUpUnknown, TicketInWait},
		{escrow, PowerUpEmpty, TicketInReturn},
		{escrow, PowerUpBillInAcceptor, TicketInReturn},
		{escrow, PowerUpBillInStacker, TicketInUnauthorisedInStacker},
		{auth, PowerUpUnknown, TicketInWait},
		{auth, PowerUpEmpty, TicketInReturn},
		{auth, PowerUpBillInAcceptor, TicketInReturn},
		{auth, PowerUpBillInStacker, TicketInCredit},
	}
	for _, tt := range tests {
		if got := ResolveTicketInAtBoot(tt.t, tt.p); got != tt.want {
			t.Errorf("ResolveTicketInAtBoot(%+v, %v) = %v, want %v", tt.t, tt.p, got, tt.want)
		}
	}
}

// noteCredit is the caller's credit of a note.
func noteCredit(tx *Tx, v money.Cents) error {
	m, err := tx.Machine()
	if err != nil {
		return err
	}
	m.Credits += v
	m.Meters.BillsIn += v
	return tx.PutMachine(m)
}

// TestNoteExactlyOnceAcrossPowerCut: the record written at each step and
// the power-up status decide the credit after a real close and reopen.
func TestNoteExactlyOnceAcrossPowerCut(t *testing.T) {
	tests := []struct {
		name       string
		steps      int // 1: stacking recorded; 2: vend valid credited; 3: stacked (record gone)
		p          PowerUp
		wantCredit money.Cents
		want       NoteAction
	}{
		{"cut after stack command, note in stacker", 1, PowerUpBillInStacker, 2000, NoteCredit},
		{"cut after stack command, note returned", 1, PowerUpBillInAcceptor, 0, NoteReturnedToPlayer},
		{"cut after credit before ACK", 2, PowerUpBillInStacker, 2000, NoteAlreadyCredited},
		{"cut after credit, validator done", 2, PowerUpEmpty, 2000, NoteAlreadyCredited},
		{"cut after stacked", 3, PowerUpEmpty, 2000, NoteNothing},
		// Silent at boot: the record waits; the second boot's 42h credits it.
		{"validator silent", 1, PowerUpUnknown, 2000, NoteWait},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, path := openCut(t)
			update(t, s, "stacking", func(tx *Tx) error { return tx.NoteStacking(2000) })
			if tt.steps >= 2 {
				update(t, s, "vend valid", func(tx *Tx) error {
					v, err := tx.NoteCredited()
					if err != nil {
						return err
					}
					return noteCredit(tx, v)
				})
			}
			if tt.steps >= 3 {
				update(t, s, "stacked", func(tx *Tx) error { return tx.NoteDone() })
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s2, err := Open(path, Options{Now: fixedClock()})
			if err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			var a NoteAction
			update(t, s2, "boot", func(tx *Tx) error {
				var n *Note
				var err error
				if a, n, err = tx.ResolveNoteAtBoot(tt.p); err != nil || a != NoteCredit {
					return err
				}
				return noteCredit(tx, n.Value)
			})
			if a != tt.want {
				t.Errorf("ResolveNoteAtBoot(%v) = %v, want %v", tt.p, a, tt.want)
			}
			// A second boot never credits again.
			update(t, s2, "boot again", func(tx *Tx) error {
				a2, n, err := tx.ResolveNoteAtBoot(PowerUpBillInStacker)
				if err == nil && a2 == NoteCredit {
					return noteCredit(tx, n.Value)
				}
				return err
			})
			if m := machine(t, s2); m.Credits != tt.wantCredit {
				t.Errorf("credits %v, want %v", m.Credits, tt.wantCredit)
			}
			if err := s2.Check(); err != nil {
				t.Errorf("Check = %v", err)
			}
		})
	}
}

func TestNoteRefusals(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	for name, fn := range map[string]func(tx *Tx) error{
		"vend valid with no note": func(tx *Tx) error { _, err := tx.NoteCredited(); return err },
		"stacked with no note":    func(tx *Tx) error { return tx.NoteDone() },
		"returned with no note":   func(tx *Tx) error { return tx.NoteReturned() },
	} {
		if err := s.Update(fn); !errors.Is(err, ErrTicketState) {
			t.Errorf("%s = %v, want ErrTicketState", name, err)
		}
	}
	if err := s.Update(func(tx *Tx) error { return tx.NoteStacking(0) }); !errors.Is(err, ErrBadTicket) {
		t.Errorf("NoteStacking(0) = %v, want ErrBadTicket", err)
	}
	update(t, s, "stacking", func(tx *Tx) error { return tx.NoteStacking(500) })
	if err := s.Update(func(tx *Tx) error { return tx.NoteStacking(1000) }); !errors.Is(err, ErrTicketState) {
		t.Errorf("second NoteStacking = %v, want ErrTicketState", err)
	}
	if err := s.Update(func(tx *Tx) error { return tx.NoteDone() }); !errors.Is(err, ErrTicketState) {
		t.Errorf("stacked before vend valid = %v, want ErrTicketState", err)
	}
	update(t, s, "returned", func(tx *Tx) error { return tx.NoteReturned() })
	var n *Note
	if err := s.View(func(tx *Tx) error { var err error; n, err = tx.Note(); return err }); err != nil || n != nil {
		t.Errorf("Note after return = %v, %v; want none", n, err)
	}
}

// TestTicketInAtBoot: an authorised ticket whose stack was not confirmed
// before the cut, resolved from the power-up status, on a real reopen.
func TestTicketInAtBoot(t *testing.T) {
	for _, p := range []PowerUp{PowerUpEmpty, PowerUpBillInAcceptor, PowerUpBillInStacker, PowerUpUnknown} {
		t.Run(p.String(), func(t *testing.T) {
			s, path := openCut(t)
			update(t, s, "insert", func(tx *Tx) error { _, err := tx.TicketInserted(vn(42)); return err })
			if err := host(t, s, lp70); err != nil {
				t.Fatal(err)
			}
			if err := host(t, s, lp71(sas.TransferCashable, 1500)); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s2, err := Open(path, Options{Now: fixedClock()})
			if err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			boot := func() TicketInAction {
				var a TicketInAction
				update(t, s2, "boot", func(tx *Tx) error {
					var tk TicketIn
					var err error
					if a, tk, err = tx.TicketInAtBoot(p); err != nil || a != TicketInCredit {
						return err
					}
					m, err := tx.Machine()
					if err != nil {
						return err
					}
					m.Credits += tk.Amount
					m.Meters.TicketRedeemed(tk.Amount)
					return tx.PutMachine(m)
				})
				return a
			}
			a := boot()
			want := map[PowerUp]TicketInAction{PowerUpEmpty: TicketInReturn, PowerUpBillInAcceptor: TicketInReturn,
				PowerUpBillInStacker: TicketInCredit, PowerUpUnknown: TicketInWait}[p]
			if a != want {
				t.Fatalf("TicketInAtBoot(%v) = %v, want %v", p, a, want)
			}
			if a2 := boot(); a2 != TicketInNothing && p != PowerUpUnknown {
				t.Errorf("second boot = %v, want nothing", a2)
			}
			wantCredits := money.Cents(0)
			if p == PowerUpBillInStacker {
				wantCredits = 1500
			}
			if m := machine(t, s2); m.Credits != wantCredits {
				t.Errorf("credits %v, want %v", m.Credits, wantCredits)
			}
			if tk := ticketIn(t, s2, 1); p != PowerUpUnknown && tk.Unresolved() {
				t.Errorf("ticket still %s", tk.Status)
			}
			if err := s2.Check(); err != nil {
				t.Errorf("Check = %v", err)
			}
		})
	}
}

// TestProvenFollowsTickets: the SAS link's in-memory view (Proven) carries
// the redemption and the validation records of the last commit that
// changed them, as a read transaction sees them.
func TestProvenFollowsTickets(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	if _, err := s.Proven(); err != nil { // filled: later commits publish
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		got, err := s.Proven()
		if err != nil {
			t.Fatal(err)
		}
		var red sas.Redemption
		var val []sas.ValidationRecord
		if err := s.View(func(tx *Tx) error {
			var err error
			if red, err = tx.Redemption(); err != nil {
				return err
			}
			val, err = tx.ValidationRecords()
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got.Redemption != red || !sameJSONTest(got.Validation, val) {
			t.Fatalf("%s: Proven has %+v %+v, the store %+v %+v", when, got.Redemption, got.Validation, red, val)
		}
	}
	credit(t, s, 1500)
	update(t, s, "issue", func(tx *Tx) error { _, err := issue(tx, vn(7), 1500); return err })
	update(t, s, "print", func(tx *Tx) error { _, err := printDone(tx, 1); return err })
	check("after print")
	if got, _ := s.Proven(); len(got.Validation) != 1 || got.Validation[0].Acked {
		t.Fatalf("Proven validation records %+v, want one unread", got.Validation)
	}
	update(t, s, "host read", func(tx *Tx) error { return tx.AckValidationRecord(1) })
	check("after the host read it")
	update(t, s, "insert", func(tx *Tx) error { _, err := tx.TicketInserted(vn(8)); return err })
	check("after insert")
	if err := host(t, s, lp70); err != nil {
		t.Fatal(err)
	}
	check("after LP 70")
	if got, _ := s.Proven(); got.Redemption.Stage != sas.StageWaiting {
		t.Fatalf("Proven redemption %+v, want waiting", got.Redemption)
	}
}
