// Package par is the PAR analyser (games.md, docs/par.md): the return to player of every
// blackjack game's main bet and side bets computed from blackjack.Rules (the
// one source of truth shared with the engine), the valuation of every
// decision (Values) that internal/player.Optimal plays by, and the `cabinet
// par` command (Command, Par). Test support shared with the players' engine
// comparisons is in partest.
//
// Main game: the expected value of every decision is computed by recursion
// over the shoe composition (composition-dependent: each decision uses the
// hand's own cards and the dealer's up card, with exact card removal), the
// dealer's final-total distribution by recursion over the dealer's draws.
// Where the dealer peeks, values are computed with the hole card treated as
// a future draw and the dealer blackjack excluded; cards being exchangeable
// this is exact. Where there is no peek (European dealing, games.md §4) a
// dealer blackjack found after play takes everything staked on a
// non-blackjack hand, a surrendered hand's whole bet included.
//
// What the figures assume is printed with every sheet. Each split hand is
// played on its own cards, the up card and the spot's pair cards — exact for
// that player (see splitValue) — and a pair card drawn to a split hand is
// always resplit while the rules allow.
// Free Bet's shoe is analysed full (the cut card's depletion is not
// modelled). A win cap (Zappit) is valued at the worst bet — the maximum bet
// on every spot: by Analyse (the return guard, help) by its floor, a proven
// lower bound of the capped return of the analyser's own player
// (capbound.go, docs/par.md); by `cabinet par` also by simulating the cap's
// cost on the engine with a stated 95 % interval (capsim.go, Options.CapRounds).
//
// Side bets are exact enumerations over the shoe composition (Any Pair, 21+3,
// Hot 3, Royal Poker over all five-card hands of the deck) or by dealer
// recursion (Bust It), classified by the same sidebet evaluators the engine
// pays with.
//
// Floating point is allowed here (analysis output only); money paid by the
// cabinet never passes through this package.
package par
