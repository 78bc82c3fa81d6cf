package recovery

import (
	"slices"

	"cabinet/internal/sas"
)

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
	// Redemption and Validation are the TITO records the link reports
	// (the ticket in's SAS redemption, exceptions 67/68 and LP 70/71; the
	// validation records of LP 4D and exception 3D): tito.go.
	Redemption sas.Redemption
	Validation []sas.ValidationRecord
}

// clone returns a copy sharing nothing with p.
func (p *Proven) clone() Proven {
	return Proven{Machine: cloneMachine(p.Machine), Exceptions: slices.Clone(p.Exceptions),
		Redemption: p.Redemption, Validation: slices.Clone(p.Validation)}
}

// readTITO reads the TITO part of a Proven in tx.
func (p *Proven) readTITO(tx *Tx) error {
	var err error
	if p.Redemption, err = tx.Redemption(); err != nil {
		return err
	}
	p.Validation, err = tx.ValidationRecords()
	return err
}

// Proven returns the last proven commit's machine record and exception
// queue without waiting for a commit in flight. The first call after Open
// or a memory clear reads them from the store (a View, after any commit in
// flight).
func (s *Store) Proven() (Proven, error) {
	if p := s.proven.Load(); p != nil {
		return p.clone(), nil
	}
	// Filled under the writers' lock: no commit is in flight, so what is
	// read is the last proven commit and no Update publishes meanwhile.
	// Only the first read waits (for a commit in flight, if any).
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if p := s.proven.Load(); p != nil {
		return p.clone(), nil
	}
	var p Proven
	err := s.View(func(tx *Tx) error {
		var err error
		if p.Machine, err = tx.Machine(); err != nil {
			return err
		}
		if p.Exceptions, err = tx.Exceptions(); err != nil {
			return err
		}
		return p.readTITO(tx)
	})
	if err != nil {
		return Proven{}, err
	}
	c := p.clone()
	s.proven.Store(&c)
	return p, nil
}

// provenAfter is the Proven a commit of tx publishes once proven: the
// previous one with what tx wrote (its machine record, its queue read in
// the transaction when it raised or acknowledged an exception, its ticket
// records read again when it wrote one). nil when
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
	if tx.titoTouched {
		if err := next.readTITO(tx); err != nil {
			return nil, err
		}
	}
	return &next, nil
}
