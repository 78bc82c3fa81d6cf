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

// TestMissingProofOneAnswer (issue 27): a store with history whose proof
// file is gone is a memory error whichever way it is opened — the cabinet's
// boot (run), the sim's open (Init), the audit (read-only, with the proof
// ProofFor finds: the one the store names, here not beside the store) — and
// nothing is written. Before, the sim's open made a new proof and played on,
// and the audit, finding no <store>.mirror, checked without proof: OK.
func TestMissingProofOneAnswer(t *testing.T) {
	store, mirror := cabinetFiles(t) // the proof in another directory
	if got := ProofFor(store); got != mirror {
		t.Fatalf("ProofFor = %q, want the proof the store names %q", got, mirror)
	}
	ro, err := Open(store, Options{ReadOnly: true, Mirror: ProofFor(store)})
	if err != nil || ro.Check() != nil {
		t.Fatalf("audit with the proof present: %v, %v", err, ro.Check())
	}
	_ = ro.Close()
	if err := os.Remove(mirror); err != nil {
		t.Fatal(err)
	}
	before := fileBytes(t, store)
	for _, c := range []struct {
		name string
		opt  Options
	}{
		{"run", Options{Mirror: mirror}},
		{"sim", Options{Mirror: mirror, Init: true}},
		{"audit", Options{Mirror: ProofFor(store), ReadOnly: true}},
	} {
		s, err := Open(store, c.opt)
		if err != nil {
			t.Fatalf("%s: Open = %v, want a failed store", c.name, err)
		}
		var me *MirrorError
		if !errors.As(s.Err(), &me) || me.Kind != ErrMirror || !strings.Contains(me.Detail, "history (commit 2)") {
			t.Errorf("%s: Err() = %v, want ErrMirror for a store with history", c.name, s.Err())
		}
		if err := s.Check(); !errors.Is(err, ErrMirror) {
			t.Errorf("%s: Check() = %v, want the missing proof reported", c.name, err)
		}
		if !c.opt.ReadOnly {
			if err := s.Update(func(*Tx) error { return nil }); !errors.Is(err, ErrFailed) {
				t.Errorf("%s: Update = %v, want ErrFailed", c.name, err)
			}
		}
		_ = s.Close()
		if _, err := os.Stat(mirror); err == nil {
			t.Fatalf("%s: a new proof was made", c.name)
		}
		if !bytes.Equal(before, fileBytes(t, store)) {
			t.Errorf("%s: the store was written", c.name)
		}
	}
}

// TestProofPathRecorded: the store names its proof file from its creation
// on; a boot that verifies it elsewhere records the new place (logged);
// a store never proven names none.
func TestProofPathRecorded(t *testing.T) {
	store, mirror := cabinetFiles(t)
	moved := filepath.Join(t.TempDir(), "moved.mirror")
	if err := os.Rename(mirror, moved); err != nil {
		t.Fatal(err)
	}
	s, err := Open(store, Options{Mirror: moved})
	if err != nil || s.Err() != nil {
		t.Fatalf("Open with the moved proof = %v, %v", err, s.Err())
	}
	credit(t, s, 1)
	_ = s.Close()
	if got := ProofFor(store); got != moved {
		t.Errorf("ProofFor after a boot with the moved proof = %q, want %q", got, moved)
	}
	plain, _ := openTest(t, Options{Init: true})
	if got := ProofFor(plain.Path()); got != "" {
		t.Errorf("ProofFor of a store never proven = %q, want \"\"", got)
	}
}

