package recovery

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	bolt "go.etcd.io/bbolt"
)

// The newest-store proof (platform.md §4, docs/recovery.md): every commit increments
// a counter kept in the store (meta/commit) and the proof file (Options.Mirror)
// receives the store's identity, the counter, bbolt's transaction id and a
// SHA-256 digest of the machine record. At boot the two are compared: an
// older store (rollback), another store (swap), a missing or empty store
// where a cabinet has run, or a damaged proof are memory errors.
//
// The proof is the commit point (Store.Update): bbolt writes the commit's
// pages and its meta page, ONE fdatasync makes the store file durable, then
// the proof slot is written and synced. Only then is the commit shown. A
// power cut before the proof's sync leaves the store's newest meta page one
// bbolt transaction ahead of the proof (its pages possibly incomplete: bbolt's
// own data-then-meta ordering sync is not needed any more); the boot discards
// that meta page (discardUnproven) and the store opens at the proven commit.
// Nothing of the discarded commit was shown.
//
// The proof file is 1024 bytes: two 512-byte slots, each one sector, written
// in place (pwrite of the slot counter%2, then fdatasync). A slot of the
// current format holds its record four times, one copy in each 128-byte
// quarter, each copy with its own checksum (slotCopies): damage after the
// fact (a flipped byte, a bad bit of the medium) that leaves one copy whole
// still reads, and a write torn inside the sector (a device that does not
// write a sector atomically and writes it in order) leaves the copies before
// the tear new and those after it old, so the slot reads as one of the two.
// A slot with no whole copy at all is "damaged"; what the boot makes of it
// (decideUnproven) never undoes a commit that may have been shown.
//
// The file is created (and replaced by a memory clear, or rewritten in this
// format at boot) atomically: temporary file, fsync, rename, fsync of the
// directory.
const (
	mirrorSlot = 512
	// mirrorMagic1 slots (the first format) carry no transaction id: their
	// store was synced by bbolt before the proof, and the boot repairs a
	// proof one commit behind. mirrorMagic2 slots (the second format) hold
	// one copy of the record. A cabinet rewrites both in the current format
	// at its first boot (Store.finishOpen).
	mirrorMagic1 = "CABMIRR1"
	mirrorMagic2 = "CABMIRR2"
	mirrorMagic  = "CABMIRR3"
	// record layout: magic 8 | id 16 | counter 8 | digest 32 | [txid 8] | crc32c 4
	slotUsed1 = 8 + 16 + 8 + 32
	slotUsed  = slotUsed1 + 8
	// slotCopies copies of the record, slotStride bytes apart.
	slotCopies = 4
	slotStride = mirrorSlot / slotCopies
)

// proof is one slot of the proof file and what the store says of itself.
type proof struct {
	ID     [16]byte
	N      uint64
	Digest [32]byte
	// TxID is bbolt's transaction id of commit N; HasTx is false for a
	// slot of the first format.
	TxID  uint64
	HasTx bool
	// Format is the slot's format (1, 2 or 3; 0: the store's own proof).
	Format int
}

// record is p's record (one copy) under magic.
func (p proof) record(magic string) []byte {
	b := make([]byte, slotUsed+4)
	copy(b, magic)
	copy(b[8:], p.ID[:])
	binary.BigEndian.PutUint64(b[24:], p.N)
	copy(b[32:], p.Digest[:])
	binary.BigEndian.PutUint64(b[slotUsed1:], p.TxID)
	binary.BigEndian.PutUint32(b[slotUsed:], crc32.Checksum(b[:slotUsed], castagnoli))
	return b
}

// slot is p as one slot of the current format: slotCopies copies.
func (p proof) slot() []byte {
	b := make([]byte, mirrorSlot)
	r := p.record(mirrorMagic)
	for i := range slotCopies {
		copy(b[i*slotStride:], r)
	}
	return b
}

// slotRead is what one slot of the proof file holds.
type slotRead struct {
	p     proof
	valid bool // a whole copy (or record, formats 1 and 2) was read
	// bad counts the copies of a current-format slot that fail their
	// checksum (the record itself for formats 1 and 2).
	bad int
}

