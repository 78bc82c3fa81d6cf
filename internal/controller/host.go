package controller

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"cabinet/internal/game"
	"cabinet/internal/hostev"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/serial"
	"cabinet/internal/view"
)

// The casino's host system (SAS, docs/sas.md) reaches the cabinet in two
// ways, both through the one commit path:
//
//   - Exceptions: with Options.Exceptions set (SAS on), every event the
//     host may have to hear of is emitted as a HostEvent in the transaction
//     that commits the event itself, and the exceptions the SAS side maps
//     it to are queued there (recovery.Tx.RaiseException), so a power cut
//     can neither lose nor invent one. The table from events to SAS codes
//     is internal/sasmachine's (Exceptions).
//   - Commands: lock out / enable play, the bill acceptor, its
//     denominations, a game (HostCommand). They are committed with an event
//     log entry and kept in the store (recovery.HostState): a host lock-out
//     outlives a power cut (decided: the reading a lab expects of SAS LP 01,
//     "disabled until LP 02").
//   - Acknowledgements: the SAS machine hands the sequence numbers of the
//     exceptions the host acknowledged (HostRequest.Acks); the ledger
//     removes them from the queue. The SAS machine never writes the store.

// ErrHostLocked is wrapped when a round may not start because the host
// locked play out or disabled the game (LP 01 / LP 09). The round in
// progress always finishes, and cash out stays available.
var ErrHostLocked = errors.New("cabinet: play disabled by the casino's host system")

// Notices of a host refusal (the display translates "msg."+notice).
const (
	NoticeHostLocked  = "host_locked"   // LP 01: play locked out by the host
	NoticeHostGameOff = "host_game_off" // LP 09: this game disabled by the host
)

// HostEvent is one event the host may have to hear of (hostev.Event:
// the controller says what happened, typed, never a SAS code; which SAS
// exceptions it raises is sasmachine.Exceptions, wired as
// Options.Exceptions).
type (
	HostEvent     = hostev.Event
	HostEventKind = hostev.Kind
)

// Host events (hostev's), as the controller's callers name them.
const (
	HostLogged           = hostev.Logged
	HostGameStarted      = hostev.GameStarted
	HostGameEnded        = hostev.GameEnded
	HostGameSelected     = hostev.GameSelected
	HostBillJam          = hostev.BillJam
	HostStackerRemoved   = hostev.StackerRemoved
	HostStackerInstalled = hostev.StackerInstalled
	HostStackerFull      = hostev.StackerFull
	HostValidatorFailure = hostev.ValidatorFailure
	HostCashout          = hostev.Cashout
)

// HostKind names a host command.
type HostKind int

// Host commands (SAS long polls).
const (
	HostPlay       HostKind = iota + 1 // LP 01 (On false: lock out) / LP 02 (On: enable)
	HostBills                          // LP 06 (On) / LP 07 (off)
	HostBillDenoms                     // LP 08: Mask, KeepOn
	HostGameOnOff                      // LP 09: Game, On
	HostSound                          // LP 03 (On false: sound off) / LP 04 (On: sound on)
)

// HostCommand is a command of the casino's host system.
type HostCommand struct {
	Kind HostKind
	On   bool
	Game game.ID // HostGame
	// Mask is LP 08's bill mask: bit 0 $1 (100 cents), bit 1 $2, bit 2 $5,
	// bit 3 $10, bit 4 $20, bit 5 $25, bit 6 $50, bit 7 $100, bit 8 $200,
	// bit 9 $250, bit 10 $500, bit 11 $1000 (SAS Table C-5, in the
	// cabinet's currency units).
	Mask uint32
	// KeepOn is bit 0 of LP 08's action flag: keep the acceptor enabled
	// after each accepted bill (1), or disable it after each one (0).
	KeepOn bool
}

// billBits is LP 08's mask bit of each bill value in cents.
var billBits = []money.Cents{100, 200, 500, 1000, 2000, 2500, 5000, 10000, 20000, 25000, 50000, 100000}

