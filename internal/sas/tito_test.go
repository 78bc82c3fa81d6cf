package sas

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"cabinet/internal/money"
)

// titoMachine is a cabinet with tickets: the records of tito.go kept in
// memory, moved with the package's own rules (ValidationID.Apply and Next,
// the Redemption methods) as the store would in its transactions.
type titoMachine struct {
	*machine
	cashout  Cashout
	pending  bool
	numbers  []ValidationNumber // LP 58s taken
	vid      ValidationID
	recs     []ValidationRecord
	seq      uint64
	red      Redemption
	redErr   error // UpdateRedemption fails with it
	acked    []uint64
	readErrs error // every read fails with it
}

var errStale = errors.New("redemption record changed")

var (
	_ SystemValidator = (*titoMachine)(nil)
	_ SecureEnhanced  = (*titoMachine)(nil)
	_ ValidationLog   = (*titoMachine)(nil)
	_ TicketRedeemer  = (*titoMachine)(nil)
)

func (m *titoMachine) PendingCashout() (Cashout, bool, error) {
	return m.cashout, m.pending, m.readErrs
}

func (m *titoMachine) SetValidationNumber(id uint64, systemID int, n uint64) error {
	if !m.pending || id != m.cashout.ID {
		return ErrNoCashout
	}
	m.pending = false
	m.numbers = append(m.numbers, ValidationNumber{SystemID: systemID, Number: n})
	return nil
}

func (m *titoMachine) SetValidationID(id, seq uint32) (ValidationID, error) {
	if m.readErrs != nil {
		return ValidationID{}, m.readErrs
	}
	m.vid = m.vid.Apply(id, seq)
	return m.vid, nil
}

func (m *titoMachine) ValidationRecords() ([]ValidationRecord, error) {
	r := m.recs
	if len(r) > MaxValidationRecords {
		r = r[len(r)-MaxValidationRecords:]
	}
	return r, m.readErrs
}

func (m *titoMachine) AckValidationRecord(seq uint64) error {
	for i := range m.recs {
		if m.recs[i].Seq == seq {
			m.recs[i].Acked = true
		}
	}
	m.acked = append(m.acked, seq)
	return nil
}

func (m *titoMachine) Redemption() (Redemption, error) { return m.red, m.readErrs }

func (m *titoMachine) UpdateRedemption(cur, next Redemption) error {
	if m.redErr != nil {
		return m.redErr
	}
	if cur != m.red {
		return errStale
	}
	m.red = next
	return nil
}

// record adds a validation record, as the cabinet does when it prints a
// ticket or validates a handpay.
func (m *titoMachine) record(r ValidationRecord) {
	m.seq++
	r.Seq = m.seq
	m.recs = append(m.recs, r)
}

// printTicket is a cash-out to a ticket under secure-enhanced validation.
func (m *titoMachine) printTicket(t *testing.T, amount money.Cents, at time.Time) uint64 {
	t.Helper()
	v, n, err := m.vid.Next()
	if err != nil {
		t.Fatalf("ValidationID.Next: %v", err)
	}
	m.vid = v
	m.record(ValidationRecord{Type: ValCashableTicket, Time: at, Number: n, Amount: amount, Ticket: int(m.seq+1) % 10000})
	return n
}

func newTITO(mode ValidationMode, ticketIn bool, q *queue) (*Engine, *titoMachine) {
	m := &titoMachine{machine: &machine{s: snap()}}
	e := &Engine{Cfg: Config{Address: 1, Denom: 1, Serial: "CAB42", Validation: mode, TicketIn: ticketIn}, M: m, Q: q}
	e.Handle(t0, []byte{0x82}) // sync
	return e, m
}

// poll sends msg, then a poll to another address (the host's implied ACK
// of the reply), and returns the reply.
func poll(e *Engine, now time.Time, msg []byte) []byte {
	r := e.Handle(now, msg)
	e.Handle(now, []byte{0x82})
	return r
}

