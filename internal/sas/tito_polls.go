package sas

import (
	"errors"
	"fmt"
	"time"

	"cabinet/internal/money"
)

// Re-issue periods of the TITO priority exceptions until the host does what
// they ask. 57: Monaco re-posts it every 800 ms until LP 57 is read (the
// host has seconds before the cabinet gives up and pays by hand); 68, 3D/3E
// and 3F: every 15 s as exception 51 (Monaco's figures for 68, 3D/3E and
// 3F).
const (
	validationRequestRepeat = 800 * time.Millisecond
	titoRepeat              = 15 * time.Second
)

// titoState is what the engine remembers (in memory only) of the TITO
// exceptions it has reported; the records themselves are the cabinet's.
type titoState struct {
	lp57ID     uint64 // the cash-out whose LP 57 the host read
	ex57ID     uint64 // the cash-out 57 was reported for, and when
	ex57At     time.Time
	ex67Cycle  uint64 // the ticket 67 was reported for
	ex68Cycle  uint64 // the ticket 68 was reported for, and when
	ex68At     time.Time
	ex3FAt     time.Time
	ex3DSeq    uint64 // the validation record 3D/3E was reported for, and when
	ex3DAt     time.Time
	ex3DIssued bool
	ex3FIssued bool
}

func (e *Engine) systemValidator() (SystemValidator, bool) {
	v, ok := e.M.(SystemValidator)
	return v, ok && e.Cfg.Validation == ValidationSystem
}

func (e *Engine) secureEnhanced() (SecureEnhanced, bool) {
	v, ok := e.M.(SecureEnhanced)
	return v, ok && e.Cfg.Validation == ValidationSecureEnhanced
}

func (e *Engine) validationLog() (ValidationLog, bool) {
	v, ok := e.M.(ValidationLog)
	return v, ok && (e.Cfg.Validation == ValidationSystem || e.Cfg.Validation == ValidationSecureEnhanced)
}

func (e *Engine) redeemer() (TicketRedeemer, bool) {
	v, ok := e.M.(TicketRedeemer)
	return v, ok && e.Cfg.TicketIn
}

// titoException returns the TITO priority exception due now, in the
// reference's order (57, 67, 68, 3F, then 3D/3E), and what the host's
// acknowledgement of it confirms; nil when none is due. A record that
// cannot be read now raises nothing (it is read again on the next poll).
func (e *Engine) titoException(now time.Time) ([]byte, func()) {
	t := &e.tito
	if v, ok := e.systemValidator(); ok {
		if c, pending, err := v.PendingCashout(); err == nil && pending && t.lp57ID != c.ID &&
			(t.ex57ID != c.ID || now.Sub(t.ex57At) >= validationRequestRepeat) {
			return []byte{ExValidationRequest}, func() { t.ex57ID, t.ex57At = c.ID, now }
		}
	}
	if v, ok := e.redeemer(); ok {
		if r, err := v.Redemption(); err == nil {
			switch {
			case r.Stage == StageEscrow && t.ex67Cycle != r.Cycle:
				return []byte{ExTicketInserted}, func() { t.ex67Cycle = r.Cycle }
			case r.Stage == StageDone && (t.ex68Cycle != r.Cycle || now.Sub(t.ex68At) >= titoRepeat):
				return []byte{ExTicketTransferred}, func() { t.ex68Cycle, t.ex68At = r.Cycle, now }
			}
		}
	}
	if v, ok := e.secureEnhanced(); ok {
		if id, err := v.SetValidationID(0, 0); err == nil && !id.Configured() &&
			(!t.ex3FIssued || now.Sub(t.ex3FAt) >= titoRepeat) {
			return []byte{ExValidationIDUnset}, func() { t.ex3FIssued, t.ex3FAt = true, now }
		}
	}
	if v, ok := e.validationLog(); ok {
		if recs, err := v.ValidationRecords(); err == nil {
			if rec, ok := unread(recs); ok && (!t.ex3DIssued || t.ex3DSeq != rec.Seq || now.Sub(t.ex3DAt) >= titoRepeat) {
				code := byte(ExHandpayValidated)
				if rec.Type.printed() {
					code = ExTicketPrinted
				}
				return []byte{code}, func() { t.ex3DIssued, t.ex3DSeq, t.ex3DAt = true, rec.Seq, now }
			}
		}
	}
	return nil, nil
}

// unread returns the oldest record the host has not acknowledged.
func unread(recs []ValidationRecord) (ValidationRecord, bool) {
	for _, r := range recs {
		if !r.Acked {
			return r, true
		}
	}
	return ValidationRecord{}, false
}

