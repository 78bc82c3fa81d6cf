// Package controller is the controller that ties the cabinet together:
//
//	Input → Handle → the screen's table entry → engine step → ledger.commit → publish snapshot
//
// It has three owners (docs/architecture.md):
//   - the ledger (ledger.go) owns the store and the committed state, and
//     commit(op, change) is the only way to change it: one fsync'd
//     transaction, after which the committed state is replaced; a store
//     failure there is a memory-error tilt, never an exit;
//   - the screen (screen.go, panel.go) owns what is not money (mode,
//     selection, bets not dealt, pages, drafts) and one button table per
//     mode whose entries carry what a lit button does and why an unlit one
//     is refused, so the lamp, the acceptance and the refusal notice come
//     from one entry;
//   - the presenter (presenter.go) draws the snapshot as a pure function of
//     the committed state, the screen and the audit page's data.
//
// Two desks own a peripheral's flow each, in their own package
// (internal/desk, which imports neither this package nor the display).
// Each holds a deskLedger (desks.go): its commits reach the money and the
// desk's own committed values (state.tickets, state.notes), nothing else
// of state; what they ask of the rest is a narrow interface
// (ticketCabinet, noteCabinet: acceptance decided here, the screen's
// words, the hardware path of a refused note):
//   - the ticket desk (desk.TicketDesk) owns cash-out by ticket: the
//     printer's goroutine, the wait for the host's validation number, the
//     channel their results come back on, the secure-enhanced ID;
//   - the note desk (desk.NoteDesk) answers the note validator's driver:
//     escrow by the rules of acceptance, credit at vend valid, power-up
//     statuses, the validator's tilts, and tickets in (hold while the host
//     redeems, order, credit once).
//
// It is single-threaded: every input (hardware, touch, the SAS host's
// commands and acknowledgements, autoplay) reaches it through Handle, its
// one entry point, one at a time (Run is the loop that calls it). The
// display reads the last published view.Snapshot, built only from
// committed state, so nothing reaches the screen, a lamp or the credit
// meter before its transaction has committed (platform.md §4, write-ahead
// rule).
//
// Where things are:
//   - controller.go: Options, New, boot, void.
//   - input.go: Input, Handle (the one entry point), Run.
//   - ledger.go: the ledger, the committed state, commit, the event log and
//     the host events emitted in a commit.
//   - screen.go, panel.go: the screen state, betting positions and chips;
//     the button tables.
//   - presenter.go: publish, the audit pages read once, the snapshot; help.
//   - notice.go: the notices, and the refusal of a bill or a key turn.
//   - shown.go: what is shown is part of what is accepted: the display's
//     reports (Input.Shown), the table unlit while a step is revealed, the
//     result held before the next round.
//   - cash.go: bills, cash out, handpays, doors and keys, outputs.
//   - desks.go: the desks' ledger and cabinet interfaces, the note
//     validator's seam (NoteValidator), ticket-in acceptance; tito.go:
//     the desks' names for the controller's callers, TITOInfo.
//   - step.go: a game step, its money and the progressive pool.
//   - duel.go: Poker Duel's table; rounds.go: engines, replay, restore.
//   - autoplay.go: autoplay, pressing lit buttons only.
//   - host.go: the SAS host's commands, host events, HostInfo (the SAS
//     exception codes are internal/sasmachine's table).
//   - audit.go, selfcheck.go: the technician's pages and the memory clear;
//     operator.go: the operator menu (groups, pages, drafts, live return).
//   - inforce.go, returns.go, draftreturn.go: the settings in force
//     (internal/inforce's data) and the one interface the controller asks
//     for them, Settings: apply the operator's overrides, the help figures,
//     a draft's return off the input path. The configuration file and the
//     return analysis stay outside: internal/settings implements Settings
//     from internal/config and internal/analysis/rtp, cmd/cabinet wires it,
//     and the import rules (internal/imports) keep them out of this
//     package.
//
// Bets placed before DEAL are UI state, not money: they are debited by the
// deal step's transaction, together with the cards drawn, the meters and the
// progressive contribution. Every later step of a round is committed the same
// way, and the round is closed into the game recall in the transaction of its
// last step.
//
// Randomness comes from an RNG: crypto/rand in production, seeded streams
// for the simulator, so a killed and restarted simulation replays with the
// same bytes (crash harness). Every shoe is shuffled whole from the RNG and
// committed with a fresh secret before the player can bet on it; the round
// deals it in order and the shoe is revealed once finished (rng.go,
// docs/verify.md).
package controller
