// Package rngtest is the cabinet's RNG evidence (platform.md §8, docs/rng.md):
// `cabinet rng` writes raw bytes from crypto/rand — the production source —
// for outside batteries such as dieharder, and `cabinet rng shuffle-test`
// runs chi-square tests of card-position uniformity and pair adjacency on
// the production shuffle (card.Shuffle). ChiSquareSF gives the p-values.
package rngtest
