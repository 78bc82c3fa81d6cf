package recovery

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cabinet/internal/game"
)

func peek(t *testing.T, s *Store) (Exception, bool) {
	t.Helper()
	var e Exception
	var ok bool
	if err := s.View(func(tx *Tx) error {
		var err error
		e, ok, err = tx.PeekException()
		return err
	}); err != nil {
		t.Fatalf("PeekException: %v", err)
	}
	return e, ok
}

func raise(t *testing.T, s *Store, codes ...byte) {
	t.Helper()
	if err := s.Update(func(tx *Tx) error {
		for _, c := range codes {
			if err := tx.RaiseException(c); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatalf("RaiseException: %v", err)
	}
}

func ack(t *testing.T, s *Store, seq uint64) {
	t.Helper()
	if err := s.Update(func(tx *Tx) error { return tx.AckException(seq) }); err != nil {
		t.Fatalf("AckException(%d): %v", seq, err)
	}
}

// drain reads the queue as a host would: peek, acknowledge, until empty.
func drain(t *testing.T, s *Store) []byte {
	t.Helper()
	var out []byte
	for range ExceptionDepth + 5 {
		e, ok := peek(t, s)
		if !ok {
			return out
		}
		out = append(out, e.Code)
		ack(t, s, e.Seq)
		ack(t, s, e.Seq) // a repeated acknowledgement removes nothing more
	}
	t.Fatal("queue does not drain")
	return nil
}

func TestExceptionQueueFIFO(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	if _, ok := peek(t, s); ok {
		t.Fatal("a new store has an exception queued")
	}
	raise(t, s, 0x11, 0x12)
	raise(t, s, 0x4F)
	if got, want := drain(t, s), []byte{0x11, 0x12, 0x4F}; !cmp.Equal(got, want) {
		t.Errorf("drained % X, want % X", got, want)
	}
}

func TestExceptionQueueOverflow(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	var codes []byte
	for i := range ExceptionDepth + 3 {
		codes = append(codes, byte(0x10+i%16))
	}
	raise(t, s, codes...)
	// The 70 takes the place of the first loss and one slot: the newest
	// ExceptionDepth-1 exceptions are kept, in order, after it.
	got := drain(t, s)
	keep := codes[len(codes)-(ExceptionDepth-1):]
	i := ExceptionDepth - 1 - 3 // the 70 was queued when the queue first filled: before the 3 last raises
	want := append(append(append([]byte(nil), keep[:i]...), ExceptionOverflow), keep[i:]...)
	if !cmp.Equal(got, want) {
		t.Errorf("after overflow drained % X\nwant % X", got, want)
	}
	// Raised again while the 70 waits: one 70 only.
	raise(t, s, codes...)
	n70 := 0
	for _, c := range drain(t, s) {
		if c == ExceptionOverflow {
			n70++
		}
	}
	if n70 != 1 {
		t.Errorf("%d exceptions 70 queued, want one", n70)
	}
}

// An exception is durable exactly with the transaction that raised it: a
// refused transaction leaves no exception; a committed one survives a
// reopen.
func TestExceptionCommittedWithItsCause(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	s, err := Open(path, Options{Init: true, Now: fixedClock()})
	if err != nil {
		t.Fatal(err)
	}
	refusal := errors.New("refused")
	err = s.Update(func(tx *Tx) error {
		if err := tx.RaiseException(0x7E); err != nil {
			return err
		}
		return refusal
	})
	if !errors.Is(err, refusal) {
		t.Fatalf("Update = %v, want the refusal", err)
	}
	if e, ok := peek(t, s); ok {
		t.Fatalf("a rolled-back transaction left exception %02X", e.Code)
	}
	raise(t, s, 0x17)
	if err := s.Update(func(tx *Tx) error {
		return tx.PutHostState(HostState{PlayLocked: true, GamesOff: []game.ID{game.Zappit}})
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	if e, ok := peek(t, s2); !ok || e.Code != 0x17 {
		t.Errorf("after reopen peek = %02X %v, want 17", e.Code, ok)
	}
	var h HostState
	if err := s2.View(func(tx *Tx) error { var err error; h, err = tx.HostState(); return err }); err != nil {
		t.Fatal(err)
	}
	if !h.PlayLocked || !h.GameOff(game.Zappit) || h.GameOff(game.Classic) {
		t.Errorf("host state after reopen = %+v", h)
	}
}

func TestPutHostStateRefusesUnknownGame(t *testing.T) {
	s, _ := openTest(t, Options{Init: true})
	err := s.Update(func(tx *Tx) error { return tx.PutHostState(HostState{GamesOff: []game.ID{"poker9"}}) })
	if err == nil {
		t.Fatal("unknown game stored")
	}
}