// TestTITOPollReplies: each TITO poll's reply byte for byte, from the
// layouts of Monaco's parsers and their tests (LP57SendPendingCashout-
// InformationParserTests, LP58ReceiveValidationNumberParserTests,
// LP4CSetValidationIdParserTest, LP4DSendEnhancedValidationInformation-
// ParserTests, LP70/LP71 parsers).
func TestTITOPollReplies(t *testing.T) {
	number := uint64(1234567890123456) // 18 digits 001234567890123456
	ticket := []byte{0x00, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56}
	with := func(b []byte, more ...byte) []byte { return append(append([]byte(nil), b...), more...) }
	tests := []struct {
		name  string
		mode  ValidationMode
		in    bool
		setup func(m *titoMachine)
		polls [][]byte // earlier polls, each acknowledged
		poll  []byte
		want  []byte
	}{
		{name: "57 cashable 12,345,678.90 pending", mode: ValidationSystem,
			setup: func(m *titoMachine) { m.cashout, m.pending = Cashout{ID: 7, Amount: 1234567890}, true },
			poll:  []byte{0x01, 0x57}, want: crc(0x01, 0x57, 0x00, 0x12, 0x34, 0x56, 0x78, 0x90)},
		{name: "57 restricted", mode: ValidationSystem,
			setup: func(m *titoMachine) {
				m.cashout, m.pending = Cashout{ID: 7, Type: CashoutRestricted, Amount: 1234567890}, true
			},
			poll: []byte{0x01, 0x57}, want: crc(0x01, 0x57, 0x01, 0x12, 0x34, 0x56, 0x78, 0x90)},
		{name: "57 not waiting", mode: ValidationSystem,
			poll: []byte{0x01, 0x57}, want: crc(0x01, 0x57, 0x80, 0, 0, 0, 0, 0)},
		{name: "58 acknowledged after 57", mode: ValidationSystem,
			setup: func(m *titoMachine) { m.cashout, m.pending = Cashout{ID: 7, Amount: 500}, true },
			polls: [][]byte{{0x01, 0x57}},
			poll:  crc(0x01, 0x58, 0x01, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56), want: crc(0x01, 0x58, 0x00)},
		{name: "58 before 57 is improper", mode: ValidationSystem,
			setup: func(m *titoMachine) { m.cashout, m.pending = Cashout{ID: 7, Amount: 500}, true },
			poll:  crc(0x01, 0x58, 0x01, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56), want: crc(0x01, 0x58, 0x81)},
		{name: "58 denial before 57 is taken", mode: ValidationSystem,
			setup: func(m *titoMachine) { m.cashout, m.pending = Cashout{ID: 7, Amount: 500}, true },
			poll:  crc(0x01, 0x58, 0x00, 0, 0, 0, 0, 0, 0, 0, 0), want: crc(0x01, 0x58, 0x00)},
		{name: "58 not in cash-out", mode: ValidationSystem,
			poll: crc(0x01, 0x58, 0x01, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56), want: crc(0x01, 0x58, 0x80)},
		{name: "58 number not BCD", mode: ValidationSystem,
			poll: crc(0x01, 0x58, 0x01, 0x12, 0xA4, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56), want: []byte{0x81}},
		{name: "58 system ID not BCD", mode: ValidationSystem,
			poll: crc(0x01, 0x58, 0xA1, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56), want: []byte{0x81}},
		{name: "4C set ID 001234, sequence 112233 (binary, LSB first)", mode: ValidationSecureEnhanced,
			poll: crc(0x01, 0x4C, 0x34, 0x12, 0x00, 0x33, 0x22, 0x11), want: crc(0x01, 0x4C, 0x34, 0x12, 0x00, 0x33, 0x22, 0x11)},
		{name: "4C ID 0 only reads", mode: ValidationSecureEnhanced,
			setup: func(m *titoMachine) {
				m.vid = ValidationID{MachineID: 0x654321, Sequence: 9, SetID: 0x654321, SetSeq: 1}
			},
			poll: crc(0x01, 0x4C, 0, 0, 0, 0x05, 0, 0), want: crc(0x01, 0x4C, 0x21, 0x43, 0x65, 0x09, 0x00, 0x00)},
		{name: "4C the same values again keep the sequence", mode: ValidationSecureEnhanced,
			setup: func(m *titoMachine) {
				m.vid = ValidationID{MachineID: 0x654321, Sequence: 9, SetID: 0x654321, SetSeq: 1}
			},
			poll: crc(0x01, 0x4C, 0x21, 0x43, 0x65, 0x01, 0, 0), want: crc(0x01, 0x4C, 0x21, 0x43, 0x65, 0x09, 0x00, 0x00)},
		{name: "4D current record", mode: ValidationSecureEnhanced, setup: setup4D,
			poll: crc(0x01, 0x4D, 0x00), want: want4D},
		{name: "4D look ahead", mode: ValidationSecureEnhanced, setup: setup4D,
			poll: crc(0x01, 0x4D, 0xFF), want: want4D},
		{name: "4D index 0A", mode: ValidationSystem, setup: setup4D,
			poll: crc(0x01, 0x4D, 0x0A), want: want4D},
		{name: "4D index 1F empty", mode: ValidationSecureEnhanced, setup: setup4D,
			poll: crc(0x01, 0x4D, 0x1F), want: crc(append([]byte{0x01, 0x4D}, make([]byte, 31)...)...)},
		{name: "4D function 20", mode: ValidationSecureEnhanced,
			poll: crc(0x01, 0x4D, 0x20), want: []byte{0x81}},
		{name: "70 no ticket", in: true,
			poll: []byte{0x01, 0x70}, want: crc(0x01, 0x70, 0x01, 0xFF)},
		{name: "70 ticket in escrow", in: true, setup: insert(number),
			poll: []byte{0x01, 0x70}, want: crc(with([]byte{0x01, 0x70, 0x10, 0x00, 0, 0, 0, 0, 0, 0x00}, ticket...)...)},
		{name: "70 Monaco's ticket 004054504974162392", in: true, setup: insert(4054504974162392),
			poll: []byte{0x01, 0x70}, want: crc(0x01, 0x70, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
				0x00, 0x40, 0x54, 0x50, 0x49, 0x74, 0x16, 0x23, 0x92)},
		{name: "71 redeem 10.00", in: true, setup: insert(number), polls: [][]byte{{0x01, 0x70}},
			poll: crc(with([]byte{0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00}, ticket...)...),
			want: crc(with([]byte{0x01, 0x71, 0x10, 0x40, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00}, ticket...)...)},
		{name: "71 redeem with expiration and pool", in: true, setup: insert(number), polls: [][]byte{{0x01, 0x70}},
			poll: crc(with(with([]byte{0x01, 0x71, 0x16, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00}, ticket...), 0x00, 0x00, 0x00, 0x00, 0x00, 0x00)...),
			want: crc(with([]byte{0x01, 0x71, 0x10, 0x40, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00}, ticket...)...)},
		// Monaco's LP71RedeemTicketParserTest requests: 25.00, ticket
		// 001553049347404912, restricted expiration 05302023, pool ID,
		// then (0x17) an empty target ID.
		{name: "71 Monaco's request", in: true, setup: insert(1553049347404912), polls: [][]byte{{0x01, 0x70}},
			poll: crc(0x01, 0x71, 0x16, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00,
				0x00, 0x15, 0x53, 0x04, 0x93, 0x47, 0x40, 0x49, 0x12, 0x05, 0x30, 0x20, 0x23, 0x00, 0x01),
			want: crc(0x01, 0x71, 0x10, 0x40, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x00, 0x15, 0x53, 0x04, 0x93, 0x47, 0x40, 0x49, 0x12)},
		{name: "71 Monaco's request with an empty target ID", in: true, setup: insert(1553049347404912), polls: [][]byte{{0x01, 0x70}},
			poll: crc(0x01, 0x71, 0x17, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00,
				0x00, 0x15, 0x53, 0x04, 0x93, 0x47, 0x40, 0x49, 0x12, 0x05, 0x30, 0x20, 0x23, 0x00, 0x01, 0x00),
			want: crc(0x01, 0x71, 0x10, 0x40, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x00, 0x15, 0x53, 0x04, 0x93, 0x47, 0x40, 0x49, 0x12)},
		{name: "71 restricted expiration not BCD", in: true, setup: insert(1553049347404912), polls: [][]byte{{0x01, 0x70}},
			poll: crc(0x01, 0x71, 0x16, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00,
				0x00, 0x15, 0x53, 0x04, 0x93, 0x47, 0x40, 0x49, 0x12, 0x05, 0xF0, 0x20, 0x23, 0x00, 0x01),
			want: []byte{0x81}},
		{name: "71 rejected by the host (84 already redeemed)", in: true, setup: insert(number), polls: [][]byte{{0x01, 0x70}},
			poll: crc(0x01, 0x71, 0x01, 0x84),
			want: crc(with([]byte{0x01, 0x71, 0x10, 0x80, 0, 0, 0, 0, 0, 0x00}, ticket...)...)},
		{name: "71 another number", in: true, setup: insert(number), polls: [][]byte{{0x01, 0x70}},
			poll: crc(0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x01),
			want: crc(with([]byte{0x01, 0x71, 0x10, 0x81, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00}, ticket...)...)},
		{name: "71 before 70: not this cycle", in: true, setup: insert(number),
			poll: crc(with([]byte{0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00}, ticket...)...),
			want: crc(0x01, 0x71, 0x01, 0xC0)},
		{name: "71 status, no ticket ever", in: true,
			poll: crc(0x01, 0x71, 0x01, 0xFF), want: crc(0x01, 0x71, 0x01, 0xFF)},
		{name: "71 status while waiting", in: true, setup: insert(number), polls: [][]byte{{0x01, 0x70}},
			poll: crc(0x01, 0x71, 0x01, 0xFF),
			want: crc(with([]byte{0x01, 0x71, 0x10, 0x20, 0, 0, 0, 0, 0, 0x00}, ticket...)...)},
		{name: "71 valid code without data", in: true, setup: insert(number), polls: [][]byte{{0x01, 0x70}},
			poll: crc(0x01, 0x71, 0x01, 0x00), want: []byte{0x81}},
		{name: "71 length byte does not match", in: true,
			poll: crc(0x01, 0x71, 0x02, 0xFF), want: []byte{0x81}},
		{name: "A0 system validation, redemption", mode: ValidationSystem, in: true,
			poll: crc(0x01, 0xA0, 0x00, 0x00), want: crc(0x01, 0xA0, 0x00, 0x00, 0xA0, 0, 0, 0, 0, 0)},
		{name: "A0 secure-enhanced", mode: ValidationSecureEnhanced,
			poll: crc(0x01, 0xA0, 0x00, 0x00), want: crc(0x01, 0xA0, 0x00, 0x00, 0x40, 0, 0, 0, 0, 0)},
		// Modes off: silence.
		{name: "57 in secure-enhanced mode", mode: ValidationSecureEnhanced, poll: []byte{0x01, 0x57}},
		{name: "4C in system mode", mode: ValidationSystem, poll: crc(0x01, 0x4C, 0x34, 0x12, 0x00, 0x33, 0x22, 0x11)},
		{name: "4D without validation", poll: crc(0x01, 0x4D, 0x00)},
		{name: "70 without ticket in", mode: ValidationSystem, poll: []byte{0x01, 0x70}},
		{name: "71 without ticket in", poll: crc(0x01, 0x71, 0x01, 0xFF)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, m := newTITO(tt.mode, tt.in, &queue{})
			if tt.setup != nil {
				tt.setup(m)
			}
			for _, p := range tt.polls {
				poll(e, t0, p)
			}
			if got := e.Handle(t0, tt.poll); !bytes.Equal(got, tt.want) {
				t.Errorf("Handle(% X)\n got % X\nwant % X", tt.poll, got, tt.want)
			}
		})
	}
}