// billAllowed reports whether the host's denomination mask lets bill v in.
func billAllowed(h recovery.HostState, v money.Cents) bool {
	if !h.DenomSet {
		return true
	}
	i := slices.Index(billBits, v)
	return i >= 0 && h.DenomMask&(1<<i) != 0
}

// HostRequest carries the host's input to the controller's goroutine
// (Options.Host): a command (Cmd.Kind set) and/or the sequence numbers of
// exceptions the host acknowledged (Acks). Nothing waits for it: the SAS
// link validates a command and answers at once, and the ledger commits the
// command's effect, or removes the acknowledged exceptions from the store's
// queue, after the reply (docs/sas.md "Exceptions"). A power cut between
// the reply and the commit therefore reports an acknowledged exception once
// more after the restart, and loses a command the host was answered ACK for
// (the state after the restart is the one committed before it, and the
// host, told of the restart by exceptions 18 and 17, sends its commands
// again).
type HostRequest struct {
	Cmd  HostCommand
	Acks []uint64
	// Tickets (tito.go): LP 58's validation number, LP 4C's validation
	// ID, and the tickets whose LP 4D validation records the host read.
	Validation     *HostValidation
	ValidationID   *HostValidationID
	ValidationRead []uint64
	// Ticket in (ticketin.go): a step of the host's redemption.
	Redemption *HostRedemption
	// Link: the SAS link went down or came back (ledger.hostLink).
	Link *HostLink
	// Line: the SAS line's fault report (damaged polls, coalesced),
	// logged as device noise (ledger.lineFault).
	Line *serial.FaultReport
}

// Validate reports a command the controller would refuse, before it is
// answered: an unknown kind, an unknown game.
func (cmd HostCommand) Validate() error {
	switch cmd.Kind {
	case HostPlay, HostBills, HostBillDenoms, HostSound:
		return nil
	case HostGameOnOff:
		if !cmd.Game.Valid() {
			return fmt.Errorf("cabinet: host: unknown game %q", cmd.Game)
		}
		return nil
	}
	return fmt.Errorf("cabinet: host: unknown command %d", cmd.Kind)
}

// hostRequest carries out one host request. The host was answered before
// (a command was validated, an acknowledgement cannot be refused): an
// error here is logged by the caller, the host does not hear of it.
func (c *Controller) hostRequest(r HostRequest) error {
	var errs []error
	if len(r.Acks) > 0 {
		errs = append(errs, c.led.ack(r.Acks))
	}
	if r.Cmd.Kind != 0 {
		errs = append(errs, c.host(r.Cmd))
	}
	if r.ValidationID != nil {
		errs = append(errs, c.tickets.HostValidationID(*r.ValidationID))
	}
	if r.Validation != nil {
		errs = append(errs, c.tickets.HostValidation(*r.Validation))
	}
	if len(r.ValidationRead) > 0 {
		errs = append(errs, c.tickets.HostValidationRead(r.ValidationRead))
	}
	if r.Link != nil {
		c.led.hostLink(*r.Link)
	}
	if r.Line != nil {
		errs = append(errs, c.led.lineFault(deviceSAS, *r.Line))
	}
	if r.Redemption != nil {
		errs = append(errs, c.notes.HostRedemption(*r.Redemption))
	}
	return errors.Join(errs...)
}