// parseSlot reads one slot: a record of the first or second format at its
// start, else the copies of the current format, of which the newest whole
// one counts (copies of two commits in one slot are a write torn inside the
// sector: the newer one's write had started).
func parseSlot(b []byte) slotRead {
	var r slotRead
	if len(b) < mirrorSlot {
		r.bad = 1
		return r
	}
	switch string(b[:8]) {
	case mirrorMagic1, mirrorMagic2:
		p, ok := parseRecord(b)
		if !ok {
			r.bad = 1
			return r
		}
		return slotRead{p: p, valid: true}
	}
	for i := range slotCopies {
		p, ok := parseRecord(b[i*slotStride : (i+1)*slotStride])
		switch {
		case !ok || p.Format != 3:
			r.bad++
		case !r.valid || p.N > r.p.N:
			r.p, r.valid = p, true
		}
	}
	return r
}

// parseRecord reads one record of any format at the start of b.
func parseRecord(b []byte) (proof, bool) {
	var p proof
	used := slotUsed
	switch string(b[:8]) {
	case mirrorMagic:
		p.HasTx, p.Format = true, 3
	case mirrorMagic2:
		p.HasTx, p.Format = true, 2
	case mirrorMagic1:
		used, p.Format = slotUsed1, 1
	default:
		return p, false
	}
	if binary.BigEndian.Uint32(b[used:]) != crc32.Checksum(b[:used], castagnoli) {
		return proof{}, false
	}
	copy(p.ID[:], b[8:24])
	p.N = binary.BigEndian.Uint64(b[24:])
	copy(p.Digest[:], b[32:64])
	if p.HasTx {
		p.TxID = binary.BigEndian.Uint64(b[slotUsed1:])
	}
	return p, true
}

// proofFile is what the proof file holds: its two slots and the newest
// proof among them.
type proofFile struct {
	slots  [2]slotRead
	newest proof
}

// damaged describes the slots with unreadable copies ("" when none): the
// boot logs it (a medium that damages a sector after the fact is worth
// knowing of before it damages both).
func (f proofFile) damaged() string {
	var parts []string
	for i, s := range f.slots {
		switch {
		case !s.valid:
			parts = append(parts, fmt.Sprintf("slot %d unreadable", i))
		case s.bad > 0:
			parts = append(parts, fmt.Sprintf("slot %d: %d of %d copies unreadable (read from the others)", i, s.bad, slotCopies))
		}
	}
	return strings.Join(parts, "; ")
}

// readMirror returns the newest valid slot of the proof file. exists is false
// when the file does not exist; a file with no valid slot is an error
// wrapping ErrMirror.
func readMirror(path string) (p proof, exists bool, err error) {
	f, exists, err := readProofFile(path)
	return f.newest, exists, err
}

// readProofFile reads both slots of the proof file (see readMirror).
func readProofFile(path string) (f proofFile, exists bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return f, false, nil
	}
	if err != nil {
		return f, false, fmt.Errorf("recovery: read proof %s: %w", path, err)
	}
	ok := false
	for i := range f.slots {
		off := i * mirrorSlot
		if off+mirrorSlot > len(data) {
			f.slots[i].bad = 1
			continue
		}
		f.slots[i] = parseSlot(data[off : off+mirrorSlot])
		if q := f.slots[i]; q.valid && (!ok || q.p.N > f.newest.N) {
			f.newest, ok = q.p, true
		}
	}
	if !ok {
		return f, true, fmt.Errorf("%w: %s (%d bytes) has no valid slot", ErrMirror, path, len(data))
	}
	return f, true, nil
}

// createMirror writes a new proof file atomically (both slots, the previous
// commit in the other slot when p.N > 0: a fresh file never shows a torn
// write as a rollback).
func createMirror(path string, p proof) error {
	tmp := path + ".new"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("recovery: create proof %s: %w", path, err)
	}
	buf := make([]byte, 2*mirrorSlot)
	copy(buf[(p.N%2)*mirrorSlot:], p.slot())
	copy(buf[((p.N+1)%2)*mirrorSlot:], p.slot())
	_, err = f.Write(buf)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("recovery: create proof %s: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	return nil
}

// writeMirror writes p into its slot and waits for it to be durable.
func writeMirror(f *os.File, p proof) error {
	if _, err := f.WriteAt(p.slot(), int64(p.N%2)*mirrorSlot); err != nil {
		return fmt.Errorf("recovery: write proof %s: %w", f.Name(), err)
	}
	if err := syscall.Fdatasync(int(f.Fd())); err != nil {
		return fmt.Errorf("recovery: sync proof %s: %w", f.Name(), err)
	}
	return nil
}

// kCommit is meta/commit: the commit counter (8 bytes, big endian, sealed).
var kCommit = []byte("commit")

