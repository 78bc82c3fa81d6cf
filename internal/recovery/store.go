package recovery

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"cabinet/internal/meters"
)

// Defaults and minimums of the rings (platform.md §3).
const (
	DefaultRecallDepth = 100
	MinRecallDepth     = 10
	DefaultEventDepth  = 1000
	MinEventDepth      = 1000
)

// lockTimeout is how long Open waits for the file lock before ErrLocked.
const lockTimeout = 300 * time.Millisecond

// Options configure Open. The zero value is the cabinet's default.
type Options struct {
	// ReadOnly opens an existing store with a shared lock (cabinet audit):
	// it works while no cabinet runs on the file, and reports ErrLocked
	// while one does. Update and Clear return ErrReadOnly.
	ReadOnly bool
	// RecallDepth is the number of completed rounds kept (default 100, at
	// least 10).
	RecallDepth int
	// EventDepth is the number of events kept (default and minimum 1000).
	EventDepth int
	// Mirror is the newest-store proof file (platform.md §4; on the Pi on
	// another partition or device): commit counter and machine digest,
	// written after every commit and compared at boot. "" disables the
	// proof (tests and tools only; a cabinet always has one).
	Mirror string
	// Init lets Open create and initialise a store where there is none and
	// no proof shows a cabinet has run (`cabinet init`, tests, the sim on a
	// scratch store; logged in the event log), and finish a creation cut
	// before its proof was made (a store at commit 1 without proof file).
	// It never gives a store with history a proof (proofMissing). Without
	// Init a missing store is ErrNotInitialised, never silently created.
	Init bool
	// Now is the clock for event times (default time.Now).
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.RecallDepth == 0 {
		o.RecallDepth = DefaultRecallDepth
	}
	o.RecallDepth = max(o.RecallDepth, MinRecallDepth)
	if o.EventDepth == 0 {
		o.EventDepth = DefaultEventDepth
	}
	o.EventDepth = max(o.EventDepth, MinEventDepth)
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Store is an open store file. View may run concurrently with Update; the
// Store must not be copied.
type Store struct {
	path string
	opt  Options

	mu sync.Mutex
	// wmu serialises Update (the bbolt commit and its proof write), so
	// proofs are written in commit order when two goroutines write (the
	// controller and the SAS link's acknowledgements).
	wmu sync.Mutex
	// pmu keeps readers from beginning a transaction between bbolt's commit
	// and its proof (Update): a commit is not the store's until proven.
	pmu    sync.RWMutex
	db     *bolt.DB // nil when the file could not be opened (failed is set)
	mirror *os.File // the proof file, open for writing (nil: no proof or read-only)
	failed error    // first integrity failure; Update refuses while set
	// file is the file bbolt opened: path, or a private copy (private) when
	// a read-only open had an unproven commit to discard (unproven.go).
	file    string
	private bool
	// sfile is the store file opened for fdatasync when bbolt's own syncs
	// are off (a sync flushes the file, whichever descriptor asks).
	sfile *os.File
	// notes are recovery events found at boot, logged by the next commit.
	notes []string
	// proofPath, when set, is recorded as meta/store's Proof by the next
	// commit (a boot verified the proof at a path the store did not name).
	proofPath string
	// mraw and mval are the machine record last committed by Update and its
	// decoded value (under mu): Tx.Machine decodes only a record whose bytes
	// differ from mraw (every step reads the record; its JSON decoding was
	// a fifth of a step commit's time).
	mraw []byte
	mval Machine
	// proven is the last proven commit as the SAS link reads it
	// (proven.go); nil until first read.
	proven atomic.Pointer[Proven]
}

// cachedMachine returns the decoded machine record if raw is the record
// Update last committed, byte for byte.
func (s *Store) cachedMachine(raw []byte) (Machine, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mraw == nil || !bytes.Equal(raw, s.mraw) {
		return Machine{}, false
	}
	return cloneMachine(s.mval), true
}

// Open opens the store file at path. It never creates a store silently: a
// missing or empty file is ErrNotInitialised unless opt.Init is set (the
// explicit, logged act of `cabinet init`), and a memory error when the
// newest-store proof (opt.Mirror) shows a cabinet has run on it.
//
// The file is locked: exclusively for read-write, shared for read-only; if
// another process (or another Open in this process) holds it, Open returns an
// error wrapping ErrLocked naming the file. Before bbolt touches a file, its
// structure is verified from the file itself.
//
// Memory errors do not make Open fail: it returns a Store marked failed
// (Err, Check return the typed error: *CheckError, *MirrorError, both
// wrapping ErrCorrupt). Such a store refuses Update and keeps nothing but
// evidence; View still reads it wherever the damage lets anything be read
// (not at all when bbolt cannot open the file safely or it is missing: View
// then returns the failure). Open itself fails only for what is not a
// memory error: a lock held, an I/O error, a store never initialised.
func Open(path string, opt Options) (*Store, error) {
	opt = opt.withDefaults()
	s := &Store{path: path, opt: opt, file: path}
	err := guard("open "+path, func() error { return s.open() })
	if err == nil {
		err = s.finishOpen()
	}
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) open() error {
	info, statErr := os.Stat(s.path)
	exists := statErr == nil && info.Size() > 0
	if statErr != nil && !errors.Is(statErr, os.ErrNotExist) {
		return fmt.Errorf("recovery: open %s: %w", s.path, statErr)
	}
	var pf proofFile
	hasProof := false
	var proofErr error
	if s.opt.Mirror != "" {
		var err error
		pf, hasProof, err = readProofFile(s.opt.Mirror)
		if err != nil && !errors.Is(err, ErrMirror) {
			return err
		}
		if err != nil {
			proofErr = &MirrorError{Store: s.path, Mirror: s.opt.Mirror, Kind: ErrMirror, Detail: err.Error()}
		}
	}
	file := pf.newest
	if !exists {
		if hasProof {
			if lerr := probeLock(s.path, !s.opt.ReadOnly); lerr != nil {
				return lerr
			}
			s.failed = &MirrorError{Store: s.path, Mirror: s.opt.Mirror, MirrorN: file.N, Kind: ErrStoreMissing,
				Detail: fmt.Sprintf("the proof shows commit %d; the store file is missing or empty", file.N)}
			return nil
		}
		if s.opt.ReadOnly {
			if statErr != nil {
				return fmt.Errorf("recovery: open %s read-only: %w", s.path, statErr)
			}
			return fmt.Errorf("recovery: open %s read-only: %w (empty file)", s.path, ErrNotInitialised)
		}
		if !s.opt.Init {
			return fmt.Errorf("recovery: open %s: %w: no store (a new cabinet is initialised by `cabinet init`)", s.path, ErrNotInitialised)
		}
	}
	var warn []error
	if exists && hasProof && proofErr == nil && file.HasTx {
		if d := pf.damaged(); d != "" && !s.opt.ReadOnly {
			s.notes = append(s.notes, fmt.Sprintf("newest-store proof %s: %s (a proof write cut by a power cut, or damage since); the newest commit it names is %d", s.opt.Mirror, d, file.N))
		}
		if err := s.discardUnproven(pf); err != nil {
			return err
		}
	}
	if exists {
		fatal, problems, err := preflight(s.file)
		if err != nil {
			return fmt.Errorf("recovery: open %s: %w", s.path, err)
		}
		if fatal {
			if lerr := probeLock(s.path, !s.opt.ReadOnly); lerr != nil {
				return lerr
			}
			s.fail(&CheckError{Path: s.path, Problems: problems})
			return nil
		}
		warn = problems
	}
	db, err := bolt.Open(s.file, 0o600, boltOptions(s.opt.ReadOnly))
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return lockedError(s.path, s.opt.ReadOnly)
		}
		if errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrChecksum) || errors.Is(err, berrors.ErrVersionMismatch) {
			s.failed = &CorruptError{Bucket: "file", Key: s.path, Reason: err.Error()}
			return nil
		}
		return fmt.Errorf("recovery: open %s: %w", s.path, err)
	}
	s.db = db
	if len(warn) > 0 {
		s.fail(&CheckError{Path: s.path, Problems: warn})
		return nil
	}
	empty, err := s.empty()
	if err != nil {
		return err
	}
	if empty {
		switch {
		case hasProof:
			s.fail(&MirrorError{Store: s.path, Mirror: s.opt.Mirror, MirrorN: file.N, Kind: ErrStoreMissing,
				Detail: fmt.Sprintf("the proof shows commit %d; the store has no record", file.N)})
			return nil
		case s.opt.ReadOnly:
			return nil // Check reports ErrNotInitialised
		case !s.opt.Init:
			return fmt.Errorf("recovery: open %s: %w: no record (a new cabinet is initialised by `cabinet init`)", s.path, ErrNotInitialised)
		}
		return s.initialise()
	}
	if s.opt.Mirror == "" {
		return nil
	}
	if proofErr != nil {
		s.fail(proofErr)
		return nil
	}
	return s.verifyProof(file, hasProof)
}

