package sas

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"cabinet/internal/serial"
)

// Exception codes emitted by the cabinet (SAS Appendix A).
const (
	ExNone           = 0x00
	ExSlotDoorOpen   = 0x11
	ExSlotDoorClosed = 0x12
	ExPowerUp        = 0x17
	ExPowerLost      = 0x18
	ExCashboxOpen    = 0x19
	ExCashboxClosed  = 0x1A
	ExBillJam        = 0x28
	ExBillRejected   = 0x2B
	ExMemoryError    = 0x34 // EEPROM data error: the address drops to 0
	ExOptionsChanged = 0x3C
	ExBillAccepted   = 0x4F
	ExHandpayPending = 0x51
	ExHandpayReset   = 0x52
	ExCashout        = 0x66
	ExOverflow       = 0x70
	ExGameStarted    = 0x7E
	ExGameEnded      = 0x7F
	ExAttendantIn    = 0x82
	ExAttendantOut   = 0x83
	ExOperatorIn     = 0x84
	ExOperatorOut    = 0x85
	ExRecall         = 0x8A
)

// handpayRepeat is how often exception 51 is re-issued until LP 1B is read.
const handpayRepeat = 15 * time.Second

// maxSends: the third identical poll is final (the reply has then been sent
// three times); a fourth is answered afresh.
const maxSends = 3

// Engine answers host messages for one machine. It is not safe for
// concurrent use: the link feeds it from one goroutine.
type Engine struct {
	Cfg   Config
	M     Machine
	Q     Queue
	Clock func() time.Time // wall clock for LP 7E; time.Now if nil

	synced bool
	last   []byte // last message answered
	reply  []byte // its reply (nil = silence)
	sends  int
	onAck  func() // what the host's implied ACK of reply confirms

	timeOffset time.Duration // LP 7F

	hpRead    bool      // LP 1B read since the handpay became pending
	hpIssued  time.Time // last exception 51 sent
	hpPending bool      // handpay pending at the last snapshot

	romSeed    uint16
	romWanted  bool // LP 21 received, signature not yet computed
	romReady   bool
	romSig     uint16
	romPending bool // computed, not yet sent on a general poll

	tito titoState // TITO exceptions reported (tito_polls.go)

	// AckErr is the last error from the queue's Ack (the exception will be
	// reported again: duplicated, never lost).
	AckErr error
	// Damaged is why the last message to this machine was NACKed as
	// damaged on the line (a bad CRC, cut short), with its bytes; "" when
	// it was not. Serve counts it as a line error and clears it.
	Damaged string
}

// Unsync puts the engine back in the state after start-up (a loop break):
// polls to this machine are ignored until one to another address is seen.
func (e *Engine) Unsync() { e.synced = false }

// Synced reports whether the sync rule has been satisfied.
func (e *Engine) Synced() bool { return e.synced }

// ROMRequest reports a pending LP 21 seed to compute the signature of.
func (e *Engine) ROMRequest() (seed uint16, ok bool) { return e.romSeed, e.romWanted }

// ROMResult hands the engine the signature computed for seed; it is sent on
// the next general poll.
func (e *Engine) ROMResult(seed, sig uint16) {
	if !e.romWanted || seed != e.romSeed {
		return
	}
	e.romWanted = false
	e.romSig = sig
	e.romPending = true
}

// ack confirms the last reply (the host sent something different).
func (e *Engine) ack() {
	if e.onAck != nil {
		e.onAck()
	}
	e.onAck = nil
	e.last, e.reply, e.sends = nil, nil, 0
}

// Handle answers one framed host message (from Framer) received at now; nil
// is silence.
func (e *Engine) Handle(now time.Time, msg []byte) []byte {
	if e.Cfg.Address == 0 || len(msg) == 0 {
		return nil
	}
	a := e.Cfg.Address
	if len(msg) > 1 && msg[0] == 0x00 {
		// A broadcast: never answered. A broadcast LP 7F with a good CRC
		// sets the date and time (type G).
		if msg[1] == 0x7F && len(msg) == 11 && CheckCRC(msg) {
			_ = e.setClock(now, msg)
		}
		return nil
	}
	if len(msg) == 1 && msg[0] != 0x80|a {
		// a poll to another address or a broadcast: implied ACK, and sync
		e.ack()
		e.synced = true
		return nil
	}
	if !e.synced {
		return nil
	}
	if e.last != nil && bytes.Equal(msg, e.last) && e.sends < maxSends {
		if e.reply == nil {
			return nil
		}
		e.sends++
		return e.reply
	}
	e.ack()
	r, onAck := e.answer(now, msg)
	e.last = append([]byte(nil), msg...)
	e.reply, e.sends, e.onAck = r, 1, onAck
	if r == nil {
		e.onAck = nil
	}
	if len(msg) == 1 && len(r) == 1 && r[0] == ExNone {
		// nothing was reported, nothing can be lost: a repeated general
		// poll is answered afresh (an exception raised meanwhile is not
		// held back behind a resent 00)
		e.last, e.reply = nil, nil
	}
	return r
}

// answer computes a fresh reply and what its acknowledgement confirms.
func (e *Engine) answer(now time.Time, msg []byte) ([]byte, func()) {
	a := e.Cfg.Address
	if len(msg) == 1 {
		return e.generalPoll(now)
	}
	switch n := pollLen(msg); {
	case n == 0 || n > len(msg):
		// Cut short (Framer.Flush): a length byte larger than the frame,
		// or no length byte. Malformed: NACK (sas.md: bad CRC/bad data).
		e.Damaged = fmt.Sprintf("long poll %02X cut short: %d bytes, no length byte (%s)", msg[1], len(msg), serial.Hex(msg))
		if n > 0 {
			e.Damaged = fmt.Sprintf("long poll %02X cut short: %d of the %d bytes its length byte says (%s)", msg[1], len(msg), n, serial.Hex(msg))
		}
		return []byte{a | 0x80}, nil
	case n > 2 && !CheckCRC(msg):
		e.Damaged = fmt.Sprintf("long poll %02X with a bad CRC (%s)", msg[1], serial.Hex(msg))
		return []byte{a | 0x80}, nil
	}
	r, onAck, handled, err := e.titoPoll(now, msg)
	if !handled {
		r, onAck = nil, nil
		r, err = e.longPoll(now, msg)
	}
	switch {
	case errors.Is(err, ErrBadData):
		return []byte{a | 0x80}, nil
	case errors.Is(err, errBusy):
		return []byte{a, 0x00}, nil
	case err != nil:
		return nil, nil
	}
	return r, onAck
}

func (e *Engine) generalPoll(now time.Time) ([]byte, func()) {
	a := e.Cfg.Address
	if e.romPending {
		r := AppendCRC([]byte{a, 0x21, byte(e.romSig), byte(e.romSig >> 8)})
		return r, func() { e.romPending = false }
	}
	if r, onAck := e.titoException(now); r != nil {
		return r, onAck
	}
	if s, err := e.M.Snapshot(); err == nil {
		if s.Handpay.Pending && !e.hpPending {
			e.hpRead = false
			e.hpIssued = time.Time{}
		}
		e.hpPending = s.Handpay.Pending
		if e.hpPending && !e.hpRead && (e.hpIssued.IsZero() || now.Sub(e.hpIssued) >= handpayRepeat) {
			return []byte{ExHandpayPending}, func() { e.hpIssued = now }
		}
	}
	code, ok, err := e.Q.Peek()
	if err != nil || !ok {
		return []byte{ExNone}, nil
	}
	return []byte{code}, func() {
		if err := e.Q.Ack(code); err != nil {
			e.AckErr = err
		}
	}
}
