package sas

import (
	"fmt"
	"time"

	"cabinet/internal/money"
)

// TITO (ticket in, ticket out): how the engine asks the cabinet about
// validation and ticket redemption (SAS 6.02 §15; docs/sas.md#tito). Each
// interface is optional: the engine type-asserts Engine.M, and a poll whose
// interface the cabinet does not implement, or that Config does not turn
// on, gets no answer (the reference: an unsupported long poll is ignored).
// The records behind them are the cabinet's, in its store; the rules of the
// protocol are here, as pure functions the cabinet calls in its
// transactions (ValidationID.Apply, ValidationID.Next, the Redemption
// methods), so that a power cut anywhere leaves a state the engine reads
// back and reports again.

// ValidationMode is how cash-out tickets get their validation numbers (LP
// A0's validation style).
type ValidationMode byte

// Validation modes.
const (
	// ValidationNone: no ticket is printed; a cash-out is a handpay.
	ValidationNone ValidationMode = iota
	// ValidationSystem: the host gives each ticket its number (exception
	// 57, LP 57, LP 58).
	ValidationSystem
	// ValidationSecureEnhanced: the machine computes each number from the
	// validation ID and sequence number the host set with LP 4C.
	ValidationSecureEnhanced
)

func (m ValidationMode) String() string {
	switch m {
	case ValidationNone:
		return "none"
	case ValidationSystem:
		return "system"
	case ValidationSecureEnhanced:
		return "secure-enhanced"
	}
	return fmt.Sprintf("ValidationMode(%d)", byte(m))
}

// TITO exception codes (SAS Appendix A).
const (
	ExTicketPrinted     = 0x3D // cash-out ticket printed (a validation record to read with LP 4D)
	ExHandpayValidated  = 0x3E // handpay validated, no receipt (a validation record to read with LP 4D)
	ExValidationIDUnset = 0x3F // secure-enhanced validation ID not configured (no LP 4C yet)
	ExValidationRequest = 0x57 // system validation request (read LP 57, answer LP 58)
	ExTicketInserted    = 0x67 // ticket in escrow (read LP 70, answer LP 71)
	ExTicketTransferred = 0x68 // ticket transfer complete (read the status with LP 71 FF)
)

// CashoutType is LP 57's cash-out type.
type CashoutType byte

// Cash-out types of LP 57.
const (
	CashoutCashable   CashoutType = 0x00 // cashable ticket
	CashoutRestricted CashoutType = 0x01 // restricted promotional ticket
	CashoutNone       CashoutType = 0x80 // not waiting for system validation
)

// Cashout is a cash-out waiting for the host's validation number.
type Cashout struct {
	ID     uint64 // the cabinet's identity of this cash-out, from 1: a new one gets a new ID
	Type   CashoutType
	Amount money.Cents
}

// SystemValidator is the cabinet under system validation: a cash-out to a
// ticket waits for the host's number (exception 57 while it waits, LP 57 to
// read it, LP 58 to answer it). How long it waits, and the handpay it falls
// back to, are the cabinet's.
type SystemValidator interface {
	// PendingCashout returns the cash-out waiting for a validation number;
	// ok is false when none is.
	PendingCashout() (c Cashout, ok bool, err error)
	// SetValidationNumber gives cash-out id the host's validation system ID
	// (01–99) and 16-digit number, or denies it (systemID 0: the cabinet
	// pays by hand). ErrNoCashout (wrapped) when id is no longer waiting.
	SetValidationNumber(id uint64, systemID int, number uint64) error
}

// LP 58 status codes.
const (
	ValidationAcked    = 0x00 // command acknowledged
	ValidationNotInOut = 0x80 // not in cash-out
	ValidationImproper = 0x81 // improper validation rejected
)

// ValidationID is the secure-enhanced state the cabinet keeps (durably):
// the machine's validation ID and the sequence number of its last validated
// event, and the last values LP 4C sent.
type ValidationID struct {
	MachineID uint32 // 0: not configured (exception 3F; no ticket may be printed)
	Sequence  uint32 // the last one used: the next event gets Sequence+1
	SetID     uint32 // LP 4C's last machine ID
	SetSeq    uint32 // LP 4C's last sequence number
}

// Configured reports whether LP 4C has set a machine validation ID.
func (v ValidationID) Configured() bool { return v.MachineID != 0 }

// Apply returns the state after LP 4C (id, seq). An id of 0 only asks (no
// change). The reference: if the host sends again the ID and sequence
// number it sent last, and the machine has since used sequence numbers, the
// machine keeps its own (it does not go back).
func (v ValidationID) Apply(id, seq uint32) ValidationID {
	id &= 0xFFFFFF
	seq &= MaxValidationSequence
	if id == 0 {
		return v
	}
	if v.Configured() && id == v.SetID && seq == v.SetSeq {
		return v
	}
	return ValidationID{MachineID: id, Sequence: seq, SetID: id, SetSeq: seq}
}

