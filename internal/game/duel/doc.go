// Package duel is the Poker Duel engine (games.md §5): five-card draw,
// heads-up against a computer opponent, played with play chips that are never
// money.
//
// A game.Round of Poker Duel is one deal. The session (stacks, outfit, carried
// pot, first speaker, deck, level, bluff seed, deal counter) is a Session
// value that the controller keeps between rounds and hands to New. Without a
// live session the only action is game.Buy, which stakes Config.Price credits
// (Bet game.Session) and ends the round with a fresh Session.
package duel
