package recovery

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/meters"
)

// ClearConfirm is the confirmation string Clear requires.
const ClearConfirm = "CLEAR"

// Clear is the full memory clear (audit key + reset key + confirmation, the
// controller's part). It never deletes evidence: the current file is kept
// aside as "<path>.cleared-<time>" (a hard link, or a copy where links are not
// supported), a new empty store is built next to it and renamed over path,
// and a memory_clear event naming the kept file is logged. Every meter,
// credit, round, recall, event and override starts from zero. The path is
// never left unlocked: the new file is locked before it replaces the old.

func (s *Store) Clear(confirm string) (err error) {
	if s.opt.ReadOnly {
		return fmt.Errorf("recovery: clear %s: %w", s.path, ErrReadOnly)
	}
	if confirm != ClearConfirm {
		return fmt.Errorf("recovery: clear %s: %w (want %q)", s.path, ErrConfirm, ClearConfirm)
	}
	now := s.opt.Now()
	aside := fmt.Sprintf("%s.cleared-%s", s.path, now.UTC().Format("20060102T150405Z"))
	for i := 1; ; i++ {
		if _, err := os.Lstat(aside); os.IsNotExist(err) {
			break
		}
		aside = fmt.Sprintf("%s.cleared-%s-%d", s.path, now.UTC().Format("20060102T150405Z"), i)
	}
	if err := keepAside(s.path, aside); err != nil {
		return fmt.Errorf("recovery: clear %s: keep old file: %w", s.path, err)
	}
	tmp := s.path + ".clearing"
	_ = os.Remove(tmp)
	db, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: lockTimeout})
	if err != nil {
		return fmt.Errorf("recovery: clear %s: create new store: %w", s.path, err)
	}
	defer func() {
		if err != nil {
			_ = db.Close()
			_ = os.Remove(tmp)
		}
	}()
	err = db.Update(func(btx *bolt.Tx) error {
		if err := createAll(btx, now); err != nil {
			return err
		}
		if err := (&Tx{s: s, tx: btx}).put(bMeta, kStore, storeMeta{Format: storeFormat, Created: now, ClearedFrom: aside}); err != nil {
			return err
		}
		return (&Tx{s: s, tx: btx}).Log(meters.KindMemoryClear, "full memory clear; previous store kept as "+filepath.Base(aside))
	})
	if err != nil {
		return fmt.Errorf("recovery: clear %s: initialise: %w", s.path, err)
	}
	if err := os.Rename(tmp, s.path); err != nil {
		return fmt.Errorf("recovery: clear %s: replace: %w", s.path, err)
	}
	syncDir(filepath.Dir(s.path))
	s.mu.Lock()
	old := s.db
	s.db, s.failed = db, nil
	s.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	return nil
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