// setup4D and want4D: Monaco's LP 4D parser vector (validation type 00,
// index 0A, 01/03/2019 15:30:58, number 6429188185446104, 1.00, ticket 1,
// system ID 01), with expiration 00000000 and pool 0000 (the cabinet
// offers no validation extensions and no restricted pools).
func setup4D(m *titoMachine) {
	for range 9 {
		m.record(ValidationRecord{Type: ValCashableTicket, Time: t0, Number: 1, Amount: 1, Ticket: 0, Acked: true})
	}
	m.record(ValidationRecord{Type: ValCashableTicket, Time: time.Date(2019, 1, 3, 15, 30, 58, 0, time.Local),
		SystemID: 1, Number: 6429188185446104, Amount: 100, Ticket: 1})
}

var want4D = crc(0x01, 0x4D,
	0x00,                   // validation type
	0x0A,                   // index
	0x01, 0x03, 0x20, 0x19, // date
	0x15, 0x30, 0x58, // time
	0x64, 0x29, 0x18, 0x81, 0x85, 0x44, 0x61, 0x04, // validation number
	0x00, 0x00, 0x00, 0x01, 0x00, // amount
	0x01, 0x00, // ticket number
	0x01,                   // validation system ID
	0x00, 0x00, 0x00, 0x00, // expiration
	0x00, 0x00) // pool ID

