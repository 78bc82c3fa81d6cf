// Package sasmachine is the cabinet as the SAS engine sees it
// (sas.Machine and sas.Queue): meters and state read from the last commit
// of the store, the exception queue kept in the store, and the host's
// commands carried to the controller's goroutine.
//
// Nothing here keeps money or meters of its own: every figure a host reads
// is the store's committed record, converted by the engine to credits of
// the accounting denomination ([sas] denomination), so a host's meters
// equal `cabinet audit meters`.
package sasmachine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/sas"
)

// ErrTimeout is wrapped when the controller did not carry out a host
// command in time; the engine answers busy and the host polls again (every
// host command is idempotent).
var ErrTimeout = errors.New("sasmachine: the cabinet is busy")

// Cabinet is what the machine reads of the controller (concurrent-safe).
type Cabinet interface {
	HostInfo() controller.HostInfo
}

// Machine implements sas.Machine and sas.Queue on the cabinet's store.
type Machine struct {
	Store *recovery.Store
	Cab   Cabinet
	// Host carries commands to the controller (Options.Host of the
	// controller). nil: commands are refused (busy).
	Host chan<- controller.HostRequest
	// Wait bounds the wait for a command's commit (default 12 ms: the
	// engine must start its reply within 20 ms).
	Wait time.Duration

	mu       sync.Mutex
	peeked   recovery.Exception // last exception Peek returned
	peekedOK bool
	memSent  bool // exception 34 reported this boot
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

// Snapshot reads the last commit of the store.
func (m *Machine) Snapshot() (sas.Snapshot, error) {
	var rec recovery.Machine
	if err := m.Store.View(func(tx *recovery.Tx) error {
		var err error
		rec, err = tx.Machine()
		return err
	}); err != nil {
		return sas.Snapshot{}, fmt.Errorf("sasmachine: read the store: %w", err)
	}
	mt := rec.Meters
	hi := m.Cab.HostInfo()
	s := sas.Snapshot{
		CoinIn: mt.TotalIn, CoinOut: mt.TotalWon, Jackpot: mt.JackpotHandpay, Cancelled: mt.HandpayCancelled,
		Drop: mt.BillsIn, Credits: rec.Credits,
		Played: mt.Played, Won: mt.Won, Lost: mt.Lost, SlotDoor: mt.MainDoor, PowerUps: mt.PowerUps,
		SincePowerUp: hi.SincePowerUp, SinceDoor: hi.SinceDoor,
		Bills:    map[money.Cents]int64{},
		LastBill: rec.LastBill,
		Selected: GameNumber(hi.Selected),
		Handpay: sas.Handpay{Pending: rec.Handpay > 0, Amount: rec.Handpay,
			Cancelled: rec.HandpayKind == controller.HandpayCashout},
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

// Command carries a host command to the controller and waits for its
// commit (at most Wait).
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
	if m.Host == nil {
		return fmt.Errorf("sasmachine: no controller to command: %w", ErrTimeout)
	}
	wait := m.Wait
	if wait <= 0 {
		wait = 12 * time.Millisecond
	}
	done := make(chan error, 1) // buffered: a late result never blocks the controller
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case m.Host <- controller.HostRequest{Cmd: hc, Done: done}:
	case <-t.C:
		return ErrTimeout
	}
	select {
	case err := <-done:
		return err
	case <-t.C:
		return ErrTimeout
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
	var e recovery.Exception
	var ok bool
	if err := m.Store.View(func(tx *recovery.Tx) error {
		var err error
		e, ok, err = tx.PeekException()
		return err
	}); err != nil {
		return 0, false, err
	}
	m.peeked, m.peekedOK = e, ok
	return e.Code, ok, nil
}

// Ack removes the exception Peek returned once the host acknowledged it.
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
	seq := m.peeked.Seq
	m.peekedOK = false
	return m.Store.Update(func(tx *recovery.Tx) error { return tx.AckException(seq) })
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
