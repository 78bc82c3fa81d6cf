// Package card holds playing cards, their text form for fixtures ("AS KH 10D"),
// shoes of N decks and the unbiased shuffle.
//
// Randomness always comes in from outside as an io.Reader: crypto/rand.Reader
// in production, NewSeeded for tests and the deterministic simulator. Draws are
// Fisher–Yates steps with rejection sampling, so no index is favoured (no
// modulo bias).
//
// The cabinet shuffles every shoe up front (Shuffle) and deals it in order;
// the order is committed before the player bets (commit.go: Commitment, the
// canonical encoding of docs/verify.md). DrawRandom, one Fisher–Yates step
// per draw over the undealt cards, remains for the analysis' simulations.
package card
