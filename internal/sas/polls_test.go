package sas

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"cabinet/internal/money"
)

// snap is a machine whose every figure differs, so a field read in the
// wrong place shows. Money in cents; the accounting denomination is 0.01,
// so credits = cents.
func snap() Snapshot {
	return Snapshot{
		CoinIn: 123456, CoinOut: 65432, Jackpot: 1111, Cancelled: 2222, Drop: 50000, Credits: 7777,
		Played: 321, Won: 123, Lost: 198, SlotDoor: 5, PowerUps: 9, SincePowerUp: 12, SinceDoor: 3,
		Bills:    map[money.Cents]int64{100: 7, 500: 4, 1000: 2, 2000: 1, 10000: 3},
		LastBill: 2000, LastBillCount: 1,
		Games: []Game{
			{ID: "RP", Paytable: "ROYAL", BasePct: 9352, MaxBet: 2500, Enabled: true, Played: 100, CoinIn: 40000, CoinOut: 30000},
			{ID: "FB", Paytable: "FREEBT", BasePct: 9845, MaxBet: 10000, Enabled: true, Played: 90, CoinIn: 30000, CoinOut: 20000},
			{ID: "ZB", Paytable: "ZAPPIT", BasePct: 9895, MaxBet: 200, Enabled: false, Played: 80, CoinIn: 20000, CoinOut: 10000},
			{ID: "BJ", Paytable: "CLASSC", BasePct: 9970, MaxBet: 150, Enabled: true, Played: 51, CoinIn: 33456, CoinOut: 5432, Jackpot: 1111},
			{ID: "PD", Paytable: "DUEL", BasePct: 0, MaxBet: 2000, Enabled: true},
		},
		Selected: 4,
	}
}

type machine struct {
	s    Snapshot
	err  error
	cmds []Command
	cerr error
}

func (m *machine) Snapshot() (Snapshot, error) { return m.s, m.err }
func (m *machine) Command(c Command) error {
	m.cmds = append(m.cmds, c)
	return m.cerr
}

type queue struct {
	q     []byte
	acked []byte
}

func (q *queue) Peek() (byte, bool, error) {
	if len(q.q) == 0 {
		return 0, false, nil
	}
	return q.q[0], true, nil
}

func (q *queue) Ack(code byte) error {
	q.acked = append(q.acked, code)
	q.q = q.q[1:]
	return nil
}

var t0 = time.Date(2026, 11, 24, 10, 30, 15, 0, time.Local)

func newEngine(m *machine, q *queue) *Engine {
	e := &Engine{Cfg: Config{Address: 1, Denom: 1, Serial: "CAB42"}, M: m, Q: q}
	e.Handle(t0, []byte{0x82}) // sync
	return e
}

// crc appends the CRC to bytes written out by hand.
func crc(b ...byte) []byte { return AppendCRC(b) }

