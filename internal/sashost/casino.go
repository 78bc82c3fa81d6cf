package sashost

import (
	"fmt"
	"sync"
	"time"
)

// Casino is the host acting as the casino management system for tickets
// (TITO): it reads the cash-out waiting for a validation number (LP 57),
// gives it one (LP 58), sets the secure-enhanced validation ID (LP 4C) and
// reads the validation records (LP 4D). Written from the SAS 6.02 message
// layouts, apart from internal/sas, so that a test checks the cabinet
// against a second reading of the protocol.
//
// The one-shot methods each make one exchange; Serve runs the casino on its
// own (serve.go). Neither may run while the other does on the same Host.
type Casino struct {
	H    *Host
	Addr byte          // the machine's address (1–127)
	Wait time.Duration // how long a reply may take to start (0: 200 ms)

	// Serve's settings, read when it needs them.

	// Interval is the time from one general poll to the next (0: 200 ms,
	// the reference's fastest rate for a machine that advertises no faster
	// one; tests set less).
	Interval time.Duration
	// SystemID is the validation system ID of the numbers LP 58 gives
	// (1–99; 0: 01).
	SystemID int
	// NextNumber seeds the counter of the 16-digit numbers LP 58 gives:
	// the first one given (0: 1); each is used once.
	NextNumber uint64
	// MachineID and Sequence are what LP 4C sets when the machine reports
	// 3F (a secure-enhanced machine without a validation ID): the
	// machine's validation ID (1–FFFFFF; 0 only reads, and 3F goes on) and
	// the sequence number it starts from.
	MachineID, Sequence uint32

	mu      sync.Mutex
	counter uint64 // the next number to give (0: not seeded yet)
	ledger  map[string]*TicketRecord
	order   []string // the ledger's numbers, in the order learned
	rejects map[string]byte
	stats   Stats
}

func (c *Casino) wait() time.Duration {
	if c.Wait > 0 {
		return c.Wait
	}
	return 200 * time.Millisecond
}

// long sends a long poll (CRC appended) and reads a reply of want bytes,
// its address, command and CRC checked.
func (c *Casino) long(want int, cmd byte, data ...byte) ([]byte, error) {
	r, err := c.H.Poll(WithCRC(append([]byte{c.Addr, cmd}, data...)...), want, c.wait(), 20*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("%w: LP %02X: %w", ErrLink, cmd, err)
	}
	b := r.Bytes
	if err := c.refusal(cmd, b); err != nil {
		return nil, err
	}
	if len(b) != want || b[0] != c.Addr || b[1] != cmd || !CRCOK(b) {
		return nil, fmt.Errorf("sashost: LP %02X: reply % X: want %d bytes, address %02X, the command and a good CRC: %w", cmd, b, want, c.Addr, ErrBadReply)
	}
	return b[2 : len(b)-2], nil
}

// refusal is the error of a reply that is no answer: silence, busy (`a
// 00`), NACK (`a|80`); nil otherwise.
func (c *Casino) refusal(cmd byte, b []byte) error {
	switch {
	case len(b) == 0:
		return fmt.Errorf("sashost: LP %02X: %w", cmd, ErrNoReply)
	case len(b) == 2 && b[0] == c.Addr && b[1] == 0x00:
		return fmt.Errorf("sashost: LP %02X: reply % X: %w", cmd, b, ErrBusy)
	case len(b) == 1 && b[0] == c.Addr|0x80:
		return fmt.Errorf("sashost: LP %02X: reply % X: %w", cmd, b, ErrNACK)
	}
	return nil
}

// longFrame sends the long poll msg and reads a variable-length reply `a
// cmd len data CRC`, its address, command, length byte and CRC checked;
// it returns the data.
func (c *Casino) longFrame(msg []byte) ([]byte, error) {
	cmd := msg[1]
	r, err := c.H.PollFrame(msg, c.wait(), 20*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("%w: LP %02X: %w", ErrLink, cmd, err)
	}
	b := r.Bytes
	if err := c.refusal(cmd, b); err != nil {
		return nil, err
	}
	switch {
	case len(b) < 6 || b[0] != c.Addr || b[1] != cmd:
		return nil, fmt.Errorf("sashost: LP %02X: reply % X: want address %02X, the command, a length byte, data and a CRC: %w", cmd, b, c.Addr, ErrBadReply)
	case int(b[2])+5 != len(b) || b[2] == 0:
		return nil, fmt.Errorf("sashost: LP %02X: reply % X: length byte %02X and %d bytes do not match (want length + 5, length 1 or more): %w", cmd, b, b[2], len(b), ErrBadReply)
	case !CRCOK(b):
		return nil, fmt.Errorf("sashost: LP %02X: reply % X: bad CRC: %w", cmd, b, ErrBadReply)
	}
	return b[3 : len(b)-2], nil
}

