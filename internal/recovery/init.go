package recovery

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrHistory is returned by Init for a store that has history: a cabinet has
// run on it (commit counter 2 or more), or its history cannot be told.
var ErrHistory = errors.New("recovery: the store has history")

// Init is `cabinet init`, the explicit and logged act that makes a new
// cabinet: it creates the store and its proof where there is neither
// (logged in the store's event log), and finishes a creation cut before its
// proof was made (a store at commit 1, no proof file). It refuses any store
// that has history, whatever its proof — matching, missing, damaged, older
// or newer — with an error wrapping ErrHistory, and any store it cannot read
// or whose proof fails (wrapping that memory error): a cabinet that has run
// is started over only by the technician's memory clear, which keeps the old
// store as evidence and logs it (Store.Clear). A refused store is not written
// to. created is false when the store is already a new cabinet's (commit 1,
// its proof matching): nothing done.
func Init(path string, opt Options) (created bool, err error) {
	look, err := Open(path, Options{ReadOnly: true, Mirror: opt.Mirror, RecallDepth: opt.RecallDepth, EventDepth: opt.EventDepth})
	switch {
	case errors.Is(err, os.ErrNotExist) || errors.Is(err, ErrNotInitialised):
		// No store (or an empty file): a new cabinet, unless the proof
		// shows one has run (Open with Init fails the store then).
	case err != nil:
		return false, fmt.Errorf("recovery: init %s: %w", path, err)
	default:
		refuse, done := initLook(look)
		_ = look.Close()
		if refuse != nil || done {
			return false, refuse
		}
	}
	opt.Init, opt.ReadOnly = true, false
	st, err := Open(path, opt)
	if err != nil {
		return false, fmt.Errorf("recovery: init %s: %w", path, err)
	}
	defer st.Close()
	if err := st.Err(); err != nil {
		return false, fmt.Errorf("recovery: init %s: %w", path, err)
	}
	return true, nil
}

// initLook judges an existing store for Init from a read-only open: refuse
// (an error), done (a new cabinet's store already, nothing to do), or
// neither (an empty bbolt file, or a creation cut before its proof: Init
// goes on).
func initLook(s *Store) (refuse error, done bool) {
	if s.bolt() != nil {
		empty, err := s.empty()
		if err == nil && empty && s.Err() == nil {
			return nil, false
		}
	}
	n, err := s.Commits()
	if err != nil {
		cause := s.Err()
		if cause == nil {
			cause = err
		}
		return fmt.Errorf("recovery: init %s: %w: the store cannot be read, so its history cannot be told (%w); %s", s.path, ErrHistory, cause, clearHint), false
	}
	if n != 1 {
		what := fmt.Sprintf("commit %d: a cabinet has run on it", n)
		if n == 0 {
			what = "no commit counter: made before the proof existed, its history cannot be told"
		}
		if f := s.Err(); f != nil {
			return fmt.Errorf("recovery: init %s: %w (%s; and %w); %s", s.path, ErrHistory, what, f, clearHint), false
		}
		return fmt.Errorf("recovery: init %s: %w (%s); %s", s.path, ErrHistory, what, clearHint), false
	}
	f := s.Err()
	if f == nil {
		return nil, true
	}
	var me *MirrorError
	if errors.As(f, &me) && me.Kind == ErrMirror && me.StoreN == 1 && s.opt.Mirror != "" {
		if _, serr := os.Stat(s.opt.Mirror); errors.Is(serr, os.ErrNotExist) {
			return nil, false // its creation was cut before the proof: finish it
		}
	}
	return fmt.Errorf("recovery: init %s: %w; %s", s.path, f, clearHint), false
}

// clearHint is what every refusal of Init says.
const clearHint = "cabinet init makes only new cabinets: starting over on this store is the technician's memory clear (audit key + reset key, confirmed), which keeps it as evidence (<store>.cleared-<UTC time>) and logs it; nothing was changed"

// ProofFor is the proof file `cabinet audit` compares the store at path with
// when it is given none: <path>.mirror when that file exists, else the proof
// file the store names (meta/store, recorded when it was made with a proof or
// booted with one), even when that file is missing — the missing proof is
// then the store's memory error (Store.proofMissing), as for run and sim —
// else "" (a store never proven: tests, tools).
func ProofFor(path string) string {
	if _, err := os.Stat(path + ".mirror"); err == nil {
		return path + ".mirror"
	}
	s, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		return ""
	}
	defer s.Close()
	var sm storeMeta
	if err := s.View(func(tx *Tx) error {
		_, err := tx.get(bMeta, kStore, &sm)
		return err
	}); err != nil {
		return ""
	}
	if sm.Proof != "" && !filepath.IsAbs(sm.Proof) {
		return ""
	}
	return sm.Proof
}
