package sas

import (
	"errors"

	"cabinet/internal/serial"
)

// ErrBadCRC is returned when a message's CRC does not match its bytes.
var ErrBadCRC = errors.New("sas: bad CRC")

// ErrBadData is returned by a Machine command when the poll's data is not
// acceptable (an unknown game number, a bad flag); the engine answers NACK.
var ErrBadData = errors.New("sas: bad data")

// ErrConfig is wrapped by Config.Validate for a bad [sas] value.
var ErrConfig = errors.New("sas: bad configuration")

// ErrBCD is returned by ParseBCD for a nibble above 9.
var ErrBCD = errors.New("sas: not BCD")

// ErrTermios is wrapped when the serial port cannot be set up.
var ErrTermios = serial.ErrTermios

// ErrNoCashout is returned by SystemValidator.SetValidationNumber when the
// cash-out is no longer waiting for a number (LP 58 answers "not in
// cash-out").
var ErrNoCashout = errors.New("sas: no cash-out waiting for validation")
