package recovery

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/game"
	"cabinet/internal/meters"
)

// Check is the boot integrity check (platform.md §4): the bbolt file
// structure read from the file, bbolt's own tx.Check, every record's version
// and checksum and type, the expected set of buckets and keys, ring
// sequence numbers, and the meter invariant of the machine record. It
// returns nil or a *CheckError listing each problem with its bucket and key
// (errors.Is(err, ErrCorrupt) holds; errors.Is(err, ErrInvariant) too when
// the invariant failed). A failure marks the store failed: Update refuses to
// write until Clear.
func (s *Store) Check() error {
	if s.bolt() == nil { // the file could not be opened: Open said why
		if f := s.Err(); f != nil {
			var ce *CheckError
			if errors.As(f, &ce) {
				return f
			}
			return &CheckError{Path: s.path, Problems: []error{f}}
		}
		return fmt.Errorf("recovery: check %s: store closed", s.path)
	}
	var problems []error
	var me *MirrorError
	if errors.As(s.Err(), &me) {
		problems = append(problems, me)
	}
	s.pmu.RLock() // no commit writes the file meanwhile
	fatal, fp, err := preflight(s.file)
	s.pmu.RUnlock()
	if err != nil {
		return err
	}
	problems = append(problems, fp...)
	if !fatal {
		err := guard("check "+s.path, func() error {
			btx, err := s.beginRead(s.bolt())
			if err != nil {
				return err
			}
			defer func() { _ = btx.Rollback() }()
			for e := range btx.Check() {
				problems = append(problems, &CorruptError{Bucket: "file", Key: "bbolt", Reason: e.Error()})
			}
			problems = append(problems, checkRecords(&Tx{s: s, tx: btx, ro: true})...)
			return nil
		})
		if err != nil {
			problems = append(problems, err)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	ce := &CheckError{Path: s.path, Problems: problems}
	s.fail(ce)
	return ce
}

// checkRecords verifies every record of every bucket.
func checkRecords(tx *Tx) []error {
	var out []error
	add := func(err error) {
		if err != nil && len(out) < 100 {
			out = append(out, err)
		}
	}
	empty := true
	_ = tx.tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
	if empty {
		return []error{fmt.Errorf("recovery: no bucket: %w", ErrNotInitialised)}
	}
	// optional: sas.go, tito.go, logdetail.go, shoe records
	known := map[string]bool{string(bSAS): true, string(bNoise): true, string(bTITO): true, string(bTicketsOut): true, string(bTicketsIn): true,
		string(bShoe): true, string(bShoes): true}
	for _, b := range allBuckets {
		known[string(b)] = true
		if tx.tx.Bucket(b) == nil {
			add(&CorruptError{Bucket: string(b), Key: "*", Reason: "bucket missing"})
		}
	}
	_ = tx.tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
		if !known[string(name)] {
			add(corrupt(name, nil, "unexpected bucket"))
		}
		return nil
	})
	each := func(bucket []byte, fn func(k, v []byte) error) {
		b := tx.tx.Bucket(bucket)
		if b == nil {
			return
		}
		_ = b.ForEach(func(k, v []byte) error {
			if v == nil {
				add(corrupt(bucket, k, "unexpected nested bucket"))
				return nil
			}
			add(fn(k, v))
			return nil
		})
	}
	only := func(bucket, key []byte, v any) func(k, raw []byte) error {
		return func(k, raw []byte) error {
			if !bytes.Equal(k, key) {
				return corrupt(bucket, k, "unexpected key")
			}
			return decode(bucket, k, raw, v)
		}
	}
	var sm storeMeta
	each(bMeta, func(k, raw []byte) error {
		if bytes.Equal(k, kCommit) {
			_, err := unseal(bMeta, k, raw)
			return err
		}
		return only(bMeta, kStore, &sm)(k, raw)
	})
	var m Machine
	each(bMachine, only(bMachine, kMachine, &m))
	each(bRound, checkRoundKey)
	var open OpenRound
	if tx.tx.Bucket(bRound) != nil {
		if o, err := tx.getRound(); err != nil {
			add(err)
		} else if o != nil {
			open = *o
		}
	}
	each(bSAS, checkSAS)
	checkShoes(tx, add)
	each(bCarry, func(k, raw []byte) error {
		if !game.ID(k).Valid() {
			return corrupt(bCarry, k, "carry of an unknown game")
		}
		_, err := unseal(bCarry, k, raw)
		return err
	})
	each(bOverrides, func(k, raw []byte) error {
		var v string
		return decode(bOverrides, k, raw, &v)
	})
	var lastRound uint64
	checkRing := func(bucket []byte, decodeSeq func(k, raw []byte) (uint64, error)) {
		var prev uint64
		each(bucket, func(k, raw []byte) error {
			if len(k) != 8 {
				return corrupt(bucket, k, "ring key is not an 8-byte sequence number")
			}
			n := binary.BigEndian.Uint64(k)
			if n <= prev {
				return corrupt(bucket, k, "sequence %d after %d", n, prev)
			}
			prev = n
			seq, err := decodeSeq(k, raw)
			if err != nil {
				return err
			}
			if seq != 0 && seq != n {
				return corrupt(bucket, k, "record says sequence %d", seq)
			}
			return nil
		})
	}
	checkRing(bRecall, func(k, raw []byte) (uint64, error) {
		var r meters.Recall
		if err := decode(bRecall, k, raw, &r); err != nil {
			return 0, err
		}
		if !r.Game.Valid() {
			return 0, corrupt(bRecall, k, "round %d of unknown game %q", r.Round, r.Game)
		}
		lastRound = max(lastRound, r.Round)
		return 0, nil
	})
	// The event log's two rings (logdetail.go): each holds only its own
	// kinds, and they share one sequence (no number in both).
	sigSeqs := map[string]bool{}
	checkRing(bEvents, func(k, raw []byte) (uint64, error) {
		var e meters.Event
		if err := decode(bEvents, k, raw, &e); err != nil {
			return 0, err
		}
		if meters.Noise(e.Kind) {
			return 0, corrupt(bEvents, k, "device noise (%s) in the ring of significant events", e.Kind)
		}
		sigSeqs[string(k)] = true
		return e.Seq, nil
	})
	checkRing(bNoise, func(k, raw []byte) (uint64, error) {
		var e meters.Event
		if err := decode(bNoise, k, raw, &e); err != nil {
			return 0, err
		}
		if !meters.Noise(e.Kind) {
			return 0, corrupt(bNoise, k, "significant event %s in the ring of device noise", e.Kind)
		}
		if sigSeqs[string(k)] {
			return 0, corrupt(bNoise, k, "sequence number also used in %s", bEvents)
		}
		return e.Seq, nil
	})
	if b := tx.tx.Bucket(bMeta); b != nil && b.Get(kStore) == nil {
		add(&CorruptError{Bucket: string(bMeta), Key: string(kStore), Reason: "record missing"})
	} else if sm.Format < 0 || sm.Format > storeFormat {
		add(&CorruptError{Bucket: string(bMeta), Key: string(kStore), Reason: fmt.Sprintf("store format %d, want %d at most", sm.Format, storeFormat)})
	} else if sm.Format < 2 && tx.tx.Bucket(bNoise) != nil {
		add(&CorruptError{Bucket: string(bNoise), Key: "*", Reason: fmt.Sprintf("a noise ring in a store of format %d (the ring came with format 2)", sm.Format)})
	}
	b := tx.tx.Bucket(bMachine)
	machineOK := b != nil && b.Get(kMachine) != nil && decode(bMachine, kMachine, b.Get(kMachine), &Machine{}) == nil
	checkTITO(tx, machineOK, add)
	if b != nil && b.Get(kMachine) == nil {
		add(&CorruptError{Bucket: string(bMachine), Key: string(kMachine), Reason: "record missing"})
	} else if b != nil && b.Get(kMachine) != nil && decode(bMachine, kMachine, b.Get(kMachine), &Machine{}) == nil {
		if err := m.Meters.Check(m.Credits); err != nil {
			add(fmt.Errorf("recovery: machine/machine: %w: %w", ErrInvariant, err))
		}
		if m.Handpay < 0 || m.PoolUnits < 0 {
			add(&CorruptError{Bucket: string(bMachine), Key: string(kMachine), Reason: fmt.Sprintf("negative handpay %v or pool %d", m.Handpay, m.PoolUnits)})
		}
		if m.NextRound > 0 && lastRound >= m.NextRound {
			add(&CorruptError{Bucket: string(bRecall), Key: "*", Reason: fmt.Sprintf("recalled round %d not below next round %d", lastRound, m.NextRound)})
		}
		if rb := tx.tx.Bucket(bRound); rb != nil && rb.Get(kOpen) != nil && decode(bRound, kOpen, rb.Get(kOpen), &OpenRound{}) == nil {
			if !open.Game.Valid() {
				add(&CorruptError{Bucket: string(bRound), Key: string(kOpen), Reason: fmt.Sprintf("unknown game %q", open.Game)})
			}
			if open.Round >= m.NextRound {
				add(&CorruptError{Bucket: string(bRound), Key: string(kOpen), Reason: fmt.Sprintf("open round %d not below next round %d", open.Round, m.NextRound)})
			}
		}
	}
	return out
}

// IsCorrupt reports whether err is an integrity failure of the store.
func IsCorrupt(err error) bool { return errors.Is(err, ErrCorrupt) || errors.Is(err, ErrInvariant) }
