package recovery

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// A commit's proof is its commit point (mirror.go): a store whose newest
// bbolt meta page is one transaction ahead of the proof holds a commit that a
// power cut interrupted before it was proven, so before anything of it was
// shown. With a single fdatasync per commit its pages may be incomplete
// (the meta page durable, a data page not), so the boot never uses it: the
// meta page is overwritten by a discard mark (discardMagic followed by the
// discarded meta's own 64 bytes, kept as evidence), bbolt falls back to the
// other meta page — the proven commit, whose pages a later transaction never
// overwrote — and the event log says so.
const discardMagic = "CABDISC1"

// errDiscarded is a meta page carrying the discard mark: not usable, and not
// damage either (preflight lists no problem for it).
var errDiscarded = errors.New("discarded: an unproven commit")

// unproven returns the file offset and the meta of data's newest meta page
// when it is exactly one bbolt transaction ahead of the proof (txid) and the
// other meta page is the proven transaction's.
func unproven(data []byte, txid uint64) (off uint64, m boltMeta, ok bool) {
	m0 := readMeta(data, 0, 0)
	if m0.valid != nil {
		return 0, m, false
	}
	m1 := readMeta(data, 1, m0.pageSize)
	if m1.valid != nil || m1.pageSize != m0.pageSize {
		return 0, m, false
	}
	switch {
	case m0.txid == txid+1 && m1.txid == txid:
		return 0, m0, true
	case m1.txid == txid+1 && m0.txid == txid:
		return m0.pageSize, m1, true
	}
	return 0, m, false
}

// discardMark is what replaces the body of the meta page at off.
func discardMark(data []byte, off uint64) []byte {
	body := data[off+pageHeaderSize : off+pageHeaderSize+metaSize+8]
	return append([]byte(discardMagic), body...)
}

// decideUnproven says whether the store transaction m, one ahead of the
// newest proof pf names, may be discarded (nil) or the boot cannot decide (a
// *MirrorError, ErrMirror: memory error, nothing written).
//
// Commit N+1's proof goes into slot (N+1)%2, and its write starts only after
// the store's fdatasync of N+1 returned. So:
//   - that slot still holds a whole copy of an older proof: no copy of N+1's
//     was ever written whole — the write never started, or was torn before
//     the end of its first copy — so its sync never returned and nothing of
//     N+1 was shown: discard it (the store may be incomplete: one sync);
//   - that slot holds no whole copy at all: either N+1's proof write was torn
//     into garbage (N+1 complete, not shown), or N+1's proof was written and
//     damaged afterwards (N+1 complete, maybe shown), or the cut came before
//     the store's sync returned and the older proof in that slot was damaged
//     afterwards (N+1 maybe incomplete, not shown). Discarding may undo a
//     shown step; keeping may resume an incomplete store. Memory error.
//
// (A whole copy of N+1's proof in that slot makes N+1 the newest proof: the
// store is not ahead of it and this is never asked.)
func decideUnproven(store, mirror string, pf proofFile, m boltMeta) error {
	n := pf.newest.N
	if pf.slots[(n+1)%2].valid {
		return nil
	}
	return &MirrorError{Store: store, Mirror: mirror, StoreN: n + 1, MirrorN: n, Kind: ErrMirror,
		Detail: fmt.Sprintf("the store's newest transaction %d is one ahead of the proof's commit %d, and proof slot %d, where commit %d's proof goes, has no readable copy: "+
			"it cannot be told whether commit %d was proven (and shown) and its proof damaged since, or never proven; neither file was changed",
			m.txid, n, (n+1)%2, n+1, n+1)}
}

// discardUnproven finds an unproven newest meta page (see unproven) and
// discards it when decideUnproven allows it (else the store is failed and
// nothing is written): in the file itself, under the file's exclusive lock, synced,
// with a recovery event logged by the next commit; for a read-only open
// (cabinet audit after a power cut, before the cabinet booted again) in a
// private copy of the file, which is what bbolt then reads.
func (s *Store) discardUnproven(pf proofFile) error {
	file := pf.newest
	data, err := os.ReadFile(s.path)
	if err != nil {
		return fmt.Errorf("recovery: open %s: %w", s.path, err)
	}
	off, m, ok := unproven(data, file.TxID)
	if !ok {
		return nil
	}
	if err := decideUnproven(s.path, s.opt.Mirror, pf, m); err != nil {
		if lerr := probeLock(s.path, !s.opt.ReadOnly); lerr != nil {
			return lerr
		}
		s.fail(err)
		return nil
	}
	mark := discardMark(data, off)
	if s.opt.ReadOnly {
		if err := probeLock(s.path, false); err != nil {
			return err
		}
		copy(data[off+pageHeaderSize:], mark)
		f, err := os.CreateTemp("", "cabinet-read-*.db")
		if err != nil {
			return fmt.Errorf("recovery: open %s: private copy: %w", s.path, err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(f.Name())
			return fmt.Errorf("recovery: open %s: private copy: %w", s.path, err)
		}
		s.file, s.private = f.Name(), true
		return nil
	}
	f, err := os.OpenFile(s.path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("recovery: open %s: %w", s.path, err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return lockedError(s.path, false)
	}
	if _, err := f.WriteAt(mark, int64(off+pageHeaderSize)); err != nil {
		return fmt.Errorf("recovery: open %s: discard unproven commit: %w", s.path, err)
	}
	if err := syscall.Fdatasync(int(f.Fd())); err != nil {
		return fmt.Errorf("recovery: open %s: discard unproven commit: %w", s.path, err)
	}
	s.notes = append(s.notes, fmt.Sprintf(
		"power cut during commit %d: its store transaction %d was written but never proven, so nothing of it was shown; discarded at boot, the store is at commit %d",
		file.N+1, m.txid, file.N))
	return nil
}
