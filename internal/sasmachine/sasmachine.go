// Package sasmachine is the cabinet as the SAS engine sees it
// (sas.Machine and sas.Queue): meters and state read from the last commit
// of the store, the exception queue kept in the store, and the host's
// commands and acknowledgements carried to the controller's goroutine.
//
// Nothing here keeps money or meters of its own: every figure a host reads
// is the store's committed record, converted by the engine to credits of
// the accounting denomination ([sas] denomination), so a host's meters
// equal `cabinet audit meters`.
//
// Nothing here writes the store either: the controller's ledger is its one
// writer. A reply never waits for a disk sync. An acknowledgement is
// applied in memory at once (Peek skips the acknowledged exception from
// then on) and handed to the controller, whose ledger removes it from the
// store's queue after the reply; a command is validated, answered, and
// committed by the controller after the reply. A power cut between the
// reply and that commit reports the acknowledged exception once more after
// the restart (never discarded before its ACK, as the reference requires;
// a host sees one duplicate at most per acknowledgement in flight), and
// leaves a command the host was answered ACK for not applied: after the
// restart the cabinet is in the host state committed before the command,
// the host hears exceptions 18 and 17 and, as after any power cut, sends
// its lock-out, acceptor and game commands again.
package sasmachine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/sas"
	"cabinet/internal/serial"
)

// ErrTimeout is wrapped when the controller cannot take a host command now
// (its queue is full, or there is no controller); the engine answers busy
// and the host polls again (every host command is idempotent).
var ErrTimeout = errors.New("sasmachine: the cabinet is busy")

// Cabinet is what the machine reads of the controller (concurrent-safe).
type Cabinet interface {
	HostInfo() controller.HostInfo
}

// Machine implements sas.Machine and sas.Queue on the cabinet's store.
type Machine struct {
	Store *recovery.Store
	Cab   Cabinet
	// Host carries commands and acknowledgements to the controller
	// (Options.Host of the controller); it should be buffered. The machine
	// never blocks on it: a command finding it full is answered busy, an
	// acknowledgement waits in memory for the next poll. nil: commands are
	// refused (busy) and acknowledgements are kept in memory only.
	Host chan<- controller.HostRequest

	mu       sync.Mutex
	peeked   recovery.Exception // last exception Peek returned
	peekedOK bool
	memSent  bool // exception 34 reported this boot
	// acked are the exceptions the host acknowledged that the store may
	// still hold (the ledger's commit lands after the reply): Peek skips
	// them, and forgets each once the store no longer holds it.
	acked []recovery.Exception
	// unsent are acknowledgements not yet handed to the controller (its
	// queue was full); every Peek and Ack tries again.
	unsent []uint64
	// tito is what the host sent of tickets, until committed (tito.go).
	tito titoMem
	// linkSeq numbers the link's changes of state (Link).
	linkSeq uint64
	// lines are the line fault reports not yet handed to the controller,
	// in order; lineBusy: a goroutine is handing them over (Line).
	lines    []serial.FaultReport
	lineBusy bool
}

var (
	_ sas.Machine = (*Machine)(nil)
	_ sas.Queue   = (*Machine)(nil)
)

// gameIDs are the two-character game IDs and paytable IDs reported in LP
// 1F/53, in game.IDs order (the SAS game numbers 0001–0005).
var gameIDs = map[game.ID][2]string{
	game.Royal:   {"RP", "ROYAL"},
	game.FreeBet: {"FB", "FREEBT"},
	game.Zappit:  {"ZB", "ZAPPIT"},
	game.Classic: {"BJ", "CLASSC"},
	game.Duel:    {"PD", "DUEL"},
}

// GameNumber returns the SAS game number of id (1–5), 0 if none.
func GameNumber(id game.ID) int {
	for i, g := range game.IDs {
		if g == id {
			return i + 1
		}
	}
	return 0
}

