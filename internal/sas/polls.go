package sas

import (
	"errors"
	"fmt"
	"time"

	"cabinet/internal/money"
)

// errBusy makes the engine answer busy (addr 00): the machine's data is not
// available right now.
var errBusy = errors.New("sas: busy")

// errUnsupported makes the engine stay silent.
var errUnsupported = errors.New("sas: unsupported poll")

// denomCodes is Table C-4: accounting denomination in cents → code.
var denomCodes = map[money.Cents]byte{
	1: 0x01, 2: 0x17, 3: 0x18, 5: 0x02, 10: 0x03, 20: 0x0B, 25: 0x04, 40: 0x1A,
	50: 0x05, 100: 0x06, 200: 0x0C, 250: 0x0D, 500: 0x07, 1000: 0x08,
	2000: 0x09, 2500: 0x0E, 5000: 0x0F, 10000: 0x0A,
}

// billPolls maps LPs 31–45 (not 3D) to the bill value in cents.
var billPolls = map[byte]money.Cents{
	0x31: 100, 0x32: 200, 0x33: 500, 0x34: 1000, 0x35: 2000, 0x36: 5000,
	0x37: 10000, 0x38: 50000, 0x39: 100000, 0x3A: 20000, 0x3B: 2500,
	0x3C: 200000, 0x3E: 250000, 0x3F: 500000, 0x40: 1000000,
	0x41: 2000000, 0x42: 2500000, 0x43: 5000000, 0x44: 10000000, 0x45: 25000,
}

// billMeters maps meter codes 40–4B (Table C-7) to the bill value in cents.
var billMeters = map[byte]money.Cents{
	0x40: 100, 0x41: 200, 0x42: 500, 0x43: 1000, 0x44: 2000, 0x45: 2500,
	0x46: 5000, 0x47: 10000, 0x48: 20000, 0x49: 25000, 0x4A: 50000, 0x4B: 100000,
}

// lastBillCodes is LP 48's bill denomination code (BCD) by value in cents.
var lastBillCodes = map[money.Cents]int64{
	100: 0, 200: 1, 500: 2, 1000: 3, 2000: 4, 2500: 5, 5000: 6, 10000: 7,
	20000: 8, 25000: 9, 50000: 10,
}

// cr converts cents to whole credits of the accounting denomination.
func (e *Engine) cr(c money.Cents) int64 {
	if c <= 0 || e.Cfg.Denom <= 0 {
		return 0
	}
	return int64(c / e.Cfg.Denom)
}

func (e *Engine) snap() (Snapshot, error) {
	s, err := e.M.Snapshot()
	if err != nil {
		return Snapshot{}, fmt.Errorf("sas: snapshot: %w: %w", errBusy, err)
	}
	return s, nil
}

// gameNumber decodes the 2-BCD game number at m[2:4] and checks it (0 =
// the machine, 1..N a game).
func gameNumber(m []byte, s Snapshot) (int, error) {
	n, err := ParseBCD(m[2:4])
	if err != nil || n > int64(len(s.Games)) {
		return 0, fmt.Errorf("sas: LP %02X game % X: %w", m[1], m[2:4], ErrBadData)
	}
	return int(n), nil
}

