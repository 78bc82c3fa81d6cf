package recovery

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/game"
)

// The SAS bucket holds what the casino's host link needs to keep across a
// power cut: the exception queue (SAS 6.02 §2.2: a FIFO of at least 20
// entries in non-volatile memory) and the host's commands in force (play
// locked out, bill acceptor or games disabled). It is optional: a store
// made before SAS, or on a cabinet without SAS, has none until the first
// exception is raised or the first host command is stored.
var (
	bSAS      = []byte("sas")
	kSASQueue = []byte("queue")
	kSASHost  = []byte("host")
)

// ExceptionDepth is the number of exceptions the queue keeps. When it is
// full the oldest is dropped and exception 70 (buffer overflow) is queued
// where the loss happened (SAS: "overflow ⇒ drop oldest and report 70").
// One 70 stands for every loss until the host has read it, so a host that
// falls behind still reads the newest exceptions, not a stream of 70s.
const ExceptionDepth = 64

// ExceptionOverflow is SAS exception 70: exceptions were dropped.
const ExceptionOverflow byte = 0x70

// Exception is one queued SAS exception.
type Exception struct {
	Seq  uint64    `json:"seq"`
	Code byte      `json:"code"`
	At   time.Time `json:"at"`
}

// sasQueue is the queue's bookkeeping record.
type sasQueue struct {
	Next uint64 `json:"next"` // sequence number of the next exception
}

// HostState is what the host commanded and the cabinet keeps across a power
// cut (SAS LP 01/02, 06/07, 08, 09): a host lock-out must outlive a restart.
type HostState struct {
	// PlayLocked: LP 01 (shut down) received, LP 02 not yet. The round in
	// progress finishes; no new round starts.
	PlayLocked bool `json:"play_locked,omitempty"`
	// BillsOff: LP 07 (disable bill acceptor) in force.
	BillsOff bool `json:"bills_off,omitempty"`
	// DenomMask is LP 08's bill mask (bit 0 $1, bit 1 $2, bit 2 $5, …) and
	// DenomSet tells whether the host ever sent one (none: every bill the
	// configuration allows).
	DenomMask uint32 `json:"denom_mask,omitempty"`
	DenomSet  bool   `json:"denom_set,omitempty"`
	// BillOneShot: LP 08's action flag said "disable the bill acceptor
	// after each accepted bill" (00): each stacked bill sets BillsOff in its
	// own transaction, until the host enables the acceptor again (LP 06).
	BillOneShot bool `json:"bill_one_shot,omitempty"`
	// GamesOff lists the games the host disabled (LP 09).
	GamesOff []game.ID `json:"games_off,omitempty"`
	// SoundOff: LP 03 (sound off) in force, LP 04 not yet; the cabinet is
	// silent whatever the operator's sound setting.
	SoundOff bool `json:"sound_off,omitempty"`
}

// GameOff reports whether the host disabled game g.
func (h HostState) GameOff(g game.ID) bool {
	for _, x := range h.GamesOff {
		if x == g {
			return true
		}
	}
	return false
}

// sasBucket returns the SAS bucket, creating it in a read-write
// transaction; nil (no error) in a read-only one that has none yet.
func (tx *Tx) sasBucket() (*bolt.Bucket, error) {
	if b := tx.tx.Bucket(bSAS); b != nil || tx.ro {
		return b, nil
	}
	b, err := tx.tx.CreateBucket(bSAS)
	if err != nil {
		return nil, fmt.Errorf("recovery: create bucket %s: %w", bSAS, err)
	}
	return b, nil
}

func (tx *Tx) sasQueue(b *bolt.Bucket) (sasQueue, error) {
	q := sasQueue{Next: 1}
	if b == nil {
		return q, nil
	}
	if raw := b.Get(kSASQueue); raw != nil {
		if err := decode(bSAS, kSASQueue, raw, &q); err != nil {
			return q, err
		}
	}
	return q, nil
}