// Snapshot reads the last proven commit of the store, from memory: it
// never waits for a commit in flight (recovery.Store.Proven).
func (m *Machine) Snapshot() (sas.Snapshot, error) {
	pv, err := m.Store.Proven()
	if err != nil {
		return sas.Snapshot{}, fmt.Errorf("sasmachine: read the store: %w", err)
	}
	rec := pv.Machine
	mt := rec.Meters
	hi := m.Cab.HostInfo()
	s := sas.Snapshot{
		CoinIn: mt.TotalIn, CoinOut: mt.TotalWon, Jackpot: mt.JackpotHandpay, Cancelled: mt.HandpayCancelled + mt.TicketsVoided,
		Drop: mt.BillsIn, Credits: rec.Credits,
		Played: mt.Played, Won: mt.Won, Lost: mt.Lost, SlotDoor: mt.MainDoor, PowerUps: mt.PowerUps,
		SincePowerUp: hi.SincePowerUp, SinceDoor: hi.SinceDoor,
		Bills:    map[money.Cents]int64{},
		LastBill: rec.LastBill,
		Selected: GameNumber(hi.Selected),
		Handpay: sas.Handpay{Pending: rec.Handpay > 0, Amount: rec.Handpay,
			Cancelled: rec.HandpayKind == controller.HandpayCashout},
		TicketsIn: mt.TicketsIn, TicketsInCount: mt.TicketsInCount,
		TicketsOut: mt.TicketsOut, TicketsOutCount: mt.TicketsOutCount,
	}
	for k, n := range mt.Bills {
		v, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			return sas.Snapshot{}, fmt.Errorf("sasmachine: bill meter key %q: %w", k, err)
		}
		s.Bills[money.Cents(v)] = n
	}
	if rec.LastBill > 0 {
		s.LastBillCount = s.Bills[rec.LastBill]
	}
	for _, g := range hi.Games {
		ids := gameIDs[g.ID]
		sg := sas.Game{ID: ids[0], Paytable: ids[1], BasePct: int(g.RTPBP), MaxBet: g.MaxBet, Enabled: g.Enabled}
		if gm := mt.Games[g.ID]; gm != nil {
			// The game's machine-paid coin out and hand-paid jackpot, as
			// the machine's own (TotalWon, JackpotHandpay) are split.
			sg.Played, sg.CoinIn, sg.CoinOut, sg.Jackpot = gm.Played, gm.Wagered, gm.Won-gm.Handpaid, gm.Handpaid
		}
		s.Games = append(s.Games, sg)
	}
	return s, nil
}

// Command validates a host command and hands it to the controller without
// waiting: the engine answers ACK at once and the controller commits the
// command after the reply (the package comment says what a power cut in
// between does).
func (m *Machine) Command(c sas.Command) error {
	var hc controller.HostCommand
	switch c.Kind {
	case sas.CmdPlay:
		hc = controller.HostCommand{Kind: controller.HostPlay, On: c.On}
	case sas.CmdBills:
		hc = controller.HostCommand{Kind: controller.HostBills, On: c.On}
	case sas.CmdBillDenoms:
		hc = controller.HostCommand{Kind: controller.HostBillDenoms, Mask: c.Mask, KeepOn: c.Action&1 == 1}
	case sas.CmdGame:
		if c.Game == 0 { // the whole machine: LP 09 game 0000 is LP 01/02
			hc = controller.HostCommand{Kind: controller.HostPlay, On: c.On}
			break
		}
		if c.Game < 1 || c.Game > len(game.IDs) {
			return fmt.Errorf("sasmachine: game %d: %w", c.Game, sas.ErrBadData)
		}
		hc = controller.HostCommand{Kind: controller.HostGameOnOff, Game: game.IDs[c.Game-1], On: c.On}
	case sas.CmdSound:
		// LP 03 silences the cabinet until LP 04; the operator's setting
		// (cabinet.sound) applies again after LP 04.
		hc = controller.HostCommand{Kind: controller.HostSound, On: c.On}
	default:
		return fmt.Errorf("sasmachine: command %d: %w", c.Kind, sas.ErrBadData)
	}
	if err := hc.Validate(); err != nil {
		return fmt.Errorf("sasmachine: %w: %w", err, sas.ErrBadData)
	}
	if m.Host == nil {
		return fmt.Errorf("sasmachine: no controller to command: %w", ErrTimeout)
	}
	select {
	case m.Host <- controller.HostRequest{Cmd: hc}:
		return nil
	default:
		return fmt.Errorf("sasmachine: the controller's queue is full: %w", ErrTimeout)
	}
}

