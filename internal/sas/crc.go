package sas

// crcTable is the byte table of CRC-16/KERMIT (reflected polynomial 0x8408).
var crcTable = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0x8408
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
}()

// CRC returns the CRC-16/KERMIT of b continued from crc (0 to start): the
// SAS CRC, polynomial x¹⁶+x¹²+x⁵+1 reflected, no final XOR.
func CRC(crc uint16, b []byte) uint16 {
	for _, x := range b {
		crc = crc>>8 ^ crcTable[byte(crc)^x]
	}
	return crc
}

// AppendCRC appends the CRC of msg to msg, low byte first.
func AppendCRC(msg []byte) []byte {
	c := CRC(0, msg)
	return append(msg, byte(c), byte(c>>8))
}

// CheckCRC reports whether the last two bytes of m are the CRC of the rest.
func CheckCRC(m []byte) bool {
	if len(m) < 3 {
		return false
	}
	n := len(m) - 2
	c := CRC(0, m[:n])
	return m[n] == byte(c) && m[n+1] == byte(c>>8)
}
