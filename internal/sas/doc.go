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
// Status: the protocol core only. The serial link (termios, timing, chirp),
// the [sas] configuration, the durable exception queue and the cabinet's
// Machine are not written yet, and nothing in the cabinet uses this package.
package sas
