package blackjack

import (
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

func two(a, b money.Cents) []game.Bet { return []game.Bet{main(0, a), main(1, b)} }

func royalBets() []game.Bet {
	return append(two(1000, 1000), side(0, game.RoyalSide, 100))
}

func wantSide(kind game.BetKind, o game.Outcome, hand string, win money.Cents) func(*testing.T, *Round, []game.Event) {
	return func(t *testing.T, r *Round, _ []game.Event) {
		t.Helper()
		for _, sv := range r.Table().Side {
			if sv.Kind == kind {
				if sv.Outcome != o || sv.Hand != hand || sv.Win != win {
					t.Errorf("side %s = %s %q win %v, want %s %q win %v", kind, sv.Outcome, sv.Hand, sv.Win, o, hand, win)
				}
				return
			}
		}
		t.Errorf("no %s side bet on the table", kind)
	}
}

func jackpots(evs []game.Event) []game.Event {
	return find(evs, func(e game.Event) bool { return e.Kind == game.JackpotWin })
}

func TestRoyal(t *testing.T) {
	tests := []ruleCase{
		{name: "double on 10", rules: Royal(), cards: "6S 7H 4D 10C", legal: []game.ActionKind{hit, stand, dbl}},
		{name: "double on 11", rules: Royal(), cards: "6S 7H 5D 10C", legal: []game.ActionKind{hit, stand, dbl}},
		{name: "no double on 9", rules: Royal(), cards: "5S 7H 4D 10C", legal: []game.ActionKind{hit, stand}},
		{name: "no double on soft 20", rules: Royal(), cards: "AS 7H 9D 10C", legal: []game.ActionKind{hit, stand}},
		{name: "double takes one card and stands", rules: Royal(), cards: "6S 7H 5D 10C 2C", acts: acts(dbl),
			out: outs(game.Lose), net: -2000},
		{name: "hard 21 stands automatically", rules: Royal(), cards: "10S 7H 5D 10C 6H", acts: acts(hit),
			out: outs(game.Win), net: 1000},
		{name: "soft 21 may still be hit", rules: Royal(), cards: "AS 7H 5D 10C 5H", acts: acts(hit),
			legal: []game.ActionKind{hit, stand}},
		{name: "soft 21 stood wins", rules: Royal(), cards: "AS 7H 5D 10C 5H", acts: acts(hit, stand),
			out: outs(game.Win), net: 1000},
		{name: "dealer hits soft 17 (H17)", rules: Royal(), cards: "10S 6H 8D AC 2D", acts: acts(stand),
			out: outs(game.Lose), net: -1000, dealer: "6H AC 2D"},
		{name: "split ten-values, once only", rules: Royal(), cards: "KS 7H 10D 10C 10H",
			acts: acts(split), legal: []game.ActionKind{hit, stand}},
		{name: "split ten-values plays both", rules: Royal(), cards: "KS 7H 10D 10C 10H 10S",
			acts: acts(split, stand, stand), out: outs(game.Win, game.Win), net: 2000},
		{name: "double after split on 11", rules: Royal(), cards: "8S 7H 8D 10C 3H 10H 10S",
			acts: acts(split, dbl, stand), out: outs(game.Win, game.Win), net: 3000},
		{name: "split aces: ace and ten is a hard 21, not a blackjack", rules: Royal(), cards: "AS 7H AD 10C KH QH",
			acts: acts(split), out: outs(game.Win, game.Win), net: 2000},
		// games.md §1: "Ace + ten-value after a split is a hard 21", and a
		// hard 21 stands: a split king that draws an ace stands at once (the
		// next hand plays), paid 1:1, not as a blackjack.
		{name: "split ten-value and an ace: a hard 21 that stands", rules: Royal(), cards: "KS 7H 10D 10C AH 9S",
			acts: acts(split), legal: []game.ActionKind{hit, stand},
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if r.Active != 1 || !r.Hands[0].Done {
					t.Errorf("active hand %d, hand 0 %v done %v: want K+A stood and hand 1 to play", r.Active, card.Format(r.Hands[0].Cards), r.Hands[0].Done)
				}
			}},
		{name: "split ten-value and an ace wins 1:1", rules: Royal(), cards: "KS 7H 10D 10C AH 9S",
			acts: acts(split, stand), out: outs(game.Win, game.Win), net: 2000},
		// A round recorded before the rule was written replays as played:
		// without SplitTwentyOneHard the split king and ace is a soft 21.
		{name: "recorded without the rule: soft 21 after a split", rules: with(Royal(), func(r *Rules) { r.SplitTwentyOneHard = false }),
			cards: "KS 7H 10D 10C AH", acts: acts(split), legal: []game.ActionKind{hit, stand},
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if r.Active != 0 {
					t.Errorf("active hand %d, want hand 0 (K+A) still to play", r.Active)
				}
			}},
		{name: "peek on a ten", rules: Royal(), cards: "9S KH 9D AC", out: outs(game.Lose), net: -1000},
		{name: "even money offered on a blackjack", rules: Royal(), cards: "AS AH KD 9C",
			legal: []game.ActionKind{even, noIns},
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if p := r.Table().Prompt; p != "evenmoney" {
					t.Errorf("Prompt = %q, want evenmoney", p)
				}
			}},
		{name: "even money pays 1:1 at once", rules: Royal(), cards: "AS AH KD 9C", acts: acts(even),
			out: outs(game.Win), net: 1000, check: wantPayouts(game.Main, 2000)},
		{name: "even money then dealer blackjack", rules: Royal(), cards: "AS AH KD KC", acts: acts(even),
			out: outs(game.Win), net: 1000, dealer: "AH KC"},
		{name: "even money refused: dealer blackjack pushes", rules: Royal(), cards: "AS AH KD KC", acts: acts(noIns),
			out: outs(game.Push), net: 0},
		{name: "even money refused: paid 3:2", rules: Royal(), cards: "AS AH KD 9C", acts: acts(noIns),
			out: outs(game.Blackjack), net: 1500},
		{name: "insurance hand by hand", rules: Royal(), bets: two(1000, 1000),
			cards: "9S 10S AH 9D 10D 5C 2H", acts: acts(insure, noIns, stand, stand),
			out: outs(game.Push, game.Win), net: 1000 - 500,
			check: func(t *testing.T, r *Round, evs []game.Event) {
				ins := find(evs, func(e game.Event) bool { return e.Kind == game.Stake && e.Bet == game.Insurance })
				if len(ins) != 1 || ins[0].Hand != 0 || ins[0].Amount != 500 {
					t.Errorf("insurance stakes %v, want 5.00 on hand 0 only", ins)
				}
			}},
		{name: "insurance asks the second hand next", rules: Royal(), bets: two(1000, 1000),
			cards: "9S 10S AH 9D 10D 5C", acts: acts(insure), legal: []game.ActionKind{insure, noIns},
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if tb := r.Table(); tb.Active != 1 || tb.Prompt != "insurance" || tb.Hands[0].Insured != 500 {
					t.Errorf("Table active %d prompt %q insured %v, want hand 1 asked, hand 0 insured 5.00", tb.Active, tb.Prompt, tb.Hands[0].Insured)
				}
			}},
		{name: "every hand busts: the dealer only reveals", rules: Royal(), cards: "10S 6H 6D 10C 10H",
			acts: acts(hit), out: outs(game.Bust), net: -1000, dealer: "6H 10C"},
		// Royal Poker side bet: spot 1's two cards, spot 2's two cards, up card.
		{name: "side bet: flush pays 50 for one", rules: Royal(), bets: royalBets(),
			cards: "2H 5H 9H 7H JH 10C", acts: acts(stand, stand), out: outs(game.Lose, game.Lose),
			net: -2000 - 100 + 5000, check: wantSide(game.RoyalSide, game.Win, "flush", 5000)},
		{name: "side bet: three of a kind pays 5", rules: Royal(), bets: royalBets(),
			cards: "7S 7H 7D 2C 9H 10C", acts: acts(stand, stand), out: outs(game.Lose, game.Lose),
			net: -2000 - 100 + 500, check: wantSide(game.RoyalSide, game.Win, "three of a kind", 500)},
		{name: "side bet: four of a kind pays 500", rules: Royal(), bets: royalBets(),
			cards: "7S 7H 7D 7C 9H 10C", legal: []game.ActionKind{hit, stand, split},
			check: wantSide(game.RoyalSide, game.Win, "four of a kind", 50000)},
		{name: "side bet: two pairs lose", rules: Royal(), bets: royalBets(),
			cards: "7S 8H 7D 8C 9H 10C", acts: acts(stand, stand), out: outs(game.Lose, game.Push),
			net: -1000 - 100, check: wantSide(game.RoyalSide, game.Lose, "", 0)},
		{name: "side bet: royal flush wins the whole jackpot", rules: Royal(), bets: royalBets(),
			cards: "AS JS QS KS 10S 2C 5D", acts: acts(stand), out: outs(game.Blackjack, game.Win),
			net: 1500 + 1000 - 100,
			check: func(t *testing.T, r *Round, evs []game.Event) {
				j := jackpots(evs)
				if len(j) != 1 || j[0].Percent != 100 || j[0].Spot != 0 || j[0].Amount != 0 {
					t.Errorf("jackpot events %v, want one of 100 %% for spot 0 (amount left to the controller)", j)
				}
				if p := payouts(evs, game.RoyalSide); len(p) != 0 {
					t.Errorf("side payouts %v, want none (the pool pays)", p)
				}
				wantSide(game.RoyalSide, game.Win, "royal flush", 0)(t, r, evs)
			}},
		{name: "side bet: straight flush wins 10 %", rules: Royal(), bets: royalBets(),
			cards: "5D 7D 8D 6D 9D 10C", acts: acts(stand, stand),
			out: outs(game.Lose, game.Lose), net: -2000 - 100,
			check: func(t *testing.T, _ *Round, evs []game.Event) {
				if j := jackpots(evs); len(j) != 1 || j[0].Percent != 10 {
					t.Errorf("jackpot events %v, want one of 10 %%", j)
				}
			}},
		{name: "side bet settled right after the deal", rules: Royal(), bets: royalBets(),
			cards: "2H 5H 9H 7H JH 10C", legal: []game.ActionKind{hit, stand},
			check: wantSide(game.RoyalSide, game.Win, "flush", 5000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc) })
	}
}

