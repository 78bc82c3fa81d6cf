package recovery

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// rawPut writes v as a well-sealed record with a raw bbolt write, as a
// program with a bug (not damage) would: only the cross-checks catch it.
func rawPut(t *testing.T, path string, bucket, key []byte, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists(bucket)
		if err != nil {
			return err
		}
		return bk.Put(key, seal(bucket, key, b))
	}); err != nil {
		t.Fatal(err)
	}
}

// ticketStore makes a store with one printed ticket, one pending and one
// ticket in stacked, and returns its path (closed).
func ticketStore(t *testing.T) string {
	t.Helper()
	s, path := openCut(t)
	defer s.Close()
	credit(t, s, 3000)
	update(t, s, "cash out 1", func(tx *Tx) error {
		tk, err := issue(tx, vn(1), 1000)
		if err != nil {
			return err
		}
		_, err = printDone(tx, tk.Seq)
		return err
	})
	update(t, s, "cash out 2", func(tx *Tx) error { _, err := issue(tx, vn(2), 2000); return err })
	update(t, s, "insert", func(tx *Tx) error { _, err := tx.TicketInserted(vn(3)); return err })
	if err := host(t, s, lp70); err != nil {
		t.Fatal(err)
	}
	if err := host(t, s, lp71(0, 700)); err != nil {
		t.Fatal(err)
	}
	update(t, s, "stacked", func(tx *Tx) error { _, err := stacked(tx, 1); return err })
	if err := s.Check(); err != nil {
		t.Fatalf("Check of a good store = %v", err)
	}
	return path
}

func checkPath(t *testing.T, path string) error {
	t.Helper()
	s, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Check()
}

func readState(t *testing.T, path string) titoState {
	t.Helper()
	s, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var st titoState
	if err := s.View(func(tx *Tx) error { var err error; st, err = tx.titoState(); return err }); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestCheckTickets(t *testing.T) {
	tests := []struct {
		name string
		edit func(t *testing.T, path string)
		want error
		text string
	}{
		{"ticket in credited twice in the records", func(t *testing.T, path string) {
			st := readState(t, path)
			st.In *= 2
			rawPut(t, path, bTITO, kTITOState, st)
		}, ErrInvariant, "tickets_in: meter 700, records 1400"},
		{"open ticket forgotten", func(t *testing.T, path string) {
			st := readState(t, path)
			st.OpenOut = 0
			rawPut(t, path, bTITO, kTITOState, st)
		}, ErrCorrupt, "unresolved true, the open ticket is 0"},
		{"a second valid ticket for the outstanding credits", func(t *testing.T, path string) {
			rawPut(t, path, bTicketsOut, seqKey(3), TicketOut{Seq: 3, Validation: vn(9), Amount: 2000, Status: TicketPrinted})
		}, ErrCorrupt, "after the last one numbered"},
		{"pending ticket of another amount", func(t *testing.T, path string) {
			rawPut(t, path, bTicketsOut, seqKey(2), TicketOut{Seq: 2, Validation: vn(2), Amount: 2500, Status: TicketPending})
		}, ErrInvariant, "open ticket out 2 of 25.00, meters say 20.00"},
		{"tickets in meter without credits", func(t *testing.T, path string) {
			s, err := Open(path, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			m := machine(t, s)
			s.Close()
			m.Meters.TicketsIn += 100
			rawPut(t, path, bMachine, kMachine, m)
		}, ErrInvariant, "tickets in 8.00"},
		{"credits kept for a ticket issued", func(t *testing.T, path string) {
			s, err := Open(path, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			m := machine(t, s)
			s.Close()
			m.Credits += 2000
			rawPut(t, path, bMachine, kMachine, m)
		}, ErrInvariant, "tickets issued 30.00"},
		{"bad validation number", func(t *testing.T, path string) {
			rawPut(t, path, bTicketsIn, seqKey(1), TicketIn{Seq: 1, Validation: "12", Amount: 700, Status: TicketInStacked})
		}, ErrCorrupt, "want 18 digits"},
		{"unknown key", func(t *testing.T, path string) {
			rawPut(t, path, bTITO, []byte("extra"), 1)
		}, ErrCorrupt, "tito/extra: unexpected key"},
		{"damaged record", func(t *testing.T, path string) {
			rawEdit(t, path, bTicketsOut, seqKey(1), func(v []byte) []byte { v[len(v)-2] ^= 1; return v })
		}, ErrCorrupt, "tickets_out/#1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ticketStore(t)
			tt.edit(t, path)
			err := checkPath(t, path)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("Check = %v, want %v mentioning %q", err, tt.want, tt.text)
			}
		})
	}
}