// TestLongPollReplies: every long poll's reply, byte for byte, written out
// by hand from the reference's layouts (shared/spec/sas.md) for snap().
func TestLongPollReplies(t *testing.T) {
	gameCfg := []byte{'R', 'P', '0', '0', '0', 0x01, 0xFF, 0x00, 0x00, 0x00, 'R', 'O', 'Y', 'A', 'L', ' ', '9', '3', '5', '2'}
	tests := []struct {
		name string
		poll []byte
		want []byte
	}{
		{"0F meters", []byte{0x01, 0x0F}, crc(0x01, 0x0F,
			0x00, 0x00, 0x22, 0x22, // cancelled credits 2222
			0x00, 0x12, 0x34, 0x56, // coin in 123456
			0x00, 0x06, 0x54, 0x32, // coin out 65432
			0x00, 0x05, 0x00, 0x00, // drop 50000
			0x00, 0x00, 0x11, 0x11, // jackpot 1111
			0x00, 0x00, 0x03, 0x21)}, // games played 321
		{"10 cancelled", []byte{0x01, 0x10}, crc(0x01, 0x10, 0x00, 0x00, 0x22, 0x22)},
		{"11 coin in", []byte{0x01, 0x11}, crc(0x01, 0x11, 0x00, 0x12, 0x34, 0x56)},
		{"12 coin out", []byte{0x01, 0x12}, crc(0x01, 0x12, 0x00, 0x06, 0x54, 0x32)},
		{"13 drop", []byte{0x01, 0x13}, crc(0x01, 0x13, 0x00, 0x05, 0x00, 0x00)},
		{"14 jackpot", []byte{0x01, 0x14}, crc(0x01, 0x14, 0x00, 0x00, 0x11, 0x11)},
		{"15 played", []byte{0x01, 0x15}, crc(0x01, 0x15, 0x00, 0x00, 0x03, 0x21)},
		{"16 won", []byte{0x01, 0x16}, crc(0x01, 0x16, 0x00, 0x00, 0x01, 0x23)},
		{"17 lost", []byte{0x01, 0x17}, crc(0x01, 0x17, 0x00, 0x00, 0x01, 0x98)},
		{"18 since power up, door", []byte{0x01, 0x18}, crc(0x01, 0x18, 0x00, 0x12, 0x00, 0x03)},
		{"19 totals", []byte{0x01, 0x19}, crc(0x01, 0x19,
			0x00, 0x12, 0x34, 0x56, 0x00, 0x06, 0x54, 0x32, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x11, 0x11, 0x00, 0x00, 0x03, 0x21)},
		{"1A credits", []byte{0x01, 0x1A}, crc(0x01, 0x1A, 0x00, 0x00, 0x77, 0x77)},
		{"1B no handpay", []byte{0x01, 0x1B}, crc(0x01, 0x1B, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)},
		{"1C meters", []byte{0x01, 0x1C}, crc(0x01, 0x1C,
			0x00, 0x12, 0x34, 0x56, 0x00, 0x06, 0x54, 0x32, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x11, 0x11,
			0x00, 0x00, 0x03, 0x21, 0x00, 0x00, 0x01, 0x23, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x09)},
		{"1E bill counts", []byte{0x01, 0x1E}, crc(0x01, 0x1E,
			0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03)},
		{"1F machine", []byte{0x01, 0x1F}, crc(append([]byte{0x01, 0x1F}, []byte{'R', 'P', '0', '0', '0', 0x01, 0xFF, 0x00, 0x00, 0x00, 'R', 'O', 'Y', 'A', 'L', ' ', '9', '3', '5', '2'}...)...)},
		{"20 dollars of bills", []byte{0x01, 0x20}, crc(0x01, 0x20, 0x00, 0x00, 0x05, 0x00)},
		{"2F selected meters", crc(0x01, 0x2F, 0x06, 0x00, 0x00, 0x00, 0x05, 0x0C, 0x0F), crc(0x01, 0x2F, 0x11, 0x00, 0x00,
			0x00, 0x00, 0x12, 0x34, 0x56, 0x05, 0x00, 0x00, 0x03, 0x21, 0x0C, 0x00, 0x00, 0x77, 0x77)}, // 0F (restricted tickets in) omitted
		{"2F of game 4", crc(0x01, 0x2F, 0x04, 0x00, 0x04, 0x00, 0x05), crc(0x01, 0x2F, 0x0C, 0x00, 0x04,
			0x00, 0x00, 0x03, 0x34, 0x56, 0x05, 0x00, 0x00, 0x00, 0x51)},
		{"2F bill meters", crc(0x01, 0x2F, 0x05, 0x00, 0x00, 0x40, 0x47, 0x48), crc(0x01, 0x2F, 0x11, 0x00, 0x00,
			0x40, 0x00, 0x00, 0x00, 0x07, 0x47, 0x00, 0x00, 0x00, 0x03, 0x48, 0x00, 0x00, 0x00, 0x00)},
		{"31 $1", []byte{0x01, 0x31}, crc(0x01, 0x31, 0x00, 0x00, 0x00, 0x07)},
		{"33 $5", []byte{0x01, 0x33}, crc(0x01, 0x33, 0x00, 0x00, 0x00, 0x04)},
		{"37 $100", []byte{0x01, 0x37}, crc(0x01, 0x37, 0x00, 0x00, 0x00, 0x03)},
		{"3A $200", []byte{0x01, 0x3A}, crc(0x01, 0x3A, 0x00, 0x00, 0x00, 0x00)},
		{"46 credits from bills", []byte{0x01, 0x46}, crc(0x01, 0x46, 0x00, 0x05, 0x00, 0x00)},
		{"47 coins", []byte{0x01, 0x47}, crc(0x01, 0x47, 0x00, 0x00, 0x00, 0x00)},
		{"48 last bill", []byte{0x01, 0x48}, crc(0x01, 0x48, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01)},
		{"49 bills in stacker", []byte{0x01, 0x49}, crc(0x01, 0x49, 0x00, 0x00, 0x00, 0x17)},
		{"4A credits in stacker", []byte{0x01, 0x4A}, crc(0x01, 0x4A, 0x00, 0x05, 0x00, 0x00)},
		{"51 games", []byte{0x01, 0x51}, crc(0x01, 0x51, 0x00, 0x05)},
		{"52 game 4 meters", crc(0x01, 0x52, 0x00, 0x04), crc(0x01, 0x52, 0x00, 0x04,
			0x00, 0x03, 0x34, 0x56, 0x00, 0x00, 0x54, 0x32, 0x00, 0x00, 0x11, 0x11, 0x00, 0x00, 0x00, 0x51)},
		{"2F of game 4: coin out and jackpot apart", crc(0x01, 0x2F, 0x04, 0x00, 0x04, 0x01, 0x02), crc(0x01, 0x2F, 0x0C, 0x00, 0x04,
			0x01, 0x00, 0x00, 0x54, 0x32, 0x02, 0x00, 0x00, 0x11, 0x11)},
		{"53 game 0 = 1F", crc(0x01, 0x53, 0x00, 0x00), crc(append([]byte{0x01, 0x53, 0x00, 0x00}, gameCfg...)...)},
		{"53 game 2", crc(0x01, 0x53, 0x00, 0x02), crc(0x01, 0x53, 0x00, 0x02, 'F', 'B', '0', '0', '0', 0x01, 0xFF, 0x00, 0x00, 0x00,
			'F', 'R', 'E', 'E', 'B', 'T', '9', '8', '4', '5')},
		{"53 game 4 (max bet 150 credits)", crc(0x01, 0x53, 0x00, 0x04), crc(0x01, 0x53, 0x00, 0x04, 'B', 'J', '0', '0', '0', 0x01, 150, 0x00, 0x00, 0x00,
			'C', 'L', 'A', 'S', 'S', 'C', '9', '9', '7', '0')},
		{"54 version and serial", []byte{0x01, 0x54}, crc(0x01, 0x54, 0x08, '6', '0', '2', 'C', 'A', 'B', '4', '2')},
		{"55 selected game", []byte{0x01, 0x55}, crc(0x01, 0x55, 0x00, 0x04)},
		{"56 enabled games", []byte{0x01, 0x56}, crc(0x01, 0x56, 0x09, 0x04, 0x00, 0x01, 0x00, 0x02, 0x00, 0x04, 0x00, 0x05)},
		{"7E date and time", []byte{0x01, 0x7E}, crc(0x01, 0x7E, 0x11, 0x24, 0x20, 0x26, 0x10, 0x30, 0x15)},
		{"A0 features", crc(0x01, 0xA0, 0x00, 0x00), crc(0x01, 0xA0, 0x00, 0x00, 0, 0, 0, 0, 0, 0)},
		// Commands: ACK.
		{"01 lock out", crc(0x01, 0x01), []byte{0x01}},
		{"02 enable", crc(0x01, 0x02), []byte{0x01}},
		{"06 bills on", crc(0x01, 0x06), []byte{0x01}},
		{"07 bills off", crc(0x01, 0x07), []byte{0x01}},
		{"08 denominations", crc(0x01, 0x08, 0x0C, 0x00, 0x00, 0x00, 0x01), []byte{0x01}},
		{"09 game 3 off", crc(0x01, 0x09, 0x00, 0x03, 0x00), []byte{0x01}},
		{"09 game 3 on", crc(0x01, 0x09, 0x00, 0x03, 0x01), []byte{0x01}},
		{"21 ROM signature", crc(0x01, 0x21, 0x34, 0x12), []byte{0x01}},
		{"7F set clock", crc(0x01, 0x7F, 0x12, 0x31, 0x20, 0x26, 0x23, 0x59, 0x58), []byte{0x01}},
		// NACK: bad CRC, bad data.
		{"bad CRC", []byte{0x01, 0x09, 0x00, 0x03, 0x01, 0x00, 0x00}, []byte{0x81}},
		{"09 game 6 of 5", crc(0x01, 0x09, 0x00, 0x06, 0x01), []byte{0x81}},
		{"09 game not BCD", crc(0x01, 0x09, 0x00, 0x0A, 0x01), []byte{0x81}},
		{"09 flag 2", crc(0x01, 0x09, 0x00, 0x03, 0x02), []byte{0x81}},
		{"08 action 2", crc(0x01, 0x08, 0x0C, 0x00, 0x00, 0x00, 0x02), []byte{0x81}},
		{"52 game 9", crc(0x01, 0x52, 0x00, 0x09), []byte{0x81}},
		{"7F month 13", crc(0x01, 0x7F, 0x13, 0x01, 0x20, 0x26, 0x00, 0x00, 0x00), []byte{0x81}},
		{"2F too many codes", crc(0x01, 0x2F, 0x0D, 0x00, 0x00, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), []byte{0x81}},
		// Silence: polls this machine does not implement.
		{"0A maintenance", crc(0x01, 0x0A), nil},
		{"0E real-time events", crc(0x01, 0x0E, 0x01), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(&machine{s: snap()}, &queue{})
			if got := e.Handle(t0, tt.poll); !bytes.Equal(got, tt.want) {
				t.Errorf("Handle(% X)\n got % X\nwant % X", tt.poll, got, tt.want)
			}
		})
	}
}

