package recovery

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/meters"
)

// rawEdit changes one stored value with a raw bbolt write (bypassing the
// envelope), as damage would.
func rawEdit(t *testing.T, path string, bucket, key []byte, edit func(v []byte) []byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		v := bytes.Clone(b.Get(key))
		if v == nil {
			return errors.New("no such record")
		}
		return b.Put(key, edit(v))
	})
	if err != nil {
		t.Fatalf("raw edit %s/%s: %v", bucket, key, err)
	}
}

func populated(t *testing.T) string {
	t.Helper()
	path := t.TempDir() + "/s.db"
	s, err := Open(path, Options{Init: true, Now: fixedClock()})
	if err != nil {
		t.Fatal(err)
	}
	credit(t, s, 5000)
	for i := range 3 {
		if err := s.Update(func(tx *Tx) error {
			if err := tx.Log(meters.KindDoor, "main door opened"); err != nil {
				return err
			}
			return tx.CloseRound(sampleRecall(uint64(i + 1)))
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Update(func(tx *Tx) error {
		m, _ := tx.Machine()
		m.NextRound = 4
		return tx.PutMachine(m)
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCorruptRecordFound(t *testing.T) {
	flip := func(i int) func([]byte) []byte {
		return func(v []byte) []byte { v[min(i, len(v)-1)] ^= 0x10; return v }
	}
	tests := []struct {
		name        string
		bucket, key []byte
		edit        func([]byte) []byte
		want        string // bucket/key named in the error
	}{
		{"machine payload byte", bMachine, kMachine, flip(20), "machine/machine"},
		{"machine checksum", bMachine, kMachine, flip(2), "machine/machine"},
		{"machine version", bMachine, kMachine, func(v []byte) []byte { v[0] = 9; return v }, "machine/machine"},
		{"machine truncated", bMachine, kMachine, func(v []byte) []byte { return v[:3] }, "machine/machine"},
		{"recall payload", bRecall, seqKey(2), flip(40), "recall/#2"},
		{"event payload", bEvents, seqKey(1), flip(30), "events/#1"},
		{"meta payload", bMeta, kStore, flip(12), "meta/store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := populated(t)
			rawEdit(t, path, tt.bucket, tt.key, tt.edit)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Open(path, Options{Init: true})
			if err != nil {
				t.Fatalf("Open = %v (damaged records must still open for audit)", err)
			}
			err = s.Check()
			var ce *CheckError
			if !errors.As(err, &ce) || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Check() = %v, want a CheckError naming %s", err, tt.want)
			}
			// A failed store is evidence: no write goes through.
			err = s.Update(func(tx *Tx) error { return tx.Log(meters.KindPowerUp, "power up") })
			if !errors.Is(err, ErrFailed) {
				t.Errorf("Update on a failed store = %v, want ErrFailed", err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Errorf("file changed after Open/Check/Update of a corrupt store")
			}
		})
	}
}

func TestMovedRecordFound(t *testing.T) {
	path := populated(t)
	// Copy event #1's intact envelope over event #2: checksum covers the key.
	var v1 []byte
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.View(func(tx *bolt.Tx) error { v1 = bytes.Clone(tx.Bucket(bEvents).Get(seqKey(1))); return nil })
	db.Close()
	rawEdit(t, path, bEvents, seqKey(2), func([]byte) []byte { return v1 })
	s, err := Open(path, Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "events/#2") {
		t.Errorf("Check() = %v, want events/#2 reported", err)
	}
}

func TestMissingMachineIsCorruptNotFresh(t *testing.T) {
	path := populated(t)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMachine).Delete(kMachine) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(path, Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.View(func(tx *Tx) error { _, err := tx.Machine(); return err }); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Machine() with the record deleted = %v, want ErrCorrupt", err)
	}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "machine/machine") {
		t.Errorf("Check() = %v, want machine/machine missing", err)
	}
}

func TestInvariantBrokenOnDiskFound(t *testing.T) {
	path := populated(t)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A correctly sealed record whose money does not add up.
	m := Machine{Credits: 999999, NextRound: 4}
	m.Meters.BillsIn = 5000
	raw, _ := encode(bMachine, kMachine, m)
	if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMachine).Put(kMachine, raw) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(path, Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); !errors.Is(err, ErrInvariant) {
		t.Errorf("Check() = %v, want ErrInvariant", err)
	}
}

func TestDamagedFileNeverCrashes(t *testing.T) {
	path := populated(t)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ps := os.Getpagesize()
	cases := map[string]func([]byte) []byte{
		"truncated to 2 pages":  func(b []byte) []byte { return b[:2*ps] },
		"truncated half a page": func(b []byte) []byte { return b[:len(b)-ps/2] },
		"zero meta 0":           func(b []byte) []byte { clear(b[16:80]); return b },
		"zero both metas":       func(b []byte) []byte { clear(b[16:80]); clear(b[ps+16 : ps+80]); return b },
		"zero page 2":           func(b []byte) []byte { clear(b[2*ps : 3*ps]); return b },
		"zero page 3":           func(b []byte) []byte { clear(b[3*ps : 4*ps]); return b },
		"garbage page 4": func(b []byte) []byte {
			for i := 4 * ps; i < 5*ps; i++ {
				b[i] = byte(i*7 + 3)
			}
			return b
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			p := t.TempDir() + "/d.db"
			if err := os.WriteFile(p, damage(bytes.Clone(orig)), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(p, Options{Init: true})
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Errorf("Open = %v, want ok or ErrCorrupt", err)
				}
				return
			}
			defer s.Close()
			cerr := s.Check()
			if cerr == nil {
				// Harmless damage: money must be identical.
				if m := machine(t, s); m.Credits != 5000 {
					t.Errorf("clean Check but credits %v, want 50.00", m.Credits)
				}
			} else if !errors.Is(cerr, ErrCorrupt) {
				t.Errorf("Check = %v, want ErrCorrupt", cerr)
			}
		})
	}
}
