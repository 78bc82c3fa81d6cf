// Package id003 is the host side of JCM's ID-003 serial protocol for note
// validators with escrow (UBA, iVIZION and the many units that speak it):
// platform.md §5, serial mode; docs/hardware.md, "Serial note validator".
//
// The wire: 9600 baud, 8 data bits, even parity, 1 stop bit, the host polls
// and the validator answers. A frame is FC, length (the whole frame, sync to
// CRC), a command or status byte, data, and a CRC-16/KERMIT low byte first
// (crc.go). The pure parts — CRC, framing, the command and status codes —
// are in crc.go, frame.go and codes.go; the serial port in port.go; the poll
// loop in driver.go; what the driver needs from the cabinet in cashbox.go.
// The validator side, for tests and the simulator, is id003emu. Barcode
// tickets (TITO ticket-in, Config.Tickets) follow public descriptions of
// the barcode extension, to check on a real unit (codes.go).
//
// The protocol was written from its public facts (the open ID-003 hosts in
// C#, C++ and Python agree on the codes); no code was copied.
package id003
