// Package analysis is the cabinet's laboratory: what it computes about the
// games, in parts —
//
//   - par (internal/analysis/par): the PAR analyser, the return to player
//     of every blackjack game's main bet and side bets from blackjack.Rules
//     (the one source of truth shared with the engine), and `cabinet par`;
//   - rtp (internal/analysis/rtp): the return of the rules in force and the
//     check that refuses a forbidden combination (platform.md §6);
//   - rngtest (internal/analysis/rngtest): `cabinet rng`, raw RNG bytes for
//     outside batteries and the shuffle uniformity test;
//   - duel (internal/analysis/duel): `cabinet duel-eval`, the Poker Duel
//     opponent measured;
//   - this package: the figures of the shipped configuration
//     (figures.json), generated from the analyser, for samples and docs.
//
// The player that plays by these figures (player.Optimal, on par.Values)
// lives in internal/player. Floating point is allowed in analysis output
// only; money paid by the cabinet never passes through these packages.
package analysis
