package sas

import "cabinet/internal/money"

// Machine is the cabinet as the engine sees it: a snapshot of the committed
// record, and the host's commands.
type Machine interface {
	// Snapshot returns the meters and state of the last committed record.
	Snapshot() (Snapshot, error)
	// Command carries out a host command; ErrBadData (wrapped) makes the
	// engine NACK.
	Command(c Command) error
}

// Queue is the durable exception FIFO (the bbolt bucket in production).
// Peek returns the oldest exception without removing it; Ack removes it once
// the host has acknowledged it (implied ACK). Overflow (drop the oldest and
// report 70) is the queue's business.
type Queue interface {
	Peek() (code byte, ok bool, err error)
	Ack(code byte) error
}

// CommandKind names a host command.
type CommandKind int

// Host commands.
const (
	CmdPlay       CommandKind = iota + 1 // 01 (On=false) / 02 (On=true)
	CmdSound                             // 03 (off) / 04 (on)
	CmdBills                             // 06 (enable) / 07 (disable) bill acceptor
	CmdBillDenoms                        // 08 Mask, Action
	CmdGame                              // 09 Game, On
)

// Command is a host command.
type Command struct {
	Kind CommandKind
	On   bool
	Game int // 1..N for CmdGame (0 = the whole machine)
	// Mask is LP 08's denomination mask (bit0 $1, bit1 $2, bit2 $5, …);
	// Action its action byte (0 = disable after each bill, 1 = keep enabled).
	Mask   uint32
	Action byte
}

// Snapshot is what the polls read. Money is in cents; the engine converts to
// credits of the accounting denomination (whole credits, rounded down).
type Snapshot struct {
	CoinIn    money.Cents // total wagered (meters.TotalIn)
	CoinOut   money.Cents // machine-paid wins (meters.TotalWon)
	Jackpot   money.Cents // hand-paid wins (meters.JackpotHandpay)
	Cancelled money.Cents // hand-paid cancelled credits (cash outs)
	Drop      money.Cents // bills stacked (meters.BillsIn)
	Credits   money.Cents // the credit meter

	Played, Won, Lost int64
	SlotDoor          int64 // main door openings
	PowerUps          int64
	SincePowerUp      int64 // games since the last power up
	SinceDoor         int64 // games since the last door closure

	Bills         map[money.Cents]int64 // bills stacked per denomination
	LastBill      money.Cents           // 0 = none yet
	LastBillCount int64                 // count of bills of that denomination

	Games    []Game // game N is Games[N-1]
	Selected int    // game being played, 0 in the menu

	Handpay Handpay

	// Tickets (TITO): cashable tickets redeemed and printed, amounts in
	// cents. The cabinet takes and prints cashable tickets only (no
	// restricted or non-restricted promotional credits).
	TicketsIn       money.Cents
	TicketsInCount  int64
	TicketsOut      money.Cents
	TicketsOutCount int64
}

// Game is one game of the machine.
type Game struct {
	ID       string      // 2 ASCII (Table C-1 style game ID)
	Paytable string      // up to 6 ASCII
	BasePct  int         // theoretical return, hundredths of a percent
	MaxBet   money.Cents // largest stake of one round
	Enabled  bool
	Played   int64
	CoinIn   money.Cents
	CoinOut  money.Cents // what the game paid to the credit meter (machine-paid wins)
	Jackpot  money.Cents // what it paid by the attendant (hand-paid wins)
}

// Handpay is the pending handpay, if any.
type Handpay struct {
	Pending bool
	Amount  money.Cents
	// Cancelled is set for a cash out paid by hand (level 80), clear for a
	// non-progressive win (level 40).
	Cancelled bool
}

// Config is the [sas] configuration the engine uses.
type Config struct {
	Address byte        // 1..127; 0 = SAS off
	Denom   money.Cents // accounting denomination
	Serial  string      // ≤ 40 ASCII
	Asset   uint32
	// Country is LP 48's country code (BCD), 0 when the currency has none
	// known here (USD = 37).
	Country int

	// Validation is how cash-out tickets are validated (LP A0's validation
	// style; the polls of the other modes are not answered). TicketIn turns
	// ticket redemption on (exception 67, LP 70, LP 71); TicketInLimit is
	// the largest ticket taken (0: no limit; a larger one is refused with
	// status 84). Each also needs the cabinet to implement its interface
	// (tito.go).
	Validation    ValidationMode
	TicketIn      bool
	TicketInLimit money.Cents
}
