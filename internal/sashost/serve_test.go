package sashost

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// titoEGM is a scripted machine that cashes out to tickets under system
// validation and takes tickets in, answering the casino with hand-made
// frames (the layouts of SAS 6.02 §15 written out here, not the host's
// encoders). It keeps one ticket at a time, as a machine does, except
// where a test breaks the rule on purpose.
type titoEGM struct {
	mu      sync.Mutex
	queue   []byte // exceptions to report, oldest first
	cashout string // the amount waiting for LP 58 (10 digits), "" none
	print   bool   // whether a validated cash-out prints (3D and its record)
	records [][]byte
	escrow  string // the 18 digits of the ticket in escrow
	// outcome is the final status the next redemption the casino grants
	// ends with (00 stacked and credited, 87–8B not); hold: it stays
	// pending until finish.
	outcome byte
	hold    bool
	final   []byte // the data of the LP 71 status reply
	silent  int    // messages to ignore (a restart)
	got71   [][]byte
	credits int64
	// lose drops the replies to the next LP 71 redeem messages (the
	// message is carried out, its reply lost on the line); the same
	// message again gets the same reply (the reference's implied NACK).
	lose      int
	lastReply []byte
	prev      []byte // the last message received
}

// digits decodes a string of decimal digits as packed BCD, by hand.
func digits(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func (m *titoEGM) answer(msg []byte) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.silent > 0 {
		m.silent--
		return nil
	}
	repeat := bytes.Equal(msg, m.prev) // the implied NACK: the same message again
	m.prev = msg
	switch {
	case bytes.Equal(msg, []byte{0x81}):
		if len(m.queue) == 0 {
			return []byte{0x00}
		}
		x := m.queue[0]
		m.queue = m.queue[1:]
		return []byte{x}
	case msg[0] != 0x01:
		return nil // a poll to another address
	case msg[1] == 0x57:
		if m.cashout == "" {
			return WithCRC(append([]byte{0x01, 0x57, 0x80}, digits("0000000000")...)...)
		}
		return WithCRC(append([]byte{0x01, 0x57, 0x00}, digits(m.cashout)...)...)
	case msg[1] == 0x58 && CRCOK(msg):
		if m.cashout == "" {
			return WithCRC(0x01, 0x58, 0x80)
		}
		if m.print {
			// type 00, index 01, 11/25/2026 19:30:00, the number, the
			// amount, ticket 0007, the system ID, no expiration, pool 0
			rec := []byte{0x00, 0x01, 0x11, 0x25, 0x20, 0x26, 0x19, 0x30, 0x00}
			rec = append(rec, msg[3:11]...)
			rec = append(rec, digits(m.cashout)...)
			rec = append(rec, 0x07, 0x00, msg[2], 0, 0, 0, 0, 0, 0)
			m.records = append(m.records, rec)
			m.queue = append(m.queue, 0x3D)
		}
		m.cashout = ""
		return WithCRC(0x01, 0x58, 0x00)
	case msg[1] == 0x4D && CRCOK(msg):
		if len(m.records) == 0 {
			return WithCRC(append([]byte{0x01, 0x4D}, make([]byte, 31)...)...)
		}
		r := m.records[0]
		m.records = m.records[1:] // the next message acknowledges it
		return WithCRC(append([]byte{0x01, 0x4D}, r...)...)
	case msg[1] == 0x70:
		if m.escrow == "" {
			return frame(0x01, 0x70, 0xFF)
		}
		return frame(0x01, 0x70, append([]byte{0x00, 0, 0, 0, 0, 0, 0x00}, digits(m.escrow)...)...)
	case msg[1] == 0x71 && CRCOK(msg):
		m.got71 = append(m.got71, msg)
		if repeat && m.lastReply != nil {
			if m.lose > 0 {
				m.lose--
				return nil
			}
			return m.lastReply
		}
		if msg[3] == 0xFF {
			if m.final == nil {
				return frame(0x01, 0x71, 0xFF)
			}
			return frame(0x01, 0x71, m.final...)
		}
		amount, number := msg[4:9], msg[10:19]
		done := func(st byte) {
			m.final = append(append([]byte{st}, amount...), append([]byte{0x00}, number...)...)
			m.queue = append(m.queue, 0x68)
			m.escrow = ""
		}
		var r []byte
		if msg[3] != 0x00 {
			done(0x80)
			r = frame(0x01, 0x71, m.final...)
		} else {
			if !m.hold {
				done(m.outcome)
				if m.outcome == 0x00 {
					m.credits += int64(bcdValue(amount))
				}
			}
			r = frame(0x01, 0x71, append(append([]byte{0x40}, amount...), append([]byte{0x00}, number...)...)...)
		}
		m.lastReply = r
		if m.lose > 0 {
			m.lose--
			return nil
		}
		return r
	}
	return nil
}

