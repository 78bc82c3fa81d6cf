// Package duel is the Poker Duel engine (games.md §5): five-card draw,
// heads-up against a computer opponent, played with play chips that are never
// money.
//
// A Round's stored encoding is versioned (Round.V, Version; encoding.go):
// Decode reads a stored round strictly and by version (records written
// before the field read as version 1) and checks it; testdata/*-v1.json pin
// the encoding (TestGoldenEncoding).
//
// # Rounds and the session
//
// A game.Round of Poker Duel is one deal, so the meters count deals. The
// session (stacks, outfit, carried pot, first speaker, deck, level, bluff
// seed, deal counter) is a Session value that the controller keeps between
// rounds (JSON) and hands to New. Without a playable session the only action
// is game.Buy (Params' Deck, Level and Seed): it stakes Config.Price
// credits (a Stake event on game.Session) and ends the round with a fresh
// Session. Chips never produce Stake or Payout events: they move in
// game.Chips events (Who "player" or "computer"; Text "ante", "open",
// "raise", "change", "see" for chips put into the pot, "pot" for the pot
// taken, "carry" for a pot left on the table, "pawn:<item>" and
// "buyback:<item>" for the pawnshop), and game.Note events record every
// betting action ("wait", "pass", ...) and "off:<item>".
//
// A deal: game.Deal pays both antes and deals five cards each, alternately,
// the player first (the computer's face down). The betting actions follow
// games.md §5; the computer acts inside Apply right after the player, up to
// the player's next decision, and its moves are in the same step's events.
//
// # Decisions where the rule book is silent (as a laboratory would read it)
//
//   - "Two waits end the round": after a Wait the second speaker is offered
//     Open, Change (the second wait) or Pass, exactly the rule book's list;
//     Wait itself is only the first speaker's action.
//   - Second round: a See by the first speaker with nothing owed goes to the
//     showdown at once (the rule book: "go to the showdown if nothing is
//     owed"), so the second speaker only acts after an Open.
//   - The draw: the first speaker draws first; the player sees how many cards
//     the computer drew before drawing when the computer speaks first, and
//     the computer sees the player's count in the other case.
//   - Bet sizes: an Open, and the increment of a Raise, are between MinBet and
//     MaxBet and capped at what the bettor can pay after matching and at what
//     the opponent can match. What the computer can match includes what its
//     remaining worn items would bring at the pawnshop, so a call may make it
//     pawn ("when it cannot cover the ante or a call"). When the cap is below
//     MinBet, the cap is the only size; at 0 no Open or Raise is offered.
//   - Pawning: whenever the computer must pay more than its stack, the item
//     pawned before (if any) comes off — its chips are spent — and the next
//     worn item is pawned for PawnValue chips, repeated as needed. At the end
//     of a deal a pawned item whose chips are lost (the stack is back at or
//     below what it was just before the pawn) comes off. Then, if the stack
//     exceeds BuyBack, the computer buys one item for PawnValue chips: the
//     pawned one if any, otherwise the last item taken off; it is worn again
//     and is the next to be pawned.
//   - The session ends after a deal when the player cannot pay the next ante
//     (player loses; checked first), or the computer cannot pay it and has
//     nothing left to pawn (player wins; a still-pawned item comes off).
//   - Identical hands leave the pot on the table (Session.Carry); it joins
//     the next deal's pot and is shown in the pot meanwhile.
//
// # The computer
//
// Strategies receive a View only: its own cards and discards, the public
// betting, the number of cards the opponent drew, stacks and pot. The View
// has no field that could hold the player's cards or the undealt deck (a
// test walks its type by reflection). The random word of each decision is
// a pure function of the session seed, the deal number and the decision
// number, so replaying a deal's recorded actions and cards reproduces the
// computer's moves without any random source.
package duel
