package id003

import (
	"errors"

	"cabinet/internal/serial"
)

// ErrShort is returned by Decode when the bytes end before the frame does:
// read more and decode again.
var ErrShort = errors.New("id003: frame incomplete")

// ErrSync is wrapped by Decode when the first byte is not the sync byte
// 0xFC: the byte is noise; skip it.
var ErrSync = errors.New("id003: no sync byte")

// ErrLength is wrapped by Decode and Encode when a frame's length byte is
// below 5 (sync, length, command, two CRC bytes) or its data does not fit
// in 255 bytes.
var ErrLength = errors.New("id003: bad frame length")

// ErrCRC is wrapped by Decode when a frame's CRC-16 does not match its bytes.
var ErrCRC = errors.New("id003: bad CRC")

// ErrTermios is wrapped when the serial port cannot be opened or set to
// 9600 baud, 8 data bits, even parity, 1 stop bit.
var ErrTermios = serial.ErrTermios

// ErrNoReply is wrapped when the validator did not answer a command with a
// valid frame within the reply timeout (after the retries).
var ErrNoReply = errors.New("id003: no reply")

// ErrUnexpected is wrapped when the validator answered a command with a
// frame that is not that command's answer (an invalid-command status, a
// status where an ACK or an echo was due).
var ErrUnexpected = errors.New("id003: unexpected reply")

// ErrConfig is wrapped by Config.Validate for a denomination table the
// driver cannot use (a code outside 0x61–0x68, a value not above zero, a
// code twice).
var ErrConfig = errors.New("id003: bad configuration")