// longPoll answers a long poll with a good CRC (or an R-type poll).
func (e *Engine) longPoll(now time.Time, m []byte) ([]byte, error) {
	a, c := e.Cfg.Address, m[1]
	ack := []byte{a}
	switch c {
	case 0x01, 0x02:
		return ack, e.cmd(Command{Kind: CmdPlay, On: c == 0x02})
	case 0x03, 0x04:
		return ack, e.cmd(Command{Kind: CmdSound, On: c == 0x04})
	case 0x06, 0x07:
		return ack, e.cmd(Command{Kind: CmdBills, On: c == 0x06})
	case 0x08:
		mask := uint32(m[2]) | uint32(m[3])<<8 | uint32(m[4])<<16 | uint32(m[5])<<24
		if m[6] > 1 {
			return nil, fmt.Errorf("sas: LP 08 action %d: %w", m[6], ErrBadData)
		}
		return ack, e.cmd(Command{Kind: CmdBillDenoms, Mask: mask, Action: m[6]})
	case 0x09:
		s, err := e.snap()
		if err != nil {
			return nil, err
		}
		g, err := gameNumber(m, s)
		if err != nil {
			return nil, err
		}
		if m[4] > 1 {
			return nil, fmt.Errorf("sas: LP 09 flag %d: %w", m[4], ErrBadData)
		}
		// 00 disables, 01 enables (the SAS reference's LP 09; Monaco's
		// LP09DisableEnableGameNParser reads it the same way).
		return ack, e.cmd(Command{Kind: CmdGame, Game: g, On: m[4] == 1})
	case 0x21:
		e.romSeed = uint16(m[2]) | uint16(m[3])<<8
		e.romWanted, e.romPending = true, false
		return ack, nil
	case 0x7F:
		if err := e.setClock(now, m); err != nil {
			return nil, err
		}
		return ack, nil
	case 0x7E:
		t := now.Add(e.timeOffset)
		var d []byte
		d = AppendBCD(d, int64(t.Month())*1000000+int64(t.Day())*10000+int64(t.Year()), 4)
		d = AppendBCD(d, int64(t.Hour())*10000+int64(t.Minute())*100+int64(t.Second()), 3)
		return AppendCRC(append([]byte{a, c}, d...)), nil
	case 0x54:
		v := append([]byte("602"), e.Cfg.Serial...)
		return AppendCRC(append([]byte{a, c, byte(len(v))}, v...)), nil
	}
	s, err := e.snap()
	if err != nil {
		return nil, err
	}
	r := []byte{a, c}
	bcd4 := func(v int64) { r = AppendBCD(r, v, 4) }
	switch {
	case c == 0x0F:
		for _, v := range []int64{e.cr(s.Cancelled), e.cr(s.CoinIn), e.cr(s.CoinOut), e.cr(s.Drop), e.cr(s.Jackpot), s.Played} {
			bcd4(v)
		}
	case c >= 0x10 && c <= 0x17:
		bcd4([]int64{e.cr(s.Cancelled), e.cr(s.CoinIn), e.cr(s.CoinOut), e.cr(s.Drop), e.cr(s.Jackpot), s.Played, s.Won, s.Lost}[c-0x10])
	case c == 0x18:
		r = AppendBCD(r, s.SincePowerUp, 2)
		r = AppendBCD(r, s.SinceDoor, 2)
	case c == 0x19:
		for _, v := range []int64{e.cr(s.CoinIn), e.cr(s.CoinOut), e.cr(s.Drop), e.cr(s.Jackpot), s.Played} {
			bcd4(v)
		}
	case c == 0x1A:
		bcd4(e.cr(s.Credits))
	case c == 0x1B:
		e.hpRead = true
		if !s.Handpay.Pending {
			r = append(r, make([]byte, 1+1+5+2+1+10)...)
			break
		}
		level := byte(0x40)
		if s.Handpay.Cancelled {
			level = 0x80
		}
		r = append(r, 0x00, level)
		// Levels 40 and 80 (not a SAS progressive) in the accounting
		// denomination, as every other amount here (Monaco's LP 1B
		// handler reports them so; only a progressive level is in cents).
		r = AppendBCD(r, e.cr(s.Handpay.Amount), 5)
		r = AppendBCD(r, 0, 2)
		r = append(r, 0x00)
		r = append(r, make([]byte, 10)...)
	case c == 0x1C:
		for _, v := range []int64{e.cr(s.CoinIn), e.cr(s.CoinOut), e.cr(s.Drop), e.cr(s.Jackpot), s.Played, s.Won, s.SlotDoor, s.PowerUps} {
			bcd4(v)
		}
	case c == 0x1E:
		for _, d := range []money.Cents{100, 500, 1000, 2000, 5000, 10000} {
			bcd4(s.Bills[d])
		}
	case c == 0x1F:
		r = e.gameConfig(r, s, 0)
	case c == 0x20:
		bcd4(int64(s.Drop / 100))
	case c == 0x2F:
		return e.selectedMeters(m, s)
	case billPolls[c] != 0:
		bcd4(s.Bills[billPolls[c]])
	case c == 0x46:
		bcd4(e.cr(s.Drop))
	case c == 0x47:
		bcd4(0) // no coin acceptor
	case c == 0x48:
		code, ok := lastBillCodes[s.LastBill]
		if !ok {
			code = 0
		}
		if s.LastBill == 0 || !ok {
			r = append(r, 0, 0)
			bcd4(0)
			break
		}
		r = AppendBCD(r, int64(e.Cfg.Country), 1)
		r = AppendBCD(r, code, 1)
		bcd4(s.LastBillCount)
	case c == 0x49:
		var n int64
		for _, k := range s.Bills {
			n += k
		}
		bcd4(n)
	case c == 0x4A:
		bcd4(e.cr(s.Drop))
	case c == 0x51:
		r = AppendBCD(r, int64(len(s.Games)), 2)
	case c == 0x52:
		g, err := gameNumber(m, s)
		if err != nil {
			return nil, err
		}
		r = append(r, m[2], m[3])
		in, out, jp, played := e.cr(s.CoinIn), e.cr(s.CoinOut), e.cr(s.Jackpot), s.Played
		if g > 0 {
			gm := s.Games[g-1]
			in, out, jp, played = e.cr(gm.CoinIn), e.cr(gm.CoinOut), e.cr(gm.Jackpot), gm.Played
		}
		for _, v := range []int64{in, out, jp, played} {
			bcd4(v)
		}
	case c == 0x53:
		g, err := gameNumber(m, s)
		if err != nil {
			return nil, err
		}
		r = append(r, m[2], m[3])
		r = e.gameConfig(r, s, g)
	case c == 0x55:
		r = AppendBCD(r, int64(s.Selected), 2)
	case c == 0x56:
		var d []byte
		for i, g := range s.Games {
			if g.Enabled {
				d = AppendBCD(d, int64(i+1), 2)
			}
		}
		r = append(r, byte(1+len(d)), byte(len(d)/2))
		r = append(r, d...)
	case c == 0xA0:
		if _, err := gameNumber(m, s); err != nil {
			return nil, err
		}
		r = append(r, m[2], m[3], e.features1(), 0, 0, 0, 0, 0)
	default:
		return nil, errUnsupported
	}
	return AppendCRC(r), nil
}

