// Package sas is the machine (EGM) side of SAS 6.02, the Slot Accounting
// System protocol a casino management system uses to read meters and events
// and to enable or disable the cabinet (docs/sas.md; wire facts in
// shared/spec/sas.md, the SAS reference wins where they differ).
//
// The package is split the way the rules engines are: the CRC, BCD, the
// marked-stream decoder (the wakeup bit as Linux PARMRK marks it), the frame
// decoder and the poll Engine are pure and deterministic (time comes in as an
// argument). The cabinet's data reaches the engine through the Machine
// interface.
//
// The serial link is Port (a UART with the wakeup bit as SPACE parity and
// PARMRK, or a pty carrying the same marked stream) and Serve (timing,
// chirp, sync after a loop break, the ROM signature off the polling path).
// The cabinet's side of Machine and Queue is internal/sasmachine; the
// exception queue lives in the store (recovery.Tx.RaiseException), raised
// by the controller in the transaction of its cause. internal/sashost is an
// independent host that drives the real program over a pty in the tests.
// Tickets (TITO: system and secure-enhanced validation, ticket redemption)
// reach the engine through optional interfaces the cabinet may implement
// (tito.go), with the protocol's rules as pure functions it calls in its
// transactions. docs/sas.md lists every poll and exception.
package sas
