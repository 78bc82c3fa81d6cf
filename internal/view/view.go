// Package view is the snapshot of committed cabinet state that the display
// draws. The controller builds a new Snapshot after every committed
// transaction and publishes it atomically; the display only reads it, so
// drawing never blocks on the store (platform.md §7). Pure data, no I/O.
package view

import (
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/money"
)

// Mode is the cabinet state shown (platform.md §1).
type Mode string

const (
	Boot     Mode = "boot"
	Attract  Mode = "attract"  // no credits
	Menu     Mode = "menu"     // credits, game choice
	Table    Mode = "table"    // a game's table: betting or playing a round
	Help     Mode = "help"     // help and paytable of Game
	Tilt     Mode = "tilt"     // overlay: Tilts say why; the frozen screen below
	Handpay  Mode = "handpay"  // overlay: call attendant
	Audit    Mode = "audit"    // technician screens (audit key)
	Operator Mode = "operator" // operator menu (operator key)
	HwTest   Mode = "hwtest"   // self-test
)

// Snapshot is everything a frame needs. Treat it as immutable.
type Snapshot struct {
	Seq  uint64 `json:"seq"`  // increases with every publish
	Mode Mode   `json:"mode"` // what is shown; Under is the mode below an overlay
	// Under is the screen frozen below a Tilt or Handpay overlay.
	Under Mode   `json:"under,omitempty"`
	Lang  string `json:"lang"` // "fr" or "en"
	// Sound: the operator has the sound effects on (cabinet.sound).
	Sound bool `json:"sound,omitempty"`
	// Volume is the sound effects' volume in percent and DealPaceMS the
	// milliseconds a dealt card takes from the shoe (0: no animation), both
	// the operator's (cabinet.volume, cabinet.deal_pace_ms): the display
	// follows them at once.
	Volume     int `json:"volume,omitempty"`
	DealPaceMS int `json:"deal_pace_ms,omitempty"`
	// Demo marks the attract loop's demonstration pictures (display only:
	// the controller never sets it).
	Demo bool `json:"demo,omitempty"`

	// Present numbers the picture of committed play to present: it grows
	// with every committed round step (and is 1 at a boot that resumes a
	// round). The display reports through Shown when it has presented a
	// number in full (platform.md §7: what is shown is part of what is
	// accepted); until then the table's buttons are unlit.
	Present uint64 `json:"present,omitempty"`
	// HoldMS, when set, is how long the settled round's result (picture
	// Present) must stay on screen once shown before the next round may
	// start (cabinet.result_hold_ms); the display reports the hold as over
	// through Shown.Held.
	HoldMS int `json:"hold_ms,omitempty"`
	// PauseMS is how long picture Present must have been drawn in full
	// before the display reports it shown (cabinet.decision_pause_ms): a
	// decision is never taken on a picture complete for less (issue 35).
	PauseMS int `json:"pause_ms,omitempty"`
	// Hurry counts the presses consumed to finish a reveal: when it
	// changes, the display shows the whole picture at once.
	Hurry uint64 `json:"hurry,omitempty"`

	Currency string      `json:"currency"` // e.g. "€"
	Denom    money.Cents `json:"denom"`    // credit denomination for the optional credits display
	Credits  money.Cents `json:"credits"`
	Win      money.Cents `json:"win"`     // paid in the current/last round
	Jackpot  money.Cents `json:"jackpot"` // progressive pool shown (rounded down)

	Games []GameInfo `json:"games"` // enabled games, menu order
	Game  game.ID    `json:"game"`  // game on the table / highlighted in the menu

	// Bets placed but not yet dealt, and the chip value BET+ adds next.
	Bets []game.Bet  `json:"bets,omitempty"`
	Chip money.Cents `json:"chip"`
	Spot int         `json:"spot"` // spot BET+ adds to
	// SpotBet is the bet on Spot BET+ adds to: its main bet ("" or
	// game.Main) or a side bet (the Royal Poker bet: its one circle).
	SpotBet game.BetKind `json:"spot_bet,omitempty"`

	// DuelInput is Poker Duel's pending choices (UI state, not durable).
	DuelInput *DuelInput `json:"duel_input,omitempty"`

	// Round is the current round's picture, or the last settled round's.
	Round *game.Table `json:"round,omitempty"`
	// Recovered is set after a power-loss resume until the round ends.
	Recovered bool `json:"recovered,omitempty"`

	Lamps hw.ButtonSet `json:"lamps"` // lit buttons (exactly the legal ones)

	Tilts   []string    `json:"tilts,omitempty"` // reason keys, e.g. "main_door", "memory_error"
	Handpay money.Cents `json:"handpay,omitempty"`
	// HandpayKind is "cashout" or "jackpot".
	HandpayKind string `json:"handpay_kind,omitempty"`

	Message string `json:"message,omitempty"` // message key of a transient notice
	// Refusal, when set, numbers the refusal whose notice Message is (a
	// button, a bill or a key refused): the display shows it for at most
	// RefusalMS from the moment the number changes, then Standing (the
	// notice under it, "" none). 0: Message is a standing notice (a host's
	// lock-out, a ticket, the printer), shown while it is so.
	Refusal  uint64 `json:"refusal,omitempty"`
	Standing string `json:"standing,omitempty"`

	// Paid is the handpay the attendant has just paid with the reset key:
	// the screen confirms it (kind and amount) until the next input after
	// the key is released (nil: none).
	Paid *Paid `json:"paid,omitempty"`

	// Commitment is C, in 64 hex digits, of the committed shoe the table's
	// game deals from (docs/verify.md): the open round's, else the one the
	// next round will take; "" when the game has none (Poker Duel between
	// sessions). The table shows its first 8 digits while the player bets,
	// help all of it and its QR code.
	Commitment string `json:"commitment,omitempty"`

	Help     *HelpView     `json:"help,omitempty"`
	Audit    *AuditView    `json:"audit,omitempty"`
	Operator *OperatorView `json:"operator,omitempty"`
	HwTest   *HwTestView   `json:"hwtest,omitempty"`
}

