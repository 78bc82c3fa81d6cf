// Package crashtest implements `cabinet crashtest`, the laboratory's two
// robustness harnesses (platform.md §4, docs/recovery.md; bbolt's robustness tests as the model):
//
// Power loss: `<bin> sim --game all --rounds R --seed S --store FILE` runs as a
// real child process on a real file and is SIGKILLed at seeded random
// moments, then restarted on the same file, until it finishes. After every
// kill the file is opened read-only and fully checked (records, checksums,
// meter invariant, bbolt structure). At the end an uninterrupted reference
// run with the same seed on another file must agree: final credits, every
// meter (power-ups and recoveries excepted: they count the restarts), the
// progressive pool, the round counter, the state games carry between rounds,
// the games' committed shoes and the revealed ones (same shoes, secrets and
// commitments: a kill between commitment and deal deals the committed shoe),
// and the whole recall ring (same cards, actions, stakes and payouts, same
// credits before and after; wall times excepted), every recalled round
// verified against its shoe (docs/verify.md).
//
// Corruption: copies of a finished store are damaged (random byte flips
// anywhere, flips inside one page, zeroed pages, zeroed meta pages,
// truncation) and booted: opened read-write, checked, read, and written once
// as a boot would. Every case must end in "refused" (the file cannot be
// opened: corrupt), "memory error" (Check fails: play disabled) or "clean"
// with every record identical to the undamaged store. A clean boot with any
// different record, or a crash, fails the harness.
//
// Tickets (TITO, `--tito N`, TITO in tito.go): `<bin> sim --sas --acceptor
// --printer --cashout-every 5` plays against the casino system (sashost's
// Serve), the note validator (id003emu) and the ticket printer (tclemu),
// all owned by the harness so they outlive the child; a player inserts
// notes and puts the printed tickets back in (now and then a copy of a
// redeemed one). After every SIGKILL and at the end: money conserved by the
// meters, bills = notes stacked, tickets credited = tickets stacked at the
// casino's amounts, no ticket paid twice, every printed ticket the casino's.
package crashtest
