// Package game is the contract every rule engine of the cabinet fulfils
// (games.md §6): a pure state machine that lists its legal actions, applies one
// action with a card source, and returns the events of that step.
//
// Events carry every card drawn (in draw order) and every movement of money:
// a Stake takes money from the credit meter, a Payout puts money back (a
// returned stake included). The controller derives credits and meters from
// events alone, so engines never touch meters, and replaying a round's steps
// with a card.Stack of the recorded cards rebuilds its state bit for bit.
//
// An Action's generic fields are Kind, Funds and Bets; a game's own payload
// (Poker Duel's choices) is its Params, encoded and read by that game's
// engine. Void is the controller's own step of a voided round, never an
// engine action.
//
// Engines live in sub-packages (blackjack, duel); they import only the
// standard library and the cabinet's own pure packages (card, money, game).
package game