// Next gives the next event its number: the new state (to commit with the
// ticket) and the 16-digit validation number. ErrBadData (wrapped) when no
// ID is configured.
func (v ValidationID) Next() (ValidationID, uint64, error) {
	if !v.Configured() {
		return v, 0, fmt.Errorf("sas: secure-enhanced validation number: no validation ID set by LP 4C: %w", ErrBadData)
	}
	v.Sequence = (v.Sequence + 1) & MaxValidationSequence
	n, err := SecureEnhancedNumber(v.MachineID, v.Sequence)
	return v, n, err
}

// SecureEnhanced is the cabinet under secure-enhanced validation.
type SecureEnhanced interface {
	// SetValidationID carries out LP 4C in the cabinet's store: the new
	// state is ValidationID.Apply(id, seq) of the committed one (id 0 only
	// reads it), returned once committed.
	SetValidationID(id, seq uint32) (ValidationID, error)
}

// ValidationType is an LP 4D record's type (what was validated).
type ValidationType byte

// Validation types of LP 4D records.
const (
	ValCashableTicket      ValidationType = 0x00 // cashable ticket from a cash-out or win, no handpay lockup
	ValRestrictedTicket    ValidationType = 0x01 // restricted promotional ticket from a cash-out
	ValCancelledReceipt    ValidationType = 0x10 // cancelled-credit handpay, receipt printed
	ValJackpotReceipt      ValidationType = 0x20 // jackpot handpay, receipt printed
	ValCancelledNoReceipt  ValidationType = 0x40 // cancelled-credit handpay, no receipt
	ValJackpotNoReceipt    ValidationType = 0x60 // jackpot handpay, no receipt
	ValCashableRedeemed    ValidationType = 0x80 // cashable ticket redeemed
	ValRestrictedRedeemed  ValidationType = 0x81 // restricted promotional ticket redeemed
	ValNonRestrictRedeemed ValidationType = 0x82 // non-restricted promotional ticket redeemed
)

// printed reports whether the record is of something printed (exception 3D)
// rather than a handpay validated without a receipt (3E).
func (t ValidationType) printed() bool { return t != ValCancelledNoReceipt && t != ValJackpotNoReceipt }

// MaxValidationRecords is the size of the validation buffer LP 4D reads
// (function codes 01–1F).
const MaxValidationRecords = 31

// ValidationRecord is one validated ticket or handpay, as LP 4D reports it.
type ValidationRecord struct {
	// Seq numbers the cabinet's records 1, 2, …; the record's buffer index
	// (LP 4D's function codes 01–1F) is (Seq-1) mod 31 + 1.
	Seq      uint64
	Type     ValidationType
	Time     time.Time
	SystemID int    // 00: a secure-enhanced number computed here; 01–99: the host's (system validation)
	Number   uint64 // 16 digits
	Amount   money.Cents
	Ticket   int  // the ticket number printed (0–9999); -1 for none (handpay without receipt)
	Acked    bool // read by the host with LP 4D 00 and acknowledged
}

// Index is the record's position in the 31-record buffer (1–31).
func (r ValidationRecord) Index() int { return int((r.Seq-1)%MaxValidationRecords) + 1 }

// ValidationLog is the cabinet's record of validations, read by LP 4D under
// system and secure-enhanced validation. While a record is unread the
// machine raises 3D (or 3E) as a priority exception.
type ValidationLog interface {
	// ValidationRecords returns the last (at most 31) records, oldest first.
	ValidationRecords() ([]ValidationRecord, error)
	// AckValidationRecord marks record seq read: the host acknowledged the
	// LP 4D 00 reply that carried it.
	AckValidationRecord(seq uint64) error
}

// TransferCode is the host's LP 71 transfer code: what it says of a ticket.
type TransferCode byte

// Transfer codes of LP 71 (the host's answer).
const (
	TransferCashable      TransferCode = 0x00 // valid cashable ticket
	TransferRestricted    TransferCode = 0x01 // valid restricted promotional ticket
	TransferNonRestricted TransferCode = 0x02 // valid non-restricted promotional ticket
	TransferStatus        TransferCode = 0xFF // request for the current ticket status
)

var transferReasons = map[TransferCode]string{
	0x80: "unable to validate",
	0x81: "not a valid validation number",
	0x82: "validation number not in system",
	0x83: "ticket marked pending in system",
	0x84: "ticket already redeemed",
	0x85: "ticket expired",
	0x86: "validation information not available",
	0x87: "ticket amount does not match system",
	0x88: "ticket amount exceeds auto redemption limit",
	0x89: "request for current ticket status",
	0x90: "ticket not valid at this time",
	0x91: "ticket not valid on this gaming machine",
	0x92: "player card must be inserted",
	0x93: "ticket not valid for current player",
}

// Rejected reports whether the host refuses the ticket (a code 80 or above
// other than FF).
func (c TransferCode) Rejected() bool { return c >= 0x80 && c != TransferStatus }

