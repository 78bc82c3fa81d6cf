package blackjack

import (
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

const plenty = money.Cents(1 << 40)

// ruleCase is one rule of games.md played on a stacked shoe. Deal order:
// first card of each spot, dealer up card, second card of each spot, hole
// card (none with NoHole), then the cards as drawn.
type ruleCase struct {
	name  string
	rules Rules
	bets  []game.Bet // nil: a main bet of 10.00 on spot 0
	cards string     // the whole stack; the case fails if a card is left over
	acts  []game.ActionKind
	funds money.Cents // for every action after the deal; 0 = plenty
	// legal, if set: the round is still running and offers exactly these.
	legal  []game.ActionKind
	dealer string         // the dealer's final cards, if set
	out    []game.Outcome // each hand's outcome, if set
	net    money.Cents    // paid − staked at the end (checked unless legal is set)
	check  func(t *testing.T, r *Round, evs []game.Event)
}

func main(spot int, amount money.Cents) game.Bet {
	return game.Bet{Spot: spot, Kind: game.Main, Amount: amount}
}

func side(spot int, kind game.BetKind, amount money.Cents) game.Bet {
	return game.Bet{Spot: spot, Kind: kind, Amount: amount}
}

var (
	hit, stand, dbl, split = game.Hit, game.Stand, game.Double, game.Split
	insure, noIns, even    = game.Insure, game.NoInsure, game.EvenMoney
	surr, zap              = game.Surrender, game.Zap
)

func acts(k ...game.ActionKind) []game.ActionKind { return k }

func outs(o ...game.Outcome) []game.Outcome { return o }

func with(r Rules, f func(*Rules)) Rules {
	f(&r)
	return r
}

func european() Rules { return with(Classic(), func(r *Rules) { r.Peek = NoHole }) }

func runCase(t *testing.T, tc ruleCase) {
	t.Helper()
	r, err := New(tc.rules, 7)
	if err != nil {
		t.Fatalf("New = %v", err)
	}
	bets := tc.bets
	if bets == nil {
		bets = []game.Bet{main(0, 1000)}
	}
	stack := card.NewStack(card.MustParse(tc.cards)...)
	var evs []game.Event
	a := game.Action{Kind: game.Deal, Bets: bets, Funds: plenty}
	ev, err := r.Apply(a, stack)
	if err != nil {
		t.Fatalf("Apply(deal %v) = %v, want success", bets, err)
	}
	evs = append(evs, ev...)
	funds := tc.funds
	if funds == 0 {
		funds = plenty
	}
	for n, k := range tc.acts {
		ev, err := r.Apply(game.Action{Kind: k, Funds: funds}, stack)
		if err != nil {
			t.Fatalf("action %d: Apply(%v) = %v, want success (legal %v)", n, k, err, r.Legal(funds))
		}
		evs = append(evs, ev...)
		roundTrip(t, r)
	}
	if len(stack.Cards) != 0 {
		t.Errorf("%d cards left in the stack: %s", len(stack.Cards), card.Format(stack.Cards))
	}
	if tc.legal != nil {
		if r.Done() {
			t.Fatalf("round over, want it running with %v legal", tc.legal)
		}
		if got := r.Legal(funds); !slices.Equal(got, tc.legal) {
			t.Errorf("Legal(%v) = %v, want %v", funds, got, tc.legal)
		}
	} else {
		if !r.Done() {
			t.Fatalf("round running (phase %s, legal %v), want it over", r.Phase, r.Legal(funds))
		}
		checkRound(t, r, evs)
		staked, paid := game.Money(evs)
		if paid-staked != tc.net {
			t.Errorf("net = %v (staked %v, paid %v), want %v", paid-staked, staked, paid, tc.net)
		}
	}
	if tc.dealer != "" {
		if got := card.Format(r.Dealer); got != card.Format(card.MustParse(tc.dealer)) {
			t.Errorf("dealer = %s, want %s", got, tc.dealer)
		}
	}
	if tc.out != nil {
		var got []game.Outcome
		for _, h := range r.Hands {
			got = append(got, h.Outcome)
		}
		if !slices.Equal(got, tc.out) {
			t.Errorf("outcomes = %v, want %v", got, tc.out)
		}
	}
	if tc.check != nil {
		tc.check(t, r, evs)
	}
}

// find returns the events matching f.
func find(evs []game.Event, f func(game.Event) bool) []game.Event {
	var out []game.Event
	for _, e := range evs {
		if f(e) {
			out = append(out, e)
		}
	}
	return out
}

func payouts(evs []game.Event, bet game.BetKind) []money.Cents {
	var out []money.Cents
	for _, e := range find(evs, func(e game.Event) bool { return e.Kind == game.Payout && e.Bet == bet }) {
		out = append(out, e.Amount)
	}
	return out
}

func wantPayouts(bet game.BetKind, want ...money.Cents) func(*testing.T, *Round, []game.Event) {
	return func(t *testing.T, _ *Round, evs []game.Event) {
		t.Helper()
		if got := payouts(evs, bet); !slices.Equal(got, want) {
			t.Errorf("payouts on %s = %v, want %v", bet, got, want)
		}
	}
}

func TestClassic(t *testing.T) {
	tests := []ruleCase{
		{name: "win pays 1:1", rules: Classic(), cards: "10S 7H 8D 10C", acts: acts(stand),
			out: outs(game.Win), net: 1000, dealer: "7H 10C"},
		{name: "lower total loses", rules: Classic(), cards: "10S 9H 7D 10C", acts: acts(stand),
			out: outs(game.Lose), net: -1000},
		{name: "equal totals push", rules: Classic(), cards: "10S 8H 8D 10C", acts: acts(stand),
			out: outs(game.Push), net: 0},
		{name: "blackjack pays 3:2, dealer draws nothing", rules: Classic(), cards: "AS 7H KD 5C",
			out: outs(game.Blackjack), net: 1500, dealer: "7H 5C"},
		{name: "blackjack pays 3:2 rounded down", rules: Classic(), bets: []game.Bet{main(0, 1001)},
			cards: "AS 7H KD 5C", out: outs(game.Blackjack), net: 1501},
		{name: "blackjack against blackjack pushes", rules: Classic(), cards: "AS AH KD KC", acts: acts(noIns),
			out: outs(game.Push), net: 0},
		{name: "peek on a ten ends the round at once", rules: Classic(), cards: "9S 10H 9D AC",
			out: outs(game.Lose), net: -1000, dealer: "10H AC"},
		{name: "peek on an ace after insurance: insurance pays 2:1", rules: Classic(), cards: "9S AH 9D KC",
			acts: acts(insure), out: outs(game.Lose), net: 0, check: wantPayouts(game.Insurance, 1500)},
		{name: "insurance lost when the dealer has no blackjack", rules: Classic(), cards: "9S AH 9D 7C",
			acts: acts(insure, stand), out: outs(game.Push), net: -500},
		{name: "insurance decision first", rules: Classic(), cards: "9S AH 9D 7C",
			legal: []game.ActionKind{insure, noIns}},
		{name: "insurance needs funds", rules: Classic(), cards: "9S AH 9D 7C", funds: 499,
			legal: []game.ActionKind{noIns}},
		{name: "dealer stands on soft 17 (S17)", rules: Classic(), cards: "10S AH 7D 6C", acts: acts(noIns, stand),
			out: outs(game.Push), net: 0, dealer: "AH 6C"},
		{name: "H17 option hits soft 17", rules: with(Classic(), func(r *Rules) { r.HitSoft17 = true }),
			cards: "10S AH 7D 6C 4D", acts: acts(noIns, stand), out: outs(game.Lose), net: -1000, dealer: "AH 6C 4D"},
		{name: "dealer draws to 16", rules: Classic(), cards: "10S 6H 8D 10C 5D", acts: acts(stand),
			out: outs(game.Lose), net: -1000, dealer: "6H 10C 5D"},
		{name: "bust loses at once and the dealer draws nothing", rules: Classic(), cards: "10S 6H 6D 10C 10H",
			acts: acts(hit), out: outs(game.Bust), net: -1000, dealer: "6H 10C"},
		{name: "21 stands automatically", rules: Classic(), cards: "5S 6H 6D 10C 10H 10D", acts: acts(hit),
			out: outs(game.Win), net: 1000, dealer: "6H 10C 10D"},
		{name: "first decision offers everything", rules: Classic(), cards: "8S 6H 8D 10C",
			legal: []game.ActionKind{hit, stand, dbl, split, surr}},
		{name: "double needs funds", rules: Classic(), cards: "8S 6H 8D 10C", funds: 999,
			legal: []game.ActionKind{hit, stand, surr}},
		{name: "double any two: one card face down", rules: Classic(), cards: "10S 7H 8D 10C 2H",
			acts: acts(dbl), out: outs(game.Win), net: 2000,
			check: func(t *testing.T, r *Round, evs []game.Event) {
				down := find(evs, func(e game.Event) bool { return e.Kind == game.CardDealt && e.Hand == 0 && e.FaceDown })
				rev := find(evs, func(e game.Event) bool { return e.Kind == game.Reveal && e.Hand == 0 })
				if len(down) != 1 || len(rev) != 1 || rev[0].Index != 2 {
					t.Errorf("doubled card events: down %v reveal %v, want one each at index 2", down, rev)
				}
			}},
		{name: "doubled card stays hidden until the dealer reveals", rules: Classic(),
			bets: []game.Bet{main(0, 1000), main(1, 1000)}, cards: "10S 5S 7H 8D 6D 10C 2H", acts: acts(dbl),
			legal: []game.ActionKind{hit, stand, dbl, surr},
			check: func(t *testing.T, r *Round, _ []game.Event) {
				tb := r.Table()
				if h := tb.Hands[0]; len(h.Cards) != 2 || h.Hidden != 1 || tb.Dealer.Hidden != 1 {
					t.Errorf("Table hand 0 = %+v, dealer hidden %d; want 2 shown + 1 hidden", h, tb.Dealer.Hidden)
				}
			}},
		{name: "split, double after split", rules: Classic(), cards: "8S 6H 8D 10C 3H 10S 2C 9D 10D",
			acts: acts(split, dbl, dbl), out: outs(game.Win, game.Win), net: 4000, dealer: "6H 10C 10D",
			check: func(t *testing.T, _ *Round, evs []game.Event) {
				st := find(evs, func(e game.Event) bool { return e.Kind == game.Stake })
				kinds := []game.BetKind{}
				for _, e := range st {
					kinds = append(kinds, e.Bet)
				}
				want := []game.BetKind{game.Main, game.SplitBet, game.DoubleBet, game.DoubleBet}
				if !slices.Equal(kinds, want) {
					t.Errorf("stakes = %v, want %v", kinds, want)
				}
			}},
		{name: "resplit up to three hands", rules: Classic(), cards: "8S 6H 8D 10C 8H 10D 10H 8C",
			acts: acts(split, split, stand, stand), legal: []game.ActionKind{hit, stand, dbl},
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if len(r.Hands) != 3 || r.Active != 2 {
					t.Errorf("hands %d active %d, want 3 hands, third active", len(r.Hands), r.Active)
				}
			}},
		{name: "operator two hands: no resplit", rules: with(Classic(), func(r *Rules) { r.MaxHands = 2 }),
			cards: "8S 6H 8D 10C 8H", acts: acts(split), legal: []game.ActionKind{hit, stand, dbl}},
		{name: "split aces receive one card each", rules: Classic(), cards: "AS 6H AD 10C KD 9H 10S",
			acts: acts(split), out: outs(game.Win, game.Win), net: 2000, dealer: "6H 10C 10S"},
		{name: "split aces are not resplit", rules: Classic(), cards: "AS 6H AD 10C AH 9H 10S",
			acts: acts(split), out: outs(game.Win, game.Win), net: 2000},
		{name: "21 after a split is not a blackjack", rules: Classic(), cards: "KS 6H KD 10C AH 10H 9S",
			acts: acts(split, stand), out: outs(game.Win, game.Win), net: 2000},
		{name: "surrender returns half", rules: Classic(), cards: "10S 9H 6D 8C", acts: acts(surr),
			out: outs(game.Surrendered), net: -500, dealer: "9H 8C"},
		{name: "no surrender after a hit", rules: Classic(), cards: "5S 9H 6D 8C 2C", acts: acts(hit),
			legal: []game.ActionKind{hit, stand}},
		{name: "no surrender on split hands", rules: Classic(), cards: "8S 9H 8D 8C 2C",
			acts: acts(split), legal: []game.ActionKind{hit, stand, dbl}},
		{name: "surrender off", rules: with(Classic(), func(r *Rules) { r.Surrender = false }),
			cards: "10S 9H 6D 8C", legal: []game.ActionKind{hit, stand, dbl}},
		{name: "spots play in order", rules: Classic(), bets: []game.Bet{main(0, 1000), main(2, 500)},
			cards: "10S 10D 6H 9D 5D 10C 10H 8C", acts: acts(stand, hit),
			out: outs(game.Win, game.Bust), net: 1000 - 500, dealer: "6H 10C 8C",
			check: func(t *testing.T, r *Round, _ []game.Event) {
				if r.Hands[0].Spot != 0 || r.Hands[1].Spot != 2 {
					t.Errorf("hand spots %d, %d; want 0, 2", r.Hands[0].Spot, r.Hands[1].Spot)
				}
			}},
		{name: "blackjack beats a dealer 21 of three cards", rules: Classic(),
			bets: []game.Bet{main(0, 1000), main(1, 1000)}, cards: "AS 10S 6H KD 7D 10C 5C",
			acts: acts(stand), out: outs(game.Blackjack, game.Lose), net: 1500 - 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc) })
	}
}

