// Package card holds playing cards, their text form for fixtures ("AS KH 10D"),
// shoes of N decks and the unbiased shuffle.
//
// Randomness always comes in from outside as an io.Reader: crypto/rand.Reader
// in production, NewSeeded for tests and the deterministic simulator. Draws are
// Fisher–Yates steps with rejection sampling, so no index is favoured (no
// modulo bias).
//
// A Shoe can be used in two ways, both plain Fisher–Yates:
//   - shuffled up front (Shuffle) and then dealt in order, for games whose shoe
//     persists between rounds (Free Bet's cut-card shoe);
//   - shuffled lazily (DrawRandom): each draw is one Fisher–Yates step over the
//     undealt cards, for games "freshly shuffled before every round". Future
//     cards are then not decided until the step that draws them, which is the
//     step the store commits.
package card
