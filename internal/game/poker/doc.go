// Package poker evaluates five-card poker hands for Poker Duel (games.md §5),
// from the 52-card deck or the 32-card deck (7 to ace).
//
// Eval returns one comparable integer Value: a better hand has a larger Value,
// identical hands (category, rank cards and every kicker equal; suits never
// count) have equal Values. The category order is the rule book's for both
// decks: high card, one pair, two pairs, three of a kind, straight, flush,
// full house, four of a kind, straight flush. (With 32 cards a flush is rarer
// than a full house — 204 against 1,344 hands — but games.md keeps the
// 52-card order on purpose, so the evaluator does too.)
//
// The ace is high, or low in a straight: A-2-3-4-5 with 52 cards, A-7-8-9-10
// with 32 cards. A straight's height is its top card, the ace-low straight
// being the lowest of its deck.
//
// Eval is a table lookup (tables.go): five card codes added, one or two
// loads, no allocation, no branch but the flush test. The tables are filled
// at start-up from evalBits, the bit-counting evaluator shipped first, and
// the tests prove Eval equal to it over every hand of both decks, besides
// the published category counts.
package poker
