package sashost

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// The LP 71 a host sends, against the layouts of SAS 6.02 §15 written out
// by hand: `a 71 len code amount(5 BCD) parsing-code data(9 BCD) CRC`,
// the CRC (CRC-16/KERMIT, low byte first) worked out with the reference's
// nibble algorithm.
func TestRedeemMessageLayout(t *testing.T) {
	got, err := RedeemMessage(0x01, 0x00, 2500, "121234567890123456")
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00,
		0x12, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56, 0xCD, 0xBB}
	if !bytes.Equal(got, want) {
		t.Errorf("RedeemMessage(01, 00, 2500, 121234567890123456) = % X, want % X", got, want)
	}
	// A refusal keeps the layout: the code, amount 0, the number.
	got, err = RedeemMessage(0x05, TransferRedeemed, 0, "001234567890123456")
	if err != nil {
		t.Fatal(err)
	}
	want = []byte{0x05, 0x71, 0x10, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56}
	if !bytes.Equal(got[:len(got)-2], want) || !CRCOK(got) {
		t.Errorf("RedeemMessage(05, 84, 0, …) = % X, want % X and its CRC", got, want)
	}
	for _, tc := range []struct {
		code   byte
		cents  int64
		number string
		want   string
	}{
		{0xFF, 100, "121234567890123456", "transfer code FF"},
		{0x00, -1, "121234567890123456", "amount -1 cents"},
		{0x00, 10000000000, "121234567890123456", "amount 10000000000 cents: want 0 to 9999999999"},
		{0x00, 100, "12123456789012345", `"12123456789012345": want 18 decimal digits`},
		{0x00, 100, "12123456789012345X", `"12123456789012345X": want 18 decimal digits`},
	} {
		if m, err := RedeemMessage(1, tc.code, tc.cents, tc.number); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("RedeemMessage(%02X, %d, %q) = % X, %v; want an error naming %q", tc.code, tc.cents, tc.number, m, err, tc.want)
		}
	}
}

// The replies of LP 70 and LP 71, hand-made frames parsed strictly.
func TestParseTicketData(t *testing.T) {
	ok := []byte{0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x12, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56}
	td, err := parseTicketData(0x70, ok)
	if err != nil || td.Status != 0 || td.Cents != 2500 || td.ParsingCode != 0 || td.Number != "121234567890123456" || td.Short {
		t.Errorf("parse % X = %+v, %v; want status 00, 2500 cents, number 121234567890123456", ok, td, err)
	}
	if td, err := parseTicketData(0x71, []byte{0xC0}); err != nil || td.Status != 0xC0 || !td.Short {
		t.Errorf("parse C0 = %+v, %v; want the status alone", td, err)
	}
	// Another parsing code: its data is kept, no number read.
	if td, err := parseTicketData(0x70, []byte{0x00, 0, 0, 0, 0x10, 0, 0x01, 0xAB, 0xCD}); err != nil || td.Number != "" || !bytes.Equal(td.Data, []byte{0xAB, 0xCD}) {
		t.Errorf("parsing code 01: %+v, %v", td, err)
	}
	for _, tc := range []struct {
		d    []byte
		want string
	}{
		{[]byte{0x00, 0x00}, "2 data bytes"},
		{append([]byte{0x00, 0x00, 0x00, 0x0A, 0x00, 0x00}, ok[6:]...), "amount 00 00 0A 00 00 is not BCD"},
		{ok[:15], "want 9 BCD bytes under parsing code 00"},
		{append(append([]byte(nil), ok[:15]...), 0x5F), "is not BCD"},
	} {
		if _, err := parseTicketData(0x70, tc.d); err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrBadReply) {
			t.Errorf("parse % X: %v; want ErrBadReply naming %q", tc.d, err, tc.want)
		}
	}
}

