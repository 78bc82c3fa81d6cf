// Package blackjack is the shared blackjack core and the four blackjack
// variants of games.md (§0–§4): Classic (American/European), Royal Poker,
// Free Bet and Zappit, as pure state machines implementing game.Round.
package blackjack