// empty reports whether the bbolt file has no bucket at all (a new file, or
// one whose creation was cut before its first commit).
func (s *Store) empty() (bool, error) {
	empty := true
	if err := s.db.View(func(btx *bolt.Tx) error {
		return btx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
	}); err != nil {
		return false, fmt.Errorf("recovery: open %s: %w", s.path, err)
	}
	return empty, nil
}

// verifyProof compares the store with the proof file at boot; it repairs a
// proof one commit behind (logged), answers a missing proof (proofMissing),
// and marks the store failed otherwise.
func (s *Store) verifyProof(file proof, hasProof bool) error {
	self, err := s.selfProof()
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			s.fail(err)
			return nil
		}
		return fmt.Errorf("recovery: open %s: %w", s.path, err)
	}
	if !hasProof {
		return s.proofMissing(self)
	}
	repair, err := compareProof(s.path, s.opt.Mirror, self, file)
	if err != nil {
		s.fail(err)
		return nil
	}
	if s.opt.ReadOnly {
		return nil
	}
	if err := s.openMirror(); err != nil {
		return err
	}
	if err := s.recordProofPath(); err != nil {
		return err
	}
	if repair {
		if err := writeMirror(s.mirror, self); err != nil {
			return err
		}
		return s.Update(func(tx *Tx) error {
			return tx.Log(meters.KindRecovery, fmt.Sprintf("newest-store proof repaired: commit %d was complete, its proof write was cut (proof showed %d)", self.N, file.N))
		})
	}
	return nil
}