// TestInitRefusesHistory (issue 27): Init makes a new cabinet, finishes one
// whose proof was never made, and refuses every store with history whatever
// its proof — matching, deleted, an older copy with its proof deleted, an
// older copy with the newer proof — writing nothing.
func TestInitRefusesHistory(t *testing.T) {
	dir := t.TempDir()
	store, mirror := filepath.Join(dir, "c.db"), filepath.Join(dir, "c.db.mirror")
	if created, err := Init(store, Options{Mirror: mirror}); !created || err != nil {
		t.Fatalf("Init of a new cabinet = %v, %v", created, err)
	}
	if created, err := Init(store, Options{Mirror: mirror}); created || err != nil {
		t.Fatalf("Init again (no history) = %v, %v; want nothing done", created, err)
	}
	// The proof's creation cut: Init finishes it.
	if err := os.Remove(mirror); err != nil {
		t.Fatal(err)
	}
	if created, err := Init(store, Options{Mirror: mirror}); !created || err != nil {
		t.Fatalf("Init finishing a creation cut before its proof = %v, %v", created, err)
	}
	s := openMirrored(t, store, mirror)
	credit(t, s, 500)
	_ = s.Close()
	older := fileBytes(t, store) // commit 2: 5.00
	s = openMirrored(t, store, mirror)
	credit(t, s, 500)
	_ = s.Close()
	newer, proof := fileBytes(t, store), fileBytes(t, mirror)
	for _, c := range []struct {
		name         string
		store, proof []byte // nil proof: deleted
		want         error
	}{
		{"history, its proof", newer, proof, ErrHistory},
		{"history, proof deleted", newer, nil, ErrHistory},
		{"older copy put back, proof deleted", older, nil, ErrHistory},
		{"older copy put back, the newer proof", older, proof, ErrRollback},
	} {
		if err := os.WriteFile(store, c.store, 0o600); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(mirror)
		if c.proof != nil {
			if err := os.WriteFile(mirror, c.proof, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		created, err := Init(store, Options{Mirror: mirror})
		if created || !errors.Is(err, c.want) || !strings.Contains(err.Error(), "memory clear") {
			t.Errorf("%s: Init = %v, %v; want %v naming the memory clear", c.name, created, err, c.want)
		}
		if !bytes.Equal(fileBytes(t, store), c.store) || !bytes.Equal(fileBytes(t, mirror), c.proof) {
			t.Errorf("%s: Init changed a file", c.name)
		}
	}
	// No store, a proof: a cabinet has run here.
	_ = os.Remove(store)
	if err := os.WriteFile(mirror, proof, 0o600); err != nil {
		t.Fatal(err)
	}
	if created, err := Init(store, Options{Mirror: mirror}); created || !errors.Is(err, ErrStoreMissing) {
		t.Errorf("Init with the store gone = %v, %v; want ErrStoreMissing", created, err)
	}
}

// TestMemoryClearOverStoreWithHistory: what init refuses, the technician's
// memory clear does — on the store whose proof is gone (the run's memory
// error): the old store is kept aside as evidence, the new store has a new
// identity and names its new proof, and the clear is logged.
func TestMemoryClearOverStoreWithHistory(t *testing.T) {
	store, mirror := cabinetFiles(t)
	old := fileBytes(t, store)
	var oldID string
	o := openMirrored(t, store, mirror)
	_ = o.View(func(tx *Tx) error {
		var sm storeMeta
		_, err := tx.get(bMeta, kStore, &sm)
		oldID = sm.ID
		return err
	})
	_ = o.Close()
	if err := os.Remove(mirror); err != nil {
		t.Fatal(err)
	}
	s, err := Open(store, Options{Mirror: mirror, Now: fixedClock()})
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	if !errors.Is(s.Err(), ErrMirror) {
		t.Fatalf("Err() = %v; want the memory error", s.Err())
	}
	defer s.Close()
	if err := s.Clear(ClearConfirm); err != nil {
		t.Fatalf("Clear = %v", err)
	}
	kept, _ := filepath.Glob(store + ".cleared-*")
	if len(kept) != 1 || !bytes.Equal(fileBytes(t, kept[0]), old) {
		t.Fatalf("kept aside: %v, want the old store", kept)
	}
	var sm storeMeta
	var evs []meters.Event
	_ = s.View(func(tx *Tx) error {
		_, _ = tx.get(bMeta, kStore, &sm)
		evs, _ = tx.Events(1)
		return nil
	})
	if sm.ID == "" || sm.ID == oldID || sm.Proof != mirror {
		t.Errorf("new store meta = %+v, want a new identity naming %s (old %s)", sm, mirror, oldID)
	}
	if len(evs) != 1 || evs[0].Kind != meters.KindMemoryClear || !strings.Contains(evs[0].Text, filepath.Base(kept[0])) {
		t.Errorf("newest event = %+v, want the clear logged naming the kept store", evs)
	}
	credit(t, s, 1)
	_ = s.Close()
	if s2 := openMirrored(t, store, mirror); s2.Err() != nil || machine(t, s2).Credits != 1 {
		t.Errorf("after the clear: Err() = %v, credits %v", s2.Err(), machine(t, s2).Credits)
	}
}
