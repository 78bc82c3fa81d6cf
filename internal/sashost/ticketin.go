package sashost

import (
	"fmt"
	"strings"
)

// Ticket in (SAS 6.02 §15, ticket redemption): the machine holds a ticket
// in escrow and raises exception 67; the host reads it with LP 70 and
// answers with LP 71 (redeem with a transfer code 00–02, or refuse with a
// code 80 and above); when the redemption is over the machine raises 68
// and the host reads the final status with LP 71 FF.

// Transfer codes of LP 71 (the host's answer), SAS 6.02 Table 15.13c.
const (
	TransferCashable = 0x00 // valid cashable ticket
	// Refusals (80 and above): the reason the player is shown.
	TransferUnable        = 0x80 // unable to validate (no reason given)
	TransferInvalidNumber = 0x81 // not a valid validation number
	TransferNotInSystem   = 0x82 // validation number not in system
	TransferPending       = 0x83 // ticket marked pending in system
	TransferRedeemed      = 0x84 // ticket already redeemed
	TransferExpired       = 0x85 // ticket expired
	TransferNoInfo        = 0x86 // validation information not available
	TransferAmountDiffers = 0x87 // ticket amount does not match system
	TransferOverLimit     = 0x88 // ticket amount exceeds auto redemption limit
	TransferStatusRequest = 0xFF // request for the current ticket status
)

// Machine statuses of LP 71 (and LP 70's status byte), SAS 6.02 Table 15.13e.
const (
	StatusRedeemedCashable = 0x00 // cashable ticket redeemed
	StatusWaiting          = 0x20 // waiting for long poll 71
	StatusPending          = 0x40 // ticket redemption pending
	StatusRejectedByHost   = 0x80 // ticket rejected by host, or unknown
	StatusIncompatible     = 0xC0 // not compatible with current redemption cycle
	StatusNoInfo           = 0xFF // no validation information available (LP 70: no ticket in escrow)
)

// TicketData is what LP 70 and LP 71 replies carry: the machine's status,
// the amount (cents), the parsing code and the validation data.
type TicketData struct {
	Status      byte
	Cents       int64
	ParsingCode byte
	// Number is the 18 digits of the validation data under parsing code 00
	// (system ID, then the 16-digit number); "" for a one-byte reply or
	// another parsing code.
	Number string
	// Data is the validation data as sent (nil for a one-byte reply).
	Data []byte
	// Short: the reply was the status byte alone (`01 FF`, `01 C0`).
	Short bool
}

// TicketInfo is LP 70, send ticket validation data: the ticket in escrow
// (status 00, amount, parsing code, 9 BCD validation data), or status FF
// alone when there is none.
func (c *Casino) TicketInfo() (TicketData, error) {
	d, err := c.longFrame([]byte{c.Addr, 0x70})
	if err != nil {
		return TicketData{}, err
	}
	t, err := parseTicketData(0x70, d)
	if err == nil && t.Short && t.Status != StatusNoInfo {
		err = fmt.Errorf("sashost: LP 70: one-byte reply %02X: only FF (no ticket in escrow) comes alone: %w", t.Status, ErrBadReply)
	}
	return t, err
}

// Redeem is LP 71, redeem ticket: the transfer code (00–02 to redeem, 80
// and above to refuse; not FF, see RedeemStatus), the amount in cents, and
// the 18-digit validation number (parsing code 00). The host always sends
// the full layout, amount and number included, also when it refuses (the
// reference's layout; the restricted expiration and pool ID, for
// restricted tickets only, are not sent). It returns the machine's reply.
func (c *Casino) Redeem(code byte, cents int64, number string) (TicketData, error) {
	m, err := RedeemMessage(c.Addr, code, cents, number)
	if err != nil {
		return TicketData{}, err
	}
	return c.redeem(m)
}

func (c *Casino) redeem(m []byte) (TicketData, error) {
	d, err := c.longFrame(m)
	if err != nil {
		return TicketData{}, err
	}
	return parseTicketData(0x71, d)
}