// TicketInfo, Redeem and RedeemStatus over a pty to a scripted machine:
// the messages it receives are the layouts by hand, its hand-made replies
// are read, and every malformed one is a clear error.
func TestTicketInOneShots(t *testing.T) {
	h, err := Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer h.Close()
	var (
		mu    sync.Mutex
		reply []byte
	)
	set := func(r []byte) { mu.Lock(); reply = r; mu.Unlock() }
	e := newEGM(t, h, func([]byte) []byte { mu.Lock(); defer mu.Unlock(); return reply })
	c := &Casino{H: h, Addr: 1, Wait: 300 * time.Millisecond}

	escrow := []byte{0x01, 0x70, 0x10, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00,
		0x12, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56}
	set(WithCRC(escrow...))
	td, err := c.TicketInfo()
	if err != nil || td.Status != 0 || td.Cents != 2500 || td.Number != "121234567890123456" {
		t.Errorf("LP 70 = %+v, %v; want status 00, 2500 cents, 121234567890123456", td, err)
	}
	set([]byte{0x01, 0x70, 0x01, 0xFF, 0xC3, 0x8A})
	if td, err := c.TicketInfo(); err != nil || td.Status != 0xFF || !td.Short {
		t.Errorf("LP 70 with no ticket = %+v, %v; want FF alone", td, err)
	}
	set([]byte{0x01, 0x71, 0x10, 0x40, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00,
		0x12, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56, 0xCF, 0x2D})
	if td, err := c.Redeem(0x00, 2500, "121234567890123456"); err != nil || td.Status != StatusPending || td.Cents != 2500 || td.Number != "121234567890123456" {
		t.Errorf("LP 71 = %+v, %v; want pending (40), 2500 cents, the number", td, err)
	}
	set(frame(0x01, 0x71, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x12, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56))
	if td, err := c.RedeemStatus(); err != nil || td.Status != StatusRedeemedCashable || td.Number != "121234567890123456" {
		t.Errorf("LP 71 FF = %+v, %v; want redeemed (00)", td, err)
	}
	msgs := e.messages()
	wantMsgs := [][]byte{
		{0x01, 0x70},
		{0x01, 0x70},
		{0x01, 0x71, 0x10, 0x00, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x12, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56, 0xCD, 0xBB},
		{0x01, 0x71, 0x01, 0xFF, 0x1F, 0xD0},
	}
	if len(msgs) != len(wantMsgs) {
		t.Fatalf("the machine received %d messages % X, want %d", len(msgs), msgs, len(wantMsgs))
	}
	for i := range msgs {
		if !bytes.Equal(msgs[i], wantMsgs[i]) {
			t.Errorf("message %d = % X, want % X", i, msgs[i], wantMsgs[i])
		}
	}

	badCRC := WithCRC(escrow...)
	badCRC[len(badCRC)-1] ^= 0xFF
	for _, tc := range []struct {
		what  string
		reply []byte
		is    error
		want  string
	}{
		{"silence", nil, ErrNoReply, "LP 70"},
		{"busy", []byte{0x01, 0x00}, ErrBusy, "01 00"},
		{"NACK", []byte{0x81}, ErrNACK, "81"},
		{"bad CRC", badCRC, ErrBadReply, "bad CRC"},
		{"length byte", WithCRC(append([]byte{0x01, 0x70, 0x11}, escrow[3:]...)...), ErrBadReply, "length byte 11"},
		{"other command", frame(0x01, 0x71, 0xFF), ErrBadReply, "want address 01, the command"},
		{"other address", frame(0x02, 0x70, 0xFF), ErrBadReply, "want address 01"},
		{"lone status", frame(0x01, 0x70, 0x00), ErrBadReply, "only FF (no ticket in escrow) comes alone"},
		{"amount", frame(0x01, 0x70, 0x00, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9), ErrBadReply, "not BCD"},
	} {
		set(tc.reply)
		if _, err := c.TicketInfo(); !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: LP 70 error %v; want %v naming %q", tc.what, err, tc.is, tc.want)
		}
	}
}
