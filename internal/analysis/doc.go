// Package analysis computes the cabinet's PAR figures and RNG evidence
// (issue 9): the return to player of every blackjack game's main bet and
// side bets from blackjack.Rules (the one source of truth shared with the
// engine), the strategy the autoplay uses, the figures the help screens
// show, and the `cabinet par` and `cabinet rng` commands.
//
// Floating point is allowed here (analysis output only); money paid by the
// cabinet never passes through this package.
//
// Main game: the expected value of every decision is computed by recursion
// over the shoe composition (composition-dependent: each decision uses the
// hand's own cards and the dealer's up card, with exact card removal), the
// dealer's final-total distribution by recursion over the dealer's draws.
// Where the dealer peeks, values are computed with the hole card treated as
// a future draw and the dealer blackjack excluded; cards being exchangeable
// this is exact. Approximations are named in the output (split hands from a
// fixed composition, always-resplit, the Zappit win cap).
//
// Side bets are exact enumerations over the shoe composition (Any Pair, 21+3,
// Hot 3, Royal Poker over all five-card hands of the deck) or by dealer
// recursion (Bust It), classified by the same sidebet evaluators the engine
// pays with.
package analysis
