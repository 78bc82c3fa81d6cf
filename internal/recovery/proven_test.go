package recovery

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestProvenFollowsEveryCommit: after every commit (credits, exceptions
// raised and acknowledged, in any order) Proven equals what a read
// transaction sees, also across a reopen.
func TestProvenFollowsEveryCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	opt := Options{Now: fixedClock(), Mirror: path + ".mirror"}
	if _, err := Init(path, opt); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(when string) {
		t.Helper()
		got, err := s.Proven()
		if err != nil {
			t.Fatalf("%s: Proven = %v", when, err)
		}
		var want Proven
		if err := s.View(func(tx *Tx) error {
			var err error
			if want.Machine, err = tx.Machine(); err != nil {
				return err
			}
			want.Exceptions, err = tx.Exceptions()
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s: Proven differs from the store (-store +proven):\n%s", when, d)
		}
	}
	check("after init")
	for i := range 200 {
		switch rng.IntN(4) {
		case 0:
			credit(t, s, 500)
		case 1:
			if err := s.Update(func(tx *Tx) error { return tx.RaiseException(0x47) }); err != nil {
				t.Fatal(err)
			}
		case 2:
			pv, _ := s.Proven()
			if len(pv.Exceptions) > 0 {
				seq := pv.Exceptions[0].Seq
				if err := s.Update(func(tx *Tx) error { return tx.AckException(seq) }); err != nil {
					t.Fatal(err)
				}
			}
		case 3: // refused: nothing changes
			_ = s.Update(func(tx *Tx) error {
				if err := tx.RaiseException(0x11); err != nil {
					return err
				}
				return errRefusedForTest
			})
		}
		check(fmt.Sprintf("after step %d", i))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, opt); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check("after reopen")
}

var errRefusedForTest = errorString("refused by the test")

type errorString string

func (e errorString) Error() string { return string(e) }

// TestProvenNeverWaitsForACommit: while a commit is between bbolt's commit
// and its proof (pmu held by Update), a read transaction waits, Proven does
// not, and it shows the commit before (never the unproven one).
func TestProvenNeverWaitsForACommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	opt := Options{Now: fixedClock()}
	if _, err := Init(path, opt); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	credit(t, s, 100)
	before, err := s.Proven()
	if err != nil {
		t.Fatal(err)
	}
	s.pmu.Lock() // as Update holds it from bbolt's commit to the proof's sync
	var released atomic.Bool
	go func() {
		// A watchdog, not a timing assertion: if Proven waited for the
		// lock, it returns only after this and the test fails below.
		time.Sleep(2 * time.Second)
		released.Store(true)
		s.pmu.Unlock()
	}()
	got, err := s.Proven()
	if released.Load() {
		t.Fatal("Proven waited for the commit in flight")
	}
	if err != nil {
		t.Fatal(err)
	}
	if got.Machine.Credits != before.Machine.Credits {
		t.Fatalf("Proven credits = %v, want %v", got.Machine.Credits, before.Machine.Credits)
	}
	for !released.Load() {
		time.Sleep(10 * time.Millisecond)
	}
}
