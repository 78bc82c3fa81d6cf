package controller

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"

	"cabinet/internal/desk"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/ledger"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/serial"
)

// Store is what the controller needs of the durable store
// (*recovery.Store): the ledger's (ledger.Store).
type Store = ledger.Store

// state is the committed state of the cabinet: everything the player can see
// or the outputs show that is not a mere cursor. The write-ahead rule
// (platform.md §4) is kept by construction: the committed state is held
// by internal/ledger, replaced only by its Commit (and Fail/Evidence, which
// record that the store is in error and write nothing), and publish builds the snapshot and drives
// lamps, tower and acceptor from a state value and the screen alone. A
// change of credits, meters, the open round, a door, a key or a jam is
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

	// carry is what a game carries from one round to the next (Free Bet's
	// shoe, Duel's session), as committed; read at boot, written by the
	// step that settles a round. Shared between state values: replaced,
	// never edited in place (withCarry).
	carry map[game.ID][]byte

	// shoes are the games' committed shoes not yet revealed (rng.go), as
	// committed: replaced, never edited in place (withShoe).
	shoes map[game.ID]*recovery.Shoe

	// overrides are the operator's stored setting overrides, as committed
	// (read at boot, replaced by the commit of a change).
	overrides map[string]string

	// tickets are the ticket desk's (desk.Tickets: the cash-out waiting
	// for the host's number, the last ticket out, why a cash-out handpay
	// is not a ticket), as committed.
	tickets desk.Tickets
	// notes are the note desk's (desk.Notes: the validator's tilts, the
	// newest ticket in), as committed.
	notes desk.Notes

	// digestErr is set when the program's digest is not the one the
	// configuration expects (fixed at boot): play is disabled.
	digestErr error

	// memErr is set when the store failed (integrity at boot or at the
	// self-test, or a commit that could not be written): play is disabled,
	// the store is evidence and is not written again.
	memErr error
}

// withCarry returns s's carry with game id's replaced by b (a new map:
// other state values keep theirs).
func (s *state) withCarry(id game.ID, b []byte) {
	m := make(map[game.ID][]byte, len(s.carry)+1)
	maps.Copy(m, s.carry)
	m[id] = b
	s.carry = m
}

// withShoe replaces game id's committed shoe by p (nil: none) in a new map.
func (s *state) withShoe(id game.ID, p *recovery.Shoe) {
	m := make(map[game.ID]*recovery.Shoe, len(s.shoes)+1)
	maps.Copy(m, s.shoes)
	if p == nil {
		delete(m, id)
	} else {
		m[id] = p
	}
	s.shoes = m
}

// errNothing is returned by a change function that finds nothing to
// write: the commit writes nothing (a refusal) and its caller returns nil.
var errNothing = errors.New("cabinet: nothing to commit")

// books owns the durable store and the committed state through the
// ledger (internal/ledger), which alone can replace it. It is the only
// writer of the store outside internal/recovery: the controller's steps,
// bills, doors, keys, operator changes, the host's commands and the host's
// acknowledgements of exceptions all reach it through commit. The
// controller holds it as a field, its desks through the narrow deskLedger
// (desks.go).
type books struct {
	core *ledger.Ledger[state]
	log  *slog.Logger
	// hear is the SAS side's table from host events to the exceptions to
	// queue (Options.Exceptions); nil: SAS is off.
	hear func(HostEvent) []byte
	// link is the SAS link's state (hostLink).
	link linkState
}

// stateRules are how the committed state meets the store: each
// transaction starts from the machine record as stored and writes it back;
// the memory error is state.memErr; under it only the hardware facts
// (switches, jam, the validator's tilts) follow the inputs.
var stateRules = ledger.Rules[state]{
	Load: func(tx *recovery.Tx, s *state) error {
		m, err := tx.Machine()
		s.m = m
		return err
	},
	Save:      func(tx *recovery.Tx, s *state) error { return tx.PutMachine(s.m) },
	Failed:    func(s state) error { return s.memErr },
	SetFailed: func(s *state, err error) { s.memErr = err },
	Evidence: func(cur *state, next state) {
		cur.switches, cur.jam, cur.notes.Val = next.switches, next.jam, next.notes.Val
	},
	Wrap: func(op string, err error) error { return fmt.Errorf("%w: %s: %w", ErrMemory, op, err) },
}

// newBooks is the ledger of store st, before boot; digestErr is the
// program digest check's result (a boot fact, part of the committed state
// from the start).
func newBooks(st Store, log *slog.Logger, digestErr error, hear func(HostEvent) []byte) *books {
	return &books{core: ledger.New(st, log, state{digestErr: digestErr}, stateRules), log: log, hear: hear}
}

