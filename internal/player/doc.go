// Package player holds the players: policies that choose an action at a
// table, apart from the rules that say which actions are legal.
//
//   - Optimal plays blackjack by the PAR analyser's valuation
//     (internal/analysis/par.Values): every decision maximises the expected
//     value the figures are computed with, so a simulation of the engine
//     under Optimal reproduces the computed return. The autoplay (`cabinet
//     sim`) and the analyser's engine comparisons use it.
//
// The engine's chart player (blackjack.Basic) and the Poker Duel estimator
// (duel.HardStrategy) stay in their engines for now: the Duel engine plays
// its computer opponent with HardStrategy, and the blackjack engine's own
// tests and benchmark play with Basic (they cannot import this package
// without an import cycle).
package player