// RedeemStatus is LP 71 with transfer code FF: the status of the last
// ticket (its final status once the machine raised 68).
func (c *Casino) RedeemStatus() (TicketData, error) {
	return c.redeem(WithCRC(c.Addr, 0x71, 0x01, TransferStatusRequest))
}

// MaxCents is the largest amount 5 BCD bytes carry.
const MaxCents = 9999999999

// RedeemMessage is the LP 71 a host sends to redeem or refuse a ticket:
// `a 71 10 code amount(5 BCD) 00 number(9 BCD) CRC`.
func RedeemMessage(addr, code byte, cents int64, number string) ([]byte, error) {
	if code == TransferStatusRequest {
		return nil, fmt.Errorf("sashost: LP 71 transfer code FF is the status request (RedeemStatus): want 00–02 or a refusal 80–FE")
	}
	if cents < 0 || cents > MaxCents {
		return nil, fmt.Errorf("sashost: LP 71 amount %d cents: want 0 to %d (5 BCD bytes)", cents, int64(MaxCents))
	}
	if err := checkNumber(number); err != nil {
		return nil, fmt.Errorf("sashost: LP 71: %w", err)
	}
	m := []byte{addr, 0x71, 0x10, code}
	m = append(m, toBCD(uint64(cents), 5)...)
	m = append(m, 0x00)
	m = append(m, digitsBCD(number)...)
	return WithCRC(m...), nil
}

// checkNumber accepts an 18-digit validation number (system ID and 16
// digits).
func checkNumber(n string) error {
	if len(n) != 18 || strings.Trim(n, "0123456789") != "" {
		return fmt.Errorf("validation number %q: want 18 decimal digits (system ID, then 16 digits)", n)
	}
	return nil
}

// digitsBCD packs an even number of decimal digits, two a byte, MSB first.
func digitsBCD(s string) []byte {
	b := make([]byte, len(s)/2)
	for i := range b {
		b[i] = (s[2*i]-'0')<<4 | (s[2*i+1] - '0')
	}
	return b
}

// bcdDigits unpacks BCD bytes to their digits, leading zeros kept.
func bcdDigits(b []byte) (string, error) {
	var sb strings.Builder
	for _, x := range b {
		if x>>4 > 9 || x&0xF > 9 {
			return "", fmt.Errorf("% X is not BCD", b)
		}
		sb.WriteByte('0' + x>>4)
		sb.WriteByte('0' + x&0xF)
	}
	return sb.String(), nil
}

// parseTicketData decodes the data of an LP 70 or LP 71 reply: the status
// alone, or status, amount (5 BCD), parsing code and validation data (9
// BCD under parsing code 00).
func parseTicketData(cmd byte, d []byte) (TicketData, error) {
	var t TicketData
	switch {
	case len(d) == 1:
		t.Status, t.Short = d[0], true
		return t, nil
	case len(d) < 7:
		return t, fmt.Errorf("sashost: LP %02X: %d data bytes % X: want the status alone, or status, 5 amount bytes, parsing code and validation data: %w", cmd, len(d), d, ErrBadReply)
	}
	t.Status = d[0]
	n, err := fromBCD(d[1:6])
	if err != nil {
		return t, fmt.Errorf("sashost: LP %02X: amount % X is not BCD: %w", cmd, d[1:6], ErrBadReply)
	}
	t.Cents, t.ParsingCode, t.Data = n, d[6], append([]byte(nil), d[7:]...)
	if t.ParsingCode != 0x00 {
		return t, nil // another parsing code: its data is kept as sent
	}
	if len(t.Data) != 9 {
		return t, fmt.Errorf("sashost: LP %02X: validation data % X: want 9 BCD bytes under parsing code 00: %w", cmd, t.Data, ErrBadReply)
	}
	if t.Number, err = bcdDigits(t.Data); err != nil {
		return t, fmt.Errorf("sashost: LP %02X: validation data %v: %w", cmd, err, ErrBadReply)
	}
	return t, nil
}
