// Package controller is the controller that ties the cabinet together:
//
//	input (hw) → is it legal? → engine step → ONE store transaction → publish snapshot
//
// It is single-threaded: every input (hardware, touch, the SAS host's
// commands and acknowledgements, autoplay) reaches it through Handle, its
// one entry point, one at a time (Run is the loop that calls it); the display reads the last published view.Snapshot, built only from
// committed state, so nothing reaches the screen, a lamp or the credit meter
// before its transaction has committed (platform.md §4, write-ahead rule).
//
// Where things are:
//   - controller.go: Options, New, boot, void.
//   - input.go: Input, Handle (the one entry point), Run.
//   - ledger.go: the ledger, owner of the store and the committed state;
//     commit, the only path that changes it (money, meters, the open round,
//     doors, keys, jams, host commands and acknowledgements); a store failure
//     there is a memory-error tilt, never an exit.
//   - snapshot.go: publish, the snapshot built from a committed state value;
//     help screens.
//   - panel.go: one button table per screen: the lamps and what each press
//     does, from the same table.
//   - cash.go: bills, cash out, handpays, doors and keys, tilts, outputs.
//   - ui.go: the screens' non-durable state, betting positions and chips.
//   - step.go: a game step, its money and the progressive pool.
//   - duel.go: Poker Duel's table; rounds.go: engines, replay, restore.
//   - audit.go: the technician's screens and the memory clear;
//     operator.go: the operator menu (groups, pages, drafts, live return).
//
// Bets placed before DEAL are UI state, not money: they are debited by the
// deal step's transaction, together with the cards drawn, the meters and the
// progressive contribution. Every later step of a round is committed the same
// way, and the round is closed into the game recall in the transaction of its
// last step.
//
// Randomness comes from an RNG: crypto/rand in production, a seeded stream
// per (round, step) for the simulator, so a killed and restarted simulation
// replays an uncommitted step with the same bytes (crash harness).
package controller