func bcdValue(b []byte) uint64 {
	var n uint64
	fmt.Sscanf(hex.EncodeToString(b), "%d", &n)
	return n
}

func (m *titoEGM) do(f func(m *titoEGM)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f(m)
}

// cashOut makes a cash-out of cents wait for the casino's number.
func (m *titoEGM) cashOut(cents int64, print bool) {
	m.do(func(m *titoEGM) {
		m.cashout, m.print = fmt.Sprintf("%010d", cents), print
		m.queue = append(m.queue, 0x57)
	})
}

// insert puts a ticket in escrow: exception 67.
func (m *titoEGM) insert(number string, outcome byte, hold bool) {
	m.do(func(m *titoEGM) {
		m.escrow, m.outcome, m.hold = number, outcome, hold
		m.queue = append(m.queue, 0x67)
	})
}

// messages71 is every LP 71 the casino sent.
func (m *titoEGM) messages71() [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]byte(nil), m.got71...)
}

// last71 is the last LP 71 the casino sent.
func (m *titoEGM) last71() []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.got71) == 0 {
		return nil
	}
	return m.got71[len(m.got71)-1]
}

// eventually waits for ok (a bound on a wait, not a timing assertion).
func eventually(t *testing.T, what string, ok func() bool, c *Casino) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); {
		if ok() {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s; ledger %+v; stats %+v", what, c.Ledger(), c.Stats())
}

func entry(c *Casino, number string) (TicketRecord, bool) {
	for _, r := range c.Ledger() {
		if r.Number == number {
			return r, true
		}
	}
	return TicketRecord{}, false
}

// The ticket-in side of Serve against the scripted machine: the casino
// gives numbers (57 → LP 57, LP 58), reads the records (3D → LP 4D),
// redeems what it knows outstanding at its amount (67 → LP 70, LP 71 00),
// marks it redeemed on the final status (68 → LP 71 FF) once and forever,
// refuses the rest with the reason's code, and takes a ticket the machine
// could not stack back to outstanding.
func TestServeTicketIn(t *testing.T) {
	h, err := Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer h.Close()
	m := &titoEGM{}
	newEGM(t, h, m.answer)
	c := &Casino{H: h, Addr: 1, Wait: 100 * time.Millisecond, Interval: 2 * time.Millisecond, NextNumber: 4200000000000001}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- c.Serve(ctx) }()
	defer func() {
		cancel()
		if err := <-served; !errors.Is(err, context.Canceled) {
			t.Errorf("Serve = %v, want context.Canceled", err)
		}
	}()
	status := func(n string) TicketStatus { r, _ := entry(c, n); return r.Status }

	// A cash-out gets the casino's first number; its record makes it
	// outstanding.
	const first = "014200000000000001"
	m.cashOut(2500, true)
	eventually(t, "the first ticket outstanding", func() bool { return status(first) == TicketOutstanding }, c)
	if r, _ := entry(c, first); !r.Given || !r.Read || r.Cents != 2500 {
		t.Errorf("ledger %+v, want given and read, 2500 cents", r)
	}

	// Inserted, it is redeemed with code 00 at the ledger's amount, by the
	// layout by hand.
	m.insert(first, 0x00, false)
	eventually(t, "the first ticket redeemed", func() bool { return status(first) == TicketRedeemed }, c)
	want := []byte{0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x01, 0x42, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01}
	got := m.last71()
	if len(got) < 2 || !bytes.Equal(got[:len(got)-2], []byte{0x01, 0x71, 0x01, 0xFF}) {
		t.Errorf("last LP 71 % X, want the status request 01 71 01 FF", got)
	}
	m.do(func(m *titoEGM) {
		if len(m.got71) < 2 || !bytes.Equal(m.got71[len(m.got71)-2][:19], want) {
			t.Errorf("LP 71 redeem % X, want % X and its CRC", m.got71, want)
		}
	})

	// The machine restarts (silent a while) and reports the same final
	// status again: still redeemed once.
	m.do(func(m *titoEGM) { m.silent = 5; m.queue = append(m.queue, 0x68) })
	eventually(t, "the final status heard twice", func() bool { r, _ := entry(c, first); return r.Redeemed == 2 }, c)
	if s := c.Stats(); s.Redeemed != 1 || s.Silent < 1 || s.Unexpected != 0 {
		t.Errorf("stats %+v: want one ticket redeemed, a silent poll or more, nothing unexpected", s)
	}

	// The same ticket again: already redeemed (84), amount 0.
	refused := func(number string, code byte) {
		t.Helper()
		before := c.Stats().Refusals[code]
		m.insert(number, 0x00, false)
		want := append([]byte{0x01, 0x71, 0x10, code, 0, 0, 0, 0, 0, 0x00}, digits(number)...)
		eventually(t, fmt.Sprintf("%s refused with %02X", number, code), func() bool {
			m.mu.Lock()
			defer m.mu.Unlock()
			for _, g := range m.got71 {
				if bytes.HasPrefix(g, want) {
					return m.escrow == "" && c.Stats().Refusals[code] > before
				}
			}
			return false
		}, c)
	}
	refused(first, TransferRedeemed)
	refused("019999999999999999", TransferNotInSystem)

	// A second ticket: refused on demand (85 expired), then taken back.
	const second = "014200000000000002"
	m.cashOut(1000, true)
	eventually(t, "the second ticket outstanding", func() bool { return status(second) == TicketOutstanding }, c)
	if err := c.Reject(second, TransferExpired); err != nil {
		t.Fatal(err)
	}
	refused(second, TransferExpired)
	if err := c.Reject(second, 0x00); err != nil {
		t.Fatal(err)
	}
	// The machine cannot stack it (88): outstanding again.
	m.insert(second, 0x88, false)
	eventually(t, "the second ticket returned", func() bool { r, _ := entry(c, second); return r.Returned == 1 && r.Status == TicketOutstanding }, c)
	// Held by a redemption that has not ended, it is refused to another
	// (83); then that redemption ends with the ticket stacked.
	// (Its LP 71 answered before the next insertion changes the machine's
	// script: the casino marks it redeeming as it sends LP 71.)
	n71 := len(m.messages71())
	m.insert(second, 0x00, true)
	eventually(t, "the second ticket redeeming", func() bool {
		return status(second) == TicketRedeeming && len(m.messages71()) > n71
	}, c)
	refused(second, TransferPending)
	m.do(func(m *titoEGM) {
		m.final = append(append([]byte{0x00}, digits("0000001000")...), append([]byte{0x00}, digits(second)...)...)
		m.queue = append(m.queue, 0x68)
		m.credits += 1000
	})
	eventually(t, "the second ticket redeemed", func() bool { return status(second) == TicketRedeemed }, c)

	// A fourth ticket whose redemption's reply is lost twice: the casino
	// sends the same LP 71 again (never a second redemption), the machine
	// answers it once it is heard, and the ticket is credited once.
	const fourth = "014200000000000003"
	m.cashOut(300, true)
	eventually(t, "the fourth ticket outstanding", func() bool { return status(fourth) == TicketOutstanding }, c)
	m.do(func(m *titoEGM) { m.lose = 2 })
	n71 = len(m.messages71())
	m.insert(fourth, 0x00, false)
	eventually(t, "the fourth ticket redeemed", func() bool { return status(fourth) == TicketRedeemed }, c)
	sent := m.messages71()[n71:]
	if len(sent) != 4 || !bytes.Equal(sent[0], sent[1]) || !bytes.Equal(sent[1], sent[2]) || sent[0][3] != 0x00 || sent[3][3] != 0xFF {
		t.Errorf("LP 71 after two lost replies: % X; want the same redeem three times, then the status request", sent)
	}

	// A number given but never printed (no record): pending (83).
	const third = "014200000000000004"
	m.cashOut(700, false)
	eventually(t, "the third number given", func() bool {
		return status(third) == TicketPending && func() bool { r, _ := entry(c, third); return r.Given }()
	}, c)
	refused(third, TransferPending)

	s := c.Stats()
	if s.Redeemed != 3 || s.Unexpected != 0 || s.Exceptions[0x57] != 4 || s.Exceptions[0x3D] != 3 || s.Exceptions[0x67] != 9 {
		t.Errorf("stats %+v: want 3 redeemed, 4 × 57, 3 × 3D, 9 × 67", s)
	}
	for code, n := range map[byte]int{0x84: 1, 0x82: 1, 0x85: 1, 0x83: 2} {
		if s.Refusals[code] != n {
			t.Errorf("refusals %v: want %d × %02X", s.Refusals, n, code)
		}
	}

	r1, _ := entry(c, first)
	r2, _ := entry(c, second)
	if r1.Presented != 2 || r1.Refused != 1 || r2.Presented != 4 || r2.Refused != 2 || r2.Returned != 1 {
		t.Errorf("ledger: %+v\n%+v", r1, r2)
	}
	if m.credits != 2500+1000+300 {
		t.Errorf("the machine credited %d cents, want 3800 (each ticket once)", m.credits)
	}
}

func TestRejectArguments(t *testing.T) {
	c := &Casino{}
	for _, tc := range []struct {
		number string
		code   byte
		want   string
	}{
		{"123", 0x85, `"123": want 18 decimal digits`},
		{"014200000000000001", 0x10, "transfer code 10: want a refusal 80–FE, or 00 to withdraw one"},
		{"014200000000000001", 0xFF, "transfer code FF"},
	} {
		if err := c.Reject(tc.number, tc.code); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Reject(%q, %02X) = %v, want an error naming %q", tc.number, tc.code, err, tc.want)
		}
	}
}