func TestEuropean(t *testing.T) {
	tests := []ruleCase{
		{name: "no hole card: second card after play", rules: european(), cards: "10S 10H 8D 7C",
			acts: acts(stand), out: outs(game.Win), net: 1000, dealer: "10H 7C",
			check: func(t *testing.T, _ *Round, evs []game.Event) {
				if d := find(evs, func(e game.Event) bool { return e.FaceDown }); len(d) != 0 {
					t.Errorf("face-down cards %v, want none", d)
				}
			}},
		{name: "no peek on a ten", rules: european(), cards: "9S 10H 9D",
			legal: []game.ActionKind{hit, stand, dbl, split, surr}},
		{name: "dealer blackjack takes doubles and splits", rules: european(),
			cards: "8S AH 8D 3C 10C 2C 9D KH", acts: acts(noIns, split, dbl, dbl),
			out: outs(game.Lose, game.Lose), net: -4000, dealer: "AH KH"},
		{name: "dealer blackjack pushes a player blackjack", rules: european(), cards: "AS AH KD KS",
			acts: acts(noIns), out: outs(game.Push), net: 0},
		{name: "insurance settled with the second card", rules: european(), cards: "9S AH 9D KC",
			acts: acts(insure, stand), out: outs(game.Lose), net: 0, check: wantPayouts(game.Insurance, 1500)},
		{name: "all hands busted: the dealer draws nothing", rules: european(), cards: "10S 9H 6D 10H",
			acts: acts(hit), out: outs(game.Bust), net: -1000, dealer: "9H"},
		{name: "doubled card face up", rules: european(), cards: "5S 9H 6D 10H 8C", acts: acts(dbl),
			out: outs(game.Win), net: 2000, check: func(t *testing.T, _ *Round, evs []game.Event) {
				if d := find(evs, func(e game.Event) bool { return e.FaceDown }); len(d) != 0 {
					t.Errorf("face-down cards %v, want none", d)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc) })
	}
}

