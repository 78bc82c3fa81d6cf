package recovery

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
	"cabinet/internal/money"
)

// Bucket and key names (stable: they are part of every record's checksum).
var (
	bMeta      = []byte("meta")
	bMachine   = []byte("machine")
	bRound     = []byte("round")
	bCarry     = []byte("carry")
	bOverrides = []byte("overrides")
	bRecall    = []byte("recall")
	bEvents    = []byte("events")

	kStore   = []byte("store")
	kMachine = []byte("machine")
	kOpen    = []byte("open")
)

// allBuckets lists every bucket of an initialised store.
var allBuckets = [][]byte{bMeta, bMachine, bRound, bCarry, bOverrides, bRecall, bEvents}

// storeFormat is the layout version kept in meta/store: 2 since the event
// log has a ring of device noise (logdetail.go, issue 37). A store of
// format 1 has none and is read as it is; its first noise event creates
// the ring and marks it format 2, so a program that knows only format 1
// refuses it by its format rather than by an unexpected bucket.
const storeFormat = 2

// storeMeta is the meta/store record.
type storeMeta struct {
	Format  int       `json:"format"`
	Created time.Time `json:"created"`
	// ID is the store's random identity (32 hex digits), named by the
	// newest-store proof ("" in stores made before the proof existed).
	ID string `json:"id,omitempty"`
	// ClearedFrom names the file kept aside by the memory clear that
	// created this store, if any.
	ClearedFrom string `json:"cleared_from,omitempty"`
	// Proof is the absolute path of the newest-store proof file this store
	// is proven by: recorded when the store is made with a proof, updated
	// by the first commit after a boot that verified it elsewhere ("": a
	// store without proof — tests, tools — or one not booted since this
	// field existed). `cabinet audit` compares the store with it when told
	// of no other (ProofFor).
	Proof string `json:"proof,omitempty"`
}

// Machine is the critical record: everything money. The controller reads it,
// changes it and writes it back in the transaction of the step or cash event
// that causes the change.
type Machine struct {
	// Credits is the credit meter.
	Credits money.Cents `json:"credits"`
	// Meters are the lifetime meters; Meters.Check(Credits) must hold.
	Meters meters.Meters `json:"meters"`
	// PoolUnits is the progressive pool in units of 1e-7 cent.
	PoolUnits int64 `json:"pool_units"`
	// NextRound is the number the next round gets (0: the controller has not
	// booted this store yet).
	NextRound uint64 `json:"next_round"`
	// Handpay is the amount locked for the attendant (0: none) and
	// HandpayKind what it is ("cashout", "jackpot"; the controller's words).
	Handpay     money.Cents `json:"handpay"`
	HandpayKind string      `json:"handpay_kind,omitempty"`
	// LastBill is the value of the last bill stacked (SAS LP 48; 0: none
	// since the record had this field).
	LastBill money.Cents `json:"last_bill,omitempty"`
}

// OpenRound is the round in progress: enough to rebuild it exactly (the
// engine's JSON state, the shoe, every step so far).
type OpenRound struct {
	Game  game.ID         `json:"game"`
	Round uint64          `json:"round"`
	Start time.Time       `json:"start"`
	Rules json.RawMessage `json:"rules,omitempty"`
	// State is the engine's JSON encoding after the last step.
	State json.RawMessage `json:"state,omitempty"`
	// Shoe is the shoe after the last step (nil if the game has none).
	Shoe          *card.Shoe    `json:"shoe,omitempty"`
	Steps         []meters.Step `json:"steps"`
	CreditsBefore money.Cents   `json:"credits_before"`
	// Recovered is set at boot when the round was found open.
	Recovered bool `json:"recovered,omitempty"`
	// Commit is the committed shoe the round deals from (To not yet
	// set), nil for a round that deals no card.
	Commit *meters.ShoeRef `json:"commit,omitempty"`
	// Marks are the positions (0-4, ascending) of the player's cards marked
	// for Poker Duel's draw, committed with each mark so that a round cut
	// by a power loss resumes with them (platform.md §4); the step that
	// draws clears them. They are the player's choice in progress, not a
	// step: the recall keeps the draw's own positions. A record written
	// before marks were committed has none (the field is optional: same
	// record version, nothing to migrate).
	Marks []int `json:"marks,omitempty"`
}

