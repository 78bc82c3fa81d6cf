// Package cabinet is the controller that ties the cabinet together:
//
//	input (hw) → is it legal? → engine step → ONE store transaction → publish snapshot
//
// It is single-threaded: Run reads hardware inputs and handles them one at a
// time; the display reads the last published view.Snapshot, built only from
// committed state, so nothing reaches the screen, a lamp or the credit meter
// before its transaction has committed (platform.md §4, write-ahead rule).
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
package cabinet
