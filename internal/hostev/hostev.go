// Package hostev names what the casino's host system may have to hear of
// (an Event), in the cabinet's words, never a SAS code: the controller and
// its desks (internal/desk) emit them in the transaction that commits the
// event itself, and the SAS side's table (sasmachine.Exceptions) maps them
// to the exceptions to queue. It is neutral ground between the controller
// and the desks, so that neither imports the other for it.
package hostev

import "cabinet/internal/meters"

// Kind names an Event.
type Kind int

// Host events.
const (
	Logged           Kind = iota + 1 // an event-log entry (Event.Log)
	GameStarted                      // a round's first step
	GameEnded                        // a round settled or voided
	GameSelected                     // the player took a game from the menu to its table
	BillJam                          // the bill acceptor jammed
	StackerRemoved                   // the validator's stacker (cash box) was removed
	StackerInstalled                 // the validator's stacker is back
	StackerFull                      // the validator's stacker is full
	ValidatorFailure                 // the note validator failed (failure, fraud attempt, no answer)
	Cashout                          // the player pressed CASH OUT (a ticket or a handpay follows)
)

// Event is one event the host may have to hear of.
type Event struct {
	Kind Kind
	Log  meters.Event // Logged: the entry as logged
}