// cur is a copy of the committed state.
func (l *books) cur() state { return l.core.Cur() }

// commits counts the transactions committed (autoplay's steps).
func (l *books) commits() uint64 { return l.core.Commits() }

// store reads the store.
func (l *books) store() interface {
	Check() error
	View(fn func(tx *recovery.Tx) error) error
} {
	return l.core.Store()
}

// The committed state, read: *Controller's accessors, for cmd/cabinet,
// the scenarios and the tests.

// Err reports the boot failure that keeps play disabled, if any.
func (c *Controller) Err() error {
	if cs := c.led.cur(); cs.memErr != nil {
		return cs.memErr
	}
	return c.led.cur().digestErr
}

// Credits returns the committed credit meter.
func (c *Controller) Credits() money.Cents { return c.led.cur().m.Credits }

// Machine returns a copy of the committed machine record.
func (c *Controller) Machine() recovery.Machine { return c.led.cur().m }

// Round returns the open round (committed state) or nil.
func (c *Controller) Round() game.Round { return c.led.cur().round }

// OpenGame returns the game of the open round, or "".
func (c *Controller) OpenGame() game.ID {
	if open := c.led.cur().open; open != nil {
		return open.Game
	}
	return ""
}

// sasOn reports whether a SAS host is wired.
func (l *books) sasOn() bool { return l.hear != nil }

// hostDown reports a SAS link that is configured but down: no host has
// polled for the link's silence limit (HostLink; a fact of the link, not
// of the store). Tickets need the host: none is printed or taken then.
func (l *books) hostDown() bool { return l.hear != nil && l.link.down }

// HostLink is the SAS link's state as the link saw it change (Seq orders
// the changes: an older one arriving late is ignored).
type HostLink struct {
	Up  bool
	Seq uint64
}

// linkState is the last HostLink heard.
type linkState struct {
	down bool
	seq  uint64
}

// hostLink records a change of the SAS link's state (logged, not
// committed: the next boot starts with the link up until it falls
// silent again).
func (l *books) hostLink(h HostLink) {
	if h.Seq <= l.link.seq {
		return
	}
	l.link = linkState{down: !h.Up, seq: h.Seq}
	if h.Up {
		l.log.Info("SAS link up: tickets possible again")
	} else {
		l.log.Warn("SAS link down: cash-outs are handpays and tickets are returned until the host polls again")
	}
}

// tilts lists the reasons play is suspended in s (message keys), in a fixed
// order: a function of the committed state alone.
func (s state) tilts() []string {
	var t []string
	if s.memErr != nil {
		t = append(t, "memory_error")
	}
	if s.digestErr != nil {
		t = append(t, "program_digest")
	}
	if s.switches[hw.MainDoor] {
		t = append(t, "main_door")
	}
	if s.switches[hw.CashDoor] {
		t = append(t, "cash_door")
	}
	if s.jam {
		t = append(t, "bill_jam")
	}
	t = append(t, s.notes.Val.Tilts()...)
	return t
}

// commit is the one path by which committed state changes (ledger.Commit):
// change gets a copy of the committed state with the machine record as
// read in the transaction, edits it and writes what else the step needs
// (log entries, open round, recall). An error from change is a refusal;
// a store failure is a memory-error tilt (platform.md §4: play disabled,
// the audit screens still work; a store failure never exits). With a
// memory error already present change runs with a nil tx and only the
// hardware facts of its result are taken.
func (l *books) commit(op string, change func(tx *recovery.Tx, s *state) error) error {
	return l.core.Commit(op, change)
}

// fail puts the ledger in a memory error (err wraps ErrMemory) unless it
// is in one already, and returns the error in force. Nothing is written.
func (l *books) fail(err error) error { return l.core.Fail(err) }

// evidence is the boot of a store that failed its check: the committed
// state is what can still be read (the machine record, if its own checksum
// holds), in a memory error; nothing is written.
func (l *books) evidence(checkErr error) error {
	return l.core.Evidence(fmt.Errorf("%w: %w", ErrMemory, checkErr), func(tx *recovery.Tx, s *state) error {
		m, err := tx.Machine()
		if err == nil {
			s.m = m
		}
		return err
	})
}

// clear is the full memory clear: the store keeps the old file aside and
// resets; the memory error goes (the next boot commits the empty store's
// state).
func (l *books) clear() error { return l.core.Clear() }