// memErr reports whether the cabinet is in a memory error.
func (m *Machine) memErr() bool { return m.Cab.HostInfo().MemErr || m.Store.Err() != nil }

// Stopped reports that the machine has reported its memory error (34) and
// the host acknowledged it: the SAS reference then has the address drop to
// 0, and the link stops answering (sas.Serve asks this after each message).
// The store is evidence: nothing more is read for the host or written.
func (m *Machine) Stopped() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.memSent
}

// Peek returns the exception to report: 34 once per boot while the cabinet
// is in a memory error (a store in error is evidence and is not written, so
// this one is derived from the state, as handpay pending is), else the
// oldest in the store's queue.
func (m *Machine) Peek() (byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.memErr() {
		return sas.ExMemoryError, !m.memSent, nil
	}
	m.flush()
	pv, err := m.Store.Proven()
	if err != nil {
		return 0, false, err
	}
	q := pv.Exceptions
	// Forget the acknowledgements the store has committed (the queue no
	// longer holds them); skip the others.
	m.acked = slices.DeleteFunc(m.acked, func(a recovery.Exception) bool { return !slices.ContainsFunc(q, same(a)) })
	for _, e := range q {
		if !slices.ContainsFunc(m.acked, same(e)) {
			m.peeked, m.peekedOK = e, true
			return e.Code, true, nil
		}
	}
	m.peeked, m.peekedOK = recovery.Exception{}, false
	return 0, false, nil
}

// Ack removes the exception Peek returned once the host acknowledged it:
// at once in memory (Peek never offers it again), in the store when the
// controller's ledger commits the acknowledgement, after the reply.
func (m *Machine) Ack(code byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if code == sas.ExMemoryError && !m.memSent && m.memErr() {
		m.memSent = true
		return nil
	}
	if !m.peekedOK || m.peeked.Code != code {
		return fmt.Errorf("sasmachine: ack %02X: not the exception reported (%02X)", code, m.peeked.Code)
	}
	m.acked = append(m.acked, m.peeked)
	m.unsent = append(m.unsent, m.peeked.Seq)
	m.peekedOK = false
	m.flush()
	return nil
}

// same matches the exception e (a sequence number is never reused while
// the store lives; code and time guard a memory clear in between).
func same(e recovery.Exception) func(recovery.Exception) bool {
	return func(x recovery.Exception) bool { return x.Seq == e.Seq && x.Code == e.Code && x.At.Equal(e.At) }
}

// flush hands the acknowledgements not yet sent to the controller, without
// blocking (m.mu held).
func (m *Machine) flush() {
	if len(m.unsent) == 0 || m.Host == nil {
		return
	}
	select {
	case m.Host <- controller.HostRequest{Acks: m.unsent}:
		m.unsent = nil
	default:
	}
}

// Config builds the engine's configuration from the [sas] section and the
// cabinet's currency (LP 48's country code: 37 for USD, 0 otherwise).
func Config(address byte, denom money.Cents, serial string, asset uint32, currency string) sas.Config {
	c := sas.Config{Address: address, Denom: denom, Serial: serial, Asset: asset}
	if strings.EqualFold(currency, "USD") {
		c.Country = 37
	}
	return c
}