func TestHandpayReplyAndPriority(t *testing.T) {
	s := snap()
	s.Handpay = Handpay{Pending: true, Amount: 150000, Cancelled: true}
	q := &queue{q: []byte{0x4F}}
	e := newEngine(&machine{s: s}, q)
	// 51 is a priority exception: before the queue's 4F, again every 15 s
	// until LP 1B is read.
	if r := e.Handle(t0, []byte{0x81}); !bytes.Equal(r, []byte{0x51}) {
		t.Fatalf("GP = % X, want 51", r)
	}
	e.Handle(t0, []byte{0x80})
	if r := e.Handle(t0.Add(time.Second), []byte{0x81}); !bytes.Equal(r, []byte{0x4F}) {
		t.Fatalf("GP after 51 = % X, want the queued 4F", r)
	}
	e.Handle(t0, []byte{0x80})
	if r := e.Handle(t0.Add(16*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{0x51}) {
		t.Fatalf("GP 16 s later = % X, want 51 again", r)
	}
	e.Handle(t0, []byte{0x80})
	want := crc(0x01, 0x1B, 0x00, 0x80, 0x00, 0x00, 0x15, 0x00, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	if r := e.Handle(t0.Add(17*time.Second), []byte{0x01, 0x1B}); !bytes.Equal(r, want) {
		t.Fatalf("LP 1B = % X\nwant % X", r, want)
	}
	e.Handle(t0, []byte{0x80})
	if r := e.Handle(t0.Add(40*time.Second), []byte{0x81}); !bytes.Equal(r, []byte{0x00}) {
		t.Fatalf("GP after 1B read = % X, want 00", r)
	}
	// In the accounting denomination, as the other amounts: 1,500.00 at
	// 0.05 is 30,000 credits.
	e.Cfg.Denom = 5
	want = crc(0x01, 0x1B, 0x00, 0x80, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	if r := e.Handle(t0.Add(41*time.Second), []byte{0x01, 0x1B}); !bytes.Equal(r, want) {
		t.Fatalf("LP 1B at 0.05 = % X\nwant % X", r, want)
	}
}

func TestImpliedAck(t *testing.T) {
	q := &queue{q: []byte{0x11, 0x12}}
	e := newEngine(&machine{s: snap()}, q)
	for i := range 3 { // the same poll: the same exception, not acknowledged
		if r := e.Handle(t0, []byte{0x81}); !bytes.Equal(r, []byte{0x11}) {
			t.Fatalf("GP #%d = % X, want 11", i+1, r)
		}
	}
	if len(q.acked) != 0 {
		t.Fatalf("acknowledged %X by repeated polls", q.acked)
	}
	// The fourth identical poll is a new one: the third was final, so 11
	// counts as delivered (the reference's "3rd identical poll is final").
	if r := e.Handle(t0, []byte{0x81}); !bytes.Equal(r, []byte{0x12}) {
		t.Fatalf("4th GP = % X, want 12", r)
	}
	if r := e.Handle(t0, []byte{0x01, 0x1A}); len(r) != 8 { // something different: ACK of 12
		t.Fatalf("LP 1A = % X", r)
	}
	if !bytes.Equal(q.acked, []byte{0x11, 0x12}) {
		t.Errorf("acknowledged % X, want 11 12", q.acked)
	}
	// A repeated long poll resends the same bytes.
	r1 := e.Handle(t0, []byte{0x01, 0x7E})
	r2 := e.Handle(t0.Add(time.Minute), []byte{0x01, 0x7E})
	if !bytes.Equal(r1, r2) {
		t.Errorf("repeated LP 7E: % X then % X, want the same reply", r1, r2)
	}
}

// TestUnknownPollIsImpliedAck: a long poll this machine does not implement
// is answered with silence, and like anything different from the last poll
// it acknowledges the last reply (the host's implied ACK): the next general
// poll reports the next exception, not the same one again. Played through
// the framer, as the link feeds the engine.
func TestUnknownPollIsImpliedAck(t *testing.T) {
	q := &queue{q: []byte{0x11, 0x12}}
	e := newEngine(&machine{s: snap()}, q)
	fr := Framer{Addr: 1}
	send := func(bs ...Byte) []byte {
		t.Helper()
		var r []byte
		for _, b := range bs {
			if msg := fr.Feed(b); msg != nil {
				r = e.Handle(t0, msg)
			}
		}
		return r
	}
	w := func(b byte) Byte { return Byte{B: b, Wakeup: true} }
	d := func(b byte) Byte { return Byte{B: b} }
	if r := send(w(0x81)); !bytes.Equal(r, []byte{0x11}) {
		t.Fatalf("GP = % X, want 11", r)
	}
	// LP 2A with data bytes of its own (not implemented here): silence.
	if r := send(w(0x01), d(0x2A), d(0x05), d(0x00), d(0x33)); r != nil {
		t.Fatalf("unknown LP 2A answered % X, want silence", r)
	}
	if !bytes.Equal(q.acked, []byte{0x11}) {
		t.Fatalf("acknowledged % X after an unknown poll, want 11", q.acked)
	}
	if r := send(w(0x81)); !bytes.Equal(r, []byte{0x12}) {
		t.Fatalf("GP after the unknown poll = % X, want 12", r)
	}
}

func TestSyncAddressZeroBusyBroadcast(t *testing.T) {
	m := &machine{s: snap()}
	e := &Engine{Cfg: Config{Address: 1, Denom: 1}, M: m, Q: &queue{q: []byte{0x17}}}
	if r := e.Handle(t0, []byte{0x81}); r != nil {
		t.Fatalf("answered % X before the sync", r)
	}
	e.Handle(t0, []byte{0x00}) // a broadcast synchronises too
	if r := e.Handle(t0, []byte{0x81}); !bytes.Equal(r, []byte{0x17}) {
		t.Fatalf("GP after a broadcast = % X, want 17", r)
	}
	// A broadcast date and time is applied and never answered.
	bc := crc(0x00, 0x7F, 0x01, 0x02, 0x20, 0x27, 0x08, 0x09, 0x10)
	if r := e.Handle(t0, bc); r != nil {
		t.Fatalf("broadcast answered % X", r)
	}
	if r := e.Handle(t0, []byte{0x01, 0x7E}); !bytes.Equal(r, crc(0x01, 0x7E, 0x01, 0x02, 0x20, 0x27, 0x08, 0x09, 0x10)) {
		t.Errorf("LP 7E after the broadcast = % X", r)
	}
	// Busy when the machine cannot be read (address 00, no CRC).
	m.err = errors.New("store busy")
	if r := e.Handle(t0, []byte{0x01, 0x1A}); !bytes.Equal(r, []byte{0x01, 0x00}) {
		t.Errorf("LP 1A with the machine unreadable = % X, want busy 01 00", r)
	}
	// Address 0: nothing is ever answered.
	off := &Engine{Cfg: Config{Address: 0, Denom: 1}, M: m, Q: &queue{}}
	off.Handle(t0, []byte{0x82})
	if r := off.Handle(t0, []byte{0x80}); r != nil {
		t.Errorf("address 0 answered % X", r)
	}
}

func TestCommandsReachTheMachine(t *testing.T) {
	m := &machine{s: snap()}
	e := newEngine(m, &queue{})
	for _, p := range [][]byte{crc(0x01, 0x01), crc(0x01, 0x02), crc(0x01, 0x07), crc(0x01, 0x08, 0x0C, 0x00, 0x00, 0x00, 0x01), crc(0x01, 0x09, 0x00, 0x03, 0x00),
		crc(0x01, 0x09, 0x00, 0x02, 0x01)} {
		e.Handle(t0, p)
		e.Handle(t0, []byte{0x80})
	}
	want := []Command{{Kind: CmdPlay, On: false}, {Kind: CmdPlay, On: true}, {Kind: CmdBills, On: false},
		{Kind: CmdBillDenoms, Mask: 0x0C, Action: 1}, {Kind: CmdGame, Game: 3, On: false}, {Kind: CmdGame, Game: 2, On: true}}
	if len(m.cmds) != len(want) {
		t.Fatalf("commands %+v, want %+v", m.cmds, want)
	}
	for i := range want {
		if m.cmds[i] != want[i] {
			t.Errorf("command %d = %+v, want %+v", i, m.cmds[i], want[i])
		}
	}
	// A machine that cannot carry out a command now: busy, and the host
	// sends it again.
	m.cerr = errors.New("the cabinet is busy")
	if r := e.Handle(t0, crc(0x01, 0x01)); !bytes.Equal(r, []byte{0x01, 0x00}) {
		t.Errorf("LP 01 while busy = % X, want 01 00", r)
	}
}

func TestROMSignatureDeferred(t *testing.T) {
	e := newEngine(&machine{s: snap()}, &queue{q: []byte{0x17}})
	if r := e.Handle(t0, crc(0x01, 0x21, 0x34, 0x12)); !bytes.Equal(r, []byte{0x01}) {
		t.Fatalf("LP 21 = % X, want ACK", r)
	}
	seed, ok := e.ROMRequest()
	if !ok || seed != 0x1234 {
		t.Fatalf("ROMRequest = %04X %v, want 1234 true", seed, ok)
	}
	e.Handle(t0, []byte{0x80})
	if r := e.Handle(t0, []byte{0x81}); !bytes.Equal(r, []byte{0x17}) { // polls go on meanwhile
		t.Fatalf("GP while computing = % X, want 17", r)
	}
	e.ROMResult(0x1234, 0xBEEF)
	e.Handle(t0, []byte{0x80})
	if r := e.Handle(t0, []byte{0x81}); !bytes.Equal(r, crc(0x01, 0x21, 0xEF, 0xBE)) {
		t.Fatalf("GP after the signature = % X, want 01 21 EF BE CRC", r)
	}
}