// finishOpen ends a read-write open with a proof: a proof of an older
// format (no transaction id, or one copy per slot) is rewritten in the current one from the store's
// own state, and bbolt's own syncs are turned off — from here on the proof is
// the commit point (Update, mirror.go).
func (s *Store) finishOpen() error {
	if s.opt.ReadOnly || s.db == nil || s.Err() != nil {
		return nil
	}
	s.mu.Lock()
	mf := s.mirror
	s.mu.Unlock()
	if mf == nil {
		return nil
	}
	file, _, err := readMirror(s.opt.Mirror)
	if err != nil {
		return err
	}
	if file.Format < 3 {
		self, err := s.selfProof()
		if err != nil {
			return fmt.Errorf("recovery: open %s: %w", s.path, err)
		}
		if err := createMirror(s.opt.Mirror, self); err != nil {
			return err
		}
		_ = mf.Close()
		if err := s.openMirror(); err != nil {
			return err
		}
		s.notes = append(s.notes, fmt.Sprintf("newest-store proof rewritten in its current format (the store's transaction id, four copies per slot; it was of format %d) at commit %d", file.Format, self.N))
	}
	return s.oneSync()
}

// oneSync turns bbolt's own syncs off: Update syncs the store once, then the
// proof (mirror.go). Only with a proof file.
func (s *Store) oneSync() error {
	f, err := os.OpenFile(s.path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("recovery: open %s: %w", s.path, err)
	}
	s.mu.Lock()
	old := s.sfile
	s.sfile = f
	s.db.NoSync = true
	s.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	return nil
}

func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }

// selfProof is what the store's last commit says of itself (selfProof).
func (s *Store) selfProof() (proof, error) {
	var p proof
	err := s.db.View(func(btx *bolt.Tx) error {
		var err error
		p, err = selfProof(btx)
		return err
	})
	return p, err
}

func (s *Store) openMirror() error {
	f, err := os.OpenFile(s.opt.Mirror, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("recovery: open proof %s: %w", s.opt.Mirror, err)
	}
	s.mirror = f
	return nil
}

