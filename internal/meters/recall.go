package meters

import (
	"encoding/json"
	"strconv"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/money"
)

// Step is one committed step of a round: the action and the events it
// produced (every card drawn, in order, every stake and payout as credited).
// N counts from 0 within the round.
type Step struct {
	N      int          `json:"n"`
	At     time.Time    `json:"at"`
	Action game.Action  `json:"action"`
	Events []game.Event `json:"events"`
}

// Recall is one completed round kept in the game recall ring: enough to
// redraw the table at every step (the rules and every step's action and
// cards) and to audit its money.
type Recall struct {
	Round         uint64          `json:"round"`
	Game          game.ID         `json:"game"`
	Start         time.Time       `json:"start"`
	End           time.Time       `json:"end"`
	Rules         json.RawMessage `json:"rules,omitempty"`
	Steps         []Step          `json:"steps"`
	CreditsBefore money.Cents     `json:"credits_before"`
	CreditsAfter  money.Cents     `json:"credits_after"`
	Voided        bool            `json:"voided,omitempty"`
	// Recovered: the round was resumed after a power cut (platform.md §4).
	Recovered bool `json:"recovered,omitempty"`
	// Shoe is the committed shoe the round was dealt from (nil: a round
	// that dealt no card, or one played before shoes were committed).
	Shoe *ShoeRef `json:"shoe,omitempty"`
}

// ShoeRef ties a round to its committed shoe (docs/verify.md): the shoe's
// number and commitment, and the positions of the cards the round dealt,
// order[From:To]. The shoe's secret and order are in its own record, once
// revealed (recovery.Shoe).
type ShoeRef struct {
	No         uint64 `json:"no"`
	Commitment string `json:"commitment"`
	From       int    `json:"from"`
	To         int    `json:"to"`
}

// Money sums the round's stakes and payouts (handpaid wins included).
func (r *Recall) Money() (staked, paid money.Cents) {
	for _, s := range r.Steps {
		st, pd := game.Money(s.Events)
		staked += st
		paid += pd
	}
	return staked, paid
}

// Event is one entry of the event log. Seq orders the log (assigned by the
// store, strictly increasing); At is wall time, informational only (a
// cabinet may have no real-time clock).
type Event struct {
	Seq  uint64    `json:"seq"`
	At   time.Time `json:"at"`
	Kind string    `json:"kind"`
	Text string    `json:"text"`
	// Detail, when set, is the event's details as data the display
	// translates: a message key ("detail."+Detail) and its arguments.
	// Text stays the English record for the command line and exports.
	Detail string `json:"detail,omitempty"`
	Args   []Arg  `json:"args,omitempty"`
}

// Arg is one argument of an event's details, typed so the display can
// format it in the cabinet's language.
type Arg struct {
	Type  string `json:"type"`  // ArgMoney, ArgSwitch, ArgCount, ArgKey
	Value string `json:"value"` // money as Cents.String, a switch name, a count, a message key
}

// Arg types.
const (
	ArgMoney  = "money"  // Cents.String ("20.00")
	ArgSwitch = "switch" // hw switch name ("audit_key"), translated "sw."+name
	ArgCount  = "count"  // a decimal integer
	ArgKey    = "key"    // a message key, translated as is ("tilt.main_door")
	ArgText   = "text"   // shown as is (a list of values)
	// ArgLabel is an operator setting's label: message keys joined by "|",
	// the last one optionally followed by ":" and an amount for its %s
	// ("set.bill:20.00").
	ArgLabel   = "label"
	ArgPercent = "percent" // a decimal percentage ("20.30843")
)

// Event kinds of the log (platform.md §3). The strings are stable.
const (
	KindPowerUp      = "power_up"      // the cabinet booted
	KindRecovery     = "recovery"      // a round open at power-up was restored
	KindDoor         = "door"          // main or cash door opened or closed
	KindKey          = "key"           // audit, operator or reset key turned
	KindBillAccepted = "bill_accepted" // a bill was stacked and credited
	KindBillRefused  = "bill_refused"  // a bill was returned (disabled, over the limit)
	KindBillError    = "bill_error"    // malformed pulse train, jam, acceptor fault
	KindTilt         = "tilt"          // play suspended (door, memory error, …)
	KindTiltClear    = "tilt_clear"    // a tilt cleared
	KindHandpay      = "handpay"       // cash-out or jackpot handpay locked
	KindHandpayClear = "handpay_clear" // the attendant paid and cleared a handpay
	KindConfigChange = "config_change" // operator setting changed (old → new)
	KindMemoryClear  = "memory_clear"  // full memory clear (or a fresh store)
	KindVoid         = "void"          // an abandoned round voided and refunded
	KindJackpot      = "jackpot"       // progressive prize won
	KindMemoryError  = "memory_error"  // integrity failure found
	KindProgram      = "program"       // program digest checked / changed
	KindHost         = "host"          // a command of the casino's host system (SAS)
	KindRecall       = "recall"        // a recalled round was displayed on the audit screens
	// Tickets and the note validator (issues 29, 30).
	KindTicketOut = "ticket_out" // a cash-out ticket issued, printed, failed, reprinted or voided
	KindTicketIn  = "ticket_in"  // a ticket inserted, authorised, stacked and credited, rejected or returned
	KindNote      = "note"       // a note's escrow record resolved (validator power-up)
	// KindDevice is a device line's fault (issue 37): frames damaged,
	// bytes skipped while resynchronising, a host's garbage, coalesced by
	// the driver into one event when the fault begins (with the first
	// bytes seen), a count while it lasts (at 10, 100, 1000, … errors)
	// and one event when it clears. The only kind of noise: the store
	// keeps it in a ring of its own, so it never evicts a significant
	// event (Noise).
	KindDevice = "device"
)

// Noise reports whether events of kind are device noise, kept apart from
// the significant events (power, doors, keys, tilts, memory clears and
// errors, configuration and operator changes, host commands, money
// events: every other kind) so that no amount of noise evicts one
// (docs/recovery.md, "The event log").
func Noise(kind string) bool { return kind == KindDevice }

// Kinds lists every event kind in a stable order.
func Kinds() []string {
	return []string{KindPowerUp, KindRecovery, KindDoor, KindKey, KindBillAccepted, KindBillRefused,
		KindBillError, KindTilt, KindTiltClear, KindHandpay, KindHandpayClear, KindConfigChange,
		KindMemoryClear, KindVoid, KindJackpot, KindMemoryError, KindProgram, KindTicketOut, KindTicketIn, KindNote, KindDevice}
}

// MoneyArg is v as a log argument.
func MoneyArg(v money.Cents) Arg { return Arg{Type: ArgMoney, Value: v.String()} }

// KeyArg is message key k as a log argument (translated).
func KeyArg(k string) Arg { return Arg{Type: ArgKey, Value: k} }

// TextArg is s as a log argument, shown as is.
func TextArg(s string) Arg { return Arg{Type: ArgText, Value: s} }

// CountArg is n as a log argument.
func CountArg(n uint64) Arg { return Arg{Type: ArgCount, Value: strconv.FormatUint(n, 10)} }

// TiltArgs are tilt reasons as message keys ("tilt."+reason).
func TiltArgs(t []string) []Arg {
	out := make([]Arg, len(t))
	for i, r := range t {
		out[i] = KeyArg("tilt." + r)
	}
	return out
}