// RefusalMS is the longest a refusal's notice stays on screen (issue 35:
// a notice says what is true now, and a stale one fades).
const RefusalMS = 3000

// Paid is a handpay paid by the attendant.
type Paid struct {
	Kind   string      `json:"kind"` // "cashout" or "jackpot"
	Amount money.Cents `json:"amount"`
}

// DuelInput is what the player has chosen but not yet played in Poker Duel:
// the card cursor and the cards marked for the draw during a deal, the chips
// YES opens or raises with, and between sessions the deck and level DEAL buys.
type DuelInput struct {
	Cursor int     `json:"cursor"` // card under the cursor, 0–4
	Marked [5]bool `json:"marked"` // cards marked for exchange
	Amount int64   `json:"amount"` // open/raise size in chips
	Deck   int     `json:"deck"`   // 32 or 52, for the next session
	Level  string  `json:"level"`  // difficulty for the next session
}

// GameInfo is a game on the menu with its table limits. For Poker Duel,
// MinBet is the session price and MaxBet is 0 (there is no bet range).
type GameInfo struct {
	ID     game.ID     `json:"id"`
	MinBet money.Cents `json:"min_bet"`
	MaxBet money.Cents `json:"max_bet"`
	Spots  int         `json:"spots"`
	// Side bets offered (kind and limits).
	Side []SideInfo `json:"side,omitempty"`
}

// SideInfo is a side bet on offer.
type SideInfo struct {
	Kind game.BetKind `json:"kind"`
	Min  money.Cents  `json:"min"`
	Max  money.Cents  `json:"max"`
}

// HelpView is the help/paytable page of one game.
type HelpView struct {
	Game game.ID `json:"game"`
	// Page counts the player's page presses; the display wraps it into the
	// pages its paytable layout needs.
	Page int `json:"page"`
	// Rules: the parameters in force (key → formatted value).
	Rules []KV `json:"rules"`
	// Paytables per bet, and RTP figures as computed by the project's analysis.
	Pays []PayLine `json:"pays"`
	RTP  []RTPLine `json:"rtp"`
}

