package recovery

import (
	"encoding/binary"
	"fmt"

	"cabinet/internal/meters"
)

// The event log (platform.md §3, docs/recovery.md "The event log") is two
// rings sharing one sequence: events/ keeps the significant events (every
// kind but device noise) and noise/ the device lines' faults
// (meters.Noise), each its EventDepth newest. Noise is coalesced by the
// drivers (serial.LineFault) and can never evict a significant event: it
// only ever trims its own ring. A store made before the noise ring has no
// noise/ bucket; the first noise event creates it (nothing to migrate:
// the significant ring's records and keys are unchanged).
var bNoise = []byte("noise")

// LogEvent appends an event with typed details (meters.Event.Detail and
// Args) to the event log; Seq and At are set here, as Log sets them.
func (tx *Tx) LogEvent(e meters.Event) error {
	e.At = tx.s.opt.Now()
	if err := tx.logEvent(e); err != nil {
		return fmt.Errorf("recovery: log %s: %w", e.Kind, err)
	}
	return nil
}

// logEvent gives e the next sequence number of the log and puts it in its
// ring, trimmed to EventDepth.
func (tx *Tx) logEvent(e meters.Event) error {
	ring := bEvents
	if meters.Noise(e.Kind) {
		ring = bNoise
		if tx.tx.Bucket(bNoise) == nil && !tx.ro {
			if err := tx.createNoise(); err != nil {
				return err
			}
		}
	}
	seq, err := tx.lastEventSeq()
	if err != nil {
		return err
	}
	seq++
	e.Seq = seq
	return tx.pushAt(ring, tx.s.opt.EventDepth, seq, e)
}

// createNoise creates the noise ring and marks the store format 2 (a
// store of format 1 gets its first noise event).
func (tx *Tx) createNoise() error {
	var sm storeMeta
	if _, err := tx.get(bMeta, kStore, &sm); err != nil {
		return err
	}
	if sm.Format < storeFormat {
		sm.Format = storeFormat
		if err := tx.put(bMeta, kStore, sm); err != nil {
			return err
		}
	}
	if _, err := tx.tx.CreateBucket(bNoise); err != nil {
		return fmt.Errorf("create bucket %s: %w", bNoise, err)
	}
	return nil
}

// lastEventSeq is the log's last sequence number: the larger of the two
// rings' last keys (a ring's newest entry is never trimmed).
func (tx *Tx) lastEventSeq() (uint64, error) {
	var last uint64
	for _, name := range [][]byte{bEvents, bNoise} {
		b := tx.tx.Bucket(name)
		if b == nil {
			if string(name) == string(bEvents) {
				return 0, &CorruptError{Bucket: string(name), Key: "*", Reason: "bucket missing"}
			}
			continue
		}
		if k, _ := b.Cursor().Last(); k != nil {
			if len(k) != 8 {
				return 0, corrupt(name, k, "ring key is not an 8-byte sequence number")
			}
			last = max(last, binary.BigEndian.Uint64(k))
		}
	}
	return last, nil
}

// Events returns up to n events of the log, both rings merged in sequence
// order, newest first (n <= 0: all).
func (tx *Tx) Events(n int) ([]meters.Event, error) {
	sig, err := tx.ringEvents(bEvents, n)
	if err != nil {
		return nil, err
	}
	noise, err := tx.ringEvents(bNoise, n)
	if err != nil {
		return nil, err
	}
	out := make([]meters.Event, 0, len(sig)+len(noise))
	for (n <= 0 || len(out) < n) && (len(sig) > 0 || len(noise) > 0) {
		if len(noise) == 0 || len(sig) > 0 && sig[0].Seq > noise[0].Seq {
			out, sig = append(out, sig[0]), sig[1:]
		} else {
			out, noise = append(out, noise[0]), noise[1:]
		}
	}
	return out, nil
}

// ringEvents returns up to n events of one ring, newest first (a missing
// noise ring is empty).
func (tx *Tx) ringEvents(ring []byte, n int) ([]meters.Event, error) {
	if string(ring) == string(bNoise) && tx.tx.Bucket(bNoise) == nil {
		return nil, nil
	}
	var out []meters.Event
	err := tx.ring(ring, n, func(k, raw []byte) error {
		var e meters.Event
		if err := decode(ring, k, raw, &e); err != nil {
			return err
		}
		if e.Seq == 0 { // records written before Seq was stored
			e.Seq = binary.BigEndian.Uint64(k)
		}
		out = append(out, e)
		return nil
	})
	return out, err
}
