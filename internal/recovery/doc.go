// Package recovery is the cabinet's non-volatile memory (platform.md §4): one
// bbolt file holding the machine record (credits, meters, progressive pool,
// pending handpay), the open round, the state games carry between rounds, the
// operator overrides, two rings (the game recall and the event log) and the
// SAS exception queue and host commands.
//
// It is the only package that imports bbolt.
//
// # Write-ahead
//
// The controller decides a step (cards drawn) and then commits everything the
// step changes in ONE Store.Update: one bbolt read-write transaction (never
// Batch), made durable with fdatasync and then proven (the newest-store proof
// is the commit point: with a proof file bbolt's own syncs are off, the store
// is synced once, then the proof; mirror.go, unproven.go). Only after Update
// returns nil may anything be shown. Before committing, Update verifies the meter invariant of
// the machine record written in the transaction, and the ticket meters
// against the ticket records (tito_check.go); a violation returns
// ErrInvariant and nothing is written.
//
// # Records
//
// Every value is an envelope: 1 byte record version, 4 bytes CRC-32C, then the
// JSON payload. The checksum covers the bucket name and the key too, so a
// record damaged, truncated or moved to another key is reported as a
// *CorruptError (wrapping ErrCorrupt) that names the bucket and the key.
//
//	meta/store          store format (2; 1 before the noise ring), creation
//	                    time, the store's identity
//	meta/commit         commit counter (incremented by every Update)
//	machine/machine     Machine: credits, meters, pool, handpay, last bill
//	round/open          OpenRound header (absent between rounds); older
//	                    stores: the whole OpenRound (still read)
//	round/shoe          the open round's shoe cards (written when they change)
//	round/step<#n>      the open round's step n (written once)
//	carry/<game>        per-game state kept between rounds (opaque bytes)
//	shoe/<game>         the game's committed shoe (secret, order, commitment;
//	                    docs/verify.md), shoe/seq the last shoe's number
//	shoes/#<seq>        revealed shoes (2×RecallDepth newest kept; shoe.go)
//	                    (these two buckets exist once a shoe was committed)
//	overrides/<key>     operator setting overrides
//	recall/#<seq>       meters.Recall ring (RecallDepth newest kept)
//	events/#<seq>       meters.Event ring of the significant events
//	                    (EventDepth newest kept; every kind but noise)
//	noise/#<seq>        meters.Event ring of device noise (meters.Noise:
//	                    the coalesced line faults; EventDepth newest
//	                    kept; the bucket exists once noise was logged).
//	                    The two rings share one sequence (logdetail.go):
//	                    noise never evicts a significant event
//	sas/#<seq>          SAS exception queue (ExceptionDepth kept; sas.go),
//	                    raised in the transaction of its cause
//	sas/queue           the queue's next sequence number
//	sas/host            HostState: the host's commands in force
//	                    (the sas bucket exists once SAS has written)
//	tito/state          ticket sequence numbers, the open ticket out and in,
//	                    the totals the ticket meters must equal, the
//	                    secure-enhanced validation state (LP 4C), the last
//	                    system-validation cash-out ID (tito.go)
//	tito/note           Note: the note between the decision to stack and
//	                    Stacked (ID-003; note.go)
//	tickets_out/#<seq>  TicketOut ring (TicketDepth newest kept; tito.go)
//	tickets_in/#<seq>   TicketIn ring, with each ticket's SAS redemption
//	                    (TicketDepth newest kept; ticketin.go)
//	                    (these three buckets exist once a ticket or note
//	                    has been recorded)
//
// # Newest-store proof
//
// Options.Mirror names a second small file holding the store's identity,
// its commit counter, bbolt's transaction id and a digest of the machine
// record, written and synced after every commit and compared at boot
// (mirror.go, docs/recovery.md): an older, other, missing or empty store is a
// memory error; a commit written but never proven is discarded at boot, and
// only when the proof shows its proof write never completed a copy
// (decideUnproven: a damaged proof slot never undoes a shown step). A store
// with history whose proof is missing is a memory error for every command
// (proofMissing). Open never creates a store unless Options.Init; Init (`cabinet
// init`) refuses every store with history, whatever its proof.
//
// # Integrity
//
// Check is the boot check: the bbolt file structure walked from the file
// itself (meta pages, page bounds, no page referenced twice), bbolt's own
// tx.Check, every record's version and checksum, the expected set of keys and
// the meter invariant. Any failure marks the Store failed: Update then refuses
// to write (ErrFailed) so the file stays evidence, while View keeps working
// for the audit screens. Only Clear (a full memory clear) re-enables writing;
// it keeps the old file aside, never deletes it.
//
// Decisions a certification lab would want stated:
//   - A bbolt meta page that fails its own checksum is reported as corruption,
//     although bbolt would silently fall back to the previous transaction: that
//     fallback would boot with money one commit old. (A power cut tearing the
//     64-byte meta write is the only benign cause; it is treated as a memory
//     error too.)
//   - The file is read with little-endian page layout (amd64, arm64).
//   - A machine record that is missing from an initialised store is
//     corruption, never "a fresh store": zero credits are not assumed.
package recovery