// host carries out a host command: the new host state and its event-log
// entry commit together. A command that changes nothing is accepted and
// writes nothing.
func (c *Controller) host(cmd HostCommand) error {
	h := c.led.cur().host
	h.GamesOff = slices.Clone(h.GamesOff)
	var text, detail string
	var args []meters.Arg
	switch cmd.Kind {
	case HostPlay:
		h.PlayLocked = !cmd.On
		text, detail = "host: play enabled", "host_play_enabled"
		if !cmd.On {
			text, detail = "host: play locked out (the round in progress finishes)", "host_play_locked"
		}
	case HostBills:
		h.BillsOff = !cmd.On
		text, detail = "host: bill acceptor enabled", "host_bills_on"
		if !cmd.On {
			text, detail = "host: bill acceptor disabled", "host_bills_off"
		}
	case HostBillDenoms:
		h.DenomMask, h.DenomSet, h.BillOneShot = cmd.Mask, true, !cmd.KeepOn
		var vs []string
		for i, v := range billBits {
			if cmd.Mask&(1<<i) != 0 {
				vs = append(vs, v.String())
			}
		}
		list := strings.Join(vs, " ")
		if list == "" {
			list = "-"
		}
		text, detail, args = "host: bills accepted "+list, "host_bill_denoms", []meters.Arg{{Type: meters.ArgText, Value: list}}
		if h.BillOneShot {
			text, detail = text+" (the acceptor goes off after each bill)", "host_bill_denoms_one"
		}
	case HostGameOnOff:
		if err := cmd.Validate(); err != nil {
			return err
		}
		h.GamesOff = slices.DeleteFunc(h.GamesOff, func(g game.ID) bool { return g == cmd.Game })
		text, detail = "host: game "+string(cmd.Game)+" enabled", "host_game_on"
		if !cmd.On {
			h.GamesOff = append(h.GamesOff, cmd.Game)
			slices.Sort(h.GamesOff)
			text, detail = "host: game "+string(cmd.Game)+" disabled", "host_game_off"
		}
		args = []meters.Arg{meters.KeyArg("game." + string(cmd.Game))}
	case HostSound:
		h.SoundOff = !cmd.On
		text, detail = "host: sound on (the operator's setting applies)", "host_sound_on"
		if !cmd.On {
			text, detail = "host: sound off", "host_sound_off"
		}
	default:
		return fmt.Errorf("cabinet: host: unknown command %d", cmd.Kind)
	}
	if hostEqual(h, c.led.cur().host) {
		return nil
	}
	return c.led.commit("host command", func(tx *recovery.Tx, s *state) error {
		s.host = h
		if tx == nil {
			return c.led.logTx(tx, meters.KindHost, text)
		}
		if err := tx.PutHostState(h); err != nil {
			return err
		}
		return c.led.logDetail(tx, meters.KindHost, text, detail, args...)
	})
}

// hostEqual compares every field of two host states (a field added to
// recovery.HostState must be added here).
func hostEqual(a, b recovery.HostState) bool {
	return a.PlayLocked == b.PlayLocked && a.BillsOff == b.BillsOff && a.DenomMask == b.DenomMask &&
		a.DenomSet == b.DenomSet && a.BillOneShot == b.BillOneShot && a.SoundOff == b.SoundOff &&
		slices.Equal(a.GamesOff, b.GamesOff)
}

// startRefused is why no round of game id may start now because of the
// host, or nil.
func startRefused(cs state, id game.ID) error {
	switch {
	case cs.host.PlayLocked:
		return fmt.Errorf("%w: locked out", ErrHostLocked)
	case cs.host.GameOff(id):
		return fmt.Errorf("%w: game %s disabled", ErrHostLocked, id)
	}
	return nil
}

// hostNotice is the notice of a host refusal for game id, "" if none.
func hostNotice(cs state, id game.ID) string {
	switch {
	case cs.host.PlayLocked:
		return NoticeHostLocked
	case id != "" && cs.host.GameOff(id):
		return NoticeHostGameOff
	}
	return ""
}

// HostInfo is what the SAS link reads of the cabinet besides the store:
// the games in SAS order with their limits in force, and the host state.
// It is published with every snapshot (safe for concurrent use).
type HostInfo struct {
	Games []HostGame
	// Selected is the game on the table, "" in the menu or attract.
	Selected game.ID
	// MemErr is set while the cabinet is in a memory-error tilt.
	MemErr bool
	// SincePowerUp and SinceDoor count the rounds played since this boot
	// and since the main door last closed (SAS LP 18; kept in memory: a
	// boot starts both again, decided as "since power reset" does).
	SincePowerUp, SinceDoor int64
}