// KV is a labelled value (label is a message key; value preformatted).
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// PayLine is one paytable line.
type PayLine struct {
	Bet  game.BetKind `json:"bet"`
	Hand string       `json:"hand"` // message key
	Pays string       `json:"pays"` // e.g. "25:1", "100 % jackpot"
}

// RTPLine is one computed return figure, in basis points of a percent
// (99.54 % = 9954) so no float crosses into the display's data.
type RTPLine struct {
	Bet    game.BetKind `json:"bet"`
	RTPBP  int64        `json:"rtp_bp"` // hundredths of a percent
	Method string       `json:"method"` // "exact", "simulation ±0.05 %"
	// Basis is what the figure is a return of: "staked" (the main bet per
	// money staked, doubles and splits included) or "unit" (a side bet or
	// insurance per unit staked); "" when not given.
	Basis string `json:"basis,omitempty"`
	// InitialBP is the main bet's return per initial bet (0: not given).
	InitialBP int64 `json:"initial_bp,omitempty"`
	// WorstBet, when not zero, is the bet per spot the figure holds at
	// (on WorstSpots spots): a win cap makes the return depend on the bet
	// and help says the figure is the one at this, the worst, bet.
	WorstBet   money.Cents `json:"worst_bet,omitempty"`
	WorstSpots int         `json:"worst_spots,omitempty"`
}

// AuditView is the technician's screens.
type AuditView struct {
	Page   string      `json:"page"` // "meters", "recall", "events", "tickets", "selftest", "program"
	Meters []KV        `json:"meters"`
	Recall *RecallView `json:"recall,omitempty"`
	// Tickets is the page of tickets out and in (page "tickets").
	Tickets *TicketsView `json:"tickets,omitempty"`
	Events  []EventLine  `json:"events,omitempty"`
	Digest  string       `json:"digest"` // program SHA-256 hex
	Checks  []KV         `json:"checks,omitempty"`

	// Version is the program's version, shown beside Digest.
	Version string `json:"version,omitempty"`
	// EventPage and EventPages page through the whole event log (0 =
	// newest events; HIT older, STAND newer).
	EventPage  int `json:"event_page"`
	EventPages int `json:"event_pages"`
}

// TicketsView is the audit page of tickets (TITO): the ticket meters and
// the last tickets out and in, newest first, from the store's committed
// records.
type TicketsView struct {
	// Meters are "issued", "printed", "voided" (tickets out) and
	// "redeemed" (tickets in stacked and credited), in that order.
	Meters []TicketMeter `json:"meters"`
	Out    []TicketLine  `json:"out"`
	In     []TicketLine  `json:"in"`
}

// TicketMeter is one ticket meter: how many tickets and their amount.
type TicketMeter struct {
	Key    string      `json:"key"`
	Count  int64       `json:"count"`
	Amount money.Cents `json:"amount"`
}

// TicketLine is one ticket out or in.
type TicketLine struct {
	// Validation is the 18-digit number as printed, "00-1234-5678-9012-3456".
	Validation string      `json:"validation"`
	Amount     money.Cents `json:"amount"`
	Time       string      `json:"time"` // created (out) or inserted (in), "2006-01-02 15:04:05"
	// Status: out "pending", "printed", "uncertain", "voided"; in
	// "escrow", "authorised", "stacked", "rejected", "returned".
	Status string `json:"status"`
	// Reason is why a ticket out became uncertain (the printer's words) or
	// a ticket in was rejected or returned (as the player was shown it).
	Reason string `json:"reason,omitempty"`
	// Code is why a ticket in was rejected or returned, as the player
	// was shown it: "host_84" (the host's transfer code) or "status_88"
	// (the SAS redemption status); the display words it
	// ("msg.ticket_in_"+Code) in the cabinet's language, Reason being its
	// fallback.
	Code string `json:"code,omitempty"`
	// Reprints counts a ticket out's reprints by the attendant.
	Reprints int `json:"reprints,omitempty"`
}

