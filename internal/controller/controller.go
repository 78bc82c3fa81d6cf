package controller

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"cabinet/internal/desk"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/inforce"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// Options wires a Controller.
type Options struct {
	// Store is the durable store (a *recovery.Store). If StoreErr is set
	// instead, the store could not be opened: the cabinet boots in a
	// memory-error tilt with the audit screens working (nothing to read).
	Store    Store
	StoreErr error
	HW       hw.Backend
	RNG      RNG
	InForce  InForce
	// Settings applies the stored operator overrides and computes the
	// return of the rules in force (returns.go; nil: overrides are
	// ignored, no return figures, no operator changes).
	Settings Settings
	Now      func() time.Time
	Log      *slog.Logger
	Digest   string // program SHA-256 (hex)
	Version  string // program version, shown beside the digest
	// WantDigest, if set, must equal Digest or the cabinet tilts at boot.
	WantDigest string
	// Operator is the operator menu (nil: none).
	Operator OperatorMenu
	// OnCommit, if set, sees the events of every committed round step, as
	// recorded (the simulator's per-bet figures). It runs after the commit
	// and must not call back into the controller.
	OnCommit func(id game.ID, round uint64, evs []game.Event)
	// Exceptions turns SAS on: it is the SAS side's table from the events
	// the controller emits to the exception codes to queue
	// (sasmachine.Exceptions); each is queued in the transaction that
	// commits its event (host.go). nil: SAS off (no queue, no host
	// information, nothing logged for the host's sake).
	Exceptions func(HostEvent) []byte
	// Display, if set, is the channel of a display's reports of what it has
	// shown (shown.go): the table accepts a decision only on a step shown
	// in full, and the next round only after the last result's hold. nil:
	// headless, every step counts as shown (and held) when committed.
	Display *Presentation
	// Host carries the host's commands and acknowledgements to the
	// controller's goroutine (Run hands each to Handle; a loop of its own,
	// as cabinet sim's, does the same); the ledger commits them. nil: none.
	Host <-chan HostRequest
	// TITO turns cash-out by ticket on (internal/desk; nil: handpays only).
	TITO *TITO
	// Autoplay is one more input source of Run: autoplay's steps, each
	// answered with its result (cabinet sim). nil: none.
	Autoplay <-chan AutoRequest
	// Validator is the serial note validator's seam (desks.go,
	// id003.Seam; nil: a pulse acceptor or none). With it autoplay
	// inserts no bills.
	Validator NoteValidator
}

// Controller is the cabinet. Handle (its single entry point) and Run (a
// loop that calls it) are not safe for concurrent use; Snapshot and
// HostInfo are (the display and the SAS link call them from their own
// goroutines).
type Controller struct {
	// led owns the store and the committed state (ledger.go): read here
	// (led.cur(), a copy), changed only by its commit.
	led *books

	hw   hw.Backend
	rng  RNG
	now  func() time.Time
	log  *slog.Logger
	opt  Options
	set  InForce
	base InForce

	scr screen
	seq uint64

	snap     atomic.Pointer[view.Snapshot]
	hostInfo atomic.Pointer[HostInfo]
	hostRTP  map[game.ID]int64 // main-bet return in force per game (nil: to compute)
	// Rounds played at boot and when the main door last closed (HostInfo).
	playedAtBoot, playedAtDoor int64
	tickets                    *desk.TicketDesk // cash-out by ticket (internal/desk)
	notes                      *desk.NoteDesk   // the note validator's calls (internal/desk)
}