func insert(number uint64) func(m *titoMachine) {
	return func(m *titoMachine) {
		r, err := m.red.Insert(number)
		if err != nil {
			panic(err)
		}
		m.red = r
	}
}

// TestSystemValidation: a cash-out waiting for the host's number raises 57
// before everything else (the queue and a pending handpay's 51), again
// every 800 ms until LP 57 is read; LP 58 then gives the cabinet the
// number, and 57 stops.
func TestSystemValidation(t *testing.T) {
	q := &queue{q: []byte{0x7E}}
	e, m := newTITO(ValidationSystem, false, q)
	m.s.Handpay = Handpay{Pending: true, Amount: 100}
	m.cashout, m.pending = Cashout{ID: 3, Amount: 2500}, true
	if r := poll(e, t0, []byte{0x81}); !bytes.Equal(r, []byte{ExValidationRequest}) {
		t.Fatalf("GP = % X, want 57 first", r)
	}
	if r := poll(e, t0.Add(100*time.Millisecond), []byte{0x81}); !bytes.Equal(r, []byte{0x51}) {
		t.Fatalf("GP 100 ms later = % X, want 51 (57 reported, not yet due again)", r)
	}
	if r := poll(e, t0.Add(time.Second), []byte{0x81}); !bytes.Equal(r, []byte{ExValidationRequest}) {
		t.Fatalf("GP 1 s later without LP 57 = % X, want 57 again", r)
	}
	if r := poll(e, t0.Add(time.Second), []byte{0x01, 0x57}); !bytes.Equal(r, crc(0x01, 0x57, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00)) {
		t.Fatalf("LP 57 = % X", r)
	}
	if r := poll(e, t0.Add(3*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{0x7E}) {
		t.Fatalf("GP after LP 57 = % X, want the queued 7E (57 stops once read)", r)
	}
	if r := poll(e, t0.Add(3*time.Second), crc(0x01, 0x58, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34)); !bytes.Equal(r, crc(0x01, 0x58, 0x00)) {
		t.Fatalf("LP 58 = % X, want 00", r)
	}
	if len(m.numbers) != 1 || m.numbers[0] != (ValidationNumber{SystemID: 1, Number: 1234}) {
		t.Fatalf("the cabinet got %+v, want system 01 number 1234", m.numbers)
	}
	// A second cash-out: a new ID, so LP 57 must be read again.
	m.cashout, m.pending = Cashout{ID: 4, Amount: 100}, true
	if r := poll(e, t0.Add(4*time.Second), crc(0x01, 0x58, 0x01, 0, 0, 0, 0, 0, 0, 0x12, 0x35)); !bytes.Equal(r, crc(0x01, 0x58, 0x81)) {
		t.Fatalf("LP 58 for a cash-out whose LP 57 was not read = % X, want 81", r)
	}
	// Busy when the cabinet cannot be read.
	m.readErrs = errors.New("store busy")
	if r := poll(e, t0.Add(5*time.Second), []byte{0x01, 0x57}); !bytes.Equal(r, []byte{0x01, 0x00}) {
		t.Errorf("LP 57 unreadable = % X, want busy", r)
	}
}

// TestSecureEnhanced: 3F until LP 4C sets the validation ID; each ticket
// printed then takes the next number (the reference's example: ID 654321,
// first sequence 1) and raises 3D until LP 4D 00 reads it and the host
// acknowledges the reply; a handpay without a receipt raises 3E.
func TestSecureEnhanced(t *testing.T) {
	e, m := newTITO(ValidationSecureEnhanced, false, &queue{})
	if r := poll(e, t0, []byte{0x81}); !bytes.Equal(r, []byte{ExValidationIDUnset}) {
		t.Fatalf("GP unconfigured = % X, want 3F", r)
	}
	if r := poll(e, t0.Add(time.Second), []byte{0x81}); !bytes.Equal(r, []byte{0x00}) {
		t.Fatalf("GP 1 s later = % X, want 00 (3F again after 15 s)", r)
	}
	if r := poll(e, t0.Add(16*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{ExValidationIDUnset}) {
		t.Fatalf("GP 16 s later = % X, want 3F again", r)
	}
	if r := poll(e, t0, crc(0x01, 0x4C, 0x21, 0x43, 0x65, 0x00, 0x00, 0x00)); !bytes.Equal(r, crc(0x01, 0x4C, 0x21, 0x43, 0x65, 0x00, 0x00, 0x00)) {
		t.Fatalf("LP 4C = % X", r)
	}
	if n := m.printTicket(t, 2500, t0); n != 6429188185446104 {
		t.Fatalf("first ticket's number %d, want the reference's 6429188185446104", n)
	}
	if r := poll(e, t0.Add(20*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{ExTicketPrinted}) {
		t.Fatalf("GP after the ticket = % X, want 3D", r)
	}
	if r := poll(e, t0.Add(21*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{0x00}) {
		t.Fatalf("GP 1 s later = % X, want 00", r)
	}
	if r := poll(e, t0.Add(36*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{ExTicketPrinted}) {
		t.Fatalf("GP 16 s later, record unread = % X, want 3D again", r)
	}
	// The host reads the look-ahead (nothing acknowledged), then 00 twice
	// (a resend, implied NACK), then acknowledges.
	poll(e, t0, crc(0x01, 0x4D, 0xFF))
	r1 := e.Handle(t0, crc(0x01, 0x4D, 0x00))
	r2 := e.Handle(t0, crc(0x01, 0x4D, 0x00))
	if !bytes.Equal(r1, r2) || r1[2] != byte(ValCashableTicket) || len(m.acked) != 0 {
		t.Fatalf("LP 4D 00 twice: % X then % X, acknowledged %v", r1, r2, m.acked)
	}
	e.Handle(t0, []byte{0x82})
	if len(m.acked) != 1 || m.acked[0] != 1 {
		t.Fatalf("acknowledged %v, want record 1", m.acked)
	}
	if r := poll(e, t0.Add(60*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{0x00}) {
		t.Fatalf("GP after the record was read = % X, want 00", r)
	}
	m.record(ValidationRecord{Type: ValJackpotNoReceipt, Time: t0, Amount: 120000, Ticket: -1})
	if r := poll(e, t0.Add(61*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{ExHandpayValidated}) {
		t.Fatalf("GP after a handpay without receipt = % X, want 3E", r)
	}
	r := poll(e, t0, crc(0x01, 0x4D, 0x00))
	if r[2] != byte(ValJackpotNoReceipt) || r[3] != 2 || r[24] != 0xFF || r[25] != 0xFF {
		t.Errorf("LP 4D of the handpay = % X, want type 60, index 2, ticket FFFF", r)
	}
}

// TestTicketRedemption: a ticket in escrow raises 67; LP 70 reads it; LP 71
// redeems it (40, the cabinet stacks it and credits it); then 68 until the
// host reads the final status with LP 71 FF and acknowledges the reply. A
// resent LP 71 changes nothing; a new engine (a restart) reports 68 again
// while the status is unread.
func TestTicketRedemption(t *testing.T) {
	q := &queue{q: []byte{0x7E}}
	e, m := newTITO(ValidationNone, true, q)
	e.Cfg.TicketInLimit = 100000
	insert(1234567890123456)(m)
	if r := poll(e, t0, []byte{0x81}); !bytes.Equal(r, []byte{ExTicketInserted}) {
		t.Fatalf("GP = % X, want 67", r)
	}
	if r := poll(e, t0, []byte{0x81}); !bytes.Equal(r, []byte{0x7E}) {
		t.Fatalf("GP after 67 = % X, want the queued 7E", r)
	}
	poll(e, t0, []byte{0x01, 0x70})
	if m.red.Stage != StageWaiting || m.red.Status != RedeemWaiting {
		t.Fatalf("after LP 70: %+v, want waiting for LP 71", m.red)
	}
	redeem := crc(0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56)
	if r := poll(e, t0, redeem); r[3] != byte(RedeemPending) {
		t.Fatalf("LP 71 = % X, want status 40", r)
	}
	if m.red.Stage != StagePending || m.red.Amount != 2500 {
		t.Fatalf("after LP 71: %+v, want pending 25.00", m.red)
	}
	if r := poll(e, t0, redeem); r[3] != byte(RedeemPending) || m.red.Stage != StagePending {
		t.Fatalf("LP 71 again = % X (%+v), want 40 and no change", r, m.red)
	}
	// The cabinet stacks the ticket and credits it.
	done, err := m.red.Complete(RedeemedCashable)
	if err != nil {
		t.Fatal(err)
	}
	m.red = done
	if r := poll(e, t0, []byte{0x81}); !bytes.Equal(r, []byte{ExTicketTransferred}) {
		t.Fatalf("GP after stacking = % X, want 68", r)
	}
	if r := poll(e, t0.Add(time.Second), []byte{0x81}); !bytes.Equal(r, []byte{0x00}) {
		t.Fatalf("GP 1 s later = % X, want 00", r)
	}
	if r := poll(e, t0.Add(16*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{ExTicketTransferred}) {
		t.Fatalf("GP 16 s later, status unread = % X, want 68 again", r)
	}
	// A restart: the engine forgets, the record does not.
	e2 := &Engine{Cfg: e.Cfg, M: m, Q: &queue{}}
	e2.Handle(t0, []byte{0x82})
	if r := poll(e2, t0, []byte{0x81}); !bytes.Equal(r, []byte{ExTicketTransferred}) {
		t.Fatalf("GP after a restart = % X, want 68", r)
	}
	want := crc(0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56)
	if r := e2.Handle(t0, crc(0x01, 0x71, 0x01, 0xFF)); !bytes.Equal(r, want) {
		t.Fatalf("LP 71 FF = % X\nwant % X", r, want)
	}
	if m.red.Stage != StageDone {
		t.Fatalf("acknowledged before the host's implied ACK: %+v", m.red)
	}
	e2.Handle(t0, []byte{0x82})
	if m.red.Stage != StageIdle || e2.AckErr != nil {
		t.Fatalf("after the ACK: %+v (ack error %v), want idle", m.red, e2.AckErr)
	}
	if r := poll(e2, t0.Add(40*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{0x00}) {
		t.Fatalf("GP after the ACK = % X, want 00", r)
	}
	if r := e2.Handle(t0, crc(0x01, 0x71, 0x01, 0xFF)); !bytes.Equal(r, want) {
		t.Errorf("LP 71 FF after the cycle = % X, want the last status again", r)
	}
}

// TestRedemptionRefused: the host's refusal ends the cycle with status 80
// and its reason kept for the screen; the cabinet's own checks answer
// 82–85; a record changed under the engine gets busy.
func TestRedemptionRefused(t *testing.T) {
	e, m := newTITO(ValidationNone, true, &queue{})
	insert(42)(m)
	poll(e, t0, []byte{0x01, 0x70})
	if r := poll(e, t0, crc(0x01, 0x71, 0x01, 0x85)); r[3] != byte(RedeemRejectedByHost) {
		t.Fatalf("LP 71 85 = % X, want status 80", r)
	}
	if m.red.Stage != StageDone || m.red.Code.String() != "ticket expired" {
		t.Fatalf("record %+v (%q), want done, the host's reason 'ticket expired'", m.red, m.red.Code)
	}
	// busy when the store will not take the change
	m.red = Redemption{}
	insert(42)(m)
	m.redErr = errors.New("store busy")
	if r := e.Handle(t0, []byte{0x01, 0x70}); !bytes.Equal(r, []byte{0x01, 0x00}) {
		t.Errorf("LP 70 with the store busy = % X, want 01 00", r)
	}
}

// TestTITOWithoutInterfaces: modes turned on for a cabinet that does not
// implement them: every TITO poll is silent, A0 offers nothing, no TITO
// exception is raised.
func TestTITOWithoutInterfaces(t *testing.T) {
	e := newEngine(&machine{s: snap()}, &queue{})
	e.Cfg.Validation, e.Cfg.TicketIn = ValidationSecureEnhanced, true
	for _, p := range [][]byte{{0x01, 0x57}, crc(0x01, 0x58, 0x01, 0, 0, 0, 0, 0, 0, 0, 1),
		crc(0x01, 0x4C, 0x34, 0x12, 0x00, 0x33, 0x22, 0x11), crc(0x01, 0x4D, 0x00), {0x01, 0x70}, crc(0x01, 0x71, 0x01, 0xFF)} {
		if r := poll(e, t0, p); r != nil {
			t.Errorf("Handle(% X) = % X, want silence", p, r)
		}
	}
	if r := poll(e, t0, crc(0x01, 0xA0, 0x00, 0x00)); !bytes.Equal(r, crc(0x01, 0xA0, 0x00, 0x00, 0, 0, 0, 0, 0, 0)) {
		t.Errorf("LP A0 = % X, want no feature", r)
	}
	if r := poll(e, t0, []byte{0x81}); !bytes.Equal(r, []byte{0x00}) {
		t.Errorf("GP = % X, want 00", r)
	}
}

func TestRedemptionRules(t *testing.T) {
	waiting := Redemption{Cycle: 1, Stage: StageWaiting, Number: 77, Status: RedeemWaiting, Code: TransferStatus}
	ok := RedeemRequest{Code: TransferCashable, Amount: 500, Number: 77, HasNumber: true}
	tests := []struct {
		name string
		q    func(RedeemRequest) RedeemRequest
		want RedemptionStatus
	}{
		{"valid", func(q RedeemRequest) RedeemRequest { return q }, RedeemPending},
		{"host refuses", func(q RedeemRequest) RedeemRequest { q.Code = 0x91; return q }, RedeemRejectedByHost},
		{"restricted ticket", func(q RedeemRequest) RedeemRequest { q.Code = TransferRestricted; return q }, RedeemBadFunction},
		{"unknown code", func(q RedeemRequest) RedeemRequest { q.Code = 0x10; return q }, RedeemBadFunction},
		{"other number", func(q RedeemRequest) RedeemRequest { q.Number = 78; return q }, RedeemNumberMismatch},
		{"other parsing code", func(q RedeemRequest) RedeemRequest { q.ParsingCode = 1; return q }, RedeemNumberMismatch},
		{"zero amount", func(q RedeemRequest) RedeemRequest { q.Amount = 0; return q }, RedeemBadAmount},
		{"over the limit", func(q RedeemRequest) RedeemRequest { q.Amount = 100001; return q }, RedeemOverLimit},
		{"not whole credits", func(q RedeemRequest) RedeemRequest { q.Amount = 503; return q }, RedeemNotMultiple},
	}
	for _, tt := range tests {
		next, st := waiting.Redeem(tt.q(ok), 5, 100000)
		if st != tt.want {
			t.Errorf("%s: Redeem = %02X (%v), want %02X (%v)", tt.name, byte(st), st, byte(tt.want), tt.want)
		}
		if st == RedeemPending && next.Stage != StagePending || st != RedeemPending && (next.Stage != StageDone || next.Status != st) {
			t.Errorf("%s: record %+v", tt.name, next)
		}
	}
	if _, st := (Redemption{}).Redeem(ok, 1, 0); st != RedeemIncompatible {
		t.Errorf("Redeem with no ticket = %v, want C0", st)
	}
	if _, err := waiting.Insert(5); !errors.Is(err, ErrBadData) {
		t.Errorf("Insert while a ticket is in redemption: error %v, want ErrBadData", err)
	}
	if _, err := (Redemption{}).Insert(1e18); !errors.Is(err, ErrBadData) {
		t.Errorf("Insert of 19 digits: error %v, want ErrBadData", err)
	}
	if _, err := waiting.Complete(RedeemedCashable); !errors.Is(err, ErrBadData) {
		t.Errorf("Complete(00) before the host redeemed: error %v, want ErrBadData", err)
	}
	if r, err := waiting.Complete(RedeemTimeout); err != nil || r.Stage != StageDone || r.Status != RedeemTimeout {
		t.Errorf("Complete(88) while waiting = %+v, %v; want done 88", r, err)
	}
	if _, err := (Redemption{Stage: StagePending}).Complete(RedeemRejectedByHost); !errors.Is(err, ErrBadData) {
		t.Errorf("Complete(80): error %v, want ErrBadData (the host's refusal comes by LP 71)", err)
	}
}

func TestValidationIDApply(t *testing.T) {
	var v ValidationID
	if v.Configured() {
		t.Fatal("zero ValidationID configured")
	}
	if got := v.Apply(0, 5); got != v {
		t.Errorf("Apply(0, 5) = %+v, want no change", got)
	}
	v = v.Apply(0x654321, 0)
	v, n, err := v.Next()
	if err != nil || n != 6429188185446104 || v.Sequence != 1 {
		t.Fatalf("Next = %+v %d %v, want sequence 1, 6429188185446104", v, n, err)
	}
	if got := v.Apply(0x654321, 0); got.Sequence != 1 {
		t.Errorf("the same LP 4C again: sequence %d, want 1 (kept)", got.Sequence)
	}
	if got := v.Apply(0x654321, 500); got.Sequence != 500 {
		t.Errorf("a new sequence: %d, want 500", got.Sequence)
	}
	if got := v.Apply(0x111111, 0); got.MachineID != 0x111111 || got.Sequence != 0 {
		t.Errorf("a new ID: %+v", got)
	}
	v = ValidationID{MachineID: 0x654321, Sequence: MaxValidationSequence}
	if v, n, _ := v.Next(); v.Sequence != 0 || n != 4580945669109504 {
		t.Errorf("Next after FFFFFF = %+v %d, want sequence 0, 4580945669109504", v, n)
	}
	if _, _, err := (ValidationID{}).Next(); !errors.Is(err, ErrBadData) {
		t.Errorf("Next unconfigured: error %v, want ErrBadData", err)
	}
}

// TestTicketMeters: LP 2F's ticket codes (Table C-7): cents in 5 BCD,
// credits and counts in 4; the promotional ones left out.
func TestTicketMeters(t *testing.T) {
	s := snap()
	s.TicketsIn, s.TicketsInCount, s.TicketsOut, s.TicketsOutCount = 123456, 7, 65400, 3
	e := newEngine(&machine{s: s}, &queue{})
	e.Cfg.Denom = 5
	got := e.Handle(t0, crc(0x01, 0x2F, 0x0C, 0x00, 0x00, 0x0D, 0x0E, 0x0F, 0x11, 0x12, 0x15, 0x16, 0x80, 0x86, 0x89))
	want := crc(0x01, 0x2F, 0x2E, 0x00, 0x00,
		0x0D, 0x00, 0x00, 0x12, 0x34, 0x56, // cents
		0x0E, 0x00, 0x00, 0x06, 0x54, 0x00,
		0x11, 0x00, 0x00, 0x00, 0x07,
		0x12, 0x00, 0x00, 0x00, 0x03,
		0x15, 0x00, 0x02, 0x46, 0x91, // credits of 0.05
		0x16, 0x00, 0x01, 0x30, 0x80,
		0x80, 0x00, 0x00, 0x12, 0x34, 0x56,
		0x86, 0x00, 0x00, 0x06, 0x54, 0x00)
	if !bytes.Equal(got, want) {
		t.Errorf("LP 2F tickets\n got % X\nwant % X", got, want)
	}
}

// FuzzTITODecoders: the LP 58 and LP 71 decoders never panic, and what
// they accept is what the bytes say (a valid redemption's fields encode
// back to the same bytes).
func FuzzTITODecoders(f *testing.F) {
	f.Add(crc(0x01, 0x58, 0x01, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56))
	f.Add(crc(0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56))
	f.Add(crc(0x01, 0x71, 0x01, 0xFF))
	f.Add(crc(0x01, 0x71, 0x01, 0x84))
	f.Add(crc(0x01, 0x71, 0x16, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0x12, 0x31, 0x20, 0x27, 0x01, 0x00))
	f.Fuzz(func(t *testing.T, m []byte) {
		if v, err := ParseValidationNumber(m); err == nil {
			b := AppendBCD(nil, int64(v.SystemID), 1)
			b = AppendBCD(b, int64(v.Number), 8)
			if !bytes.Equal(b, m[2:11]) {
				t.Fatalf("ParseValidationNumber(% X) = %+v: encodes as % X", m, v, b)
			}
		}
		q, status, err := ParseRedeem(m)
		if err != nil || status || !q.HasNumber {
			return
		}
		b := []byte{byte(q.Code)}
		b = AppendBCD(b, int64(q.Amount), 5)
		b = append(b, q.ParsingCode)
		b = AppendBCD(b, int64(q.Number), 9)
		if !bytes.Equal(b, m[3:3+len(b)]) {
			t.Fatalf("ParseRedeem(% X) = %+v: encodes as % X", m, q, b)
		}
	})
}

// FuzzEngineTITO: FuzzEngine's invariants with every TITO mode on and a
// ticket in escrow: any byte stream gets silence, one byte, busy or a
// message whose CRC is right, and the redemption record only moves the
// ways Redemption allows.
func FuzzEngineTITO(f *testing.F) {
	mk := func(msgs ...[]byte) []byte {
		var s []byte
		for _, m := range msgs {
			s = append(s, Mark(nil, m[:1], true)...)
			s = append(s, Mark(nil, m[1:], false)...)
		}
		return s
	}
	f.Add(mk([]byte{0x82}, []byte{0x81}, []byte{0x01, 0x70}, []byte{0x82},
		crc(0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x42), []byte{0x82}, crc(0x01, 0x71, 0x01, 0xFF)))
	f.Add(mk([]byte{0x82}, []byte{0x01, 0x57}, []byte{0x82}, crc(0x01, 0x58, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x09)))
	f.Add(mk([]byte{0x82}, crc(0x01, 0x4C, 0x21, 0x43, 0x65, 0x01, 0x00, 0x00), []byte{0x82}, crc(0x01, 0x4D, 0x00), []byte{0x82}))
	f.Fuzz(func(t *testing.T, stream []byte) {
		for _, mode := range []ValidationMode{ValidationSystem, ValidationSecureEnhanced} {
			e, m := newTITO(mode, true, &queue{q: []byte{0x11}})
			m.cashout, m.pending = Cashout{ID: 1, Amount: 500}, true
			insert(42)(m)
			m.record(ValidationRecord{Type: ValCashableTicket, Time: t0, Number: 9, Amount: 5, Ticket: 1})
			var u Unmarker
			fr := Framer{Addr: 1}
			now := t0
			var bs []Byte
			for _, x := range stream {
				bs = u.Feed(bs[:0], x)
				for _, b := range bs {
					msg := fr.Feed(b)
					if msg == nil {
						continue
					}
					now = now.Add(30 * time.Millisecond)
					before := m.red
					r := e.Handle(now, msg)
					switch {
					case len(r) <= 1:
					case len(r) == 2 && r[0] == 0x01 && r[1] == 0x00:
					case r[0] != 0x01 || !CheckCRC(r):
						t.Fatalf("reply % X to % X: not silence, one byte, busy or a message with its CRC", r, msg)
					}
					if after := m.red; after.Cycle != before.Cycle || after.Number != before.Number || after.Stage < before.Stage && after.Stage != StageIdle {
						t.Fatalf("% X moved the redemption %+v to %+v", msg, before, after)
					}
				}
			}
		}
	})
}
