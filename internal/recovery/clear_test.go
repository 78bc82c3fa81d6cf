package recovery

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/meters"
)

func TestClearKeepsEvidence(t *testing.T) {
	path := populated(t)
	rawEdit(t, path, bMachine, kMachine, func(v []byte) []byte { v[10] ^= 1; return v })
	evidence, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, Options{Init: true, Now: fixedClock()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); err == nil {
		t.Fatal("Check() of a damaged store = nil")
	}
	if err := s.Clear("yes"); !errors.Is(err, ErrConfirm) {
		t.Errorf("Clear(yes) = %v, want ErrConfirm", err)
	}
	if err := s.Clear(ClearConfirm); err != nil {
		t.Fatalf("Clear = %v", err)
	}
	if err := s.Check(); err != nil {
		t.Errorf("Check after Clear = %v", err)
	}
	if m := machine(t, s); m.Credits != 0 || m.Meters.BillsIn != 0 {
		t.Errorf("Machine after Clear = %+v, want zero", m)
	}
	var evs []meters.Event
	_ = s.View(func(tx *Tx) error { evs, err = tx.Events(0); return err })
	if len(evs) != 1 || evs[0].Kind != meters.KindMemoryClear || !strings.Contains(evs[0].Text, ".cleared-") {
		t.Errorf("Events after Clear = %+v, want one memory_clear naming the kept file", evs)
	}
	kept, _ := filepath.Glob(path + ".cleared-*")
	if len(kept) != 1 {
		t.Fatalf("kept files = %v, want one", kept)
	}
	old, err := os.ReadFile(kept[0])
	if err != nil || !bytes.Equal(old, evidence) {
		t.Errorf("kept file differs from the store before the clear (%v)", err)
	}
	credit(t, s, 100) // writable again
	if _, err := Open(path, Options{Init: true}); !errors.Is(err, ErrLocked) {
		t.Errorf("Open after Clear = %v, want ErrLocked (the new file is held)", err)
	}
}

func TestClearFileOfUnopenableStore(t *testing.T) {
	path := populated(t)
	data, _ := os.ReadFile(path)
	ps := os.Getpagesize()
	clear(data[16:80])
	clear(data[ps+16 : ps+80]) // both meta pages gone: bbolt cannot open it
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	bad, err := Open(path, Options{})
	if err != nil || !errors.Is(bad.Err(), ErrCorrupt) || !errors.Is(bad.Check(), ErrCorrupt) {
		t.Fatalf("Open of a file with no valid meta page = %v (Err %v), want a failed store with ErrCorrupt", err, bad.Err())
	}
	if err := bad.Update(func(*Tx) error { return nil }); !errors.Is(err, ErrFailed) {
		t.Fatalf("Update on it = %v, want ErrFailed", err)
	}
	if err := bad.View(func(*Tx) error { return nil }); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("View on it = %v, want ErrCorrupt", err)
	}
	_ = bad.Close()
	if _, err := ClearFile(path, "no", Options{}); !errors.Is(err, ErrConfirm) {
		t.Errorf("ClearFile(no) = %v, want ErrConfirm", err)
	}
	s, err := ClearFile(path, ClearConfirm, Options{})
	if err != nil {
		t.Fatalf("ClearFile = %v", err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Errorf("Check after ClearFile = %v", err)
	}
	kept, _ := filepath.Glob(path + ".cleared-*")
	if len(kept) != 1 {
		t.Fatalf("kept = %v, want one file", kept)
	}
	if old, _ := os.ReadFile(kept[0]); !bytes.Equal(old, data) {
		t.Errorf("kept file is not the damaged store")
	}
	credit(t, s, 100)
}
