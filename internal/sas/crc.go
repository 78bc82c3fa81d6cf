package sas

import "cabinet/internal/serial"

// CRC returns the CRC-16/KERMIT of b continued from crc (0 to start): the
// SAS CRC, polynomial x¹⁶+x¹²+x⁵+1 reflected, no final XOR.
func CRC(crc uint16, b []byte) uint16 { return serial.Kermit(crc, b) }

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
