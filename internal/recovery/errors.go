package recovery

import (
	"errors"
	"fmt"
	"strings"
)

// ErrLocked is returned by Open when another process (or another Open in
// this process) holds the store file. The error names the file.
var ErrLocked = errors.New("recovery: store is in use by another process")

// ErrCorrupt is wrapped by every integrity failure: a record whose version or
// checksum is wrong, a missing or unexpected record, a damaged bbolt file. It
// is a memory error: play stays disabled until a full memory clear.
var ErrCorrupt = errors.New("recovery: store is corrupt")

// ErrInvariant is wrapped when the machine record breaks the meter invariant
// of platform.md §3 (meters.ErrInvariant is wrapped too). Update returns it
// instead of committing: nothing is written.
var ErrInvariant = errors.New("recovery: meter invariant violated")

// ErrReadOnly is returned by Update and Clear on a store opened ReadOnly.
var ErrReadOnly = errors.New("recovery: store opened read-only")

// ErrFailed is returned by Update once the store has failed an integrity
// check: the file is evidence and is not written to until a memory clear.
var ErrFailed = errors.New("recovery: store failed its integrity check; memory clear required")

// ErrConfirm is returned by Clear when the confirmation string is wrong.
var ErrConfirm = errors.New("recovery: memory clear not confirmed")

// CorruptError says which record is bad and why. errors.Is(err, ErrCorrupt) holds.
type CorruptError struct {
	Bucket string // bucket name, or "file" for the bbolt file itself
	Key    string // record key (printable form), or a page/meta description
	Reason string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("recovery: corrupt record %s/%s: %s", e.Bucket, e.Key, e.Reason)
}

// Unwrap lets errors.Is match ErrCorrupt.
func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// CheckError lists every problem Check found. errors.Is(err, ErrCorrupt)
// holds, and errors.Is(err, ErrInvariant) when the invariant failed.
type CheckError struct {
	Path     string
	Problems []error
}

func (e *CheckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "recovery: check %s: %d problem(s)", e.Path, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  - ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap returns the problems (and ErrCorrupt) for errors.Is.
func (e *CheckError) Unwrap() []error { return append([]error{ErrCorrupt}, e.Problems...) }

// ErrNotInitialised is returned by a read-only Open of an empty file and
// reported by Check for a bbolt file with no bucket: a store whose creation
// was interrupted before its first commit (a read-write Open initialises it).
var ErrNotInitialised = errors.New("recovery: store not initialised")

// Memory errors of the newest-store proof (Options.Mirror). Each is wrapped
// by a *MirrorError, which wraps ErrCorrupt too: play stays disabled until a
// full memory clear, the audit screens still read the store when it exists.
var (
	// ErrRollback: the store is older than the proof (an older copy put back).
	ErrRollback = errors.New("recovery: store is older than its newest-store proof")
	// ErrForeign: the store is not the one the proof names (another store, or
	// the machine record differs at the same commit).
	ErrForeign = errors.New("recovery: store is not the one this cabinet last wrote")
	// ErrStoreMissing: no store, or an empty one, where the proof shows a
	// cabinet has run.
	ErrStoreMissing = errors.New("recovery: store missing or empty where a cabinet has run")
	// ErrMirror: the proof file is missing, damaged or older than the store.
	ErrMirror = errors.New("recovery: newest-store proof missing or damaged")
)

// MirrorError is a newest-store proof failure found at boot or while
// writing the proof. errors.Is matches ErrCorrupt and Kind.
type MirrorError struct {
	Store, Mirror   string // the two files
	StoreN, MirrorN uint64 // commit counters found (0: none)
	Kind            error  // ErrRollback, ErrForeign, ErrStoreMissing or ErrMirror
	Detail          string
}

func (e *MirrorError) Error() string {
	return fmt.Sprintf("%v: %s (store %s, proof %s)", e.Kind, e.Detail, e.Store, e.Mirror)
}

// Unwrap returns ErrCorrupt and the kind.
func (e *MirrorError) Unwrap() []error { return []error{ErrCorrupt, e.Kind} }

// Ticket and note records (tito.go, ticketin.go, note.go). Each refusal
// writes nothing.
var (
	// ErrTicketState: the record is not in a state the transition starts
	// from (a *TransitionError says which).
	ErrTicketState = errors.New("recovery: ticket transition not allowed")
	// ErrTicketUnresolved: a cash-out ticket is pending or uncertain; no
	// other ticket is issued until it is printed or voided by the
	// attendant (errors.Is matches ErrTicketState too).
	ErrTicketUnresolved = errors.New("recovery: a cash-out ticket is unresolved")
	// ErrBadTicket: a value out of range: an amount not above 0, a
	// validation number not 18 digits or already used, an empty reason.
	ErrBadTicket = errors.New("recovery: bad ticket data")
)

// TransitionError is a refused ticket, redemption or note transition: the
// record, the operation, the state it was in and the states it is allowed
// from. errors.Is matches ErrTicketState and Kind.
type TransitionError struct {
	Record  string // "ticket out 12", "ticket in 3", "note"
	Op      string // "print done", "attendant void", …
	From    string // the record's state ("none": no such record)
	Allowed string // the states the operation starts from
	Kind    error  // ErrTicketState or ErrTicketUnresolved
}

func (e *TransitionError) Error() string {
	return fmt.Sprintf("recovery: %s: %s refused in state %s (allowed from %s)", e.Record, e.Op, e.From, e.Allowed)
}

// Unwrap returns ErrTicketState and Kind.
func (e *TransitionError) Unwrap() []error { return []error{ErrTicketState, e.Kind} }

// ErrNotRevealed is returned by VerifyRound for a round whose shoe is
// still committed and not revealed (a continuous shoe in play): nothing to
// check yet, nothing wrong.
var ErrNotRevealed = errors.New("recovery: the round's shoe is not revealed yet")

// ErrNotCommitted is returned by VerifyRound for a round that dealt cards
// and names no committed shoe: a round played before shoes were committed
// (an upgraded cabinet's older rounds) has nothing to be checked against.
var ErrNotCommitted = errors.New("recovery: the round names no committed shoe")

// ErrMismatch is wrapped by VerifyRound's report of a round that does not
// agree with its commitment.
var ErrMismatch = errors.New("mismatch")