func TestFreeBet(t *testing.T) {
	fb2 := with(FreeBet(), func(r *Rules) { r.MaxSpots = 2 })
	tests := []ruleCase{
		{name: "free double on hard 10 needs no money", rules: FreeBet(), cards: "6S 7H 4D 10C 9H", funds: 1,
			acts: acts(dbl), out: outs(game.Win), net: 2000,
			check: func(t *testing.T, r *Round, evs []game.Event) {
				tok := find(evs, func(e game.Event) bool { return e.Kind == game.Token })
				if len(tok) != 1 || tok[0].Amount != 1000 || tok[0].Bet != game.DoubleBet {
					t.Errorf("token events %v, want one double token of 10.00", tok)
				}
				if r.Staked != 1000 {
					t.Errorf("staked %v, want 10.00 (the token is not money)", r.Staked)
				}
				wantPayouts(game.DoubleBet, 1000)(t, r, evs)
			}},
		{name: "free double offered on hard 9 without funds", rules: FreeBet(), cards: "5S 7H 4D 10C", funds: 1,
			legal: []game.ActionKind{hit, stand, dbl}},
		{name: "paid double on soft 18 needs funds", rules: FreeBet(), cards: "AS 7H 7D 10C", funds: 999,
			legal: []game.ActionKind{hit, stand}},
		{name: "paid double on soft 18", rules: FreeBet(), cards: "AS 6H 7D 10C 3H 10D", acts: acts(dbl),
			out: outs(game.Win), net: 2000, check: wantPayouts(game.DoubleBet, 2000)},
		{name: "free token double lost costs nothing", rules: FreeBet(), cards: "6S 10H 5D 9C 2H", acts: acts(dbl),
			out: outs(game.Lose), net: -1000},
		{name: "free split of eights: token on the second hand", rules: FreeBet(), funds: 1,
			cards: "8S 6H 8D 10C 10H 10S 10D", acts: acts(split, stand, stand),
			out: outs(game.Win, game.Win), net: 2000,
			check: func(t *testing.T, r *Round, evs []game.Event) {
				if r.Hands[1].Token != 1000 || r.Hands[1].Stake != 0 {
					t.Errorf("hand 1 stake %v token %v, want token 10.00 only", r.Hands[1].Stake, r.Hands[1].Token)
				}
				wantPayouts(game.SplitBet, 1000)(t, r, evs)
			}},
		{name: "free split token push returns nothing", rules: FreeBet(), cards: "8S 6H 8D 10C 10H 10S 6D",
			acts: acts(split, stand, stand), out: outs(game.Push, game.Push), net: 0},
		{name: "no double after split", rules: FreeBet(), cards: "8S 6H 8D 10C 3H", acts: acts(split),
			legal: []game.ActionKind{hit, stand}},
		{name: "no resplit", rules: FreeBet(), cards: "8S 6H 8D 10C 8H", acts: acts(split),
			legal: []game.ActionKind{hit, stand}},
		{name: "free split of aces, one card each", rules: FreeBet(), funds: 1,
			cards: "AS 6H AD 10C 9H 10S 10D", acts: acts(split), out: outs(game.Win, game.Win), net: 2000},
		{name: "ten-value pair: paid split only", rules: FreeBet(), cards: "KS 6H 10D 10C", funds: 999,
			legal: []game.ActionKind{hit, stand}},
		{name: "ten-value pair: split offered with funds", rules: FreeBet(), cards: "KS 6H 10D 10C", funds: 1000,
			legal: []game.ActionKind{hit, stand, dbl, split}},
		{name: "ten-value pair paid split", rules: FreeBet(), cards: "KS 6H 10D 10C 9H 8S 10H",
			acts: acts(split, stand, stand), out: outs(game.Win, game.Win), net: 2000,
			check: wantPayouts(game.SplitBet, 2000)},
		{name: "any 21 stands automatically", rules: FreeBet(), cards: "AS 6H 5D 10C 5H 10H",
			acts: acts(hit), out: outs(game.Win), net: 1000},
		{name: "ace up: insurance, then the dealer checks", rules: FreeBet(), cards: "9S AH 9D KC",
			acts: acts(insure), out: outs(game.Lose), net: 0},
		{name: "insurance offered to a blackjack", rules: FreeBet(), cards: "AS AH KD 9C",
			legal: []game.ActionKind{insure, noIns}},
		{name: "ten up: no insurance, no peek", rules: FreeBet(), cards: "9S KH 9D AC",
			legal: []game.ActionKind{hit, stand, dbl, split}},
		{name: "ten up, dealer blackjack found late: paid double returned", rules: FreeBet(),
			cards: "AS KH 7D AC 2C", acts: acts(dbl), out: outs(game.Lose), net: -1000,
			check: wantPayouts(game.DoubleBet, 1000)},
		{name: "ten up, dealer blackjack found late: free double token lost only", rules: FreeBet(),
			cards: "5S KH 5D AC 2C", acts: acts(dbl), out: outs(game.Lose), net: -1000},
		{name: "ten up, dealer blackjack found late: paid split returned", rules: FreeBet(),
			cards: "KS QH 10D AC 5C 9C", acts: acts(split, stand, stand), out: outs(game.Lose, game.Lose),
			net: -1000, check: wantPayouts(game.SplitBet, 1000)},
		{name: "ten up, player blackjack pushes a blackjack found late", rules: FreeBet(), cards: "AS KH KD AC",
			out: outs(game.Push), net: 0},
		{name: "six-card Charlie wins at once, also against a blackjack found late", rules: FreeBet(),
			cards: "2S KH 2D AC 2H 2C 3S 3D", acts: acts(hit, hit, hit, hit), out: outs(game.Charlie),
			net: 1000, dealer: "KH AC"},
		{name: "Charlie on a split hand", rules: FreeBet(), cards: "2S 10H 2D 7C 2H 2C 3S 3D AH 10D",
			acts: acts(split, hit, hit, hit, hit, stand), out: outs(game.Charlie, game.Lose), net: 1000 - 0,
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if r.Hands[1].Token != 1000 {
					t.Errorf("hand 1 token %v, want 10.00", r.Hands[1].Token)
				}
			}},
		{name: "dealer 22 pushes", rules: FreeBet(), cards: "10S 6H 8D 10C 6D", acts: acts(stand),
			out: outs(game.Push), net: 0, dealer: "6H 10C 6D"},
		{name: "dealer 22: busted hand still loses, others push", rules: fb2, bets: two(1000, 1000),
			cards: "10S 10D 6H 8S 6C 10C 9H 6D", acts: acts(stand, hit), out: outs(game.Push, game.Bust), net: -1000},
		{name: "dealer 23 pays", rules: FreeBet(), cards: "10S 6H 8D 10C 7D", acts: acts(stand),
			out: outs(game.Win), net: 1000},
		{name: "blackjack pays 3:2 against a dealer 22", rules: fb2, bets: two(1000, 1000),
			cards: "AS 10S 6H KD 8S 10C 6D", acts: acts(stand), out: outs(game.Blackjack, game.Push), net: 1500},
		{name: "Charlie beats a dealer 22", rules: fb2, bets: two(1000, 1000), cards: "2S 10S 6H 2D 8S 10C 2H 2C 3S 3D 6D",
			acts: acts(hit, hit, hit, hit, stand), out: outs(game.Charlie, game.Push), net: 1000, dealer: "6H 10C 6D"},
		// Side bets, paid "to one".
		{name: "Any Pair suited pays 25:1", rules: FreeBet(), bets: []game.Bet{main(0, 1000), side(0, game.AnyPair, 100)},
			cards: "7S 10H 7S 9C", acts: acts(stand), net: -1000 - 100 + 2600,
			check: wantSide(game.AnyPair, game.Win, "suited pair", 2600)},
		{name: "Any Pair: Q + K is no pair", rules: FreeBet(), bets: []game.Bet{main(0, 1000), side(0, game.AnyPair, 100)},
			cards: "QS 10H KS 9C", acts: acts(stand), net: 1000 - 100,
			check: wantSide(game.AnyPair, game.Lose, "", 0)},
		{name: "three side bets on 7 7 7", rules: FreeBet(),
			bets:  []game.Bet{main(0, 1000), side(0, game.AnyPair, 100), side(0, game.TwentyOne, 100), side(0, game.Hot3, 100)},
			cards: "7S 7H 7D 10C", acts: acts(stand), out: outs(game.Lose),
			net: -1000 - 300 + 900 + 3100 + 10100,
			check: func(t *testing.T, r *Round, evs []game.Event) {
				wantSide(game.AnyPair, game.Win, "pair", 900)(t, r, evs)
				wantSide(game.TwentyOne, game.Win, "trips", 3100)(t, r, evs)
				wantSide(game.Hot3, game.Win, "777", 10100)(t, r, evs)
			}},
		{name: "Bust It: the dealer completes the hand after the player busted", rules: FreeBet(),
			bets: []game.Bet{main(0, 1000), side(0, game.BustIt, 100)}, cards: "10S 6H 6D 5C 10D 3D 10H",
			acts: acts(hit), out: outs(game.Bust), net: -1000 - 100 + 300, dealer: "6H 5C 3D 10H",
			check: wantSide(game.BustIt, game.Win, "4", 300)},
		{name: "Bust It loses when the dealer stands", rules: FreeBet(),
			bets: []game.Bet{main(0, 1000), side(0, game.BustIt, 100)}, cards: "10S 6H 6D 10C 10H 3C",
			acts: acts(hit), out: outs(game.Bust), net: -1100, check: wantSide(game.BustIt, game.Lose, "", 0)},
		{name: "Bust It pushes on a player blackjack", rules: FreeBet(),
			bets: []game.Bet{main(0, 1000), side(0, game.BustIt, 100)}, cards: "AS 6H KD 10C",
			out: outs(game.Blackjack), net: 1500, dealer: "6H 10C", check: wantSide(game.BustIt, game.Push, "", 100)},
		{name: "Bust It against a dealer blackjack found by the check", rules: FreeBet(),
			bets: []game.Bet{main(0, 1000), side(0, game.BustIt, 100)}, cards: "9S AH 9D KC",
			acts: acts(noIns), out: outs(game.Lose), net: -1100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc) })
	}
}

