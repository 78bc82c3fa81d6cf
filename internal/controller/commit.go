package controller

import (
	"errors"
	"fmt"
	"strconv"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// Store is what the controller needs of the durable store
// (*recovery.Store). It is an interface so that a test can wrap the real
// bbolt store in one that fails commits on demand.
type Store interface {
	Check() error
	Update(fn func(tx *recovery.Tx) error) error
	View(fn func(tx *recovery.Tx) error) error
	Clear(confirm string) error
}

// state is the committed state of the cabinet: everything the player can see
// or the outputs show that is not a mere cursor. The write-ahead rule
// (platform.md §4) is kept by construction: Controller.cur is assigned only
// by commit (below) and by boot's commit, and publish builds the snapshot
// and drives lamps, tower and acceptor from a state value and the ui alone.
// A change of credits, meters, the open round, a door, a key or a jam is
// therefore shown only after its transaction committed.
type state struct {
	m         recovery.Machine    // machine record as committed
	open      *recovery.OpenRound // open round as committed, nil if none
	round     game.Round          // decoded open round
	last      *game.Table         // picture of the last settled round
	win       money.Cents         // paid by the current/last round
	recovered bool                // the open round was resumed after a power cut

	// Hardware facts, committed with their event-log entry.
	switches [hw.NumSwitches]bool
	jam      bool

	// host is what the casino's host system commanded (host.go), as
	// committed.
	host recovery.HostState
}

// refused marks an error returned by a commit's change function: the change
// was refused (bad input, not enough credits), the store is sound.
type refused struct{ err error }

func (r refused) Error() string { return r.err.Error() }
func (r refused) Unwrap() error { return r.err }

// commit is the one path by which committed state changes. change gets a
// copy of the committed state with the machine record as read in the
// transaction, edits it and writes what else the step needs (log entries,
// open round, recall); commit writes the machine record, and only when the
// transaction has committed does the controller's state become the new one.
//
// An error from change is a refusal: nothing is written, nothing changes,
// the error is returned as is. Any other failure (the store cannot read,
// write or commit) is a memory-error tilt (platform.md §4: play disabled,
// the audit screens still work; a store failure never exits): nothing the player sees changes except the tilt.
//
// With a memory error already present the store is evidence and is not
// written: change runs with a nil tx and only the hardware facts (switches,
// jam) of its result are taken; the durable part stays as read.
func (c *Controller) commit(op string, change func(tx *recovery.Tx, s *state) error) error {
	next := c.cur
	if c.memErr != nil {
		if err := change(nil, &next); err != nil {
			return err
		}
		c.cur.switches, c.cur.jam = next.switches, next.jam
		return nil
	}
	err := c.st.Update(func(tx *recovery.Tx) error {
		m, err := tx.Machine()
		if err != nil {
			return err
		}
		next.m = m
		if err := change(tx, &next); err != nil {
			return refused{err}
		}
		return tx.PutMachine(next.m)
	})
	var rf refused
	if errors.As(err, &rf) {
		return rf.err
	}
	if err != nil {
		c.memErr = fmt.Errorf("%w: %s: %w", ErrMemory, op, err)
		c.log.Error("store failure: memory-error tilt", "op", op, "err", err)
		return c.memErr
	}
	c.cur = next
	return nil
}

// logTx writes an event-log entry in tx; with a memory error (tx nil) the
// entry is not written (the store is evidence) but goes to the program log.
func (c *Controller) logTx(tx *recovery.Tx, kind, text string) error {
	if tx == nil {
		c.log.Warn("not logged (memory error)", "kind", kind, "text", text)
		return nil
	}
	if err := tx.Log(kind, text); err != nil {
		return err
	}
	return c.raise(tx, sasCodes(meters.Event{Kind: kind, Text: text})...)
}

// logDetail writes an event with its details as typed data (the display
// translates "detail."+detail with args); text stays the English record.
// With a memory error (tx nil) it goes to the program log only.
func (c *Controller) logDetail(tx *recovery.Tx, kind, text, detail string, args ...meters.Arg) error {
	if tx == nil {
		return c.logTx(tx, kind, text)
	}
	e := meters.Event{Kind: kind, Text: text, Detail: detail, Args: args}
	if err := tx.LogEvent(e); err != nil {
		return err
	}
	return c.raise(tx, sasCodes(e)...)
}

func argMoney(v money.Cents) meters.Arg { return meters.Arg{Type: meters.ArgMoney, Value: v.String()} }
func argSwitch(s hw.Switch) meters.Arg  { return meters.Arg{Type: meters.ArgSwitch, Value: s.String()} }
func argKey(k string) meters.Arg        { return meters.Arg{Type: meters.ArgKey, Value: k} }
func argCount(n uint64) meters.Arg {
	return meters.Arg{Type: meters.ArgCount, Value: strconv.FormatUint(n, 10)}
}

// argTilts are tilt reasons as message keys.
func argTilts(t []string) []meters.Arg {
	out := make([]meters.Arg, len(t))
	for i, r := range t {
		out[i] = argKey("tilt." + r)
	}
	return out
}

// brokenStore stands for a store that could not be opened: every call
// fails with the opening error, so the cabinet boots in a memory-error tilt
// and the audit screens show the error (there is nothing to read).
type brokenStore struct{ err error }

func (b brokenStore) Check() error                             { return b.err }
func (b brokenStore) Update(func(tx *recovery.Tx) error) error { return b.err }
func (b brokenStore) View(func(tx *recovery.Tx) error) error   { return b.err }
func (b brokenStore) Clear(string) error                       { return b.err }