// New boots the cabinet on an open store: integrity check, power-up, resume
// or void of an open round. A memory error does not fail New: the controller
// starts tilted (audit still works) and Err reports it.
func New(opt Options) (*Controller, error) {
	if opt.Store == nil && opt.StoreErr != nil {
		opt.Store = brokenStore{fmt.Errorf("open store: %w", opt.StoreErr)}
	}
	if opt.Store == nil || opt.HW == nil {
		return nil, fmt.Errorf("cabinet: new: store and hardware are required")
	}
	if err := opt.InForce.Validate(); err != nil {
		return nil, err
	}
	if opt.RNG == nil {
		opt.RNG = CryptoRNG{}
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	var digestErr error
	if opt.WantDigest != "" && opt.WantDigest != opt.Digest {
		digestErr = fmt.Errorf("%w: running %s, configuration expects %s", ErrDigest, opt.Digest, opt.WantDigest)
	}
	c := &Controller{led: newBooks(opt.Store, opt.Log, digestErr, opt.Exceptions), hw: opt.HW, rng: opt.RNG, now: opt.Now, log: opt.Log, opt: opt,
		set: opt.InForce, base: opt.InForce}
	c.scr.init(c)
	tickets := deskLedger[desk.Tickets]{c.led, &c.set, func(s *state) *desk.Tickets { return &s.tickets }}
	notes := deskLedger[desk.Notes]{c.led, &c.set, func(s *state) *desk.Notes { return &s.notes }}
	c.tickets = desk.NewTicketDesk(tickets, ticketCabinet{c}, opt.Log, opt.TITO, opt.Now)
	c.notes = desk.NewNoteDesk(notes, noteCabinet{c}, opt.Log, opt.TITO, opt.Now)
	if err := c.boot(); err != nil {
		c.led.fail(err)
	}
	_ = c.commitShown() // a failure is the memory-error tilt (ledger.commit)
	c.publish(c.led.cur())
	return c, nil
}

func (c *Controller) boot() error {
	if err := c.led.store().Check(); err != nil {
		// Play stays disabled; the audit screens show what can still be
		// read. Nothing is written: the store is evidence.
		return c.led.evidence(err)
	}
	err := c.led.commit("boot", func(tx *recovery.Tx, s *state) error {
		m := &s.m
		s.open, s.round, s.last, s.win, s.recovered = nil, nil, nil, 0, false
		if m.NextRound == 0 { // fresh store
			m.NextRound = 1
			m.PoolUnits = int64(c.set.JackpotReset) * PoolUnitsPerCent
			// The store's own creation (cabinet init or a memory clear) is
			// logged by the store; this is the first boot's set-up on it.
			if err := c.led.logDetail(tx, meters.KindConfigChange, "first boot: progressive pool set to its reset value "+c.set.JackpotReset.String(), "pool_set", meters.MoneyArg(c.set.JackpotReset)); err != nil {
				return err
			}
		}
		h, err := tx.HostState()
		if err != nil {
			return err
		}
		s.host = h
		if s.overrides, err = tx.Overrides(); err != nil {
			return fmt.Errorf("read overrides: %w", err)
		}
		s.carry = map[game.ID][]byte{}
		for _, id := range []game.ID{game.FreeBet, game.Duel} {
			b, err := tx.Carry(id)
			if err != nil {
				return fmt.Errorf("read %s carry: %w", id, err)
			}
			if b != nil {
				s.carry[id] = b
			}
		}
		if s.shoes, err = tx.Shoes(); err != nil {
			return fmt.Errorf("read committed shoes: %w", err)
		}
		m.Meters.PowerUps++
		if err := c.led.logDetail(tx, meters.KindPowerUp, "power up", "power_up"); err != nil {
			return err
		}
		open, err := tx.OpenRound()
		if err != nil {
			return err
		}
		if open != nil {
			m.Meters.Recoveries++
			if err := c.led.logDetail(tx, meters.KindRecovery, fmt.Sprintf("round %d of %s recovered at step %d", open.Round, open.Game, len(open.Steps)),
				"round_recovered", meters.CountArg(open.Round), meters.KeyArg("game."+string(open.Game)), meters.CountArg(uint64(len(open.Steps)))); err != nil {
				return err
			}
			if c.now().Sub(open.Start) > voidAfter(&c.set, open.Game) {
				if err := c.led.void(tx, s, open, c.now()); err != nil {
					return err
				}
				open = nil
			} else {
				open.Recovered = true
				if err := tx.PutOpenRound(open); err != nil {
					return err
				}
				r, err := restore(open)
				if err != nil {
					return fmt.Errorf("%w: resume round %d: %w", ErrMemory, open.Round, err)
				}
				s.round, s.recovered, s.win = r, true, r.Table().Paid
			}
		}
		s.open = open
		return s.notes.Load(tx)
	})
	if err == nil {
		err = c.tickets.Boot()
	}
	if err != nil {
		if c.led.cur().memErr != nil {
			return c.led.cur().memErr
		}
		return fmt.Errorf("%w: boot: %w", ErrMemory, err)
	}
	if c.opt.Settings != nil {
		if o := c.led.cur().overrides; len(o) > 0 {
			s, err := c.opt.Settings.Apply(inforce.InForce(c.base), o)
			if err != nil {
				c.log.Error("stored operator overrides rejected; using configuration", "err", err)
			} else {
				c.set = InForce(s)
				c.hostRTP = nil
			}
		}
	}
	c.playedAtBoot, c.playedAtDoor = c.led.cur().m.Meters.Played, c.led.cur().m.Meters.Played
	if c.led.cur().open != nil {
		c.scr.game = c.led.cur().open.Game
		c.scr.mode = view.Table
		c.scr.present = 1 // the recovered round: presented in full before any input
		// The bets the round was dealt with are the ones REBET repeats
		// after it, as if the power had not gone (the screen's memory of
		// them went with it).
		if st := c.led.cur().open.Steps; len(st) > 0 && st[0].Action.Kind == game.Deal && len(st[0].Action.Bets) > 0 {
			c.scr.lastBets[c.led.cur().open.Game] = append([]game.Bet(nil), st[0].Action.Bets...)
		}
	} else if duelSessionOpen(c.led.cur()) {
		c.scr.game, c.scr.mode = game.Duel, view.Table // the session goes on
	} else if c.led.cur().m.Credits > 0 {
		c.scr.mode = view.Menu
	}
	return nil
}

// void refunds an open round left unfinished beyond its game's limit: the
// player gets back what the round took and did not pay (stakes − payouts
// so far), the round goes to the recall marked voided. Decided: "every
// stake refunded" read as "credits restored to before the round".
func (l *books) void(tx *recovery.Tx, s *state, open *recovery.OpenRound, now time.Time) error {
	m := &s.m
	var staked, paid money.Cents
	for _, s := range open.Steps {
		st, pd := game.Money(s.Events)
		staked += st
		paid += pd
	}
	refund := staked - paid
	step := meters.Step{N: len(open.Steps), At: now, Action: game.Action{Kind: game.Void}}
	if refund > 0 {
		ev := game.Event{Kind: game.Payout, Bet: game.Main, Amount: refund, Text: "void refund"}
		step.Events = []game.Event{ev}
		m.Credits += refund
		m.Meters.Step(open.Game, step.Events)
	}
	m.Meters.Voided++
	open.Steps = append(open.Steps, step)
	// The cards the voided round dealt were seen: its shoe moves past
	// them (a continuous shoe) or is finished and revealed.
	ref, err := l.finishShoe(tx, s, open, now)
	if err != nil {
		return err
	}
	rec := meters.Recall{Round: open.Round, Game: open.Game, Start: open.Start, End: now, Rules: open.Rules,
		Steps: open.Steps, CreditsBefore: open.CreditsBefore, CreditsAfter: m.Credits, Voided: true, Recovered: true, Shoe: ref}
	if err := tx.CloseRound(rec); err != nil {
		return err
	}
	if err := l.emit(tx, HostEvent{Kind: HostGameEnded}); err != nil {
		return err
	}
	text := fmt.Sprintf("round %d of %s voided after %s, %v refunded", open.Round, open.Game,
		now.Sub(open.Start).Round(time.Second), refund)
	return l.logDetail(tx, meters.KindVoid, text, "round_voided", meters.CountArg(open.Round), meters.KeyArg("game."+string(open.Game)), meters.MoneyArg(refund))
}

// Snapshot returns the last published snapshot (committed state only).
func (c *Controller) Snapshot() *view.Snapshot { return c.snap.Load() }

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("BUG: encode %T: %v", v, err))
	}
	return b
}