// newStoreID returns a random store identity.
func newStoreID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// selfProof reads what the store says of itself: its identity, its commit
// counter and the digest of its machine record.
func selfProof(btx *bolt.Tx) (proof, error) {
	var p proof
	meta := btx.Bucket(bMeta)
	mach := btx.Bucket(bMachine)
	if meta == nil || mach == nil {
		return p, &CorruptError{Bucket: "meta", Key: "*", Reason: "bucket missing"}
	}
	var sm storeMeta
	if err := decode(bMeta, kStore, meta.Get(kStore), &sm); err != nil {
		return p, err
	}
	if sm.ID != "" {
		id, err := hex.DecodeString(sm.ID)
		if err != nil || len(id) != 16 {
			return p, corrupt(bMeta, kStore, "store id %q is not 32 hex digits", sm.ID)
		}
		copy(p.ID[:], id)
	}
	n, err := commitCount(meta)
	if err != nil {
		return p, err
	}
	p.N = n
	p.Digest = digest(p.ID, n, mach.Get(kMachine))
	// A read-write transaction's id is that of the commit it will make.
	p.TxID, p.HasTx = uint64(btx.ID()), true
	return p, nil
}

func commitCount(meta *bolt.Bucket) (uint64, error) {
	raw := meta.Get(kCommit)
	if raw == nil {
		return 0, nil
	}
	b, err := unseal(bMeta, kCommit, raw)
	if err != nil {
		return 0, err
	}
	if len(b) != 8 {
		return 0, corrupt(bMeta, kCommit, "counter is %d bytes, want 8", len(b))
	}
	return binary.BigEndian.Uint64(b), nil
}

// bumpCommit increments meta/commit inside a read-write transaction and
// returns the proof of the transaction being committed.
func bumpCommit(btx *bolt.Tx) (proof, error) {
	meta := btx.Bucket(bMeta)
	if meta == nil {
		return proof{}, &CorruptError{Bucket: "meta", Key: "*", Reason: "bucket missing"}
	}
	n, err := commitCount(meta)
	if err != nil {
		return proof{}, err
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n+1)
	if err := meta.Put(kCommit, seal(bMeta, kCommit, b[:])); err != nil {
		return proof{}, fmt.Errorf("recovery: put commit counter: %w", err)
	}
	return selfProof(btx)
}

func digest(id [16]byte, n uint64, machine []byte) [32]byte {
	h := sha256.New()
	h.Write(id[:])
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	h.Write(b[:])
	h.Write(machine)
	var d [32]byte
	copy(d[:], h.Sum(nil))
	return d
}

// compareProof decides what the boot makes of the store's own proof (self)
// against the proof file (file): nil (same commit), repair (a proof of the
// first format one commit behind: the proof write of a completed commit was
// cut), or a memory error.
func compareProof(storePath, mirrorPath string, self, file proof) (repair bool, err error) {
	me := func(kind error, format string, args ...any) error {
		return &MirrorError{Store: storePath, Mirror: mirrorPath, StoreN: self.N, MirrorN: file.N, Kind: kind, Detail: fmt.Sprintf(format, args...)}
	}
	switch {
	case !bytes.Equal(self.ID[:], file.ID[:]):
		return false, me(ErrForeign, "store id %x, the proof names store %x", self.ID, file.ID)
	case self.N == file.N && self.Digest != file.Digest:
		return false, me(ErrForeign, "commit %d: the machine record differs from the one the proof names", self.N)
	case self.N == file.N:
		return false, nil
	case self.N == file.N+1 && !file.HasTx:
		// A proof of the first format was written after bbolt's own
		// synced commit: the commit is whole, its proof write was cut. (With
		// the current format an unproven commit never gets here: the boot
		// discarded it, see unproven.go.)
		return true, nil
	case self.N < file.N:
		return false, me(ErrRollback, "store at commit %d, the proof at commit %d: an older copy of the store", self.N, file.N)
	default:
		return false, me(ErrMirror, "store at commit %d, the proof at commit %d: the proof is older than the store", self.N, file.N)
	}
}

// Commits returns the store's commit counter (meta/commit): the number of
// commits since the store was created. The power-cut harness uses it to
// tell which commit a crash state holds.
func (s *Store) Commits() (uint64, error) {
	var n uint64
	err := s.View(func(tx *Tx) error {
		meta, err := tx.bucket(bMeta)
		if err != nil {
			return err
		}
		n, err = commitCount(meta)
		return err
	})
	return n, err
}

// ProofSlotSize is the size of one slot of the proof file (two slots): the
// power-cut harness flips each byte of both.
const ProofSlotSize = mirrorSlot