// RecallView is one recalled round redrawn step by step.
type RecallView struct {
	Index  int         `json:"index"` // 0 = most recent
	Count  int         `json:"count"`
	Round  uint64      `json:"round"`
	Game   game.ID     `json:"game"`
	Start  string      `json:"start"`
	End    string      `json:"end"`
	Step   int         `json:"step"`
	Steps  int         `json:"steps"`
	Action string      `json:"action"`
	Table  game.Table  `json:"table"` // picture after Step
	Before money.Cents `json:"before"`
	After  money.Cents `json:"after"`
	// Recovered: the round was resumed after a power cut; Voided: it was
	// voided and refunded (left unfinished beyond its game's limit).
	Recovered bool `json:"recovered,omitempty"`
	Voided    bool `json:"voided,omitempty"`
	// Shoe is the round's committed shoe and, once revealed, its secret,
	// order and verdict (nil: the round dealt no card).
	Shoe *ShoeView `json:"shoe,omitempty"`
}

// ShoeView is a recalled round's committed shoe (docs/verify.md).
type ShoeView struct {
	No         uint64 `json:"no"`
	Commitment string `json:"commitment"`
	// From and To: the round's cards are the order's positions From to
	// To-1.
	From int `json:"from"`
	To   int `json:"to"`
	// Status is "verified", "mismatch" or "not_revealed" (a continuous
	// shoe still in play: Secret and Order are empty); Detail says what
	// differs for a mismatch.
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
	Secret string `json:"secret,omitempty"`
	Cut    int    `json:"cut,omitempty"`
	Order  string `json:"order,omitempty"` // card.Format of the order
}

// EventLine is one event-log entry.
type EventLine struct {
	Seq  uint64 `json:"seq"`
	Time string `json:"time"`
	Kind string `json:"kind"`
	Text string `json:"text"`
	// Detail and Args are the details as data ("detail."+Detail, its
	// arguments typed: money, switch, count, key); when Detail is empty
	// the display falls back to Text. For "tilt" and
	// "jam_cleared_still_tilted" every argument is a reason, joined into
	// the message's one verb.
	Detail string     `json:"detail,omitempty"`
	Args   []EventArg `json:"args,omitempty"`
}

// EventArg is one typed argument of an event's details.
type EventArg struct {
	Type  string `json:"type"` // "money", "switch", "count", "key" (a message key)
	Value string `json:"value"`
}

// OperatorView is the operator menu.
type OperatorView struct {
	Items  []Setting `json:"items"`  // the settings of the page shown
	Cursor int       `json:"cursor"` // index in Items
	// Error is a draft the configuration refused: the setting it refused
	// (the one changed, or the one the change conflicts with) and the
	// value, as data the display words in the cabinet's language.
	Error *OperatorError `json:"error,omitempty"`

	// Group is the group of the page shown ("cabinet", "bills",
	// "jackpot", "games.<id>"); Page and Pages count its pages (0-based
	// Page). SPOT goes to the next group.
	Group string `json:"group,omitempty"`
	Page  int    `json:"page"`
	Pages int    `json:"pages"`
	// Confirm: YES was pressed on a draft; YES again saves it, NO drops it.
	Confirm bool `json:"confirm,omitempty"`
	// Saved is the setting just saved ("operator.saved").
	Saved *Setting `json:"saved,omitempty"`
	// RTP is the return of the game being edited with the draft in force,
	// when it can be computed; Refused says the draft cannot be saved
	// because that return is 100 % or more or below MinRTP. Once the draft
	// is saved (Saved), it is the return the saved change gives. The draft
	// row, the confirmation and the Saved line state it with the minimum.
	RTP *OperatorRTP `json:"rtp,omitempty"`
}

// Kinds of setting values (Setting.Kind).
const (
	KindMoney   = "money"   // an amount, Cents.String
	KindCount   = "count"   // a whole number (Unit says of what)
	KindSwitch  = "switch"  // "on" / "off"
	KindPercent = "percent" // a decimal percentage
	KindWord    = "word"    // a word of the configuration, translated "val."+word
)

