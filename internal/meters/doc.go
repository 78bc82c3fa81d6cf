// Package meters holds the cabinet's lifetime accounting (platform.md §3): the
// meters, the money invariant that ties them to the credit meter, and the
// shapes of the game recall and the event log kept by the store.
//
// The package is pure: no I/O, no clock, no floating point. The store
// (internal/recovery) persists a Meters value inside the machine record and
// verifies Check before every commit and at boot; the controller increments
// the meters in the same transaction as their cause.
//
// # The invariant
//
//	credits = BillsIn + TicketsIn − TotalIn + TotalWon − HandpayCancelled − TicketsIssued
//
// TotalIn counts every stake that left the credit meter (main bets, doubles,
// splits, insurance, side bets, Poker Duel session purchases). TotalWon counts
// every payout that entered the credit meter, returned stakes and void refunds
// included. A win at or above the handpay limit is paid by the attendant: it
// never enters the credit meter, so it is NOT in TotalWon; it goes to
// JackpotHandpay (and JackpotHandpays) and stays outside the invariant. A
// cash-out handpay takes the credits to zero when the attendant clears it and
// adds them to HandpayCancelled. A cash-out to a ticket takes the credits off
// the meter when the ticket is recorded, before it is printed, and adds
// them to TicketsIssued; each issued ticket then ends printed (TicketsOut)
// or voided by the attendant and paid by hand (TicketsVoided), and at most
// one is outstanding in between (tickets.go). A ticket in enters the credit
// meter and TicketsIn when it is stacked. No other meter enters the
// invariant. This is issue 30's "bills + tickets in = credits played +
// tickets out + handpays":
//
//	BillsIn + TicketsIn = credits + (TotalIn − TotalWon) + TicketsOut
//	                      + (HandpayCancelled + TicketsVoided) + outstanding
//
// SAS's ticket meters (sas.Snapshot) are TicketsIn/TicketsInCount and
// TicketsOut/TicketsOutCount; its cancelled-credits handpay meter is
// HandpayCancelled + TicketsVoided.
//
// ProgressiveContrib is in pool units (1e-7 cent, games.md §1 "Progressive jackpot"); it does
// not enter the invariant either: the contribution is part of the stake
// (already in TotalIn) and a progressive win is a payout (in TotalWon, or in
// JackpotHandpay when paid by hand). ProgressivePaid counts the progressive
// prizes in cents however they were paid.
package meters
