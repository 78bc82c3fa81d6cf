// Package duel measures the Poker Duel computer opponent (games.md §5, issue
// 5): `cabinet duel-eval --deals N --seed S` plays the levels against each
// other and against simple reference players and prints the win rate and the
// chips won per deal with 95 % confidence intervals.
//
// Deals are played in mirrored pairs: the same shuffled shoe twice, the two
// strategies swapping seats (and so hands), which removes most of the luck of
// the cards from the difference. Each deal starts from fresh deep stacks
// (Config.Stack 10,000) so the session's caps never bind; chips per deal are
// the evaluated side's net result, antes included. The interval is the
// normal one over the pairs: mean ± 1.96 · sd / √pairs.
package duel