// titoPoll answers the TITO long polls (handled true), with what the host's
// acknowledgement of the reply confirms. A poll whose mode is off or whose
// interface the cabinet lacks is not handled (silence).
func (e *Engine) titoPoll(now time.Time, m []byte) (r []byte, onAck func(), handled bool, err error) {
	a, c := e.Cfg.Address, m[1]
	switch c {
	case 0x57:
		v, ok := e.systemValidator()
		if !ok {
			return nil, nil, false, nil
		}
		r, err := e.lp57(v)
		return r, nil, true, err
	case 0x58:
		v, ok := e.systemValidator()
		if !ok {
			return nil, nil, false, nil
		}
		q, err := ParseValidationNumber(m)
		if err != nil {
			return nil, nil, true, err
		}
		st, err := e.lp58(v, q)
		if err != nil {
			return nil, nil, true, err
		}
		return AppendCRC([]byte{a, c, st}), nil, true, nil
	case 0x4C:
		v, ok := e.secureEnhanced()
		if !ok {
			return nil, nil, false, nil
		}
		id := uint32(m[2]) | uint32(m[3])<<8 | uint32(m[4])<<16
		seq := uint32(m[5]) | uint32(m[6])<<8 | uint32(m[7])<<16
		st, err := v.SetValidationID(id, seq)
		if err != nil {
			return nil, nil, true, busyOrBad(err)
		}
		return AppendCRC([]byte{a, c, byte(st.MachineID), byte(st.MachineID >> 8), byte(st.MachineID >> 16),
			byte(st.Sequence), byte(st.Sequence >> 8), byte(st.Sequence >> 16)}), nil, true, nil
	case 0x4D:
		v, ok := e.validationLog()
		if !ok {
			return nil, nil, false, nil
		}
		r, onAck, err := e.lp4D(v, m[2])
		return r, onAck, true, err
	case 0x70:
		v, ok := e.redeemer()
		if !ok {
			return nil, nil, false, nil
		}
		r, err := e.lp70(v)
		return r, nil, true, err
	case 0x71:
		v, ok := e.redeemer()
		if !ok {
			return nil, nil, false, nil
		}
		r, onAck, err := e.lp71(v, m)
		return r, onAck, true, err
	}
	return nil, nil, false, nil
}

// busyOrBad maps a cabinet error: ErrBadData stays (NACK), anything else is
// busy.
func busyOrBad(err error) error {
	if errors.Is(err, ErrBadData) {
		return err
	}
	return fmt.Errorf("%w: %w", errBusy, err)
}

// lp57: the pending cash-out's type and amount (cents, 5 BCD), or 80 and
// zeros when none waits.
func (e *Engine) lp57(v SystemValidator) ([]byte, error) {
	c, ok, err := v.PendingCashout()
	if err != nil {
		return nil, busyOrBad(err)
	}
	r := []byte{e.Cfg.Address, 0x57}
	if !ok {
		r = append(r, byte(CashoutNone))
		return AppendCRC(AppendBCD(r, 0, 5)), nil
	}
	e.tito.lp57ID = c.ID
	r = append(r, byte(c.Type))
	return AppendCRC(AppendBCD(r, max(int64(c.Amount), 0), 5)), nil
}

// ValidationNumber is LP 58: the host's validation system ID and number.
type ValidationNumber struct {
	SystemID int    // 00: validation denied; 01–99 the system's ID
	Number   uint64 // 16 digits
}

// ParseValidationNumber decodes LP 58 (`a 58 id(1 BCD) number(8 BCD) CRC`,
// its CRC checked by the engine); ErrBadData (wrapped) for a field that is
// not BCD or a message of the wrong length.
func ParseValidationNumber(m []byte) (ValidationNumber, error) {
	if len(m) != 13 {
		return ValidationNumber{}, fmt.Errorf("sas: LP 58 of %d bytes: want 13: %w", len(m), ErrBadData)
	}
	id, err := ParseBCD(m[2:3])
	if err != nil {
		return ValidationNumber{}, fmt.Errorf("sas: LP 58 validation system ID %02X: %w", m[2], ErrBadData)
	}
	n, err := ParseBCD(m[3:11])
	if err != nil {
		return ValidationNumber{}, fmt.Errorf("sas: LP 58 validation number % X: %w", m[3:11], ErrBadData)
	}
	return ValidationNumber{SystemID: int(id), Number: uint64(n)}, nil
}

