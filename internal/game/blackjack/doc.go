// Package blackjack is the shared blackjack core and the four blackjack
// variants of games.md (§0–§4): Classic (American/European), Royal Poker,
// Free Bet and Zappit, as pure state machines implementing game.Round.
//
// One engine plays every variant; Rules (rules.go, shared with the PAR
// analyser) drives the differences.
//
// # Where each rule lives (one games.md section, one file)
//
//   - classic.go: §4 Classic: preset, American/European dealing (face-down
//     double), surrender (settled at once after the peek, or held until the
//     dealer's hand is complete with European dealing).
//   - royal.go: §1 Royal Poker: preset, even money, the progressive pool
//     arithmetic of the Royal Poker side bet (PoolContribution, PoolWin).
//   - freebet.go: §2 Free Bet: preset, free double/split tokens, the dealer
//     blackjack found at the end (original bet only), the persisted cut-card
//     shoe (NextShoe).
//   - zappit.go: §3 Zappit: preset, the zap, the round's win cap.
//   - the shared core (§0): round.go (state, encoding Version), apply.go
//     (the step: deal, insurance, hit, double, split), legal.go (what is
//     accepted), settle.go (dealer play, settlement, side bets), table.go
//     (what may be shown), check.go (invariants of a stored round), mem.go
//     (storage reuse for AppendApply). Card values and hand totals are
//     card.HardValue and card.BlackjackTotal (one of each in the tree).
//
// New(rules, number) returns a Round that waits for a Deal action; Apply
// moves it one decision at a time and returns the events of the step
// (AppendApply, AppendLegal and Renew do the same without allocating, for
// the simulator); the round progresses by itself between decisions
// (peek, a dealer blackjack ending the round, automatic stands, split aces,
// the card cap, Charlie, dealer play, settlement). A Round is a plain value
// that round-trips through encoding/json, its rules included.
//
// # Events
//
// Every card drawn is a CardDealt event in draw order (Hand = index in
// Round.Hands at the time of the event, game.Dealer for the dealer; FaceDown
// for the hole card and a Classic-American doubled card, turned by a Reveal
// event). A split inserts the new hand right after its parent, so the
// indices of later hands grow by one from that step on. Every cent taken is
// a Stake event and every cent returned a Payout event, per bet: Main,
// SplitBet (the stake of a hand made by a split), DoubleBet, Insurance and
// each side bet. Staked − paid is the house result of the round.
//
// # Decisions where the rule book is silent (a certification reading)
//
//   - Free Bet tokens are Token events (no money). A winning token is paid
//     its win only: a Payout of Bet DoubleBet or SplitBet with Text "free";
//     a push or a loss of a token pays nothing.
//   - Even money (Royal) is a Payout of 2 × the main bet, Bet Main, Text
//     "evenmoney", with a Result Win; the hand is then settled.
//   - Insurance costs half the hand's main bet rounded down to the cent and
//     is not offered when that is 0. It is asked hand by hand (Insure /
//     NoInsure on the active hand; Royal asks EvenMoney / NoInsure of a
//     blackjack instead). Its Result carries Bet Insurance.
//   - Surrender returns half the main bet rounded down to the cent.
//   - Royal Poker doubles on a best total of 10 or 11 (these are always hard).
//   - Royal Poker side bet: Pays are multiples of the stake paid "for one"
//     (500 on a 1.00 stake credits 500.00, the stake not returned on top;
//     games.md §1: a prize per 1.00 stake, scaled linearly with the
//     stake). Royal and straight flush emit JackpotWin{Spot, Percent 100
//     or 10} and no Payout: the controller resolves the pool. The bet is
//     placed once per round, on either spot, when both spots carry a main bet.
//     The Free Bet side bets pay "to one": stake × (Pays + 1).
//   - Bust It on a spot whose hand is a blackjack pushes right after the deal.
//   - Classic deals a doubled card face down exactly when it deals a hole
//     card (American); European dealing (Peek NoHole) offers insurance on an
//     ace too and settles it when the dealer's second card comes; that card
//     is drawn only if a hand, an insurance or a Bust It waits on it.
//     Surrender there is allowed as the first decision (no peek to wait for)
//     and held (Hand.SurrenderHeld) until the dealer's hand is complete: a
//     dealer blackjack then takes the whole bet (Result Lose, no Payout),
//     anything else returns half (Result Surrender) (games.md §4, updated).
//   - A Double, Split or Insure the funds do not cover is refused with an
//     error wrapping game.ErrFunds (it is not in Legal either); every other
//     refusal of an action is a *game.IllegalError.
//   - Zappit win cap: see payCapped in zappit.go. The round's net win is the
//     money paid back minus the money staked over the whole round (main,
//     split, double and insurance; a returned stake is not a win). When it
//     exceeds Rules.WinCap, the payouts are reduced by the excess, latest
//     decided first, so the net win is exactly WinCap, and a Note event
//     "wincap" carries the amount withheld. All payouts of a capped round are
//     held (Round.Pending) and paid when the round ends; outcomes (a zap 21
//     winning at once, insurance) are still decided and shown when they
//     happen.
package blackjack
