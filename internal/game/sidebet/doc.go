// Package sidebet holds the pure evaluators of the blackjack side bets
// (games.md §1 and §2): Any Pair, 21+3, Hot 3, Bust It and the Royal Poker
// five-card hand.
//
// Each evaluator returns the name of the paying hand — the key of
// blackjack.SideRule.Pays — or "" when the bet loses. Payout arithmetic (to
// one, for one, progressive percentages) belongs to the engine; the
// evaluators only classify cards. They are shared by the engine and the PAR
// analyser, so the analyser's enumeration classifies exactly as the cabinet
// pays.
package sidebet
