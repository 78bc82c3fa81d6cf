package recovery

import "slices"

// Proven is what the SAS link reads of the store: the machine record and
// the host's exception queue as of the last proven commit, kept in memory.
//
// The link must never wait for storage (platform.md §4, SAS's 20 ms rule):
// a read transaction waits while a commit is between bbolt's commit and its
// proof (View shows only proven commits), which on an SD card is two syncs
// of tens of milliseconds each. Update publishes a new Proven once the
// commit is proven, so a reader sees the commit before the one in flight
// until that one is the store's, never an unproven one, and never waits.
type Proven struct {
	Machine    Machine
	Exceptions []Exception
}

// Proven returns the last proven commit's machine record and exception
// queue without waiting for a commit in flight. The first call after Open
// or a memory clear reads them from the store (a View, after any commit in
// flight).
func (s *Store) Proven() (Proven, error) {
	if p := s.proven.Load(); p != nil {
		return Proven{Machine: cloneMachine(p.Machine), Exceptions: slices.Clone(p.Exceptions)}, nil
	}
	// Filled under the writers' lock: no commit is in flight, so what is
	// read is the last proven commit and no Update publishes meanwhile.
	// Only the first read waits (for a commit in flight, if any).
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if p := s.proven.Load(); p != nil {
		return Proven{Machine: cloneMachine(p.Machine), Exceptions: slices.Clone(p.Exceptions)}, nil
	}
	var p Proven
	err := s.View(func(tx *Tx) error {
		var err error
		if p.Machine, err = tx.Machine(); err != nil {
			return err
		}
		p.Exceptions, err = tx.Exceptions()
		return err
	})
	if err != nil {
		return Proven{}, err
	}
	s.proven.Store(&Proven{Machine: cloneMachine(p.Machine), Exceptions: slices.Clone(p.Exceptions)})
	return p, nil
}

// provenAfter is the Proven a commit of tx publishes once proven: the
// previous one with what tx wrote (its machine record, its queue read in
// the transaction when it raised or acknowledged an exception). nil when
// the previous value is unknown (nothing read yet): the next Proven reads.
func (tx *Tx) provenAfter() (*Proven, error) {
	prev := tx.s.proven.Load()
	if prev == nil {
		return nil, nil
	}
	next := *prev
	if tx.machine != nil {
		next.Machine = cloneMachine(*tx.machine)
	}
	if tx.queueChanged {
		q, err := tx.Exceptions()
		if err != nil {
			return nil, err
		}
		next.Exceptions = q
	}
	return &next, nil
}