// proofMissing is the one answer to a store whose proof file is missing,
// whichever command opens it (run, sim, init, audit: each opens the store
// with the proof it expects; the audit finds it with ProofFor):
//
//   - a store with history (commit counter 2 or more: a cabinet has run on
//     it; or 0: a store made before the counter, whose history cannot be
//     told) is a memory error (ErrMirror): the proof was lost or deleted,
//     or the store was put back without it. Nothing is written; only the
//     technician's memory clear starts over, keeping the store as evidence.
//     Never a new proof for it: that would prove whatever store is there.
//   - a store without history (commit 1: its creation — `cabinet init`, the
//     sim's scratch store, a memory clear — was cut before its proof was
//     made): Options.Init finishes that act (the proof is created); any
//     other open reports the memory error, saying `cabinet init` finishes it.
func (s *Store) proofMissing(self proof) error {
	if self.N == 1 && s.opt.Init && !s.opt.ReadOnly {
		if err := createMirror(s.opt.Mirror, self); err != nil {
			return err
		}
		if err := s.openMirror(); err != nil {
			return err
		}
		return s.recordProofPath()
	}
	var detail string
	switch self.N {
	case 1:
		detail = fmt.Sprintf("no proof file %s; the store has no history (commit 1: its creation was cut before its proof was made): `cabinet init` finishes it", s.opt.Mirror)
	case 0:
		detail = fmt.Sprintf("no proof file %s, and the store has no commit counter (made before the proof existed), so its history cannot be told: only the technician's memory clear starts over (the store is kept as evidence)", s.opt.Mirror)
	default:
		detail = fmt.Sprintf("no proof file %s for a store with history (commit %d): the proof was lost or deleted, or the store was put back without it; only the technician's memory clear (audit key + reset key) starts over, keeping this store as evidence", s.opt.Mirror, self.N)
	}
	s.fail(&MirrorError{Store: s.path, Mirror: s.opt.Mirror, StoreN: self.N, Kind: ErrMirror, Detail: detail})
	return nil
}

// recordProofPath has the next commit record the proof's path in
// meta/store when the store names another (or none).
func (s *Store) recordProofPath() error {
	abs, err := filepath.Abs(s.opt.Mirror)
	if err != nil {
		return fmt.Errorf("recovery: open %s: proof path: %w", s.path, err)
	}
	var sm storeMeta
	if err := s.db.View(func(btx *bolt.Tx) error {
		return decode(bMeta, kStore, btx.Bucket(bMeta).Get(kStore), &sm)
	}); err != nil {
		return fmt.Errorf("recovery: open %s: %w", s.path, err)
	}
	if sm.Proof != abs {
		s.proofPath = abs
	}
	return nil
}

// boltOptions are the bbolt options of every open. NoFreelistSync was tried
// (one page less per step: 12 KiB → 8 KiB of pages per step commit) and
// dropped: bbolt then rebuilds the freelist at open by walking the tree, and
// on a damaged leaf it panics with a plain string (not a memory fault),
// which the corruption harness turned into a crash of the boot; guard may
// only absorb real faults (docs/recovery.md). Pages of 1 KiB and 16 KiB were
// tried against the OS's 4 KiB: no difference in the step commit beyond the
// machine's noise, so the default is kept. (With a proof file, NoSync is set
// after the open: Store.oneSync.)
func boltOptions(readOnly bool) *bolt.Options {
	return &bolt.Options{Timeout: lockTimeout, ReadOnly: readOnly}
}

func lockedError(path string, readOnly bool) error {
	if readOnly {
		return fmt.Errorf("%w: %s is held by a running cabinet (read-only access works only while no cabinet runs on it)", ErrLocked, path)
	}
	return fmt.Errorf("%w: %s is already open (another cabinet process, or cabinet audit, is using it)", ErrLocked, path)
}

// initialise creates the buckets, the meta record and a zero machine record
// in a store that has no bucket at all, and the proof file (opt.Init only).
func (s *Store) initialise() error {
	var p proof
	proofPath := ""
	if s.opt.Mirror != "" {
		var err error
		if proofPath, err = filepath.Abs(s.opt.Mirror); err != nil {
			return fmt.Errorf("recovery: initialise %s: proof path: %w", s.path, err)
		}
	}
	err := s.db.Update(func(btx *bolt.Tx) error {
		if err := createAll(btx, s.opt.Now(), proofPath); err != nil {
			return err
		}
		tx := &Tx{s: s, tx: btx}
		if err := tx.LogEvent(meters.Event{Kind: meters.KindMemoryClear, Text: "store initialised (cabinet init)", Detail: "store_initialised"}); err != nil {
			return err
		}
		var err error
		p, err = bumpCommit(btx)
		return err
	})
	if err != nil {
		return fmt.Errorf("recovery: initialise %s: %w", s.path, err)
	}
	if s.opt.Mirror == "" {
		return nil
	}
	if err := createMirror(s.opt.Mirror, p); err != nil {
		return err
	}
	return s.openMirror()
}