// lp58 gives the pending cash-out the host's number. A number for a
// cash-out whose LP 57 the host has not read is improper (81): the host
// validates the amount it read (Monaco's reading); a denial (ID 00) is
// taken at any time.
func (e *Engine) lp58(v SystemValidator, q ValidationNumber) (byte, error) {
	c, ok, err := v.PendingCashout()
	if err != nil {
		return 0, busyOrBad(err)
	}
	if !ok {
		return ValidationNotInOut, nil
	}
	if q.SystemID != 0 && e.tito.lp57ID != c.ID {
		return ValidationImproper, nil
	}
	switch err := v.SetValidationNumber(c.ID, q.SystemID, q.Number); {
	case errors.Is(err, ErrNoCashout):
		return ValidationNotInOut, nil
	case err != nil:
		return 0, busyOrBad(err)
	}
	return ValidationAcked, nil
}

// lp4D answers LP 4D: function 00 the oldest unread record (acknowledged
// when the host acknowledges the reply), FF the same without
// acknowledging it, 01–1F the record at that buffer index; 31 zero bytes
// when there is none. Other function codes: NACK.
func (e *Engine) lp4D(v ValidationLog, fc byte) ([]byte, func(), error) {
	if fc > MaxValidationRecords && fc != 0xFF {
		return nil, nil, fmt.Errorf("sas: LP 4D function code %02X: want 00, 01–1F or FF: %w", fc, ErrBadData)
	}
	recs, err := v.ValidationRecords()
	if err != nil {
		return nil, nil, busyOrBad(err)
	}
	var rec ValidationRecord
	found := false
	switch fc {
	case 0x00, 0xFF:
		rec, found = unread(recs)
	default:
		for _, x := range recs {
			if x.Index() == int(fc) {
				rec, found = x, true // the latest at that index
			}
		}
	}
	r := []byte{e.Cfg.Address, 0x4D}
	if !found {
		return AppendCRC(append(r, make([]byte, 31)...)), nil, nil
	}
	r = e.appendRecord(r, rec)
	var onAck func()
	if fc == 0x00 {
		seq := rec.Seq
		onAck = func() {
			if err := v.AckValidationRecord(seq); err != nil {
				e.AckErr = err
			}
		}
	}
	return AppendCRC(r), onAck, nil
}

// appendRecord appends an LP 4D record: type, index, date MMDDYYYY and time
// HHMMSS (BCD, on the clock LP 7E reports), validation number (8 BCD),
// amount (cents, 5 BCD), ticket number (2 binary LSB first, FFFF none),
// validation system ID (1 BCD), expiration (4 BCD: 00000000, the cabinet
// advertises no validation extensions) and pool ID (2 binary, 0000).
func (e *Engine) appendRecord(r []byte, rec ValidationRecord) []byte {
	t := rec.Time.Add(e.timeOffset)
	r = append(r, byte(rec.Type), byte(rec.Index()))
	r = AppendBCD(r, int64(t.Month())*1000000+int64(t.Day())*10000+int64(t.Year()%10000), 4)
	r = AppendBCD(r, int64(t.Hour())*10000+int64(t.Minute())*100+int64(t.Second()), 3)
	r = AppendBCD(r, int64(rec.Number%1e16), 8)
	r = AppendBCD(r, max(int64(rec.Amount), 0), 5)
	tn := uint16(0xFFFF)
	if rec.Ticket >= 0 && rec.Ticket <= 9999 {
		tn = uint16(rec.Ticket)
	}
	r = append(r, byte(tn), byte(tn>>8))
	r = AppendBCD(r, int64(min(max(rec.SystemID, 0), 99)), 1)
	r = AppendBCD(r, 0, 4)
	return append(r, 0x00, 0x00)
}

// lp70 answers LP 70 with the ticket in escrow (status 00, amount 0: the
// cabinet does not read amounts from tickets, parsing code 00, the 18
// digits as 9 BCD bytes), now waiting for LP 71; FF alone when there is
// none.
func (e *Engine) lp70(v TicketRedeemer) ([]byte, error) {
	cur, err := v.Redemption()
	if err != nil {
		return nil, busyOrBad(err)
	}
	next, ok := cur.Read()
	a := e.Cfg.Address
	if !ok {
		return AppendCRC([]byte{a, 0x70, 0x01, 0xFF}), nil
	}
	if next != cur {
		if err := v.UpdateRedemption(cur, next); err != nil {
			return nil, busyOrBad(err)
		}
	}
	r := []byte{a, 0x70, 0x10, 0x00}
	r = AppendBCD(r, 0, 5)
	r = append(r, 0x00)
	r = AppendBCD(r, int64(next.Number), 9)
	return AppendCRC(r), nil
}

