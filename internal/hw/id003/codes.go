package id003

import "fmt"

// Command is a host→validator command byte (the byte after the length).
type Command byte

// Operation commands. The validator answers each with ACK (0x50), or with
// Invalid Command (0x4B) when its state does not allow it.
const (
	CmdStatus Command = 0x11 // status request: answered with the status
	CmdReset  Command = 0x40 // reset: a note inside is returned or stacked, then initialize
	CmdStack1 Command = 0x41 // stack the note in escrow (vend valid as it passes the point of no return)
	CmdStack2 Command = 0x42 // stack the note in escrow, second stacking mode
	CmdReturn Command = 0x43 // return the note in escrow to the customer
	CmdHold   Command = 0x44 // keep the note in escrow (the host needs time to decide)
	CmdWait   Command = 0x45 // wait (keep the present state)
	CmdAck    Command = 0x50 // the host's ACK of vend valid; the validator's ACK of a command
)

// Setting commands: the validator answers each with an echo of the same
// frame. The setting request (the same code minus 0x40) reads a setting
// back.
const (
	CmdSetDenomination Command = 0xC0 // 2 bytes: bit n of byte 0 set inhibits escrow code 0x61+n
	CmdSetSecurity     Command = 0xC1 // 2 bytes: bit n set is high security for escrow code 0x61+n
	CmdSetCommMode     Command = 0xC2 // 1 byte: 0 = polling (the only mode this driver speaks)
	CmdSetInhibit      Command = 0xC3 // 1 byte: bit 0 set disables acceptance, clear enables it
	CmdSetDirection    Command = 0xC4 // 1 byte: bit n set inhibits insertion direction A, B, C, D
	CmdSetOptional     Command = 0xC5 // 2 bytes: optional functions, unit-specific; 0 = none
	CmdSetBarcode      Command = 0xC6 // 2 bytes: barcode type (0x01 interleaved 2 of 5), number of characters (0x12 = 18)
	CmdSetBarInhibit   Command = 0xC7 // 1 byte: bit 0 set inhibits notes, bit 1 set inhibits tickets; other bits set

	CmdGetDenomination Command = 0x80
	CmdGetSecurity     Command = 0x81
	CmdGetCommMode     Command = 0x82
	CmdGetInhibit      Command = 0x83
	CmdGetDirection    Command = 0x84
	CmdGetOptional     Command = 0x85
	CmdGetBarcode      Command = 0x86
	CmdGetBarInhibit   Command = 0x87
	CmdGetVersion      Command = 0x88 // the model and firmware version, ASCII
	CmdGetBootVersion  Command = 0x89 // the boot firmware version, ASCII
)

// settingLen is the data length of each setting command (and of the
// answer to its request).
var settingLen = map[Command]int{
	CmdSetDenomination: 2, CmdSetSecurity: 2, CmdSetCommMode: 1,
	CmdSetInhibit: 1, CmdSetDirection: 1, CmdSetOptional: 2,
	CmdSetBarcode: 2, CmdSetBarInhibit: 1,
}

// SettingLen returns the data length of setting command c (C0–C7) or of
// its request (80–87), and whether c is one.
func SettingLen(c Command) (int, bool) {
	if c >= CmdGetDenomination && c <= CmdGetBarInhibit {
		c += 0x40
	}
	n, ok := settingLen[c]
	return n, ok
}

var commandNames = map[Command]string{
	CmdStatus: "status request", CmdReset: "reset", CmdStack1: "stack-1", CmdStack2: "stack-2",
	CmdReturn: "return", CmdHold: "hold", CmdWait: "wait", CmdAck: "ack",
	CmdSetDenomination: "set denomination", CmdSetSecurity: "set security",
	CmdSetCommMode: "set communication mode", CmdSetInhibit: "set inhibit",
	CmdSetDirection: "set direction", CmdSetOptional: "set optional function",
	CmdSetBarcode: "set barcode function", CmdSetBarInhibit: "set bar inhibit",
	CmdGetBarcode: "barcode function request", CmdGetBarInhibit: "bar inhibit request",
	CmdGetDenomination: "denomination request", CmdGetSecurity: "security request",
	CmdGetCommMode: "communication mode request", CmdGetInhibit: "inhibit request",
	CmdGetDirection: "direction request", CmdGetOptional: "optional function request",
	CmdGetVersion: "version request", CmdGetBootVersion: "boot version request",
}