// createAll creates every bucket, the meta record (a new identity, the
// proof file's path) and a zero machine record.
func createAll(btx *bolt.Tx, now time.Time, proofPath string) error {
	for _, name := range allBuckets {
		if _, err := btx.CreateBucket(name); err != nil {
			return fmt.Errorf("recovery: create bucket %s: %w", name, err)
		}
	}
	meta, err := encode(bMeta, kStore, storeMeta{Format: storeFormat, Created: now, ID: newStoreID(), Proof: proofPath})
	if err != nil {
		return err
	}
	if err := btx.Bucket(bMeta).Put(kStore, meta); err != nil {
		return fmt.Errorf("recovery: put meta: %w", err)
	}
	m, err := encode(bMachine, kMachine, Machine{})
	if err != nil {
		return err
	}
	if err := btx.Bucket(bMachine).Put(kMachine, m); err != nil {
		return fmt.Errorf("recovery: put machine: %w", err)
	}
	return nil
}

// Path returns the store file's path.
func (s *Store) Path() string { return s.path }

// Close closes the file and releases its lock.
func (s *Store) Close() error {
	s.mu.Lock()
	db, mf, sf := s.db, s.mirror, s.sfile
	s.db, s.mirror, s.sfile = nil, nil, nil
	s.mu.Unlock()
	if mf != nil {
		_ = mf.Close()
	}
	if sf != nil {
		_ = sf.Close()
	}
	if s.private {
		defer os.Remove(s.file)
	}
	if db == nil {
		return nil
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("recovery: close %s: %w", s.path, err)
	}
	return nil
}

// Err returns the integrity failure that keeps the store from being
// written, or nil.
func (s *Store) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

func (s *Store) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed == nil {
		s.failed = err
	}
}

func (s *Store) bolt() *bolt.DB {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.db
}

