package controller

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"cabinet/internal/desk"
	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// eventPageSize is how many events an event-log page shows.
const eventPageSize = 20

// eventPages is how many pages n events fill (at least one).
func eventPages(n int) int { return max(1, (n+eventPageSize-1)/eventPageSize) }

// Audit pages, in the order SPOT cycles them.
var auditPages = []string{"meters", "recall", "events", "tickets", "selftest", "program"}

// The tickets page shows the newest ticketsOutShown tickets out and
// ticketsInShown tickets in (`cabinet audit tickets` lists them all).
const (
	ticketsOutShown = 7
	ticketsInShown  = 5
)

// memoryClear is the full memory clear: the store keeps the old file aside,
// resets, logs it; then the cabinet boots again on the empty store.
func (c *Controller) memoryClear() error {
	if err := c.led.clear(); err != nil {
		return err
	}
	if err := c.boot(); err != nil {
		return c.led.fail(err)
	}
	c.scr.mode = view.Attract
	return nil
}

// auditView is the technician's pages: the committed state cs, the
// screen's page and cursors, and the page's data pg as the controller read
// it from the store.
func (pr presenter) auditView(cs state, u *screen, pg pages) *view.AuditView {
	a := &view.AuditView{Page: auditPages[u.auditPage%len(auditPages)], Digest: pr.digest, Version: pr.version}
	// Every configured bill denomination has its line, at zero too.
	shown := cs.m
	shown.Meters.Bills = make(map[string]int64, len(pr.set.Bills))
	for _, b := range pr.set.Bills {
		shown.Meters.Bills[strconv.FormatInt(int64(b), 10)] = 0
	}
	for d, n := range cs.m.Meters.Bills {
		shown.Meters.Bills[d] = n
	}
	a.Meters = MeterLines(shown)
	if cs.memErr != nil {
		a.Checks = append(a.Checks, view.KV{Key: "memory_error", Value: cs.memErr.Error()})
	}
	if cs.digestErr != nil {
		a.Checks = append(a.Checks, view.KV{Key: "digest", Value: cs.digestErr.Error()})
	}
	switch a.Page {
	case "selftest":
		a.Checks = append(a.Checks, u.checks...)
	case "events":
		evs := pg.events
		a.EventPages = eventPages(len(evs))
		a.EventPage = min(u.eventPage, a.EventPages-1)
		evs = evs[min(len(evs), a.EventPage*eventPageSize):min(len(evs), (a.EventPage+1)*eventPageSize)]
		for _, e := range evs {
			l := view.EventLine{Seq: e.Seq, Time: e.At.Format(time.DateTime), Kind: e.Kind, Text: e.Text, Detail: e.Detail}
			for _, x := range e.Args {
				l.Args = append(l.Args, view.EventArg{Type: x.Type, Value: x.Value})
			}
			a.Events = append(a.Events, l)
		}
	case "tickets":
		a.Tickets = ticketsView(cs.m.Meters, pg)
	case "recall":
		if recs := pg.recall; len(recs) > 0 {
			i := u.recallIdx % len(recs)
			rv, err := RecallPicture(recs[i], u.recallStep)
			if err != nil {
				a.Checks = append(a.Checks, view.KV{Key: "recall", Value: err.Error()})
			} else {
				rv.Index, rv.Count = i, len(recs)
				rv.Shoe = shoeView(&recs[i], pg.shoes)
				a.Recall = rv
			}
		}
	}
	return a
}

// shoeView is a recalled round's committed shoe with its reveal and
// verdict (recovery.VerifyRound) among the revealed shoes.
func shoeView(rec *meters.Recall, shoes []recovery.Shoe) *view.ShoeView {
	ref := rec.Shoe
	if ref == nil {
		return nil
	}
	v := &view.ShoeView{No: ref.No, Commitment: ref.Commitment, From: ref.From, To: ref.To}
	var s *recovery.Shoe
	for i := range shoes {
		if shoes[i].No == ref.No {
			s = &shoes[i]
			break
		}
	}
	err := recovery.VerifyRound(rec, s)
	switch {
	case err == nil:
		v.Status = "verified"
	case errors.Is(err, recovery.ErrNotRevealed):
		v.Status = "not_revealed"
	default:
		v.Status, v.Detail = "mismatch", err.Error()
	}
	if s != nil {
		v.Secret, v.Cut, v.Order = s.Secret, s.Cut, card.Format(s.Cards)
	}
	return v
}

