package id003

import "cabinet/internal/serial"

// CRC is ID-003's frame check: CRC-16 with the CCITT polynomial x¹⁶+x¹²+x⁵+1
// processed least significant bit first (reflected, 0x8408), initial value
// 0 and no final XOR — the variant catalogued as CRC-16/KERMIT. It covers
// every byte from the sync byte to the last data byte and travels low byte
// first. Checked against the published status request FC 05 11 27 56.
func CRC(b []byte) uint16 { return serial.Kermit(0, b) }
