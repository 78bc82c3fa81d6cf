package recovery

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"cabinet/internal/money"
)

// proofStates makes a store at commit 2 (credits 10.00) and commits 7.00
// more (commit 3); it returns the store after commit 3 and the proof before
// and after commit 3's proof write. The pair (store3, proof2) is a power cut
// after the store's sync of commit 3 and before its proof write.
func proofStates(t *testing.T) (store, mirror string, store3, proof2, proof3 []byte) {
	t.Helper()
	store, mirror = cabinetFiles(t)
	proof2 = fileBytes(t, mirror)
	s := openMirrored(t, store, mirror)
	credit(t, s, 700)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return store, mirror, fileBytes(t, store), proof2, fileBytes(t, mirror)
}

// bootAt writes the two files, boots (read-write, as the cabinet does) and
// returns the credits and commit found, or the memory error.
func bootAt(t *testing.T, store, mirror string, sb, mb []byte) (money.Cents, uint64, error) {
	t.Helper()
	if err := os.WriteFile(store, sb, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mirror, mb, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(store, Options{Mirror: mirror, Now: fixedClock()})
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	defer s.Close()
	if err := s.Err(); err != nil {
		return 0, 0, err
	}
	n, err := s.Commits()
	if err != nil {
		t.Fatal(err)
	}
	return machine(t, s).Credits, n, nil
}

// TestProofByteFlips (issue 27): every byte of each proof slot flipped, on
// the state after commit 3 was proven (and may have been shown) and on the
// state of a power cut between commit 3's store sync and its proof write.
// None may boot older than the newest proven commit; with four copies per
// slot none needs a memory error either. The old proof (one copy per slot)
// read the older slot when the newest was damaged and discarded commit 3:
// a shown step undone.
func TestProofByteFlips(t *testing.T) {
	store, mirror, store3, proof2, proof3 := proofStates(t)
	for _, c := range []struct {
		name   string
		proof  []byte
		proven uint64
		want   money.Cents
	}{{"commit 3 proven", proof3, 3, 1700}, {"cut before commit 3's proof write", proof2, 2, 1000}} {
		older := 0
		for i := range 2 * mirrorSlot {
			mb := bytes.Clone(c.proof)
			mb[i] ^= 0xFF
			credits, n, err := bootAt(t, store, mirror, store3, mb)
			switch {
			case err != nil:
				t.Errorf("%s, byte %d flipped: memory error %v, want commit %d", c.name, i, err, c.proven)
			case n < c.proven:
				older++
				if older <= 3 {
					t.Errorf("%s, byte %d flipped: booted at commit %d (credits %v), older than the proven commit %d", c.name, i, n, credits, c.proven)
				}
			case n != c.proven || credits != c.want:
				t.Errorf("%s, byte %d flipped: commit %d, credits %v, want commit %d, %v", c.name, i, n, credits, c.proven, c.want)
			}
		}
		if older > 0 {
			t.Errorf("%s: %d of %d flips booted older than the proven commit", c.name, older, 2*mirrorSlot)
		}
	}
}

// TestProofWriteTornInsideSector: a device that does not write a sector
// atomically tears commit 3's proof write after any byte (in order). The
// store's sync had returned before that write started, so either answer is
// exact: commit 3 when a whole copy of its proof was written (complete, not
// yet shown), else commit 2 (the proof never synced: nothing of 3 shown).
func TestProofWriteTornInsideSector(t *testing.T) {
	store, mirror, store3, proof2, proof3 := proofStates(t)
	slot := (3 % 2) * mirrorSlot
	for cut := 1; cut < mirrorSlot; cut++ {
		mb := bytes.Clone(proof2)
		copy(mb[slot:slot+cut], proof3[slot:slot+cut])
		credits, n, err := bootAt(t, store, mirror, store3, mb)
		want, wantC := uint64(2), money.Cents(1000)
		if cut >= slotUsed+4 {
			want, wantC = 3, 1700
		}
		if err != nil || n != want || credits != wantC {
			t.Errorf("proof write torn after %d bytes: commit %d, credits %v, %v; want commit %d, %v", cut, n, credits, err, want, wantC)
		}
	}
}

// TestProofSlotUnreadable: the slot commit 3's proof goes into holds no
// readable copy and the store is one transaction ahead of the other slot.
// Commit 3 may have been proven and shown (its proof damaged since) or cut
// before the store's sync (the older proof there damaged since): the boot
// cannot decide, so a memory error, and neither file is written — by the
// boot (read-write or read-only), nor by a write attempted after it.
func TestProofSlotUnreadable(t *testing.T) {
	store, mirror, store3, _, proof3 := proofStates(t)
	slot := (3 % 2) * mirrorSlot
	for _, fill := range []byte{0x00, 0xFF, 0x5A} {
		mb := bytes.Clone(proof3)
		copy(mb[slot:slot+mirrorSlot], bytes.Repeat([]byte{fill}, mirrorSlot))
		for _, ro := range []bool{false, true} {
			if err := os.WriteFile(store, store3, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(mirror, mb, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(store, Options{Mirror: mirror, ReadOnly: ro, Now: fixedClock()})
			if err != nil {
				t.Fatalf("Open = %v", err)
			}
			if !errors.Is(s.Err(), ErrMirror) || !errors.Is(s.Check(), ErrCorrupt) {
				t.Errorf("slot filled with %#x, read-only %v: Err() = %v, want a memory error (ErrMirror)", fill, ro, s.Err())
			}
			if !ro {
				if err := s.Update(func(tx *Tx) error { return nil }); !errors.Is(err, ErrFailed) {
					t.Errorf("Update on the undecided store = %v, want ErrFailed", err)
				}
			}
			_ = s.Close()
			if !bytes.Equal(fileBytes(t, store), store3) || !bytes.Equal(fileBytes(t, mirror), mb) {
				t.Errorf("slot filled with %#x, read-only %v: a file was changed", fill, ro)
			}
		}
	}
	// The other slot unreadable, the store at the newest proof: decided.
	mb := bytes.Clone(proof3)
	copy(mb[mirrorSlot-slot:], make([]byte, mirrorSlot))
	if credits, n, err := bootAt(t, store, mirror, store3, mb); err != nil || n != 3 || credits != 1700 {
		t.Errorf("older slot unreadable: commit %d, credits %v, %v; want commit 3, 17.00", n, credits, err)
	}
}
