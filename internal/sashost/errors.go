package sashost

import "errors"

// Errors of the casino's exchanges, wrapped with the long poll and the
// bytes concerned. Serve counts the first four and goes on polling (a
// silent, busy or restarting machine is normal on a loop); ErrLink ends it.
var (
	// ErrNoReply: the machine said nothing within the wait (silent,
	// restarting, not yet synchronised, or the message was lost).
	ErrNoReply = errors.New("sashost: no reply")
	// ErrBusy: the machine answered busy (`a 00`); ask again after a
	// different message.
	ErrBusy = errors.New("sashost: machine busy")
	// ErrNACK: the machine refused the message (`a|80`: bad CRC or bad
	// data).
	ErrNACK = errors.New("sashost: NACK")
	// ErrBadReply: a reply of the wrong length, address or command, with a
	// bad CRC or a field that is not BCD.
	ErrBadReply = errors.New("sashost: bad reply")
	// ErrLink: the pty itself failed (a write or read error).
	ErrLink = errors.New("sashost: link failed")
)