func TestZappit(t *testing.T) {
	three := []game.Bet{main(0, 1000), main(1, 1000), main(2, 1000)}
	tests := []ruleCase{
		{name: "zap offered on a hard 16", rules: Zappit(), cards: "10S 7H 6D 9C",
			legal: []game.ActionKind{hit, stand, dbl, zap}},
		{name: "zap offered on a hard 15 and 18", rules: Zappit(), bets: two(1000, 1000), cards: "10S 10D 7H 5D 8C 9C",
			legal: []game.ActionKind{hit, stand, dbl, zap}},
		{name: "no zap on a hard 14", rules: Zappit(), cards: "10S 7H 4D 9C", legal: []game.ActionKind{hit, stand, dbl}},
		{name: "no zap on a hard 19", rules: Zappit(), cards: "10S 7H 9D 9C", legal: []game.ActionKind{hit, stand, dbl}},
		{name: "no zap on a soft 17", rules: Zappit(), cards: "AS 7H 6D 9C", legal: []game.ActionKind{hit, stand, dbl}},
		{name: "no zap after a hit", rules: Zappit(), cards: "10S 7H 2D 9C 4C", acts: acts(hit),
			legal: []game.ActionKind{hit, stand}},
		{name: "zap: two new cards, then double allowed, no split or zap", rules: Zappit(),
			cards: "10S 7H 6D 9C 8S 8D", acts: acts(zap), legal: []game.ActionKind{hit, stand, dbl},
			check: func(t *testing.T, r *Round, evs []game.Event) {
				if d := find(evs, func(e game.Event) bool { return e.Kind == game.Discarded }); len(d) != 1 {
					t.Errorf("discard events %v, want one", d)
				}
				if h := r.Hands[0]; len(h.Zapped) != 2 || len(h.Cards) != 2 {
					t.Errorf("hand %+v, want 2 zapped and 2 new cards", h)
				}
			}},
		{name: "zap then double", rules: Zappit(), cards: "10S 7H 6D 9C 5S 5D 10D 10H",
			acts: acts(zap, dbl), out: outs(game.Win), net: 2000},
		{name: "21 after a zap wins 1:1 at once", rules: Zappit(), cards: "10S 7H 6D 9C AS KS",
			acts: acts(zap), out: outs(game.Win), net: 1000, dealer: "7H 9C",
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if r.Hands[0].Note != "zap21" {
					t.Errorf("note %q, want zap21", r.Hands[0].Note)
				}
			}},
		{name: "21 after a zap wins against a dealer 21", rules: Zappit(), bets: two(1000, 1000),
			cards: "10S 10D 7H 6D 9D 4C AS KS 10H", acts: acts(zap, stand), out: outs(game.Win, game.Lose),
			net: 0, dealer: "7H 4C 10H"},
		{name: "split then double after split", rules: Zappit(), cards: "8S 6H 8D 10C 3C 10H 2C 9H 10S",
			acts: acts(split, dbl, dbl), out: outs(game.Win, game.Win), net: 4000},
		{name: "no resplit, no zap on split hands", rules: Zappit(), cards: "8S 6H 8D 10C 8C",
			acts: acts(split), legal: []game.ActionKind{hit, stand, dbl}},
		{name: "split aces allow no further action", rules: Zappit(), cards: "AS 6H AD 10C 5C 5D 10S",
			acts: acts(split), out: outs(game.Win, game.Win), net: 2000},
		{name: "13-card hand stands automatically", rules: Zappit(), cards: "AS 10H AD 7C AH AC 2S 2H 2D 2C AS AH AD AC 2S",
			acts: acts(hit, hit, hit, hit, hit, hit, hit, hit, hit, hit, hit), out: outs(game.Win), net: 1000,
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if n := len(r.Hands[0].Cards); n != 13 {
					t.Errorf("hand of %d cards, want 13", n)
				}
			}},
		{name: "dealer 22 pushes", rules: Zappit(), cards: "10S 6H 8D 10C 6D", acts: acts(stand),
			out: outs(game.Push), net: 0},
		{name: "blackjack wins 3:2 against a dealer 22", rules: Zappit(), bets: two(1000, 1000),
			cards: "AS 10S 6H KD 8S 10C 6D", acts: acts(stand), out: outs(game.Blackjack, game.Push), net: 1500},
		{name: "insurance per hand", rules: Zappit(), bets: three, cards: "9S 9H 9D AH 9C 8S 10D 10S",
			acts: acts(insure, noIns, insure), out: outs(game.Lose, game.Lose, game.Lose),
			net: -3000 - 1000 + 3000},
		{name: "peek on a ten", rules: Zappit(), cards: "10S KH 6D AC", out: outs(game.Lose), net: -1000},
		{name: "three hands win, capped at 100.00", rules: Zappit(),
			bets:  []game.Bet{main(0, 100000), main(1, 100000), main(2, 100000)},
			cards: "10S 10H 10D 7H 9S 9H 9D 9C 10C", acts: acts(stand, stand, stand),
			out: outs(game.Win, game.Win, game.Win), net: 10000,
			check: func(t *testing.T, _ *Round, evs []game.Event) {
				n := find(evs, func(e game.Event) bool { return e.Kind == game.Note && e.Text == "wincap" })
				if len(n) != 1 || n[0].Amount != 290000 {
					t.Errorf("wincap notes %v, want one withholding 2,900.00", n)
				}
			}},
		{name: "cap with insurance: net win counted over the whole round", rules: Zappit(),
			bets: []game.Bet{main(0, 30000)}, cards: "AS AH KD KC", acts: acts(insure),
			out: outs(game.Push), net: 10000,
			check: func(t *testing.T, _ *Round, evs []game.Event) {
				if p := payouts(evs, game.Insurance); !slices.Equal(p, []money.Cents{45000}) {
					t.Errorf("insurance payouts %v, want 450.00", p)
				}
				if p := payouts(evs, game.Main); !slices.Equal(p, []money.Cents{10000}) {
					t.Errorf("main payouts %v, want 100.00 (the push's stake reduced by the cap)", p)
				}
			}},
		{name: "under the cap nothing is withheld", rules: Zappit(), bets: []game.Bet{main(0, 5000)},
			cards: "AS 7H KD 10C", out: outs(game.Blackjack), net: 7500},
		{name: "zap 21 payout held until the end of a capped round", rules: Zappit(), bets: two(1000, 1000),
			cards: "10S 10D 7H 6D 9D 4C AS KS", acts: acts(zap), legal: []game.ActionKind{hit, stand, dbl},
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if r.Paid != 0 || len(r.Pending) != 1 || r.Pending[0].Amount != 2000 {
					t.Errorf("paid %v pending %v, want 20.00 held", r.Paid, r.Pending)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc) })
	}
}
