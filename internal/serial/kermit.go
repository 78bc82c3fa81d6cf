package serial

// Kermit returns the CRC-16/KERMIT of b continued from crc (0 to start):
// the CCITT polynomial x¹⁶+x¹²+x⁵+1 processed least significant bit first
// (reflected, 0x8408), no final XOR. SAS frames and ID-003 frames both end
// with it, low byte first.
func Kermit(crc uint16, b []byte) uint16 {
	for _, x := range b {
		crc = crc>>8 ^ kermitTable[byte(crc)^x]
	}
	return crc
}

var kermitTable = func() (t [256]uint16) {
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
