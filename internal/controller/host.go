package controller

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// The casino's host system (SAS, docs/sas.md) reaches the cabinet in two
// ways, both through the one commit path:
//
//   - Exceptions: with Options.SAS set, every event the host must hear of is
//     queued (recovery.Tx.RaiseException) in the transaction that commits
//     the event itself, so a power cut can neither lose nor invent one.
//     sasCodes below is the one table from the cabinet's events to SAS
//     exception codes; game started/ended are raised by the round's step.
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

// SAS exception codes the controller raises (SAS 6.02 Appendix A). Handpay
// pending (51) is a priority exception derived from the machine record by
// the SAS link, not queued; memory error (34) likewise, since a store in
// error is not written.
const (
	exSlotDoorOpen   = 0x11
	exSlotDoorClosed = 0x12
	exPowerUp        = 0x17
	exPowerLost      = 0x18
	exCashDoorOpen   = 0x19
	exCashDoorClosed = 0x1A
	exBillJam        = 0x28
	exBillRejected   = 0x2B
	exOptionsChanged = 0x3C
	exBillAccepted   = 0x4F // a bill with no code of its own (billAccepted)
	exHandpayReset   = 0x52
	exCashout        = 0x66
	exGameStarted    = 0x7E
	exGameEnded      = 0x7F
	exAttendantIn    = 0x82
	exAttendantOut   = 0x83
	exOperatorIn     = 0x84
	exOperatorOut    = 0x85
	exRecall         = 0x8A
	exGameSelected   = 0x8C
)

// billAcceptedCodes are the bill accepted exceptions by the bill's value in
// whole currency units (SAS 6.02 Appendix A, non-RTE: 47–4E and 50; Monaco's
// SasBillException the same); any other bill is 4F. The cabinet reports in
// non-RTE mode (it advertises no RTE in A0).
var billAcceptedCodes = map[money.Cents]byte{
	100: 0x47, 500: 0x48, 1000: 0x49, 2000: 0x4A, 5000: 0x4B, 10000: 0x4C, 200: 0x4D, 50000: 0x4E, 20000: 0x50,
}

// billAccepted is the exception of a bill accepted event: by its value
// (the event's money argument), 4F where the value has no code.
func billAccepted(e meters.Event) byte {
	for _, a := range e.Args {
		if a.Type != meters.ArgMoney {
			continue
		}
		if v, err := money.Parse(a.Value); err == nil {
			if code, ok := billAcceptedCodes[v]; ok {
				return code
			}
		}
	}
	return exBillAccepted
}

// sasCodes maps a logged event to the exceptions it raises. Power up raises
// 18 (AC power lost) then 17 (applied): the cabinet has no power-fail
// detector, so the loss is reported at the next boot (decided; every boot
// follows a power loss or a restart, both of which a host must hear of).
// The audit key is the attendant's menu (82/83), the operator key the
// operator's (84/85; a refused turn opens no menu).
func sasCodes(e meters.Event) []byte {
	sw := ""
	if len(e.Args) > 0 {
		sw = e.Args[0].Value
	}
	switch e.Kind {
	case meters.KindPowerUp:
		return []byte{exPowerLost, exPowerUp}
	case meters.KindDoor:
		switch {
		case sw == hw.MainDoor.String() && e.Detail == "switch_opened":
			return []byte{exSlotDoorOpen}
		case sw == hw.MainDoor.String() && e.Detail == "switch_closed":
			return []byte{exSlotDoorClosed}
		case sw == hw.CashDoor.String() && e.Detail == "switch_opened":
			return []byte{exCashDoorOpen}
		case sw == hw.CashDoor.String() && e.Detail == "switch_closed":
			return []byte{exCashDoorClosed}
		}
	case meters.KindKey:
		switch {
		case sw == hw.AuditKey.String() && e.Detail == "switch_on":
			return []byte{exAttendantIn}
		case sw == hw.AuditKey.String() && e.Detail == "switch_off":
			return []byte{exAttendantOut}
		case sw == hw.OperatorKey.String() && e.Detail == "switch_on":
			return []byte{exOperatorIn}
		case sw == hw.OperatorKey.String() && e.Detail == "switch_off":
			return []byte{exOperatorOut}
		}
	case meters.KindBillAccepted:
		return []byte{billAccepted(e)}
	case meters.KindBillRefused:
		return []byte{exBillRejected}
	case meters.KindTilt:
		if e.Detail == "bill_jam" {
			return []byte{exBillJam}
		}
	case meters.KindHandpay:
		if e.Detail == "cashout_handpay" {
			return []byte{exCashout}
		}
	case meters.KindHandpayClear:
		return []byte{exHandpayReset}
	case meters.KindConfigChange:
		if e.Detail != "pool_set" {
			return []byte{exOptionsChanged}
		}
	case meters.KindRecall:
		return []byte{exRecall}
	}
	return nil
}