// Tx is one store transaction: read-only inside View, read-write inside
// Update. It is valid only inside the function it is passed to.
type Tx struct {
	s  *Store
	tx *bolt.Tx
	ro bool
	// machine is the record written by PutMachine in this transaction
	// (checked against the invariant before commit).
	machine    *Machine
	machineRaw []byte // its record as put
	// written counts the record bytes put in this transaction (benchmarks).
	written int
	// queueChanged: the transaction raised or acknowledged a host
	// exception (Proven publishes the queue again).
	queueChanged bool
	// titoTouched: a ticket or note record was written (tito.go): the
	// ticket meters are checked against the records before commit.
	titoTouched bool
}

func (tx *Tx) bucket(name []byte) (*bolt.Bucket, error) {
	b := tx.tx.Bucket(name)
	if b == nil {
		return nil, &CorruptError{Bucket: string(name), Key: "*", Reason: "bucket missing"}
	}
	return b, nil
}

func (tx *Tx) get(bucket, key []byte, v any) (bool, error) {
	b, err := tx.bucket(bucket)
	if err != nil {
		return false, err
	}
	raw := b.Get(key)
	if raw == nil {
		return false, nil
	}
	return true, decode(bucket, key, raw, v)
}

func (tx *Tx) put(bucket, key []byte, v any) error {
	b, err := tx.bucket(bucket)
	if err != nil {
		return err
	}
	raw, err := encode(bucket, key, v)
	if err != nil {
		return err
	}
	tx.written += len(raw)
	if err := b.Put(key, raw); err != nil {
		return fmt.Errorf("recovery: put %s/%s: %w", bucket, keyString(key), err)
	}
	return nil
}

// Machine returns the machine record (as written earlier in this
// transaction, if it was). A missing record is corruption: an initialised
// store always has one.
func (tx *Tx) Machine() (Machine, error) {
	if tx.machine != nil {
		return cloneMachine(*tx.machine), nil
	}
	b, err := tx.bucket(bMachine)
	if err != nil {
		return Machine{}, err
	}
	raw := b.Get(kMachine)
	if raw == nil {
		return Machine{}, &CorruptError{Bucket: string(bMachine), Key: string(kMachine), Reason: "record missing"}
	}
	if m, ok := tx.s.cachedMachine(raw); ok {
		return m, nil
	}
	var m Machine
	if err := decode(bMachine, kMachine, raw, &m); err != nil {
		return Machine{}, err
	}
	return m, nil
}

// PutMachine writes the machine record. The invariant is verified when the
// transaction commits.
func (tx *Tx) PutMachine(m Machine) error {
	b, err := tx.bucket(bMachine)
	if err != nil {
		return err
	}
	raw, err := encode(bMachine, kMachine, m)
	if err != nil {
		return err
	}
	tx.written += len(raw)
	if err := b.Put(kMachine, raw); err != nil {
		return fmt.Errorf("recovery: put %s/%s: %w", bMachine, keyString(kMachine), err)
	}
	c := cloneMachine(m)
	tx.machine, tx.machineRaw = &c, raw
	return nil
}

func cloneMachine(m Machine) Machine {
	m.Meters = m.Meters.Clone()
	return m
}

// OpenRound returns the round in progress, or nil, nil between rounds.
func (tx *Tx) OpenRound() (*OpenRound, error) {
	return tx.getRound()
}

// PutOpenRound writes the round in progress.
func (tx *Tx) PutOpenRound(o *OpenRound) error {
	if o == nil {
		panic("BUG: recovery: PutOpenRound(nil)")
	}
	if !o.Game.Valid() {
		return fmt.Errorf("recovery: put open round %d: unknown game %q", o.Round, o.Game)
	}
	if checkMarks(o.Marks) != nil {
		return fmt.Errorf("recovery: put open round %d: draw marks %v: want distinct card positions 0-4, ascending", o.Round, o.Marks)
	}
	return tx.putRound(o)
}

// CloseRound ends the round in progress: it deletes the open round, pushes
// rec onto the recall ring and trims the ring to RecallDepth.
func (tx *Tx) CloseRound(rec meters.Recall) error {
	b, err := tx.bucket(bRound)
	if err != nil {
		return err
	}
	if err := clearRound(b); err != nil {
		return fmt.Errorf("recovery: close round %d: %w", rec.Round, err)
	}
	if err := tx.push(bRecall, tx.s.opt.RecallDepth, func(uint64) any { return rec }); err != nil {
		return fmt.Errorf("recovery: close round %d: %w", rec.Round, err)
	}
	return nil
}

// push appends the value made for the next sequence number to a ring bucket
// and deletes the oldest entries beyond depth.
func (tx *Tx) push(bucket []byte, depth int, value func(seq uint64) any) error {
	b, err := tx.bucket(bucket)
	if err != nil {
		return err
	}
	seq := uint64(1)
	if k, _ := b.Cursor().Last(); k != nil {
		if len(k) != 8 {
			return corrupt(bucket, k, "ring key is not an 8-byte sequence number")
		}
		seq = binary.BigEndian.Uint64(k) + 1
	}
	return tx.pushAt(bucket, depth, seq, value(seq))
}