// RaiseException queues a SAS exception in this transaction, so it is
// durable exactly when the step or event that raised it is. A full queue
// drops its oldest entries (never a queued 70) and queues one 70 before
// the new exception unless one is waiting already.
func (tx *Tx) RaiseException(code byte) error {
	tx.queueChanged = true
	b, err := tx.sasBucket()
	if err != nil {
		return err
	}
	q, err := tx.sasQueue(b)
	if err != nil {
		return err
	}
	qd, err := tx.Exceptions()
	if err != nil {
		return err
	}
	n, has70 := len(qd), false
	for _, e := range qd {
		has70 = has70 || e.Code == ExceptionOverflow
	}
	add := func(code byte) error {
		if err := tx.put(bSAS, seqKey(q.Next), Exception{Seq: q.Next, Code: code, At: tx.s.opt.Now()}); err != nil {
			return err
		}
		q.Next++
		n++
		return nil
	}
	if n >= ExceptionDepth && !has70 {
		if err := add(ExceptionOverflow); err != nil {
			return err
		}
	}
	if err := add(code); err != nil {
		return err
	}
	for _, e := range qd {
		if n <= ExceptionDepth {
			break
		}
		if e.Code == ExceptionOverflow {
			continue
		}
		if err := b.Delete(seqKey(e.Seq)); err != nil {
			return fmt.Errorf("recovery: drop oldest exception: %w", err)
		}
		n--
	}
	return tx.put(bSAS, kSASQueue, q)
}

// PeekException returns the oldest queued exception; ok is false when
// there is none.
func (tx *Tx) PeekException() (e Exception, ok bool, err error) {
	b, err := tx.sasBucket()
	if err != nil || b == nil {
		return Exception{}, false, err
	}
	c := b.Cursor()
	for k, raw := c.First(); k != nil; k, raw = c.Next() {
		if len(k) != 8 {
			continue
		}
		if err := decode(bSAS, k, raw, &e); err != nil {
			return Exception{}, false, err
		}
		return e, true, nil
	}
	return Exception{}, false, nil
}

// AckException removes the exception with sequence number seq once the
// host has acknowledged it. Acknowledging one already removed does nothing,
// so a repeated acknowledgement never removes another exception.
func (tx *Tx) AckException(seq uint64) error {
	b, err := tx.sasBucket()
	if err != nil {
		return err
	}
	if b.Get(seqKey(seq)) == nil {
		return nil
	}
	if err := b.Delete(seqKey(seq)); err != nil {
		return fmt.Errorf("recovery: ack exception %d: %w", seq, err)
	}
	tx.queueChanged = true
	return nil
}

// Exceptions lists the queued exceptions, oldest first (audit and tests).
func (tx *Tx) Exceptions() ([]Exception, error) {
	b, err := tx.sasBucket()
	if err != nil || b == nil {
		return nil, err
	}
	var out []Exception
	c := b.Cursor()
	for k, raw := c.First(); k != nil; k, raw = c.Next() {
		if len(k) != 8 {
			continue
		}
		var e Exception
		if err := decode(bSAS, k, raw, &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// HostState returns the host's commands in force (zero: none).
func (tx *Tx) HostState() (HostState, error) {
	var h HostState
	b, err := tx.sasBucket()
	if err != nil || b == nil {
		return h, err
	}
	if raw := b.Get(kSASHost); raw != nil {
		if err := decode(bSAS, kSASHost, raw, &h); err != nil {
			return HostState{}, err
		}
	}
	return h, nil
}

// PutHostState stores the host's commands in force.
func (tx *Tx) PutHostState(h HostState) error {
	for _, g := range h.GamesOff {
		if !g.Valid() {
			return fmt.Errorf("recovery: put host state: unknown game %q", g)
		}
	}
	if _, err := tx.sasBucket(); err != nil {
		return err
	}
	return tx.put(bSAS, kSASHost, h)
}

// checkSAS verifies one record of the SAS bucket.
func checkSAS(k, raw []byte) error {
	switch {
	case bytes.Equal(k, kSASQueue):
		var q sasQueue
		return decode(bSAS, k, raw, &q)
	case bytes.Equal(k, kSASHost):
		var h HostState
		return decode(bSAS, k, raw, &h)
	case len(k) == 8:
		var e Exception
		if err := decode(bSAS, k, raw, &e); err != nil {
			return err
		}
		if e.Seq != binary.BigEndian.Uint64(k) {
			return corrupt(bSAS, k, "exception numbered %d under key %d", e.Seq, binary.BigEndian.Uint64(k))
		}
		return nil
	}
	return corrupt(bSAS, k, "unexpected key")
}
