package blackjack

import (
	"cabinet/internal/game"
	"cabinet/internal/game/sidebet"
	"cabinet/internal/money"
)

// Royal Poker blackjack, games.md §1: the preset, even money instead of
// insurance for a blackjack, the automatic stand on a hard 21 only
// (Rules.AutoStandHardOnly, in autoStand), the double on 10 or 11
// (Rules.Double), the Royal Poker side bet (its jackpots here, its paytable in
// settleSide) and its progressive
// pool arithmetic (PoolContribution, PoolWin; the pool itself is kept by the
// controller in the machine record).

// Royal is games.md §1.
func Royal() Rules {
	return Rules{
		Game: game.Royal, Decks: 1, FreshShuffle: true,
		HitSoft17: true, Peek: PeekAceTen,
		MaxSpots: 2, MinBet: 100, MaxBet: 100000,
		Double: Double10or11, DoubleAfterSplit: true, MaxHands: 2,
		AutoStandHardOnly: true, SplitTwentyOneHard: true,
		Insurance: true, EvenMoney: true,
		RoyalStake: 100,
		Side: []SideRule{{Kind: game.RoyalSide, Min: 100, Max: 100, Pays: map[string]int64{
			"four of a kind": 500, "full house": 100, "flush": 50, "straight": 25, "three of a kind": 5,
		}}},
	}
}

// evenMoneyOffered: Royal Poker offers even money, not insurance, to a
// blackjack against an ace.
func (r *Round) evenMoneyOffered(h *Hand) bool { return r.Rules.EvenMoney && h.natural() }

// royalJackpot settles Royal Poker side bet j on a royal flush (100 % of
// the progressive) or a straight flush (10 %) with a JackpotWin event and no
// Payout: the controller resolves the amount from the pool (PoolWin). It
// reports false for any other hand, paid from the paytable by settleSide.
func (s *step) royalJackpot(j, hand int, name string) bool {
	sd := &s.r.Sides[j]
	switch name {
	case sidebet.RoyalFlush:
		sd.Jackpot = 100
	case sidebet.StraightFlush:
		sd.Jackpot = 10
	default:
		return false
	}
	sd.Outcome = game.Win
	s.evs = append(s.evs, game.Event{Kind: game.JackpotWin, Spot: sd.Spot, Hand: hand, Bet: sd.Kind, Percent: sd.Jackpot, Text: name})
	s.sideResult(j)
	return true
}

// PoolUnitsPerCent is the progressive pool's resolution: the pool is kept in
// units of 1e-7 cent, so that a contribution rate below a cent per stake is
// never rounded away.
const PoolUnitsPerCent = 10_000_000

// PoolContribution is what a Royal Poker stake adds to the progressive pool,
// in pool units: rateE7 is the contribution per 10^7 of the stake, so a
// stake of c cents at rate x adds c × rateE7 units (x % of the stake).
func PoolContribution(stake money.Cents, rateE7 int64) int64 {
	return int64(stake) * rateE7
}

// PoolWin resolves a Royal Poker jackpot win of percent of the pool (a
// JackpotWin event: 100 for a royal flush, 10 for a straight flush). The win
// is that share of the pool rounded down to the cent; only whole cents leave
// the pool, the fraction below a cent stays in it. A 100 % win then seeds the
// pool with reset. It returns the cents won and the pool after. percent must
// be 1 to 100 (an engine emits nothing else).
func PoolWin(pool int64, percent int, reset money.Cents) (won money.Cents, after int64) {
	if percent <= 0 || percent > 100 {
		panic("BUG: jackpot percent out of range")
	}
	won = money.Cents(pool * int64(percent) / 100 / PoolUnitsPerCent)
	after = pool - int64(won)*PoolUnitsPerCent
	if percent == 100 {
		after += int64(reset) * PoolUnitsPerCent
	}
	return won, after
}