// HostGame is one game as the host sees it (game number = index + 1 in
// game.IDs order; every game the program implements, enabled or not).
type HostGame struct {
	ID      game.ID
	Enabled bool        // enabled in the configuration and not disabled by the host
	MaxBet  money.Cents // largest stake of one round (0: unknown)
	RTPBP   int64       // return of the main bet for the rules in force, basis points (0: unknown)
}

// HostInfo returns the last published host information.
func (c *Controller) HostInfo() HostInfo {
	if p := c.hostInfo.Load(); p != nil {
		return *p
	}
	return HostInfo{}
}

// publishHost builds the host information from committed state cs.
func (c *Controller) publishHost(cs state) {
	hi := &HostInfo{MemErr: c.led.cur().memErr != nil, SincePowerUp: cs.m.Meters.Played - c.playedAtBoot,
		SinceDoor: cs.m.Meters.Played - c.playedAtDoor}
	switch {
	case cs.open != nil:
		hi.Selected = cs.open.Game
	case c.scr.mode == view.Table:
		hi.Selected = c.scr.game
	}
	if c.hostRTP == nil {
		c.hostRTP = map[game.ID]int64{}
		for _, id := range game.IDs {
			for _, l := range c.ReturnFigures(id) {
				if l.Bet == game.Main {
					c.hostRTP[id] = l.RTPBP
				}
			}
		}
	}
	for _, id := range game.IDs {
		g := HostGame{ID: id, Enabled: slices.Contains(c.set.Games, id) && !cs.host.GameOff(id)}
		if r, ok := c.set.Rules[id]; ok {
			g.MaxBet = r.MaxBet * money.Cents(max(1, r.MaxSpots))
			for _, sr := range r.Side {
				g.MaxBet += sr.Max * money.Cents(max(1, r.MaxSpots))
			}
		} else if id == game.Duel {
			g.MaxBet = c.set.duelConfig().Price
		}
		g.RTPBP = c.hostRTP[id]
		hi.Games = append(hi.Games, g)
	}
	c.hostInfo.Store(hi)
	c.tickets.Publish(cs.tickets, cs.m.Credits, c.set.CreditLimit, cs.notes.Redemption())
}

// gameSelected raises 8C (game selected) as the player takes a game from
// the menu to its table; LP 55 answers that game from then on. With SAS off,
// or under a memory error, nothing is written.
func (c *Controller) gameSelected() error {
	if !c.led.sasOn() || c.led.cur().memErr != nil {
		return nil
	}
	return c.led.commit("game selected", func(tx *recovery.Tx, s *state) error { return c.led.emit(tx, HostEvent{Kind: HostGameSelected}) })
}

// recallShown logs the round the audit's recall page now shows, which
// raises SAS exception 8A (game recall entry displayed). Only with SAS on
// and a sound store: without SAS, viewing the recall writes nothing.
func (c *Controller) recallShown() error {
	if !c.led.sasOn() || c.led.cur().memErr != nil || auditPages[c.scr.auditPage%len(auditPages)] != "recall" {
		return nil
	}
	idx := c.scr.recallIdx
	err := c.led.commit("log recall shown", func(tx *recovery.Tx, s *state) error {
		rs, err := tx.Recall(idx + 1)
		if err != nil {
			return err
		}
		if len(rs) != idx+1 {
			return errNothing // no such round: nothing to log
		}
		round := rs[idx].Round
		return c.led.logDetail(tx, meters.KindRecall, fmt.Sprintf("round %d shown on the recall page", round), "recall_shown", meters.CountArg(round))
	})
	if errors.Is(err, errNothing) {
		return nil
	}
	return err
}
