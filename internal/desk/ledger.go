package desk

import (
	"errors"

	"cabinet/internal/hostev"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/serial"
)

// Committed is what a desk reads of the committed state: the credit
// meter, whether the store is in a memory error, and the desk's own
// committed values (S).
type Committed[S any] struct {
	Credits money.Cents
	Failed  bool // a memory error: the store is evidence, nothing is written
	Own     S
}

// Books is what a desk's commit may change: the money (the machine
// record, as loaded in the transaction) and the desk's own committed
// values, with the writes that go in the same transaction. Nothing else
// of the controller's committed state is reachable from it.
type Books[S any] struct {
	M   *recovery.Machine
	Own *S
	// Log writes an event-log entry with its typed details (the display
	// translates "detail."+detail with args); under a memory error (tx
	// nil) the program log only.
	Log func(kind, text, detail string, args ...meters.Arg) error
	// Emit queues the SAS exceptions of host event e (SAS on).
	Emit func(e hostev.Event) error
	// Tilts are the cabinet's tilt reasons with this change.
	Tilts func() []string
	// Bill credits a note of value v as a bill (credits, bill meters,
	// its log entry and exception, the host's one-shot inhibit); from
	// says where it came from (the English record).
	Bill func(v money.Cents, from string) error
}

// Ledger is what a desk has of the controller's ledger: its committed
// values read, its commit, the store read, and the writes that are a
// commit of their own.
type Ledger[S any] interface {
	Cur() Committed[S]
	// Commit is the one path by which the desk's committed values and
	// the money change (ledger.Ledger.Commit): an error from change is a
	// refusal, nothing is written.
	Commit(op string, change func(tx *recovery.Tx, b *Books[S]) error) error
	// View reads the store.
	View(fn func(tx *recovery.Tx) error) error
	// LogOnly commits an event-log entry (no money).
	LogOnly(kind, text, detail string, args ...meters.Arg) error
	// LineFault commits a device line's fault report as device noise.
	LineFault(device string, r serial.FaultReport) error
	// SASOn: a SAS host is wired. HostDown: it is, and its link is down.
	SASOn() bool
	HostDown() bool
}

// Devices whose line faults a desk reports ("device."+name is the
// display's name).
const (
	deviceValidator = "validator"
	devicePrinter   = "printer"
)

// errNothing is returned by a change function that finds nothing to
// write: the commit writes nothing (a refusal) and its caller returns nil.
var errNothing = errors.New("desk: nothing to commit")