// String is the host's reason for a rejection, as the player is shown it.
func (c TransferCode) String() string {
	switch c {
	case TransferCashable:
		return "valid cashable ticket"
	case TransferRestricted:
		return "valid restricted promotional ticket"
	case TransferNonRestricted:
		return "valid non-restricted promotional ticket"
	case TransferStatus:
		return "request for current ticket status"
	}
	if s, ok := transferReasons[c]; ok {
		return s
	}
	if c.Rejected() {
		return fmt.Sprintf("ticket rejected by the casino system (code %02X)", byte(c))
	}
	return fmt.Sprintf("transfer code %02X", byte(c))
}

// RedemptionStatus is the machine's LP 71 status of a ticket.
type RedemptionStatus byte

// Redemption statuses (the machine's LP 71 reply).
const (
	RedeemedCashable      RedemptionStatus = 0x00 // cashable ticket redeemed
	RedeemedRestricted    RedemptionStatus = 0x01 // restricted promotional ticket redeemed
	RedeemedNonRestricted RedemptionStatus = 0x02 // non-restricted promotional ticket redeemed
	RedeemWaiting         RedemptionStatus = 0x20 // waiting for long poll 71
	RedeemPending         RedemptionStatus = 0x40 // ticket redemption pending (being stacked)
	RedeemRejectedByHost  RedemptionStatus = 0x80 // ticket rejected by host, or unknown
	RedeemNumberMismatch  RedemptionStatus = 0x81 // validation number does not match
	RedeemBadFunction     RedemptionStatus = 0x82 // not a valid transfer function
	RedeemBadAmount       RedemptionStatus = 0x83 // not a valid transfer amount
	RedeemOverLimit       RedemptionStatus = 0x84 // transfer amount exceeded the gaming machine credit limit
	RedeemNotMultiple     RedemptionStatus = 0x85 // transfer amount not an even multiple of the accounting denomination
	RedeemAmountMismatch  RedemptionStatus = 0x86 // transfer amount does not match ticket amount
	RedeemUnable          RedemptionStatus = 0x87 // gaming machine unable to accept transfer at this time
	RedeemTimeout         RedemptionStatus = 0x88 // ticket rejected due to timeout
	RedeemLinkDown        RedemptionStatus = 0x89 // ticket rejected due to communication link down
	RedeemDisabled        RedemptionStatus = 0x8A // ticket redemption disabled
	RedeemValidatorFailed RedemptionStatus = 0x8B // ticket rejected due to validator failure
	RedeemIncompatible    RedemptionStatus = 0xC0 // not compatible with current redemption cycle
	RedeemNoInfo          RedemptionStatus = 0xFF // no validation information available
)

var redemptionTexts = map[RedemptionStatus]string{
	RedeemedCashable: "cashable ticket redeemed", RedeemedRestricted: "restricted promotional ticket redeemed",
	RedeemedNonRestricted: "non-restricted promotional ticket redeemed", RedeemWaiting: "waiting for long poll 71",
	RedeemPending: "ticket redemption pending", RedeemRejectedByHost: "ticket rejected by the casino system",
	RedeemNumberMismatch: "validation number does not match", RedeemBadFunction: "not a valid transfer function",
	RedeemBadAmount: "not a valid transfer amount", RedeemOverLimit: "ticket amount over the credit limit",
	RedeemNotMultiple: "ticket amount not a whole number of credits", RedeemAmountMismatch: "transfer amount does not match ticket amount",
	RedeemUnable: "cannot accept the ticket now", RedeemTimeout: "no answer from the casino system in time",
	RedeemLinkDown: "casino system offline", RedeemDisabled: "ticket redemption disabled",
	RedeemValidatorFailed: "note validator failure", RedeemIncompatible: "not compatible with current redemption cycle",
	RedeemNoInfo: "no validation information available",
}

func (s RedemptionStatus) String() string {
	if t, ok := redemptionTexts[s]; ok {
		return t
	}
	return fmt.Sprintf("redemption status %02X", byte(s))
}

// TicketRedeemer is the cabinet that takes tickets in, redeemed by the host
// (exception 67, LP 70, LP 71, exception 68).
type TicketRedeemer interface {
	// Redemption returns the committed redemption record.
	Redemption() (Redemption, error)
	// UpdateRedemption commits next in place of cur, the record
	// Redemption returned; an error (the record changed meanwhile, the
	// store failed) commits nothing and the engine answers busy (the host
	// asks again).
	UpdateRedemption(cur, next Redemption) error
}

// TicketRoom is a TicketRedeemer that also bounds a ticket by the room
// left under its credit limit: LP 71 refuses a larger amount with 84 (over
// the credit limit), as it does above Config.TicketInLimit.
type TicketRoom interface {
	// TicketInRoom is the largest amount the credit meter can take now.
	TicketInRoom() money.Cents
}
