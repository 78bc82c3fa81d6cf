package recovery

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/meters"
)

// ClearConfirm is the confirmation string Clear and ClearFile require.
const ClearConfirm = "CLEAR"

// Clear is the full memory clear (audit key + reset key + confirmation, the
// controller's part). It never deletes evidence: the current file is kept
// aside as "<path>.cleared-<UTC time>" (a hard link, or a synced copy where
// links are not supported), a new empty store is built next to it and
// renamed over path, and a memory_clear event naming the kept file is logged.
// Every meter, credit, round, recall, event and override starts from zero.
// The path is never left unlocked: the new file is locked before it
// replaces the old one. Afterwards the store is writable again.
func (s *Store) Clear(confirm string) error {
	if s.opt.ReadOnly {
		return fmt.Errorf("recovery: clear %s: %w", s.path, ErrReadOnly)
	}
	if confirm != ClearConfirm {
		return fmt.Errorf("recovery: clear %s: %w (want %q)", s.path, ErrConfirm, ClearConfirm)
	}
	db, err := rebuild(s.path, s.opt)
	if err != nil {
		return err
	}
	s.mu.Lock()
	old, oldMirror := s.db, s.mirror
	s.db, s.failed, s.mirror = db, nil, nil
	s.mu.Unlock()
	s.proven.Store(nil) // a new store: read again
	if old != nil {
		_ = old.Close()
	}
	if oldMirror != nil {
		_ = oldMirror.Close()
	}
	if opt := s.opt; opt.Mirror != "" {
		f, err := os.OpenFile(opt.Mirror, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("recovery: clear %s: open proof: %w", s.path, err)
		}
		s.mu.Lock()
		s.mirror = f
		s.mu.Unlock()
		return s.oneSync()
	}
	return nil
}

// ClearFile is the full memory clear of a store file that Open refuses
// (damage bbolt cannot open safely): like Clear, it keeps the file aside and
// puts a new empty store at path, and returns it open. It fails with
// ErrLocked if a process holds the file.
func ClearFile(path, confirm string, opt Options) (*Store, error) {
	opt = opt.withDefaults()
	if opt.ReadOnly {
		return nil, fmt.Errorf("recovery: clear %s: %w", path, ErrReadOnly)
	}
	if confirm != ClearConfirm {
		return nil, fmt.Errorf("recovery: clear %s: %w (want %q)", path, ErrConfirm, ClearConfirm)
	}
	if err := probeLock(path, true); err != nil {
		return nil, err
	}
	db, err := rebuild(path, opt)
	if err != nil {
		return nil, err
	}
	s := &Store{path: path, opt: opt, db: db, file: path}
	if opt.Mirror != "" {
		if err := s.openMirror(); err != nil {
			_ = db.Close()
			return nil, err
		}
		if err := s.oneSync(); err != nil {
			_ = s.Close()
			return nil, err
		}
	}
	return s, nil
}

// rebuild keeps path aside and replaces it with a new, initialised store,
// returned open (and locked).
func rebuild(path string, opt Options) (_ *bolt.DB, err error) {
	now := opt.Now()
	stamp := now.UTC().Format("20060102T150405Z")
	aside := fmt.Sprintf("%s.cleared-%s", path, stamp)
	for i := 1; ; i++ {
		if _, err := os.Lstat(aside); os.IsNotExist(err) {
			break
		}
		aside = fmt.Sprintf("%s.cleared-%s-%d", path, stamp, i)
	}
	if _, err := os.Stat(path); err == nil {
		if err := keepAside(path, aside); err != nil {
			return nil, fmt.Errorf("recovery: clear %s: keep old file: %w", path, err)
		}
	} else {
		aside = ""
	}
	tmp := path + ".clearing"
	_ = os.Remove(tmp)
	db, err := bolt.Open(tmp, 0o600, boltOptions(false))
	if err != nil {
		return nil, fmt.Errorf("recovery: clear %s: create new store: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = db.Close()
			_ = os.Remove(tmp)
		}
	}()
	tmpStore := &Store{path: path, opt: opt}
	proofPath := ""
	if opt.Mirror != "" {
		if proofPath, err = filepath.Abs(opt.Mirror); err != nil {
			return nil, fmt.Errorf("recovery: clear %s: proof path: %w", path, err)
		}
	}
	var p proof
	err = db.Update(func(btx *bolt.Tx) error {
		if err := createAll(btx, now, proofPath); err != nil {
			return err
		}
		tx := &Tx{s: tmpStore, tx: btx}
		// A new identity: two cleared stores must not prove each other.
		if err := tx.put(bMeta, kStore, storeMeta{Format: storeFormat, Created: now, ID: newStoreID(), ClearedFrom: aside, Proof: proofPath}); err != nil {
			return err
		}
		text := "full memory clear"
		if aside != "" {
			text += "; previous store kept as " + filepath.Base(aside)
		}
		if err := tx.Log(meters.KindMemoryClear, text); err != nil {
			return err
		}
		var err error
		p, err = bumpCommit(btx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("recovery: clear %s: initialise: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("recovery: clear %s: replace: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	if opt.Mirror != "" {
		// The old proof is kept aside with the old store; the new one names
		// the new store (its own identity, commit 1).
		if _, err := os.Stat(opt.Mirror); err == nil && aside != "" {
			_ = os.Link(opt.Mirror, aside+".mirror")
		}
		if err := createMirror(opt.Mirror, p); err != nil {
			return nil, fmt.Errorf("recovery: clear %s: %w", path, err)
		}
	}
	return db, nil
}

// keepAside makes aside a second name of path (or a synced copy).
func keepAside(path, aside string) error {
	if err := os.Link(path, aside); err == nil {
		syncDir(filepath.Dir(path))
		return nil
	}
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(aside, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o400)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