// features1 is LP A0's first feature byte (Table 7.14c as Monaco reads
// it): the validation style (bits 5–6: 01 system, 10 secure-enhanced, 00
// standard or none) and ticket redemption (bit 7), each only when the
// cabinet implements it. Validation extensions (bit 4: LP 7B/7C/7D) are
// not offered, and no other feature is: no AFT, bonus, tournament, RTE,
// multi-denomination, extended meters; polling at 200 ms; the reserved
// bytes 00 00.
func (e *Engine) features1() byte {
	var f byte
	if _, ok := e.systemValidator(); ok {
		f |= 1 << 5
	}
	if _, ok := e.secureEnhanced(); ok {
		f |= 1 << 6
	}
	if _, ok := e.redeemer(); ok {
		f |= 1 << 7
	}
	return f
}

func (e *Engine) cmd(c Command) error {
	if err := e.M.Command(c); err != nil {
		if errors.Is(err, ErrBadData) {
			return err
		}
		return fmt.Errorf("%w: %w", errBusy, err)
	}
	return nil
}

// setClock applies LP 7F's MMDDYYYY HHMMSS (BCD, m[2:9]) as an offset of
// the clock LP 7E reports (the cabinet's own clock is not changed: the
// event log keeps the system's time).
func (e *Engine) setClock(now time.Time, m []byte) error {
	if _, err := ParseBCD(m[2:9]); err != nil {
		return fmt.Errorf("sas: LP 7F % X: %w", m[2:9], ErrBadData)
	}
	t, err := time.ParseInLocation("01022006150405", bcdDigits(m[2:9]), time.Local)
	if err != nil {
		return fmt.Errorf("sas: LP 7F %s: %w", bcdDigits(m[2:9]), ErrBadData)
	}
	e.timeOffset = t.Sub(now)
	return nil
}

// bcdDigits renders BCD bytes as their digits.
func bcdDigits(b []byte) string { return fmt.Sprintf("%X", b) }

// gameConfig appends the 1F/53 fields of game g (0 = the machine: game 1's
// ID with the whole machine's highest max bet and lowest base %; a game
// without a figure, base % 0 — Poker Duel, played for chips — is left out
// of the lowest).
func (e *Engine) gameConfig(r []byte, s Snapshot, g int) []byte {
	id, pay, pct, maxBet := "00", "", 0, money.Cents(0)
	if g > 0 {
		gm := s.Games[g-1]
		id, pay, pct, maxBet = gm.ID, gm.Paytable, gm.BasePct, gm.MaxBet
	} else if len(s.Games) > 0 {
		id, pay, pct = s.Games[0].ID, s.Games[0].Paytable, 0
		for _, gm := range s.Games {
			maxBet = max(maxBet, gm.MaxBet)
			if gm.BasePct > 0 && (pct == 0 || gm.BasePct < pct) {
				pct = gm.BasePct
			}
		}
	}
	r = append(r, fixedASCII(id, 2, '0')...)
	r = append(r, "000"...)
	r = append(r, denomCodes[e.Cfg.Denom])
	mb := e.cr(maxBet)
	if mb > 0xFF {
		mb = 0xFF
	}
	r = append(r, byte(mb), 0x00, 0x00, 0x00)
	r = append(r, fixedASCII(pay, 6, ' ')...)
	r = append(r, fmt.Sprintf("%04d", min(max(pct, 0), 9999))...)
	return r
}

