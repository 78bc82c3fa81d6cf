package recovery

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
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

	mu     sync.Mutex
	db     *bolt.DB
	failed error // first integrity failure; Update refuses while set
}

// Open opens the store file at path, creating and initialising it if it does
// not exist (unless opt.ReadOnly). The file is locked: exclusively for
// read-write, shared for read-only; if another process (or another Open in
// this process) holds it, Open returns an error wrapping ErrLocked naming the
// file. Before bbolt touches a file, its structure is verified from the file
// itself; a file bbolt cannot open safely is reported as ErrCorrupt and left
// untouched. A file with lesser damage opens, but the Store is marked failed
// (see Check).
func Open(path string, opt Options) (*Store, error) {
	opt = opt.withDefaults()
	s := &Store{path: path, opt: opt}
	err := guard("open "+path, func() error { return s.open() })
	if err != nil {
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
	if s.opt.ReadOnly && statErr != nil {
		return fmt.Errorf("recovery: open %s read-only: %w", s.path, statErr)
	}
	if s.opt.ReadOnly && !exists {
		return fmt.Errorf("recovery: open %s read-only: %w (empty file)", s.path, ErrNotInitialised)
	}
	var warn []error
	if exists {
		fatal, problems, err := preflight(s.path)
		if err != nil {
			return fmt.Errorf("recovery: open %s: %w", s.path, err)
		}
		if fatal {
			if lerr := probeLock(s.path, !s.opt.ReadOnly); lerr != nil {
				return lerr
			}
			return &CheckError{Path: s.path, Problems: problems}
		}
		warn = problems
	}
	db, err := bolt.Open(s.path, 0o600, &bolt.Options{Timeout: lockTimeout, ReadOnly: s.opt.ReadOnly})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return lockedError(s.path, s.opt.ReadOnly)
		}
		if errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrChecksum) || errors.Is(err, berrors.ErrVersionMismatch) {
			return &CorruptError{Bucket: "file", Key: s.path, Reason: err.Error()}
		}
		return fmt.Errorf("recovery: open %s: %w", s.path, err)
	}
	s.db = db
	if len(warn) > 0 {
		s.fail(&CheckError{Path: s.path, Problems: warn})
	}
	if !s.opt.ReadOnly && s.failed == nil {
		if err := s.initialise(); err != nil {
			_ = db.Close()
			return err
		}
	}
	return nil
}

func lockedError(path string, readOnly bool) error {
	if readOnly {
		return fmt.Errorf("%w: %s is held by a running cabinet (read-only access waits for it to stop)", ErrLocked, path)
	}
	return fmt.Errorf("%w: %s is already open (another cabinet process, or cabinet audit, is using it)", ErrLocked, path)
}

// initialise creates the buckets, the meta record and a zero machine record
// in a store that has no bucket at all (a new file, or one whose creation
// was interrupted before its first commit). A store with some buckets is
// never initialised over: Check reports what is missing.
func (s *Store) initialise() error {
	empty := true
	if err := s.db.View(func(btx *bolt.Tx) error {
		return btx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
	}); err != nil {
		return fmt.Errorf("recovery: open %s: %w", s.path, err)
	}
	if !empty { // an existing store is never written at open
		return nil
	}
	if err := s.db.Update(func(btx *bolt.Tx) error { return createAll(btx, s.opt.Now()) }); err != nil {
		return fmt.Errorf("recovery: initialise %s: %w", s.path, err)
	}
	return nil
}

func createAll(btx *bolt.Tx, now time.Time) error {
	for _, name := range allBuckets {
		if _, err := btx.CreateBucket(name); err != nil {
			return fmt.Errorf("recovery: create bucket %s: %w", name, err)
		}
	}
	meta, err := encode(bMeta, kStore, storeMeta{Format: storeFormat, Created: now})
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
	db := s.db
	s.mu.Unlock()
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

// Update runs fn in ONE read-write bbolt transaction, committed with fsync
// (fdatasync) before Update returns. If fn returns an error nothing is
// written. Before committing, the machine record written by fn (if any) must
// satisfy the meter invariant, or Update returns an error wrapping
// ErrInvariant and nothing is written. A record that fails to decode marks
// the store failed (ErrCorrupt); a failed store refuses every Update with
// ErrFailed.
func (s *Store) Update(fn func(tx *Tx) error) error {
	if s.opt.ReadOnly {
		return fmt.Errorf("recovery: update %s: %w", s.path, ErrReadOnly)
	}
	if f := s.Err(); f != nil {
		return fmt.Errorf("recovery: update %s: %w (%w)", s.path, ErrFailed, f)
	}
	err := s.bolt().Update(func(btx *bolt.Tx) error {
		tx := &Tx{s: s, tx: btx}
		if err := fn(tx); err != nil {
			return err
		}
		if tx.machine != nil {
			if err := tx.machine.Meters.Check(tx.machine.Credits); err != nil {
				return fmt.Errorf("recovery: commit: %w: %w", ErrInvariant, err)
			}
		}
		return nil
	})
	if errors.Is(err, ErrCorrupt) {
		s.fail(err)
	}
	return err
}

// View runs fn in a read-only transaction (a consistent snapshot of the last
// commit). It works on a failed store: the audit screens read through it.
// Damage met while reading is returned as ErrCorrupt, never a crash.
func (s *Store) View(fn func(tx *Tx) error) error {
	err := guard("read "+s.path, func() error {
		return s.bolt().View(func(btx *bolt.Tx) error {
			return fn(&Tx{s: s, tx: btx, ro: true})
		})
	})
	if errors.Is(err, ErrCorrupt) {
		s.fail(err)
	}
	return err
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
