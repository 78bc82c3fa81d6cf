package ledger_test

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"

	"cabinet/internal/ledger"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/recovery/recoverytest"
)

// books is a small committed state: the machine record's credits and a
// hardware fact that follows inputs even under a memory error.
type books struct {
	credits int64
	door    bool
	failed  error
}

var rules = ledger.Rules[books]{
	Load: func(tx *recovery.Tx, s *books) error {
		m, err := tx.Machine()
		s.credits = int64(m.Credits)
		return err
	},
	Save: func(tx *recovery.Tx, s *books) error {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		m.Credits = money.Cents(s.credits)
		m.Meters.BillsIn = m.Credits // every credit a bill: the meters balance
		return tx.PutMachine(m)
	},
	Failed:    func(s books) error { return s.failed },
	SetFailed: func(s *books, err error) { s.failed = err },
	Evidence:  func(cur *books, next books) { cur.door = next.door },
	Wrap:      func(op string, err error) error { return fmt.Errorf("memory error: %s: %w", op, err) },
}

// failing fails every Update once fail is set (a disk that stopped).
type failing struct {
	*recovery.Store
	fail bool
}

var errDisk = errors.New("disk gone")

func (f *failing) Update(fn func(tx *recovery.Tx) error) error {
	if f.fail {
		return errDisk
	}
	return f.Store.Update(fn)
}

// TestCommit: the state moves only when its transaction commits; a
// refusal changes nothing; a store failure is a memory error after which
// only the evidence hook's facts follow and nothing is written.
func TestCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cabinet.db")
	st := &failing{Store: recoverytest.Open(t, path, recovery.Options{})}
	l := ledger.New(st, slog.New(slog.DiscardHandler), books{}, rules)
	add := func(v int64) func(*recovery.Tx, *books) error {
		return func(tx *recovery.Tx, s *books) error { s.credits += v; return nil }
	}
	if err := l.Commit("add 500", add(500)); err != nil {
		t.Fatal(err)
	}
	if got := l.Cur().credits; got != 500 || l.Commits() != 1 {
		t.Fatalf("after a commit: credits %d, commits %d; want 500, 1", got, l.Commits())
	}
	refusal := errors.New("not enough credits")
	err := l.Commit("refused", func(tx *recovery.Tx, s *books) error { s.credits = -1; return refusal })
	if !errors.Is(err, refusal) || l.Cur().credits != 500 || l.Commits() != 1 {
		t.Fatalf("Commit(refused) = %v, credits %d, commits %d; want the refusal, 500, 1", err, l.Cur().credits, l.Commits())
	}
	st.fail = true
	err = l.Commit("add 100", add(100))
	if !errors.Is(err, errDisk) || l.Cur().credits != 500 || l.Cur().failed == nil {
		t.Fatalf("Commit on a failed disk = %v, credits %d, failed %v; want the disk's error, 500, a memory error", err, l.Cur().credits, l.Cur().failed)
	}
	st.fail = false // the store is evidence now: nothing more is written
	if err := l.Commit("door", func(tx *recovery.Tx, s *books) error {
		if tx != nil {
			t.Error("a change under a memory error got a transaction")
		}
		s.door, s.credits = true, 9999
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if c := l.Cur(); !c.door || c.credits != 500 || l.Commits() != 1 {
		t.Fatalf("under the memory error: %+v, commits %d; want the door followed, credits 500, 1 commit", c, l.Commits())
	}
}