// OperatorError is a refused operator change.
type OperatorError struct {
	Setting Setting `json:"setting"`
	Value   string  `json:"value"`
}

// OperatorRTP is the live return of the game a draft changes.
type OperatorRTP struct {
	Game    game.ID `json:"game"`
	RTP     int64   `json:"rtp"`     // basis points of a percent (99.54 % = 9954)
	MinRTP  int64   `json:"min_rtp"` // the floor, basis points (0: none)
	Refused bool    `json:"refused,omitempty"`
	// Computing: the figure is being computed off the input path (RTP
	// and Refused not yet known); the draft cannot be saved meanwhile.
	Computing bool `json:"computing,omitempty"`
}

// Setting is one operator setting.
type Setting struct {
	// Key is the configuration key (stored as the override, logged); the
	// screens never take it apart.
	Key   string `json:"key"`
	Value string `json:"value"`
	// Allowed is the configuration's English description (command line,
	// program log); the screens use the typed fields below.
	Allowed string `json:"allowed"`
	// Label are message keys, shown translated and joined by " — "; a
	// non-zero LabelMoney fills the %s of the last one (a bill's value).
	Label      []string    `json:"label,omitempty"`
	LabelMoney money.Cents `json:"label_money,omitempty"`
	// Group is the menu page group ("cabinet", "bills", "jackpot",
	// "games.<id>") and Game the game the setting changes ("" none).
	Group string  `json:"group,omitempty"`
	Game  game.ID `json:"game,omitempty"`
	// Kind is the value's kind: "money" (Cents.String, in the cabinet's
	// currency), "count" (Unit says of what: "rounds", or ""), "switch"
	// ("on"/"off": the display says yes/no), "percent" (a decimal
	// percentage), "word" (translated "val."+word). Choices are the allowed
	// values in the order BET+ steps through them; Note a message key for
	// what they do not say (a bound set by another setting, what 0 means).
	Kind    string   `json:"kind,omitempty"`
	Unit    string   `json:"unit,omitempty"`
	Choices []string `json:"choices,omitempty"`
	Note    string   `json:"note,omitempty"`
	// Min and Max are the least and greatest values the configuration
	// accepts, in Value's form (the bounds its validation checks; "" when
	// there is none): the allowed range shown. Choices are only the steps
	// BET+ takes through it.
	Min string `json:"min,omitempty"`
	Max string `json:"max,omitempty"`
	// Draft: Value is a draft (changed, not saved, not in force).
	Draft bool `json:"draft,omitempty"`
}

// HwTestView is the self-test screen.
type HwTestView struct {
	Lamp   string     `json:"lamp"`   // lamp lit now
	Inputs []TestLine `json:"inputs"` // last input changes, newest first
	Bills  []TestLine `json:"bills"`  // decoded bills (not credited)
}

// TestLine is one line of the self-test, as data the display words in the
// snapshot's language (selftest.LineText).
type TestLine struct {
	// Kind: "lamp", "press", "switch_on", "switch_off", "bill", "refused",
	// "error", "jam", "jam_clear", "fault".
	Kind   string      `json:"kind"`
	Name   string      `json:"name,omitempty"`   // the button, switch or lamp
	Amount money.Cents `json:"amount,omitempty"` // a bill read
	// Text is the device's own words (a refusal's reason, a fault), shown
	// as the device gave them.
	Text string `json:"text,omitempty"`
}

// Shown is the display's report of how far its presentation has got: the
// highest picture number (Snapshot.Present) shown in full, cards, turns and
// chips done, and complete on screen since for the snapshot's PauseMS; and
// the highest whose result has stayed on screen for the snapshot's HoldMS
// (counted from the same moment). Both only grow; a report repeats what it
// already said.
type Shown struct {
	Shown uint64 `json:"shown"`
	Held  uint64 `json:"held"`
}
