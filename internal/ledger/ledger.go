// Package ledger is the one way the cabinet's committed state changes
// (platform.md §4, commit then act): a value of the caller's type S,
// replaced only when the store transaction that wrote it has committed.
// The value lives in an unexported field of this package: a holder of a
// *Ledger reads copies (Cur) and changes it through Commit alone, so
// "shown before committed" cannot be written outside a commit — the
// compiler refuses it, not a comment.
package ledger

import (
	"errors"
	"fmt"
	"log/slog"

	"cabinet/internal/recovery"
)

// ErrMemory is wrapped by every memory error: the store failed its
// integrity checks at boot, or a commit could not be written. Play stays
// disabled until a full memory clear.
var ErrMemory = errors.New("cabinet: memory error")

// Store is what the ledger needs of the durable store (*recovery.Store).
// It is an interface so that a test can wrap the real bbolt store in one
// that fails commits on demand.
type Store interface {
	Check() error
	Update(fn func(tx *recovery.Tx) error) error
	View(fn func(tx *recovery.Tx) error) error
	Clear(confirm string) error
}

// Rules is what the state type S brings to its ledger.
type Rules[S any] struct {
	// Load reads into s what every transaction starts from (the machine
	// record, as stored); Save writes it back after the change.
	Load, Save func(tx *recovery.Tx, s *S) error
	// Failed is the memory error recorded in s (nil: none); SetFailed
	// records one.
	Failed    func(s S) error
	SetFailed func(s *S, err error)
	// Evidence takes from next, the result of a change run without a
	// transaction under a memory error, what cur still follows (the
	// hardware facts); the durable part stays as read.
	Evidence func(cur *S, next S)
	// Wrap names the failure of a commit op (a memory error).
	Wrap func(op string, err error) error
}

// Ledger holds the committed state of type S over a store.
type Ledger[S any] struct {
	st      Store
	log     *slog.Logger
	rules   Rules[S]
	cur     S
	commits uint64
}

// New is the ledger of store st starting from state s (before any commit).
func New[S any](st Store, log *slog.Logger, s S, r Rules[S]) *Ledger[S] {
	return &Ledger[S]{st: st, log: log, cur: s, rules: r}
}

// Cur is a copy of the committed state.
func (l *Ledger[S]) Cur() S { return l.cur }

// Commits counts the transactions committed.
func (l *Ledger[S]) Commits() uint64 { return l.commits }

// Store is the store, to read (View, Check). Its only writer is Commit.
func (l *Ledger[S]) Store() interface {
	Check() error
	View(fn func(tx *recovery.Tx) error) error
} {
	return l.st
}

// refused marks an error returned by a commit's change function: the change
// was refused (bad input, not enough credits), the store is sound.
type refused struct{ err error }

func (r refused) Error() string { return r.err.Error() }
func (r refused) Unwrap() error { return r.err }

// Commit is the one path by which the committed state changes. change
// gets a copy of the committed state as loaded in the transaction, edits
// it and writes what else the step needs; Commit saves it, and only when
// the transaction has committed does the ledger's state become the new
// one.
//
// An error from change is a refusal: nothing is written, nothing changes,
// the error is returned as is. Any other failure (the store cannot read,
// write or commit) is a memory error (Fail): nothing changes except it.
//
// With a memory error already present the store is evidence and is not
// written: change runs with a nil tx and only what Rules.Evidence takes of
// its result is kept.
func (l *Ledger[S]) Commit(op string, change func(tx *recovery.Tx, s *S) error) error {
	next := l.cur
	if l.rules.Failed(l.cur) != nil {
		if err := change(nil, &next); err != nil {
			return err
		}
		l.rules.Evidence(&l.cur, next)
		return nil
	}
	err := l.st.Update(func(tx *recovery.Tx) error {
		if err := l.rules.Load(tx, &next); err != nil {
			return err
		}
		if err := change(tx, &next); err != nil {
			return refused{err}
		}
		return l.rules.Save(tx, &next)
	})
	var rf refused
	if errors.As(err, &rf) {
		return rf.err
	}
	if err != nil {
		return l.Fail(l.rules.Wrap(op, err))
	}
	l.cur = next
	l.commits++
	return nil
}

// Fail puts the ledger in a memory error (err) unless it is in one
// already, and returns the error in force. Nothing is written.
func (l *Ledger[S]) Fail(err error) error {
	if f := l.rules.Failed(l.cur); f != nil {
		return f
	}
	l.rules.SetFailed(&l.cur, err)
	l.log.Error("store failure: memory-error tilt", "err", err)
	return err
}

// Evidence is the boot of a store that failed its check: the committed
// state is what read can still take from the store (read's own error is
// ignored), in a memory error (wrap(checkErr)); nothing is written.
func (l *Ledger[S]) Evidence(checkErr error, read func(tx *recovery.Tx, s *S) error) error {
	next := l.cur
	if rerr := l.st.View(func(tx *recovery.Tx) error { return read(tx, &next) }); rerr == nil {
		l.cur = next
	}
	return l.Fail(checkErr)
}

// Clear is the full memory clear: the store keeps the old file aside and
// resets; the memory error goes (the next boot commits the empty store's
// state).
func (l *Ledger[S]) Clear() error {
	if err := l.st.Clear("CLEAR"); err != nil {
		return fmt.Errorf("cabinet: memory clear: %w", err)
	}
	l.rules.SetFailed(&l.cur, nil)
	return nil
}