// raise queues SAS exceptions in tx (with SAS on; tx nil under a memory
// error: nothing is written, the store is evidence).
func (c *Controller) raise(tx *recovery.Tx, codes ...byte) error {
	if !c.opt.SAS || tx == nil {
		return nil
	}
	for _, code := range codes {
		if err := tx.RaiseException(code); err != nil {
			return err
		}
	}
	return nil
}

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
		errs = append(errs, c.ackExceptions(r.Acks))
	}
	if r.Cmd.Kind != 0 {
		errs = append(errs, c.host(r.Cmd))
	}
	return errors.Join(errs...)
}

// ackExceptions removes the exceptions the host acknowledged from the
// store's queue (one already removed is skipped). Under a memory error
// nothing is written: the store is evidence.
func (c *Controller) ackExceptions(seqs []uint64) error {
	return c.commit("host acknowledged exceptions", func(tx *recovery.Tx, s *state) error {
		if tx == nil {
			return nil
		}
		for _, seq := range seqs {
			if err := tx.AckException(seq); err != nil {
				return err
			}
		}
		return nil
	})
}

// host carries out a host command: the new host state and its event-log
// entry commit together. A command that changes nothing is accepted and
// writes nothing.
func (c *Controller) host(cmd HostCommand) error {
	h := c.cur.host
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
		args = []meters.Arg{argKey("game." + string(cmd.Game))}
	case HostSound:
		h.SoundOff = !cmd.On
		text, detail = "host: sound on (the operator's setting applies)", "host_sound_on"
		if !cmd.On {
			text, detail = "host: sound off", "host_sound_off"
		}
	default:
		return fmt.Errorf("cabinet: host: unknown command %d", cmd.Kind)
	}
	if hostEqual(h, c.cur.host) {
		return nil
	}
	return c.commit("host command", func(tx *recovery.Tx, s *state) error {
		s.host = h
		if tx == nil {
			return c.logTx(tx, meters.KindHost, text)
		}
		if err := tx.PutHostState(h); err != nil {
			return err
		}
		return c.logDetail(tx, meters.KindHost, text, detail, args...)
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
	hi := &HostInfo{MemErr: c.cur.memErr != nil, SincePowerUp: cs.m.Meters.Played - c.playedAtBoot,
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
			for _, l := range c.helpFigures(id) {
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
}

// gameSelected raises 8C (game selected) as the player takes a game from
// the menu to its table; LP 55 answers that game from then on. With SAS off,
// or under a memory error, nothing is written.
func (c *Controller) gameSelected() error {
	if !c.opt.SAS || c.cur.memErr != nil {
		return nil
	}
	return c.commit("game selected", func(tx *recovery.Tx, s *state) error { return c.raise(tx, exGameSelected) })
}

// recallShown logs the round the audit's recall page now shows, which
// raises SAS exception 8A (game recall entry displayed). Only with SAS on
// and a sound store: without SAS, viewing the recall writes nothing.
func (c *Controller) recallShown() error {
	if !c.opt.SAS || c.cur.memErr != nil || auditPages[c.scr.auditPage%len(auditPages)] != "recall" {
		return nil
	}
	idx := c.scr.recallIdx
	err := c.commit("log recall shown", func(tx *recovery.Tx, s *state) error {
		rs, err := tx.Recall(idx + 1)
		if err != nil {
			return err
		}
		if len(rs) != idx+1 {
			return errNothing // no such round: nothing to log
		}
		round := rs[idx].Round
		return c.logDetail(tx, meters.KindRecall, fmt.Sprintf("round %d shown on the recall page", round), "recall_shown", argCount(round))
	})
	if errors.Is(err, errNothing) {
		return nil
	}
	return err
}
