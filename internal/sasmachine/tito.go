package sasmachine

import (
	"fmt"
	"slices"
	"time"

	"cabinet/internal/controller"
	"cabinet/internal/money"
	"cabinet/internal/sas"
	"cabinet/internal/serial"
)

// Tickets out (docs/tito.md): the machine implements the engine's
// sas.SystemValidator, sas.SecureEnhanced and sas.ValidationLog from the
// controller's published ticket information (controller.TITOInfo: the
// cash-out waiting for a number, the secure-enhanced state as committed)
// and the store's last proven commit (the validation records). As for
// commands, nothing here writes the store and no reply waits for it: what
// the host sends (LP 58's number, LP 4C's ID, an LP 4D record read) is
// applied in memory at once, so the next poll sees it, and handed to the
// controller, whose ledger commits it after the reply. The controller's
// queue full: LP 58 and LP 4C are answered busy (the host sends them
// again), a record read waits in memory for the next poll.
//
// A power cut between the reply and the commit: an LP 58 answered is lost
// with the cash-out it numbered (the credits are still on the meter after
// the restart, nothing printed; the host's number was never printed); an
// LP 4C answered is lost, and the host, hearing 3F again after the
// restart, sends it again; a record read is reported again (3D), once.

var (
	_ sas.TicketRedeemer  = (*Machine)(nil)
	_ sas.TicketRoom      = (*Machine)(nil)
	_ sas.SystemValidator = (*Machine)(nil)
	_ sas.SecureEnhanced  = (*Machine)(nil)
	_ sas.ValidationLog   = (*Machine)(nil)
)

// titoCabinet is the controller's side the ticket polls read.
type titoCabinet interface {
	TITOInfo() controller.TITOInfo
}

// titoMem is what the machine remembers of the host's ticket requests
// until the controller has committed them (m.mu held).
type titoMem struct {
	answered uint64 // the cash-out whose LP 58 was handed to the controller
	// setBase is the committed state an LP 4C was applied to, setNext the
	// state it gives; it stands until the controller's state moves.
	setBase, setNext sas.ValidationID
	setPending       bool
	read             []uint64 // validation records the host read, not yet committed as read
	readUnsent       []uint64 // of those, not yet handed to the controller
	// redeem holds the host's redemption steps (LP 70, LP 71, the read
	// of its result) handed to the controller and not yet seen committed:
	// the store's committed record first, then the record each step
	// writes, every one a host's step from the one before by the cycle's
	// rules (sas.Redemption.StepTo), the rules the store applies to them.
	// It is no record of its own: it stands only while the store's
	// committed record is one of its links and the store can still commit
	// (redemption).
	redeem []sas.Redemption
}

func (m *Machine) titoInfo() controller.TITOInfo {
	if t, ok := m.Cab.(titoCabinet); ok {
		return t.TITOInfo()
	}
	return controller.TITOInfo{}
}

// PendingCashout is the cash-out waiting for the host's validation number
// (exception 57, LP 57); none once the host answered it.
func (m *Machine) PendingCashout() (sas.Cashout, bool, error) {
	ti := m.titoInfo()
	m.mu.Lock()
	defer m.mu.Unlock()
	if ti.Cashout == 0 || ti.Cashout == m.tito.answered {
		return sas.Cashout{}, false, nil
	}
	return sas.Cashout{ID: ti.Cashout, Type: sas.CashoutCashable, Amount: ti.CashoutAmount}, true, nil
}

// SetValidationNumber hands LP 58's number (or denial, systemID 0) for
// cash-out id to the controller; sas.ErrNoCashout when id is not waiting.
func (m *Machine) SetValidationNumber(id uint64, systemID int, number uint64) error {
	ti := m.titoInfo()
	m.mu.Lock()
	defer m.mu.Unlock()
	if ti.Cashout != id || m.tito.answered == id {
		return fmt.Errorf("sasmachine: validation number for cash-out %d: waiting is %d: %w", id, ti.Cashout, sas.ErrNoCashout)
	}
	if systemID < 0 || systemID > 99 || number > 9999999999999999 {
		return fmt.Errorf("sasmachine: validation system ID %d, number %d: %w", systemID, number, sas.ErrBadData)
	}
	if err := m.send(controller.HostRequest{Validation: &controller.HostValidation{Cashout: id, SystemID: systemID, Number: number}}); err != nil {
		return err
	}
	m.tito.answered = id
	return nil
}

