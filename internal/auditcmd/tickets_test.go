package auditcmd

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/sas"
)

// ticketStore writes a store with a ticket out printed, one uncertain
// (power cut mid-print), a ticket in stacked and one the host rejected.
func ticketStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cab.db")
	s, err := recovery.Open(path, recovery.Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	step := func(what string, fn func(tx *recovery.Tx, m *recovery.Machine) error) {
		t.Helper()
		if err := s.Update(func(tx *recovery.Tx) error {
			m, err := tx.Machine()
			if err != nil {
				return err
			}
			if err := fn(tx, &m); err != nil {
				return err
			}
			return tx.PutMachine(m)
		}); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	cashOut := func(number uint64, amount money.Cents) recovery.TicketOut {
		var tk recovery.TicketOut
		step("cash out", func(tx *recovery.Tx, m *recovery.Machine) error {
			m.Credits += amount
			m.Meters.BillsIn += amount
			v, err := recovery.Validation(0, number)
			if err != nil {
				return err
			}
			if tk, err = tx.IssueTicket(recovery.TicketRequest{Validation: v, Amount: amount}); err != nil {
				return err
			}
			m.Credits -= amount
			m.Meters.TicketIssued(amount)
			return nil
		})
		return tk
	}
	tk := cashOut(6429188185446104, 2500)
	step("printed", func(tx *recovery.Tx, m *recovery.Machine) error {
		_, err := tx.TicketPrintDone(tk.Seq)
		m.Meters.TicketPrinted(tk.Amount)
		return err
	})
	tk = cashOut(1234, 1000)
	step("cut", func(tx *recovery.Tx, m *recovery.Machine) error { _, _, err := tx.TicketOutAtBoot(); return err })
	redeem := func(number uint64, code sas.TransferCode, amount money.Cents) {
		v, _ := recovery.Validation(1, number)
		step("insert", func(tx *recovery.Tx, m *recovery.Machine) error { _, err := tx.TicketInserted(v); return err })
		host := func(next func(sas.Redemption) sas.Redemption) {
			step("host", func(tx *recovery.Tx, m *recovery.Machine) error {
				r, err := tx.Redemption()
				if err != nil {
					return err
				}
				return tx.UpdateRedemption(r, next(r))
			})
		}
		host(func(r sas.Redemption) sas.Redemption { n, _ := r.Read(); return n })
		host(func(r sas.Redemption) sas.Redemption {
			n, _ := r.Redeem(sas.RedeemRequest{Code: code, Amount: amount, HasNumber: true, Number: r.Number}, 1, 0)
			return n
		})
		if !code.Rejected() {
			step("stacked", func(tx *recovery.Tx, m *recovery.Machine) error {
				tin, err := tx.TicketStacked(1)
				m.Credits += tin.Amount
				m.Meters.TicketRedeemed(tin.Amount)
				return err
			})
		}
		host(func(r sas.Redemption) sas.Redemption { return r.Acknowledge() })
	}
	redeem(42, sas.TransferCashable, 700)
	redeem(43, 0x85, 0)
	return path
}

func TestTickets(t *testing.T) {
	path := ticketStore(t)
	out, err := run(t, "--store", path, "tickets")
	if err != nil {
		t.Fatalf("tickets = %v", err)
	}
	words := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"tickets_out 25.00", "tickets_issued_count 2", "tickets_in 7.00", "outstanding 10.00",
		"1 006429188185446104 25.00", "2 000000000000001234 10.00", "uncertain 0 power cut while printing",
		"1 010000000000000042 7.00", "stacked", "rejected ticket expired",
	} {
		if !strings.Contains(words, want) {
			t.Errorf("tickets output lacks %q:\n%s", want, out)
		}
	}
	// N limits each list to the newest N.
	out, err = run(t, "--store", path, "tickets", "1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "006429188185446104") || !strings.Contains(out, "000000000000001234") || strings.Contains(out, "010000000000000042") {
		t.Errorf("tickets 1 shows more than the newest of each:\n%s", out)
	}
}

func TestTicketsJSONAndCSV(t *testing.T) {
	path := ticketStore(t)
	out, err := run(t, "--store", path, "tickets", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got ticketsOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("JSON %q: %v", out, err)
	}
	if len(got.Out) != 2 || got.Out[0].Status != recovery.TicketUncertain || got.Outstanding != 1000 ||
		len(got.In) != 2 || got.In[1].Status != recovery.TicketInStacked || got.In[1].Amount != 700 {
		t.Errorf("JSON = %+v", got)
	}
	out, err = run(t, "--store", path, "tickets", "--csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v", err)
	}
	if len(rows) != 5 || rows[0][0] != "direction" || rows[1][0] != "out" || rows[1][5] != "uncertain" ||
		rows[4][2] != "010000000000000042" || rows[4][3] != "7.00" || rows[4][5] != "stacked" {
		t.Errorf("CSV rows = %q", rows)
	}
}

func TestTicketsEmptyAndBadArgs(t *testing.T) {
	path := makeStore(t)
	out, err := run(t, "--store", path, "tickets")
	if err != nil || !strings.Contains(out, "tickets out\nnone") || !strings.Contains(out, "tickets in\nnone") {
		t.Errorf("tickets on a store without tickets = %q, %v", out, err)
	}
	out, err = run(t, "--store", path, "tickets", "--json")
	if err != nil || !strings.Contains(out, `"tickets_out": []`) {
		t.Errorf("tickets --json without tickets = %q, %v", out, err)
	}
	for _, args := range [][]string{{"tickets", "0"}, {"tickets", "x"}, {"tickets", "1", "2"}} {
		if _, err := run(t, append([]string{"--store", path}, args...)...); !errors.Is(err, ErrUsage) {
			t.Errorf("audit %v = %v, want ErrUsage", args, err)
		}
	}
}
