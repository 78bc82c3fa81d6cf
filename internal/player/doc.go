// Package player holds the players: policies that choose an action at a
// table, apart from the rules that say which actions are legal.
//
//   - Optimal plays blackjack by the PAR analyser's valuation
//     (internal/analysis/par.Values): every decision maximises the expected
//     value the figures are computed with, so a simulation of the engine
//     under Optimal reproduces the computed return. The autoplay (`cabinet
//     sim`) and the analyser's engine comparisons use it.
//
//   - Basic plays blackjack by a fixed chart adapted to each variant through
//     its legal actions (the engine benchmarks and the controller's tests
//     play with it).
//
// Poker Duel's estimator (duel.HardStrategy) stays in the duel engine: it
// is the Baron's own play at the hard level, part of the game the rule book
// describes (games.md §5: the computer opponent), and so part of the rules;
// autoplay reuses it for the player's side from the player's view only.
package player