func (c Command) String() string {
	if n, ok := commandNames[c]; ok {
		return n
	}
	return fmt.Sprintf("command 0x%02X", byte(c))
}

// Status is a validator→host status byte, the answer to a status request.
type Status byte

// Normal statuses.
const (
	StIdling     Status = 0x11 // enabled, no note
	StAccepting  Status = 0x12 // a note is being drawn in and validated
	StEscrow     Status = 0x13 // the note's escrow code, or TicketCode and the barcode; waiting for stack, return or hold
	StStacking   Status = 0x14 // the note is on its way to the stacker
	StVendValid  Status = 0x15 // the note is past the point of no return; repeated until the host ACKs
	StStacked    Status = 0x16 // the note is in the stacker (after the ACK)
	StRejecting  Status = 0x17 // 1 data byte: the validator refuses the note (reason)
	StReturning  Status = 0x18 // the note is going back to the customer (host's return)
	StHolding    Status = 0x19 // the note or ticket is held in escrow (host's hold); no data
	StDisabled   Status = 0x1A // inhibited: acceptance disabled by the host
	StInitialize Status = 0x1B // initializing after a reset
)

// Power-up statuses: reported from power-on until the host sends Reset.
const (
	StPowerUp             Status = 0x40 // no note inside
	StPowerUpBillAcceptor Status = 0x41 // a note was in the transport: Reset returns it
	StPowerUpBillStacker  Status = 0x42 // a note was past escrow on its way in: Reset stacks it
)

// Error statuses.
const (
	StStackerFull    Status = 0x43
	StStackerOpen    Status = 0x44 // the stacker (cash box) is removed
	StAcceptorJam    Status = 0x45 // a note is jammed in the acceptor
	StStackerJam     Status = 0x46 // a note is jammed in the stacker
	StPause          Status = 0x47 // a second note was inserted while one is handled
	StCheated        Status = 0x48 // a fraud attempt (a note pulled back, a string)
	StFailure        Status = 0x49 // 1 data byte: the failure code
	StCommError      Status = 0x4A // the validator received a frame with a bad CRC or length
	StInvalidCommand Status = 0x4B // the command is not valid in the validator's state
)

// StAck is the validator's ACK frame code (FC 05 50 AA 05).
const StAck Status = 0x50

var statusNames = map[Status]string{
	StIdling: "idling", StAccepting: "accepting", StEscrow: "escrow", StStacking: "stacking",
	StVendValid: "vend valid", StStacked: "stacked", StRejecting: "rejecting",
	StReturning: "returning", StHolding: "holding", StDisabled: "disabled (inhibit)",
	StInitialize: "initialize", StPowerUp: "power up",
	StPowerUpBillAcceptor: "power up with bill in acceptor",
	StPowerUpBillStacker:  "power up with bill in stacker",
	StStackerFull:         "stacker full", StStackerOpen: "stacker open", StAcceptorJam: "acceptor jam",
	StStackerJam: "stacker jam", StPause: "pause", StCheated: "cheated", StFailure: "failure",
	StCommError: "communication error", StInvalidCommand: "invalid command", StAck: "ack",
}

func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("status 0x%02X", byte(s))
}

// Known reports whether s is a status this package knows.
func (s Status) Known() bool { _, ok := statusNames[s]; return ok }

// DataLen is the number of data bytes status s carries in a status reply:
// 1 for escrow, rejecting and failure, 0 otherwise. A ticket's escrow is
// longer: TicketCode, then its barcode.
func (s Status) DataLen() int {
	switch s {
	case StEscrow, StRejecting, StFailure:
		return 1
	}
	return 0
}