// TestEuropeanSurrender: games.md §4 (updated): with European dealing a
// surrender is settled once the dealer's hand is complete; a dealer
// blackjack takes the whole bet, anything else returns half.
func TestEuropeanSurrender(t *testing.T) {
	held := func(t *testing.T, r *Round, evs []game.Event) {
		t.Helper()
		h := r.Hands[0]
		if !h.SurrenderHeld || !h.Done || h.Settled || h.Outcome != "" {
			t.Errorf("hand 0 = held %v done %v settled %v outcome %q, want held, done, unsettled",
				h.SurrenderHeld, h.Done, h.Settled, h.Outcome)
		}
		if p := payouts(evs, game.Main); len(p) != 0 {
			t.Errorf("main payouts %v before the dealer's hand is complete, want none", p)
		}
		if err := r.Check(); err != nil {
			t.Errorf("Check = %v", err)
		}
		if v := r.Table().Hands[0]; v.Note != "surrender" || v.Outcome != "" {
			t.Errorf("Table hand 0: note %q outcome %q, want note \"surrender\" and no outcome yet", v.Note, v.Outcome)
		}
	}
	tests := []ruleCase{
		{name: "no dealer blackjack: half returned", rules: european(), cards: "10S 9H 6D 8C", acts: acts(surr),
			out: outs(game.Surrendered), net: -500, dealer: "9H 8C", check: wantPayouts(game.Main, 500)},
		{name: "half rounded down to the cent", rules: european(), bets: []game.Bet{main(0, 1001)},
			cards: "10S 9H 6D 8C", acts: acts(surr), out: outs(game.Surrendered), net: -501,
			check: wantPayouts(game.Main, 500)},
		{name: "dealer draws nothing beyond the second card", rules: european(), cards: "10S 6H 6D 5C",
			acts: acts(surr), out: outs(game.Surrendered), net: -500, dealer: "6H 5C"},
		{name: "dealer blackjack on an ace takes the whole bet", rules: european(), cards: "10S AH 6D KC",
			acts: acts(noIns, surr), out: outs(game.Lose), net: -1000, dealer: "AH KC", check: wantPayouts(game.Main)},
		{name: "dealer blackjack on a ten takes the whole bet", rules: european(), cards: "10S 10H 6D AC",
			acts: acts(surr), out: outs(game.Lose), net: -1000, dealer: "10H AC", check: wantPayouts(game.Main)},
		{name: "insurance still pays against the blackjack", rules: european(), cards: "10S AH 6D KC",
			acts: acts(insure, surr), out: outs(game.Lose), net: 0,
			check: func(t *testing.T, r *Round, evs []game.Event) {
				wantPayouts(game.Insurance, 1500)(t, r, evs)
				wantPayouts(game.Main)(t, r, evs)
			}},
		{name: "held while the next spot plays", rules: european(), bets: two(1000, 1000),
			cards: "10S 10D 6H 6D 9C", acts: acts(surr), legal: []game.ActionKind{hit, stand, dbl, surr}, check: held},
		{name: "two spots: half back, the other hand wins", rules: european(), bets: two(1000, 1000),
			cards: "10S 10D 6H 6D 9C 10C 8C", acts: acts(surr, stand),
			out: outs(game.Surrendered, game.Win), net: -500 + 1000, dealer: "6H 10C 8C",
			check: wantPayouts(game.Main, 500, 2000)},
		{name: "two spots: dealer blackjack takes both", rules: european(), bets: two(1000, 1000),
			cards: "10S 10D AH 6D 9C KC", acts: acts(noIns, noIns, surr, stand),
			out: outs(game.Lose, game.Lose), net: -2000, dealer: "AH KC", check: wantPayouts(game.Main)},
		// American dealing is unchanged: the dealer has peeked, half comes back at once.
		{name: "American: half returned at once", rules: Classic(), bets: two(1000, 1000),
			cards: "10S 10D 6H 6D 9C 7C", acts: acts(surr), legal: []game.ActionKind{hit, stand, dbl, surr},
			check: func(t *testing.T, r *Round, evs []game.Event) {
				wantPayouts(game.Main, 500)(t, r, evs)
				if h := r.Hands[0]; h.SurrenderHeld || !h.Settled || h.Outcome != game.Surrendered {
					t.Errorf("hand 0 = held %v settled %v outcome %q, want settled surrender", h.SurrenderHeld, h.Settled, h.Outcome)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc) })
	}
}