// SetValidationID is LP 4C: the state after ValidationID.Apply of the one
// committed (or of the one an earlier LP 4C not yet committed gives).
// id 0 only reads.
func (m *Machine) SetValidationID(id, seq uint32) (sas.ValidationID, error) {
	s := m.titoInfo().ID
	committed := sas.ValidationID{MachineID: s.MachineID, Sequence: s.Sequence, SetID: s.SetID, SetSeq: s.SetSeq}
	m.mu.Lock()
	defer m.mu.Unlock()
	cur := committed
	if m.tito.setPending {
		if m.tito.setBase == committed {
			cur = m.tito.setNext
		} else {
			m.tito.setPending = false // committed (or superseded by a ticket's sequence number)
		}
	}
	if id == 0 {
		return cur, nil
	}
	next := cur.Apply(id, seq)
	if next == cur {
		return cur, nil
	}
	if err := m.send(controller.HostRequest{ValidationID: &controller.HostValidationID{MachineID: id, Sequence: seq}}); err != nil {
		return cur, err
	}
	m.tito.setBase, m.tito.setNext, m.tito.setPending = committed, next, true
	return next, nil
}

// ValidationRecords are the store's (last proven commit), with the ones
// the host read since marked acknowledged.
func (m *Machine) ValidationRecords() ([]sas.ValidationRecord, error) {
	pv, err := m.Store.Proven()
	if err != nil {
		return nil, fmt.Errorf("sasmachine: read the store: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.flushTITO()
	recs := pv.Validation
	m.tito.read = slices.DeleteFunc(m.tito.read, func(seq uint64) bool {
		i := slices.IndexFunc(recs, func(r sas.ValidationRecord) bool { return r.Seq == seq })
		return i < 0 || recs[i].Acked // committed, or no longer kept
	})
	for i := range recs {
		if slices.Contains(m.tito.read, recs[i].Seq) {
			recs[i].Acked = true
		}
	}
	return recs, nil
}

// AckValidationRecord is the host's acknowledgement of the LP 4D reply
// that carried record seq: applied in memory, committed by the controller.
func (m *Machine) AckValidationRecord(seq uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Contains(m.tito.read, seq) {
		m.tito.read = append(m.tito.read, seq)
		m.tito.readUnsent = append(m.tito.readUnsent, seq)
	}
	m.flushTITO()
	return nil
}

// flushTITO hands the records read to the controller without blocking
// (m.mu held).
func (m *Machine) flushTITO() {
	if len(m.tito.readUnsent) == 0 || m.Host == nil {
		return
	}
	select {
	case m.Host <- controller.HostRequest{ValidationRead: m.tito.readUnsent}:
		m.tito.readUnsent = nil
	default:
	}
}

// send hands r to the controller without blocking: ErrTimeout (the engine
// answers busy) when it cannot take it now.
func (m *Machine) send(r controller.HostRequest) error {
	if m.Host == nil {
		return fmt.Errorf("sasmachine: no controller: %w", ErrTimeout)
	}
	select {
	case m.Host <- r:
		return nil
	default:
		return fmt.Errorf("sasmachine: the controller's queue is full: %w", ErrTimeout)
	}
}

// Redemption is the ticket in's redemption record: the store's committed
// one, moved on by the host's steps handed to the controller and not yet
// committed.
func (m *Machine) Redemption() (sas.Redemption, error) {
	c, err := m.committedRedemption()
	if err != nil {
		return sas.Redemption{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.redemption(c), nil
}

// committedRedemption is the store's redemption record as of its last
// proven commit (recovery.Proven): the record recovery's UpdateRedemption
// checks a step against.
func (m *Machine) committedRedemption() (sas.Redemption, error) {
	pv, err := m.Store.Proven()
	if err != nil {
		return sas.Redemption{}, fmt.Errorf("sasmachine: read the store: %w", err)
	}
	return pv.Redemption, nil
}

// redemption is committed record c moved on by the steps in memory
// (m.mu held). Steps whose chain c is not part of are stale (the cabinet
// returned the ticket meanwhile, or the record moved on otherwise) and
// go; so do all of them once the store has failed (they will never be
// committed): the host then hears the record the store has.
func (m *Machine) redemption(c sas.Redemption) sas.Redemption {
	i := slices.Index(m.tito.redeem, c)
	if i < 0 || m.Store.Err() != nil {
		m.tito.redeem = nil
		return c
	}
	m.tito.redeem = m.tito.redeem[i:]
	return m.tito.redeem[len(m.tito.redeem)-1]
}

// UpdateRedemption applies the host's step cur → next in memory, so that
// the next poll sees it, and hands it to the controller, whose ledger
// commits it after the reply: the link never waits for the store. cur
// must be what Redemption returns, and next what one of the host's steps
// writes from it (sas.Redemption.StepTo, sas.Step.Host): sas.ErrBadData
// otherwise, nothing kept or sent. The controller's queue full, or the
// store failed: ErrTimeout (the engine answers busy, the host asks again).
//
// A power cut between the reply and the commit loses the step: an LP 71
// that authorised a ticket the cabinet had not recorded authorised finds,
// after the restart, the ticket returned (87) with the validator's power
// up; the host hears 68 and the final status, and the ticket stays valid.
func (m *Machine) UpdateRedemption(cur, next sas.Redemption) error {
	c, err := m.committedRedemption()
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if have := m.redemption(c); have != cur {
		return fmt.Errorf("sasmachine: redemption step from %+v: the record is %+v: %w", cur, have, sas.ErrBadData)
	}
	if next == cur {
		return nil
	}
	step, err := cur.StepTo(next)
	if err != nil {
		return fmt.Errorf("sasmachine: redemption step: %w", err)
	}
	if !step.Host() {
		return fmt.Errorf("sasmachine: redemption step %s of ticket %d: the cabinet's, not the host's: %w", step, cur.Cycle, sas.ErrBadData)
	}
	if err := m.Store.Err(); err != nil {
		return fmt.Errorf("sasmachine: redemption step %s of ticket %d: the store cannot commit it: %v: %w", step, cur.Cycle, err, ErrTimeout)
	}
	if err := m.send(controller.HostRequest{Redemption: &controller.HostRedemption{Cur: cur, Next: next}}); err != nil {
		return err
	}
	if len(m.tito.redeem) == 0 {
		m.tito.redeem = []sas.Redemption{c}
	}
	m.tito.redeem = append(m.tito.redeem, next)
	return nil
}

// TicketInRoom is the largest ticket the credit meter can take now.
func (m *Machine) TicketInRoom() money.Cents { return m.titoInfo().TicketRoom }

// Link hands the SAS link's state to the controller when it changes
// (sas.LinkOptions.Link, on the link's goroutine: it never blocks): down,
// no host polls, so cash-outs are handpays and tickets are returned at
// once with "casino system offline" (89); up again, tickets as before. A
// goroutine carries each change, numbered, so a late one never undoes a
// newer one; it gives up after a minute if nobody reads the queue.
func (m *Machine) Link(up bool) {
	m.mu.Lock()
	m.linkSeq++
	r := controller.HostRequest{Link: &controller.HostLink{Up: up, Seq: m.linkSeq}}
	m.mu.Unlock()
	if m.Host == nil {
		return
	}
	go func() {
		select {
		case m.Host <- r:
		case <-time.After(time.Minute):
		}
	}()
}

// Line hands the SAS line's fault reports (sas.LinkOptions.Line, on the
// link's goroutine: it never blocks) to the controller, which logs them
// as device noise: a garbling host is one fault with its count, not an
// event per message. One goroutine at a time carries them, in order; it
// gives up on a report after a minute if nobody reads the queue.
func (m *Machine) Line(r serial.FaultReport) {
	if m.Host == nil {
		return
	}
	m.mu.Lock()
	m.lines = append(m.lines, r)
	start := !m.lineBusy
	m.lineBusy = true
	m.mu.Unlock()
	if !start {
		return
	}
	go func() {
		for {
			m.mu.Lock()
			if len(m.lines) == 0 {
				m.lineBusy = false
				m.mu.Unlock()
				return
			}
			r := m.lines[0]
			m.lines = m.lines[1:]
			m.mu.Unlock()
			select {
			case m.Host <- controller.HostRequest{Line: &r}:
			case <-time.After(time.Minute):
			}
		}
	}()
}