// Update runs fn in ONE read-write bbolt transaction and returns once it is
// durable and proven. If fn returns an error nothing is written. Before
// committing, the machine record written by fn (if any) must satisfy the meter
// invariant, or Update returns an error wrapping ErrInvariant and nothing is
// written. A record that fails to decode marks the store failed (ErrCorrupt);
// a failed store refuses every Update with ErrFailed.
//
// With a proof file the commit is: bbolt writes the pages and the meta page
// (its own syncs off), one fdatasync of the store, then the proof slot
// written and fdatasync'd — the commit point (mirror.go). Two syncs where
// bbolt alone makes two and the proof a third. Without a proof (tests, tools)
// bbolt syncs as usual.
func (s *Store) Update(fn func(tx *Tx) error) error {
	if s.opt.ReadOnly {
		return fmt.Errorf("recovery: update %s: %w", s.path, ErrReadOnly)
	}
	if f := s.Err(); f != nil {
		return fmt.Errorf("recovery: update %s: %w (%w)", s.path, ErrFailed, f)
	}
	db := s.bolt()
	if db == nil {
		return fmt.Errorf("recovery: update %s: store closed", s.path)
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	btx, err := db.Begin(true)
	if err != nil {
		return fmt.Errorf("recovery: update %s: %w", s.path, err)
	}
	defer func() { _ = btx.Rollback() }() // after a commit: ErrTxClosed, nothing done
	var p proof
	var next *Proven // published once the commit is proven
	tx := &Tx{s: s, tx: btx}
	err = func() error {
		if err := fn(tx); err != nil {
			return err
		}
		if tx.machine != nil {
			if err := tx.machine.Meters.Check(tx.machine.Credits); err != nil {
				return fmt.Errorf("recovery: commit: %w: %w", ErrInvariant, err)
			}
		}
		if tx.machine != nil || tx.titoTouched {
			if err := tx.checkTickets(); err != nil {
				return fmt.Errorf("recovery: commit: %w", err)
			}
		}
		for _, n := range s.notes {
			if err := tx.Log(meters.KindRecovery, n); err != nil {
				return err
			}
		}
		if s.proofPath != "" {
			if err := tx.recordProof(s.proofPath); err != nil {
				return err
			}
		}
		var err error
		if next, err = tx.provenAfter(); err != nil {
			return err
		}
		p, err = bumpCommit(btx)
		return err
	}()
	if errors.Is(err, ErrCorrupt) {
		s.fail(err)
	}
	if err != nil {
		return err
	}
	s.mu.Lock()
	mf, sf := s.mirror, s.sfile
	s.mu.Unlock()
	s.pmu.Lock()
	defer s.pmu.Unlock()
	if err := btx.Commit(); err != nil {
		return fmt.Errorf("recovery: commit %s: %w", s.path, err)
	}
	s.notes, s.proofPath = nil, ""
	if tx.machine != nil {
		s.mu.Lock()
		s.mraw, s.mval = tx.machineRaw, cloneMachine(*tx.machine)
		s.mu.Unlock()
	}
	if db.NoSync {
		if err := fdatasync(sf); err != nil {
			// Not durable, not proven: the next boot discards it.
			me := &MirrorError{Store: s.path, Mirror: s.opt.Mirror, StoreN: p.N, MirrorN: p.N - 1, Kind: ErrMirror,
				Detail: fmt.Sprintf("sync of the store failed: %v", err)}
			s.fail(me)
			return fmt.Errorf("recovery: commit %d: %w", p.N, me)
		}
	}
	if mf != nil {
		if err := writeMirror(mf, p); err != nil {
			// The commit is durable but not proven: the next boot discards
			// it (or, for a proof of the first format, repairs the proof).
			// Until then nothing more is written.
			me := &MirrorError{Store: s.path, Mirror: s.opt.Mirror, StoreN: p.N, MirrorN: p.N - 1, Kind: ErrMirror, Detail: err.Error()}
			s.fail(me)
			return fmt.Errorf("recovery: commit %d: %w", p.N, me)
		}
	}
	s.proven.Store(next) // nil (not read yet): the next Proven reads it
	return nil
}

// View runs fn in a read-only transaction (a consistent snapshot of the last
// proven commit). It works on a failed store: the audit screens read through
// it. Damage met while reading is returned as ErrCorrupt, never a crash.
func (s *Store) View(fn func(tx *Tx) error) error {
	db := s.bolt()
	if db == nil {
		return fmt.Errorf("recovery: read %s: %w", s.path, s.Err())
	}
	err := guard("read "+s.path, func() error {
		btx, err := s.beginRead(db)
		if err != nil {
			return err
		}
		defer func() { _ = btx.Rollback() }()
		return fn(&Tx{s: s, tx: btx, ro: true})
	})
	if errors.Is(err, ErrCorrupt) {
		s.fail(err)
	}
	return err
}

// beginRead begins a read transaction on the last proven commit.
func (s *Store) beginRead(db *bolt.DB) (*bolt.Tx, error) {
	s.pmu.RLock()
	defer s.pmu.RUnlock()
	btx, err := db.Begin(false)
	if err != nil {
		return nil, fmt.Errorf("recovery: read %s: %w", s.path, err)
	}
	return btx, nil
}

// guard runs fn turning a memory fault met while reading the mapped file
// into an error wrapping ErrCorrupt. Only a real fault counts: with
// debug.SetPanicOnFault the runtime panics with a runtime.Error that has an
// Addr() uintptr method (the faulting address, SIGBUS/SIGSEGV beyond the
// first page); every other panic — a nil map, an index out of range, a nil
// pointer dereference (address < 4096, no Addr method), a "BUG" string — is
// a bug of the program and propagates unchanged.
func guard(what string, fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if r := recover(); r != nil {
			if !isFault(r) {
				panic(r)
			}
			err = &CorruptError{Bucket: "file", Key: what, Reason: fmt.Sprintf("memory fault while reading: %v", r)}
		}
	}()
	return fn()
}

// isFault reports whether a recovered panic value is a memory fault raised
// under debug.SetPanicOnFault.
func isFault(r any) bool {
	re, ok := r.(runtime.Error)
	if !ok {
		return false
	}
	_, ok = re.(interface{ Addr() uintptr })
	return ok
}