// Sync sends a poll to address 0: after start-up the machine answers
// nothing until it has seen the loop's polls go by (and it is the implied
// ACK of a reply).
func (c *Casino) Sync() error {
	_, err := c.H.Send(0x80)
	return err
}

// GeneralPoll sends a general poll and returns the exception (0: none).
// The next different message the host sends acknowledges it.
func (c *Casino) GeneralPoll() (byte, error) {
	r, err := c.H.Poll([]byte{0x80 | c.Addr}, 1, c.wait(), 10*time.Millisecond)
	if err != nil {
		return 0, fmt.Errorf("%w: general poll: %w", ErrLink, err)
	}
	switch len(r.Bytes) {
	case 0:
		return 0, fmt.Errorf("sashost: general poll: %w", ErrNoReply)
	case 1:
	default:
		return 0, fmt.Errorf("sashost: general poll reply % X: want one byte: %w", r.Bytes, ErrBadReply)
	}
	return r.Bytes[0], nil
}

// WaitException polls (general polls, each acknowledged by the next) until
// the machine reports code, at most n polls; it returns the codes seen
// before it.
func (c *Casino) WaitException(code byte, n int) ([]byte, error) {
	var seen []byte
	for range n {
		x, err := c.GeneralPoll()
		if err != nil {
			return seen, err
		}
		if x == code {
			return seen, nil
		}
		if x != 0 {
			seen = append(seen, x)
		} else {
			time.Sleep(5 * time.Millisecond)
		}
		if err := c.Sync(); err != nil { // a poll to address 0: the implied ACK
			return seen, err
		}
	}
	return seen, fmt.Errorf("sashost: exception %02X not reported in %d polls (saw % X)", code, n, seen)
}

// Cashout is LP 57: the cash-out type (00 cashable, 80 none waiting) and
// its amount in cents.
func (c *Casino) Cashout() (typ byte, cents int64, err error) {
	d, err := c.long(10, 0x57)
	if err != nil {
		return 0, 0, err
	}
	n, err := fromBCD(d[1:6])
	return d[0], n, err
}

// Validate is LP 58: validation system ID (00 denies) and the 16-digit
// number; the machine's status (00 acknowledged, 80 not in cash-out, 81
// improper).
func (c *Casino) Validate(systemID int, number uint64) (byte, error) {
	data := append(toBCD(uint64(systemID), 1), toBCD(number, 8)...)
	d, err := c.long(5, 0x58, data...)
	if err != nil {
		return 0, err
	}
	return d[0], nil
}

// SetValidationID is LP 4C: the machine's validation ID and sequence
// number (3 bytes each, least significant first); the machine's reply.
func (c *Casino) SetValidationID(id, seq uint32) (gotID, gotSeq uint32, err error) {
	d, err := c.long(10, 0x4C, byte(id), byte(id>>8), byte(id>>16), byte(seq), byte(seq>>8), byte(seq>>16))
	if err != nil {
		return 0, 0, err
	}
	return uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16, uint32(d[3]) | uint32(d[4])<<8 | uint32(d[5])<<16, nil
}

// Record is one LP 4D validation record as the host reads it.
type Record struct {
	Type     byte
	Index    int
	Number   uint64 // 16 digits
	Cents    int64
	Ticket   int
	SystemID int
}

// Validation18 is the record's 18 digits as printed on the ticket.
func (r Record) Validation18() string { return fmt.Sprintf("%02d%016d", r.SystemID, r.Number) }

// ValidationRecord is LP 4D with function code fc (00: the oldest unread,
// acknowledged by the host's next message); ok false for the 31 zero
// bytes of "no record".
func (c *Casino) ValidationRecord(fc byte) (rec Record, ok bool, err error) {
	d, err := c.long(35, 0x4D, fc)
	if err != nil {
		return rec, false, err
	}
	zero := true
	for _, b := range d {
		zero = zero && b == 0
	}
	if zero {
		return rec, false, nil
	}
	rec.Type, rec.Index = d[0], int(d[1])
	n, err := fromBCD(d[9:17])
	if err != nil {
		return rec, false, err
	}
	rec.Number = uint64(n)
	if rec.Cents, err = fromBCD(d[17:22]); err != nil {
		return rec, false, err
	}
	rec.Ticket = int(d[22]) | int(d[23])<<8
	sys, err := fromBCD(d[24:25])
	rec.SystemID = int(sys)
	return rec, true, err
}

func toBCD(n uint64, width int) []byte {
	b := make([]byte, width)
	for i := width - 1; i >= 0; i-- {
		b[i] = byte(n%10) | byte(n/10%10)<<4
		n /= 100
	}
	return b
}

func fromBCD(b []byte) (int64, error) {
	var n int64
	for _, x := range b {
		hi, lo := x>>4, x&0x0F
		if hi > 9 || lo > 9 {
			return 0, fmt.Errorf("sashost: % X is not BCD", b)
		}
		n = n*100 + int64(hi)*10 + int64(lo)
	}
	return n, nil
}