// ParseRedeem decodes LP 71 (`a 71 len code [amount(5 BCD) parsing data
// [expiration(4 BCD) pool(2)] [target ID…]] CRC`, its CRC checked by the
// engine). status is true for a status request (code FF). The code may
// come alone (a status request, or the host refusing the ticket); a valid
// ticket code needs its amount and, for parsing code 00, the 9 bytes of
// validation data. ErrBadData (wrapped) for a length that does not match,
// a field that is not BCD, a valid code without its data.
func ParseRedeem(m []byte) (q RedeemRequest, status bool, err error) {
	if len(m) < 6 || int(m[2])+5 != len(m) || m[2] == 0 {
		return q, false, fmt.Errorf("sas: LP 71 of %d bytes: length byte and message do not match: %w", len(m), ErrBadData)
	}
	d := m[3 : len(m)-2]
	q.Code = TransferCode(d[0])
	if q.Code == TransferStatus {
		return q, true, nil
	}
	if len(d) == 1 {
		if q.Code.Rejected() {
			return q, false, nil
		}
		return q, false, fmt.Errorf("sas: LP 71 transfer code %02X without its amount and validation data: %w", d[0], ErrBadData)
	}
	if len(d) < 7 {
		return q, false, fmt.Errorf("sas: LP 71 of %d data bytes: want the code, 5 amount bytes and the parsing code at least: %w", len(d), ErrBadData)
	}
	amt, err := ParseBCD(d[1:6])
	if err != nil {
		return q, false, fmt.Errorf("sas: LP 71 transfer amount % X: %w", d[1:6], ErrBadData)
	}
	q.Amount = money.Cents(amt)
	q.ParsingCode = d[6]
	rest := d[7:]
	if q.ParsingCode != 0 {
		// another parsing code: its data is not read (the cabinet prints
		// and reads 18-digit numbers only); the ticket will not match
		return q, false, nil
	}
	if len(rest) < 9 {
		return q, false, fmt.Errorf("sas: LP 71 validation data of %d bytes: want 9 for parsing code 00: %w", len(rest), ErrBadData)
	}
	n, err := ParseBCD(rest[:9])
	if err != nil {
		return q, false, fmt.Errorf("sas: LP 71 validation data % X: %w", rest[:9], ErrBadData)
	}
	q.Number, q.HasNumber = uint64(n), true
	rest = rest[9:]
	if len(rest) >= 6 {
		x, err := ParseBCD(rest[:4])
		if err != nil {
			return q, false, fmt.Errorf("sas: LP 71 restricted expiration % X: %w", rest[:4], ErrBadData)
		}
		q.Expiration = int(x)
		q.Pool = uint16(rest[4]) | uint16(rest[5])<<8
	}
	// a target ID (later SAS versions) after the pool ID is not used
	return q, false, nil
}

// ticketLimit is the largest ticket v takes now: Config.TicketInLimit, or
// less when the credit meter has less room (TicketRoom); -1 for none.
func (e *Engine) ticketLimit(v TicketRedeemer) money.Cents {
	lim := e.Cfg.TicketInLimit
	if r, ok := v.(TicketRoom); ok {
		room := r.TicketInRoom()
		if room <= 0 {
			return -1
		}
		if lim == 0 || room < lim {
			lim = room
		}
	}
	return lim
}

// lp71 answers LP 71: a status request with the ticket's status (its
// acknowledgement ends a finished redemption: exception 68 stops), a
// redemption by moving the record (Redemption.Redeem).
func (e *Engine) lp71(v TicketRedeemer, m []byte) ([]byte, func(), error) {
	q, status, err := ParseRedeem(m)
	if err != nil {
		return nil, nil, err
	}
	cur, err := v.Redemption()
	if err != nil {
		return nil, nil, busyOrBad(err)
	}
	next, st := cur, cur.Status
	switch {
	case status && (cur.Cycle == 0 || cur.Stage == StageEscrow):
		st = RedeemNoInfo
	case !status:
		next, st = cur.Redeem(q, e.Cfg.Denom, e.ticketLimit(v))
		if next != cur {
			if err := v.UpdateRedemption(cur, next); err != nil {
				return nil, nil, busyOrBad(err)
			}
		}
	}
	a := e.Cfg.Address
	if st == RedeemIncompatible || st == RedeemNoInfo {
		return AppendCRC([]byte{a, 0x71, 0x01, byte(st)}), nil, nil
	}
	r := []byte{a, 0x71, 0x10, byte(st)}
	r = AppendBCD(r, max(int64(next.Amount), 0), 5)
	r = append(r, 0x00)
	r = AppendBCD(r, int64(next.Number), 9)
	var onAck func()
	if next == cur && cur.Allows(StepAcknowledge) {
		cycle := cur.Cycle
		onAck = func() {
			r, err := v.Redemption()
			if err != nil || r.Cycle != cycle || !r.Allows(StepAcknowledge) {
				e.AckErr = err
				return
			}
			if err := v.UpdateRedemption(r, r.Acknowledge()); err != nil {
				e.AckErr = err
			}
		}
	}
	return AppendCRC(r), onAck, nil
}