// emit queues in tx the SAS exceptions of host event e (with SAS on; tx
// nil under a memory error: nothing is written, the store is evidence).
func (l *books) emit(tx *recovery.Tx, e HostEvent) error {
	if l.hear == nil || tx == nil {
		return nil
	}
	for _, code := range l.hear(e) {
		if err := tx.RaiseException(code); err != nil {
			return err
		}
	}
	return nil
}

// logTx writes an event-log entry in tx; with a memory error (tx nil) the
// entry is not written (the store is evidence) but goes to the program log.
func (l *books) logTx(tx *recovery.Tx, kind, text string) error {
	if tx == nil {
		l.log.Warn("not logged (memory error)", "kind", kind, "text", text)
		return nil
	}
	if err := tx.Log(kind, text); err != nil {
		return err
	}
	return l.emit(tx, HostEvent{Kind: HostLogged, Log: meters.Event{Kind: kind, Text: text}})
}

// logDetail writes an event with its details as typed data (the display
// translates "detail."+detail with args); text stays the English record.
// With a memory error (tx nil) it goes to the program log only.
func (l *books) logDetail(tx *recovery.Tx, kind, text, detail string, args ...meters.Arg) error {
	if tx == nil {
		return l.logTx(tx, kind, text)
	}
	e := meters.Event{Kind: kind, Text: text, Detail: detail, Args: args}
	if err := tx.LogEvent(e); err != nil {
		return err
	}
	return l.emit(tx, HostEvent{Kind: HostLogged, Log: e})
}

// logOnly commits an event-log entry (no money) with its typed details
// (logDetail). With a memory error nothing is written: the store is evidence.
func (l *books) logOnly(kind, text, detail string, args ...meters.Arg) error {
	return l.commit("log "+kind, func(tx *recovery.Tx, s *state) error { return l.logDetail(tx, kind, text, detail, args...) })
}

// deviceSAS is the SAS line, whose faults are logged ("device."+name is
// the display's name; the desks name theirs).
const deviceSAS = "sas"

// lineFault commits a device line's fault report (serial.LineFault: when
// it began, with the first bytes seen; its count at 10, 100, 1000, …
// errors; when it cleared) as device noise, which the store keeps apart
// from the significant events (meters.Noise): a noisy device never
// evicts a power-up, a door or a memory clear from the log.
func (l *books) lineFault(device string, r serial.FaultReport) error {
	dev := meters.KeyArg("device." + device)
	var text, detail string
	var args []meters.Arg
	switch r.Phase {
	case serial.FaultBegan:
		text, detail, args = fmt.Sprintf("%s line fault began: %s", device, r.First), "line_fault_began", []meters.Arg{dev, meters.TextArg(r.First)}
	case serial.FaultLasts:
		text, detail, args = fmt.Sprintf("%s line fault goes on: %d errors (first: %s; latest: %s)", device, r.Count, r.First, r.Last),
			"line_fault_lasts", []meters.Arg{dev, meters.CountArg(uint64(r.Count))}
	case serial.FaultCleared:
		text, detail, args = fmt.Sprintf("%s line fault cleared after %d errors (first: %s; latest: %s)", device, r.Count, r.First, r.Last),
			"line_fault_cleared", []meters.Arg{dev, meters.CountArg(uint64(r.Count))}
	default:
		panic(fmt.Sprintf("BUG: controller: line fault report %+v", r))
	}
	return l.logOnly(meters.KindDevice, text, detail, args...)
}

// ack removes the exceptions the host acknowledged from the store's queue
// (one already removed is skipped). Under a memory error nothing is
// written: the store is evidence.
func (l *books) ack(seqs []uint64) error {
	return l.commit("host acknowledged exceptions", func(tx *recovery.Tx, s *state) error {
		if tx == nil {
			return nil
		}
		for _, seq := range seqs {
			if err := tx.AckException(seq); err != nil {
				return err
			}
		}
		return nil
	})
}

func argSwitch(s hw.Switch) meters.Arg { return meters.Arg{Type: meters.ArgSwitch, Value: s.String()} }

// brokenStore stands for a store that could not be opened: every call
// fails with the opening error, so the cabinet boots in a memory-error tilt
// and the audit screens show the error (there is nothing to read).
type brokenStore struct{ err error }

func (b brokenStore) Check() error                             { return b.err }
func (b brokenStore) Update(func(tx *recovery.Tx) error) error { return b.err }
func (b brokenStore) View(func(tx *recovery.Tx) error) error   { return b.err }
func (b brokenStore) Clear(string) error                       { return b.err }
