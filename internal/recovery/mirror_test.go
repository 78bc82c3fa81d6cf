package recovery

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cabinet/internal/meters"
)

// cabinetFiles makes a store with its proof file, credits 10.00 and closes
// it; it returns both paths.
func cabinetFiles(t *testing.T) (store, mirror string) {
	t.Helper()
	dir := t.TempDir()
	store, mirror = filepath.Join(dir, "cabinet.db"), filepath.Join(dir, "proof", "cabinet.mirror")
	if err := os.Mkdir(filepath.Dir(mirror), 0o700); err != nil {
		t.Fatal(err)
	}
	s, err := Open(store, Options{Mirror: mirror, Init: true, Now: fixedClock()})
	if err != nil {
		t.Fatal(err)
	}
	credit(t, s, 1000)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return store, mirror
}

func openMirrored(t *testing.T, store, mirror string) *Store {
	t.Helper()
	s, err := Open(store, Options{Mirror: mirror, Now: fixedClock()})
	if err != nil {
		t.Fatalf("Open = %v, want a store (failed or not)", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return b
}

// TestNewestStoreProof: an older copy of the store (platform.md §4: it
// passed `audit check` and play went on), another store, a store truncated
// to 0 bytes or deleted (item 2: silently re-initialised), a lost or damaged
// proof are memory errors: Open returns a failed store, Check says why,
// Update is refused, nothing is written, and the audit still reads whatever
// file there is.
func TestNewestStoreProof(t *testing.T) {
	cases := []struct {
		name     string
		damage   func(t *testing.T, store, mirror string)
		kind     error
		readable bool // the audit can still read the machine record
	}{
		{"rollback", func(t *testing.T, store, mirror string) {
			old := store + ".old"
			copyFile(t, store, old)
			s := openMirrored(t, store, mirror)
			credit(t, s, 500)
			credit(t, s, 500)
			_ = s.Close()
			copyFile(t, old, store)
		}, ErrRollback, true},
		{"other store", func(t *testing.T, store, mirror string) {
			other := filepath.Join(t.TempDir(), "other.db")
			s, err := Open(other, Options{Init: true})
			if err != nil {
				t.Fatal(err)
			}
			credit(t, s, 1000)
			_ = s.Close()
			copyFile(t, other, store)
		}, ErrForeign, true},
		{"truncated to 0 bytes", func(t *testing.T, store, mirror string) {
			if err := os.Truncate(store, 0); err != nil {
				t.Fatal(err)
			}
		}, ErrStoreMissing, false},
		{"deleted", func(t *testing.T, store, mirror string) {
			if err := os.Remove(store); err != nil {
				t.Fatal(err)
			}
		}, ErrStoreMissing, false},
		{"proof deleted", func(t *testing.T, store, mirror string) {
			if err := os.Remove(mirror); err != nil {
				t.Fatal(err)
			}
		}, ErrMirror, true},
		{"proof damaged", func(t *testing.T, store, mirror string) {
			if err := os.WriteFile(mirror, bytes.Repeat([]byte{0xA5}, 1024), 0o600); err != nil {
				t.Fatal(err)
			}
		}, ErrMirror, true},
		{"proof older than the store by two", func(t *testing.T, store, mirror string) {
			old := mirror + ".old"
			copyFile(t, mirror, old)
			s := openMirrored(t, store, mirror)
			credit(t, s, 500)
			credit(t, s, 500)
			_ = s.Close()
			copyFile(t, old, mirror)
		}, ErrMirror, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store, mirror := cabinetFiles(t)
			tc.damage(t, store, mirror)
			before, beforeMirror := fileBytes(t, store), fileBytes(t, mirror)
			s := openMirrored(t, store, mirror)
			if !errors.Is(s.Err(), tc.kind) || !errors.Is(s.Err(), ErrCorrupt) {
				t.Fatalf("Err() = %v, want %v (a memory error)", s.Err(), tc.kind)
			}
			if err := s.Check(); !errors.Is(err, tc.kind) {
				t.Errorf("Check() = %v, want %v", err, tc.kind)
			}
			if err := s.Update(func(tx *Tx) error { return tx.Log(meters.KindDoor, "x") }); !errors.Is(err, ErrFailed) {
				t.Errorf("Update = %v, want ErrFailed", err)
			}
			err := s.View(func(tx *Tx) error { _, err := tx.Machine(); return err })
			if tc.readable && err != nil {
				t.Errorf("View = %v, want the audit to read the store", err)
			}
			if !tc.readable && !errors.Is(err, tc.kind) {
				t.Errorf("View = %v, want %v", err, tc.kind)
			}
			_ = s.Close()
			if got := fileBytes(t, store); !bytes.Equal(got, before) {
				t.Errorf("store file changed by the boot (%d → %d bytes)", len(before), len(got))
			}
			if got := fileBytes(t, mirror); !bytes.Equal(got, beforeMirror) {
				t.Errorf("proof file changed by the boot")
			}
			if _, err := os.Stat(store); tc.name == "deleted" && err == nil {
				t.Errorf("a deleted store was re-created")
			}
			// The technician's memory clear makes the cabinet writable again,
			// with a new proof.
			s = openMirrored(t, store, mirror)
			if err := s.Clear(ClearConfirm); err != nil {
				t.Fatalf("Clear = %v", err)
			}
			credit(t, s, 100)
			_ = s.Close()
			s = openMirrored(t, store, mirror)
			if err := s.Err(); err != nil {
				t.Fatalf("after memory clear Err() = %v", err)
			}
			if m := machine(t, s); m.Credits != 100 {
				t.Errorf("credits after clear = %v, want 1.00", m.Credits)
			}
		})
	}
}

// TestUnprovenCommitDiscarded: a commit whose proof write was cut (or torn)
// was never shown; the boot discards it, whatever bbolt wrote of it, and the
// store opens at the proven commit. The next commit logs the discard, and the
// store goes on (its next commit reuses the discarded meta page).
func TestUnprovenCommitDiscarded(t *testing.T) {
	for _, torn := range []bool{false, true} {
		store, mirror := cabinetFiles(t)
		s := openMirrored(t, store, mirror)
		old := fileBytes(t, mirror)
		credit(t, s, 700)
		_ = s.Close()
		if torn { // the slot's write torn inside its first copy: the rest is the old proof
			b := fileBytes(t, mirror)
			for slot := 0; slot < 2; slot++ {
				if !bytes.Equal(b[slot*mirrorSlot:(slot+1)*mirrorSlot], old[slot*mirrorSlot:(slot+1)*mirrorSlot]) {
					copy(b[slot*mirrorSlot+60:(slot+1)*mirrorSlot], old[slot*mirrorSlot+60:])
				}
			}
			if err := os.WriteFile(mirror, b, 0o600); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(mirror, old, 0o600); err != nil {
			t.Fatal(err)
		}
		// A read-only open (cabinet audit) reads the proven commit from a
		// private copy and leaves the file alone.
		before := fileBytes(t, store)
		ro, err := Open(store, Options{Mirror: mirror, ReadOnly: true})
		if err != nil || ro.Err() != nil {
			t.Fatalf("torn=%v: read-only open = %v, %v", torn, err, ro.Err())
		}
		if m := machine(t, ro); m.Credits != 1000 {
			t.Errorf("read-only: credits = %v, want 10.00 (the proven commit)", m.Credits)
		}
		if err := ro.Check(); err != nil {
			t.Errorf("read-only Check() = %v", err)
		}
		_ = ro.Close()
		if !bytes.Equal(before, fileBytes(t, store)) {
			t.Errorf("a read-only open changed the store file")
		}

		s = openMirrored(t, store, mirror)
		if err := s.Err(); err != nil {
			t.Fatalf("torn=%v: Err() = %v, want the unproven commit discarded", torn, err)
		}
		if err := s.Check(); err != nil {
			t.Errorf("Check() after the discard = %v", err)
		}
		if m := machine(t, s); m.Credits != 1000 {
			t.Errorf("credits = %v, want 10.00 (the 7.00 was never proven, never shown)", m.Credits)
		}
		credit(t, s, 1)
		var evs []meters.Event
		_ = s.View(func(tx *Tx) error { evs, _ = tx.Events(1); return nil })
		if len(evs) != 1 || !strings.Contains(evs[0].Text, "never proven") {
			t.Errorf("newest event = %+v, want the discard logged", evs)
		}
		_ = s.Close()
		s = openMirrored(t, store, mirror)
		if err := s.Err(); err != nil {
			t.Errorf("second boot Err() = %v", err)
		}
		if m := machine(t, s); m.Credits != 1001 {
			t.Errorf("second boot: credits = %v, want 10.01", m.Credits)
		}
		_ = s.Close()
	}
}

// slotV1 is p in the proof's first format (no transaction id).
func slotV1(p proof) []byte {
	b := make([]byte, mirrorSlot)
	copy(b, mirrorMagic1)
	copy(b[8:], p.ID[:])
	binary.BigEndian.PutUint64(b[24:], p.N)
	copy(b[32:], p.Digest[:])
	binary.BigEndian.PutUint32(b[slotUsed1:], crc32.Checksum(b[:slotUsed1], castagnoli))
	return b
}

// TestFirstFormatProof: a proof of the first format (its store synced by
// bbolt before it) is still read; one commit behind it is repaired, as it was
// then; the boot rewrites it in the current format.
func TestFirstFormatProof(t *testing.T) {
	store, mirror := cabinetFiles(t)
	s := openMirrored(t, store, mirror)
	var before proof
	_ = s.View(func(tx *Tx) error { var err error; before, err = selfProof(tx.tx); return err })
	credit(t, s, 700)
	_ = s.Close()
	b := make([]byte, 2*mirrorSlot)
	copy(b[(before.N%2)*mirrorSlot:], slotV1(before))
	copy(b[((before.N+1)%2)*mirrorSlot:], slotV1(before))
	if err := os.WriteFile(mirror, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s = openMirrored(t, store, mirror)
	if err := s.Err(); err != nil {
		t.Fatalf("Err() = %v, want the first-format proof repaired", err)
	}
	if m := machine(t, s); m.Credits != 1700 {
		t.Errorf("credits = %v, want 17.00", m.Credits)
	}
	var evs []meters.Event
	_ = s.View(func(tx *Tx) error { evs, _ = tx.Events(1); return nil })
	if len(evs) != 1 || !strings.Contains(evs[0].Text, "repaired") {
		t.Errorf("newest event = %+v, want the repair logged", evs)
	}
	p, _, err := readMirror(mirror)
	if err != nil || !p.HasTx {
		t.Errorf("proof after the boot = %+v, %v: want the current format", p, err)
	}
	credit(t, s, 1)
	_ = s.Close()
	s = openMirrored(t, store, mirror)
	if err := s.Err(); err != nil || machine(t, s).Credits != 1701 {
		t.Errorf("second boot: Err() = %v, credits %v", err, machine(t, s).Credits)
	}
	_ = s.Close()
}

// TestNoSilentInit: a missing or empty store without Init is refused and
// nothing is created; an existing store with history and no proof is a
// memory error, with Init too (it never adopts a store: issue 27), and
// nothing is written.
func TestNoSilentInit(t *testing.T) {
	dir := t.TempDir()
	store, mirror := filepath.Join(dir, "c.db"), filepath.Join(dir, "c.mirror")
	if _, err := Open(store, Options{Mirror: mirror}); !errors.Is(err, ErrNotInitialised) {
		t.Fatalf("Open of a missing store = %v, want ErrNotInitialised", err)
	}
	for _, p := range []string{store, mirror} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s created by a refused Open", p)
		}
	}
	if err := os.WriteFile(store, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(store, Options{}); !errors.Is(err, ErrNotInitialised) {
		t.Fatalf("Open of an empty store = %v, want ErrNotInitialised", err)
	}
	plain := filepath.Join(dir, "plain.db")
	s, err := Open(plain, Options{Init: true})
	if err != nil {
		t.Fatal(err)
	}
	credit(t, s, 300)
	_ = s.Close()
	before := fileBytes(t, plain)
	for _, init := range []bool{false, true} {
		s, err := Open(plain, Options{Mirror: mirror, Init: init})
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(s.Err(), ErrMirror) {
			t.Errorf("store with history, no proof, Init %v: Err() = %v, want ErrMirror", init, s.Err())
		}
		_ = s.Close()
		if _, err := os.Stat(mirror); err == nil {
			t.Fatalf("Init %v: a proof was made for a store with history", init)
		}
		if !bytes.Equal(before, fileBytes(t, plain)) {
			t.Errorf("Init %v: the store was written", init)
		}
	}
}

// TestUnprovenMetaWithoutItsPages: one fdatasync per commit lets a power cut
// keep a commit's meta page and lose its data pages (the disk may write them
// in any order). The proof was not written, so the boot discards that meta
// page and opens the proven commit, intact.
func TestUnprovenMetaWithoutItsPages(t *testing.T) {
	store, mirror := cabinetFiles(t)
	before, proofBefore := fileBytes(t, store), fileBytes(t, mirror)
	s := openMirrored(t, store, mirror)
	credit(t, s, 700)
	_ = s.Close()
	after := fileBytes(t, store)
	ps := os.Getpagesize()
	crash := append([]byte(nil), before...)
	if len(after) > len(crash) {
		crash = append(crash, make([]byte, len(after)-len(crash))...)
	}
	copy(crash[:2*ps], after[:2*ps]) // both meta pages as after the commit, no data page
	if bytes.Equal(crash, after) {
		t.Fatal("the commit wrote no data page: the test shows nothing")
	}
	if err := os.WriteFile(store, crash, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mirror, proofBefore, 0o600); err != nil {
		t.Fatal(err)
	}
	s = openMirrored(t, store, mirror)
	defer s.Close()
	if err := s.Err(); err != nil {
		t.Fatalf("Err() = %v, want the unproven commit discarded", err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("Check() = %v", err)
	}
	if m := machine(t, s); m.Credits != 1000 {
		t.Errorf("credits = %v, want 10.00", m.Credits)
	}
}