// PowerUp reports whether s is one of the three power-up statuses.
func (s Status) PowerUp() bool { return s >= StPowerUp && s <= StPowerUpBillStacker }

// Fault reports whether s is an error status that stops acceptance until it
// clears (stacker full/open, jams, pause, cheated, failure).
func (s Status) Fault() bool { return s >= StStackerFull && s <= StFailure }

// RejectReason is the data byte of a rejecting status.
type RejectReason byte

var rejectNames = map[RejectReason]string{
	0x71: "insertion error", 0x72: "magnetic pattern error", 0x73: "note remained in the head",
	0x74: "compensation error", 0x75: "conveying error", 0x76: "denomination assessing error",
	0x77: "photo pattern error", 0x78: "photo level error", 0x79: "inhibited denomination or direction",
	0x7A: "unknown reject", 0x7B: "operation error", 0x7C: "note remained in the transport",
	0x7D: "length error", 0x7E: "photo pattern error (2)",
}

func (r RejectReason) String() string {
	if n, ok := rejectNames[r]; ok {
		return fmt.Sprintf("%s (0x%02X)", n, byte(r))
	}
	return fmt.Sprintf("reject reason 0x%02X", byte(r))
}

// FailureCode is the data byte of a failure status.
type FailureCode byte

var failureNames = map[FailureCode]string{
	0xA2: "stack motor failure", 0xA5: "transport motor speed failure", 0xA6: "transport motor failure",
	0xAB: "cash box not ready", 0xAF: "validator head removed", 0xB0: "boot ROM failure",
	0xB1: "external ROM failure", 0xB2: "ROM failure", 0xB3: "external ROM writing failure",
}

func (f FailureCode) String() string {
	if n, ok := failureNames[f]; ok {
		return fmt.Sprintf("%s (0x%02X)", n, byte(f))
	}
	return fmt.Sprintf("failure 0x%02X", byte(f))
}

// Escrow codes: the denomination byte of an escrow status. The unit's
// currency table assigns a note to each of 0x61–0x68 (the configuration
// names the value of each code the cabinet accepts).
const (
	FirstEscrowCode byte = 0x61
	LastEscrowCode  byte = 0x68
)

// Barcode tickets (TITO ticket-in). These facts come from public
// descriptions of ID-003 with the barcode extension, not from JCM's
// specification: to check on a real unit.
//
//   - A ticket in escrow is the escrow status whose data is TicketCode
//     followed by the barcode in ASCII (18 digits for a TITO ticket), so
//     the frame's length varies with the barcode.
//   - Set barcode function (C6, request 86): barcode type, number of
//     characters. The driver sets interleaved 2 of 5, 18 characters.
//   - Set bar inhibit (C7, request 87): bit 0 set inhibits notes, bit 1 set
//     inhibits tickets, the other bits set: FC both enabled, FD notes
//     inhibited, FE tickets inhibited, FF both inhibited. Set inhibit (C3)
//     still enables or disables the whole unit.
//   - Hold (44) keeps the item in escrow (about 10 s per hold on real
//     units: the host repeats it); the status meanwhile is holding (19, no
//     data). Stack-1 and return are valid from escrow or holding.
const (
	// TicketCode is the escrow code of a barcode ticket.
	TicketCode byte = 0x6F
	// TicketDigits is the length of a TITO ticket's barcode (its
	// validation number), all digits.
	TicketDigits = 18
	// BarcodeInterleaved25 is the barcode type interleaved 2 of 5 in
	// the set barcode function.
	BarcodeInterleaved25 byte = 0x01
)

// Bar inhibit bits (C7).
const (
	BarInhibitNotes   byte = 0x01
	BarInhibitTickets byte = 0x02
	// BarInhibitNone enables both (the other bits are always set).
	BarInhibitNone byte = 0xFC
)