// fixedASCII pads or cuts s to n bytes.
func fixedASCII(s string, n int, pad byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = pad
	}
	copy(b, s)
	return b
}

// meterValue returns the value and BCD size of meter code for game g.
func (e *Engine) meterValue(s Snapshot, g int, code byte) (int64, int, bool) {
	if g > 0 {
		gm := s.Games[g-1]
		switch code {
		case 0x00:
			return e.cr(gm.CoinIn), 4, true
		case 0x01:
			return e.cr(gm.CoinOut), 4, true
		case 0x02:
			return e.cr(gm.Jackpot), 4, true
		case 0x05:
			return gm.Played, 4, true
		}
		return 0, 0, false
	}
	if d, ok := billMeters[code]; ok {
		return s.Bills[d], 4, true
	}
	switch code {
	case 0x00:
		return e.cr(s.CoinIn), 4, true
	case 0x01:
		return e.cr(s.CoinOut), 4, true
	case 0x02:
		return e.cr(s.Jackpot), 4, true
	case 0x03, 0x04:
		return e.cr(s.Cancelled), 4, true
	case 0x05:
		return s.Played, 4, true
	case 0x06:
		return s.Won, 4, true
	case 0x07:
		return s.Lost, 4, true
	case 0x0B, 0x24:
		return e.cr(s.Drop), 4, true
	case 0x0C:
		return e.cr(s.Credits), 4, true
	case 0x22:
		return e.cr(s.CoinOut) + e.cr(s.Jackpot), 4, true
	case 0x25:
		return s.SincePowerUp, 4, true
	case 0x26:
		return s.SinceDoor, 4, true
	}
	return e.ticketMeter(s, code)
}

// ticketMeter returns the ticket meters of Table C-7 the cabinet keeps
// (cashable tickets only: the restricted and non-restricted promotional
// meters are not tracked, and are left out like any untracked code).
// Amounts in cents are 5 BCD (Table C-7's size, as nCompass and Monaco
// send them), in credits 4 BCD; counts 4 BCD.
func (e *Engine) ticketMeter(s Snapshot, code byte) (int64, int, bool) {
	cents := func(c money.Cents) int64 { return max(int64(c), 0) }
	switch code {
	case 0x0D, 0x80: // SAS cashable ticket in (cashable and non-restricted), regular cashable ticket in: cents
		return cents(s.TicketsIn), 5, true
	case 0x0E, 0x86: // SAS cashable ticket out, cashable ticket out: cents
		return cents(s.TicketsOut), 5, true
	case 0x11, 0x35, 0x81: // cashable ticket in count (SAS, regular, validated)
		return s.TicketsInCount, 4, true
	case 0x12, 0x38, 0x87: // cashable ticket out count (SAS, regular, validated)
		return s.TicketsOutCount, 4, true
	case 0x15, 0x28, 0x29: // total ticket in, total cashable ticket in, regular cashable ticket in: credits
		return e.cr(s.TicketsIn), 4, true
	case 0x16, 0x2C: // total ticket out, total cashable ticket out: credits
		return e.cr(s.TicketsOut), 4, true
	}
	return 0, 0, false
}

// selectedMeters answers LP 2F: untracked codes are left out.
func (e *Engine) selectedMeters(m []byte, s Snapshot) ([]byte, error) {
	if len(m) < 7 || int(m[2]) < 2 || int(m[2]) > 2+10 {
		return nil, fmt.Errorf("sas: LP 2F length: %w", ErrBadData)
	}
	g, err := gameNumber(m[1:], s) // game number at m[3:5]
	if err != nil {
		return nil, err
	}
	var d []byte
	d = append(d, m[3], m[4])
	for _, code := range m[5 : len(m)-2] {
		v, n, ok := e.meterValue(s, g, code)
		if !ok {
			continue
		}
		d = append(d, code)
		d = AppendBCD(d, v, n)
	}
	r := append([]byte{e.Cfg.Address, 0x2F, byte(len(d))}, d...)
	return AppendCRC(r), nil
}