// ticketsView is the tickets page: the ticket meters of the committed
// machine record (equal to the ticket records' totals: the store checks
// them in every commit) and the tickets read from the store.
func ticketsView(m meters.Meters, pg pages) *view.TicketsView {
	tv := &view.TicketsView{Meters: []view.TicketMeter{
		{Key: "issued", Count: m.TicketsIssuedCount, Amount: m.TicketsIssued},
		{Key: "printed", Count: m.TicketsOutCount, Amount: m.TicketsOut},
		{Key: "voided", Count: m.TicketsVoidedCount, Amount: m.TicketsVoided},
		{Key: "redeemed", Count: m.TicketsInCount, Amount: m.TicketsIn},
	}, Out: []view.TicketLine{}, In: []view.TicketLine{}}
	for _, t := range pg.ticketsOut {
		tv.Out = append(tv.Out, view.TicketLine{Validation: hw.FormatValidation(t.Validation), Amount: t.Amount,
			Time: t.Created.Format(time.DateTime), Status: string(t.Status), Reason: t.Reason, Reprints: t.Reprints})
	}
	for _, t := range pg.ticketsIn {
		l := view.TicketLine{Validation: hw.FormatValidation(t.Validation), Amount: t.Amount,
			Time: t.Inserted.Format(time.DateTime), Status: string(t.Status), Reason: t.Reason}
		if t.Status == recovery.TicketInRejected || t.Status == recovery.TicketInReturned {
			l.Code = desk.TicketInReason(t) // as the player was shown it (internal/desk)
		}
		tv.In = append(tv.In, l)
	}
	return tv
}

// RecallPicture replays a recalled round up to step (all steps if step < 0)
// and returns the table picture after it: the audit screen's redraw.
func RecallPicture(rec meters.Recall, step int) (*view.RecallView, error) {
	steps := rec.Steps
	if step < 0 || step >= len(steps) {
		step = len(steps) - 1
	}
	r, err := fresh(rec.Game, rec.Rules, rec.Round)
	if err != nil {
		return nil, fmt.Errorf("recall round %d: %w", rec.Round, err)
	}
	action := ""
	for _, s := range steps[:step+1] {
		if s.Action.Kind == game.Void {
			action = string(game.Void)
			continue
		}
		if _, err := r.Apply(s.Action, card.NewStack(game.Drawn(s.Events)...)); err != nil {
			return nil, fmt.Errorf("recall round %d step %d: %w", rec.Round, s.N, err)
		}
		action = string(s.Action.Kind)
	}
	return &view.RecallView{Round: rec.Round, Game: rec.Game, Start: rec.Start.Format(time.DateTime),
		End: rec.End.Format(time.DateTime), Step: step, Steps: len(steps), Action: action, Table: r.Table(),
		Before: rec.CreditsBefore, After: rec.CreditsAfter, Recovered: rec.Recovered, Voided: rec.Voided}, nil
}

// MeterLines are every meter for the audit screen, named as `cabinet audit
// meters` names them (meters.Lines: "total_in", "bills.2000",
// "games.royal.won", "games.freebet.side.anypair.wagered", …) after the
// credit meter, the pending handpay and the progressive pool. Values are
// language-neutral tokens the display formats: money as Cents.String
// ("1234.50"), counts as integers.
func MeterLines(m recovery.Machine) []view.KV {
	kv := []view.KV{
		{Key: "credits", Value: m.Credits.String()},
		{Key: "handpay_pending", Value: m.Handpay.String()},
		{Key: "progressive_pool", Value: money.Cents(m.PoolUnits / PoolUnitsPerCent).String()},
	}
	for _, l := range m.Meters.Lines() {
		v := strconv.FormatInt(l.Value, 10)
		switch l.Unit {
		case meters.UnitCents:
			v = money.Cents(l.Value).String()
		case meters.UnitPoolUnits:
			v = money.Cents(l.Value / PoolUnitsPerCent).String()
		}
		kv = append(kv, view.KV{Key: l.Name, Value: v})
	}
	return kv
}