// pushAt puts v at sequence number seq of a ring bucket and deletes the
// oldest entries beyond depth (all but the depth newest).
func (tx *Tx) pushAt(bucket []byte, depth int, seq uint64, v any) error {
	b, err := tx.bucket(bucket)
	if err != nil {
		return err
	}
	if err := tx.put(bucket, seqKey(seq), v); err != nil {
		return err
	}
	// Keep the depth newest: walk back depth entries from the newest (the
	// rings of the event log share one sequence, so their keys have gaps),
	// and delete everything before.
	c := b.Cursor()
	k, _ := c.Last()
	for i := 1; i < depth && k != nil; i++ {
		k, _ = c.Prev()
	}
	if k == nil {
		return nil
	}
	var old [][]byte
	for k, _ = c.Prev(); k != nil; k, _ = c.Prev() {
		old = append(old, bytes.Clone(k))
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return fmt.Errorf("recovery: trim %s: %w", bucket, err)
		}
	}
	return nil
}

// Carry returns the state game g keeps between rounds (nil if none).
func (tx *Tx) Carry(g game.ID) ([]byte, error) {
	b, err := tx.bucket(bCarry)
	if err != nil {
		return nil, err
	}
	raw := b.Get([]byte(g))
	if raw == nil {
		return nil, nil
	}
	p, err := unseal(bCarry, []byte(g), raw)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(p), nil
}

// PutCarry stores the state game g keeps between rounds; nil deletes it.
func (tx *Tx) PutCarry(g game.ID, state []byte) error {
	if !g.Valid() {
		return fmt.Errorf("recovery: put carry: unknown game %q", g)
	}
	b, err := tx.bucket(bCarry)
	if err != nil {
		return err
	}
	if state == nil {
		if err := b.Delete([]byte(g)); err != nil {
			return fmt.Errorf("recovery: delete carry %s: %w", g, err)
		}
		return nil
	}
	if err := b.Put([]byte(g), seal(bCarry, []byte(g), state)); err != nil {
		return fmt.Errorf("recovery: put carry %s: %w", g, err)
	}
	return nil
}

// Log appends an event (kind: one of the meters.Kind constants) with the
// next sequence number and the store clock's time to its ring of the event
// log (logdetail.go), which keeps its newest EventDepth events.
func (tx *Tx) Log(kind, text string) error {
	return tx.LogEvent(meters.Event{Kind: kind, Text: text})
}

// Overrides returns the operator overrides (key → value).
func (tx *Tx) Overrides() (map[string]string, error) {
	b, err := tx.bucket(bOverrides)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	err = b.ForEach(func(k, raw []byte) error {
		var v string
		if err := decode(bOverrides, k, raw, &v); err != nil {
			return err
		}
		out[string(k)] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PutOverride stores one operator override.
func (tx *Tx) PutOverride(key, value string) error {
	if key == "" {
		return fmt.Errorf("recovery: put override: empty key")
	}
	return tx.put(bOverrides, []byte(key), value)
}

// Recall returns up to n recalled rounds, newest first (n <= 0: all).
func (tx *Tx) Recall(n int) ([]meters.Recall, error) {
	var out []meters.Recall
	err := tx.ring(bRecall, n, func(k, raw []byte) error {
		var r meters.Recall
		if err := decode(bRecall, k, raw, &r); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

func (tx *Tx) ring(bucket []byte, n int, fn func(k, v []byte) error) error {
	b, err := tx.bucket(bucket)
	if err != nil {
		return err
	}
	c := b.Cursor()
	i := 0
	for k, v := c.Last(); k != nil && (n <= 0 || i < n); k, v = c.Prev() {
		if err := fn(k, v); err != nil {
			return err
		}
		i++
	}
	return nil
}

// recordProof records path as the store's proof file (meta/store), logged.
func (tx *Tx) recordProof(path string) error {
	var sm storeMeta
	if _, err := tx.get(bMeta, kStore, &sm); err != nil {
		return err
	}
	text := "newest-store proof: the store now names its proof file " + path
	if sm.Proof != "" {
		text = fmt.Sprintf("newest-store proof: the store's proof file is now %s (was %s)", path, sm.Proof)
	}
	sm.Proof = path
	if err := tx.put(bMeta, kStore, sm); err != nil {
		return err
	}
	return tx.Log(meters.KindRecovery, text)
}
