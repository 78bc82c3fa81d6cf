package blackjack

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

var (
	flagRounds = flag.Int("rounds", 0, "rounds per variant in TestRandomPlay (0 = default)")
	flagSeed   = flag.Uint64("seed", 0, "seed of TestRandomPlay (0 = from the clock)")
)

// variants are the rule sets every randomised test plays: the four presets
// and the operator alternatives that change the engine's paths.
func variants() map[string]Rules {
	eu := Classic()
	eu.Peek = NoHole
	two := Classic()
	two.MaxHands = 2
	two.Surrender = false
	h17 := Classic()
	h17.HitSoft17 = true
	return map[string]Rules{
		"classic": Classic(), "classic-european": eu, "classic-2hands": two, "classic-h17": h17,
		"royal": Royal(), "freebet": FreeBet(), "zappit": Zappit(),
		"zappit-nocap": with(Zappit(), func(r *Rules) { r.WinCap = 0 }),
	}
}

// randomBets places a main bet on a random non-empty set of spots and side
// bets at random (odd cents included).
func randomBets(rng *rand.Rand, r Rules) []game.Bet {
	var bets []game.Bet
	amount := func(lo, hi money.Cents) money.Cents {
		switch rng.IntN(4) {
		case 0:
			return lo
		case 1:
			return hi
		}
		return lo + money.Cents(rng.Int64N(int64(hi-lo)+1))
	}
	for len(bets) == 0 {
		for spot := range r.MaxSpots {
			if rng.IntN(3) > 0 {
				bets = append(bets, game.Bet{Spot: spot, Kind: game.Main, Amount: amount(r.MinBet, r.MaxBet)})
			}
		}
	}
	mains := len(bets)
	for _, sr := range r.Side {
		if sr.Kind == game.RoyalSide {
			if mains == 2 && rng.IntN(2) == 0 {
				bets = append(bets, game.Bet{Spot: 0, Kind: sr.Kind, Amount: r.RoyalStake})
			}
			continue
		}
		for _, b := range bets[:mains] {
			if rng.IntN(2) == 0 {
				bets = append(bets, game.Bet{Spot: b.Spot, Kind: sr.Kind, Amount: amount(sr.Min, sr.Max)})
			}
		}
	}
	return bets
}

func encode(t testing.TB, r *Round) []byte {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("json.Marshal(round) = %v", err)
	}
	return b
}

// roundTrip checks encode → decode → encode gives identical bytes.
func roundTrip(t testing.TB, r *Round) {
	t.Helper()
	b := encode(t, r)
	var back Round
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("json.Unmarshal(round) = %v", err)
	}
	if b2 := encode(t, &back); !bytes.Equal(b, b2) {
		t.Fatalf("JSON round trip changed the round:\n%s\n%s", b, b2)
	}
	if err := back.Check(); err != nil {
		t.Fatalf("Check() of the decoded round = %v, want nil\n%s", err, b)
	}
	tb := back.Table()
	if back.HoleDown && (tb.Dealer.Hidden != 1 || len(tb.Dealer.Cards) != len(back.Dealer)-1) {
		t.Fatalf("Table shows the hole card: %+v", tb.Dealer)
	}
}

// playRandom plays one round with random legal actions (steered half the
// time) and returns the round, its actions and all events.
func playRandom(t testing.TB, rng *rand.Rand, rules Rules, n uint64, shoe card.Source, trip bool) (*Round, []game.Action, []game.Event) {
	t.Helper()
	r, err := New(rules, n)
	if err != nil {
		t.Fatal(err)
	}
	var acts []game.Action
	var evs []game.Event
	funds := money.Cents(1 << 40)
	if rng.IntN(8) == 0 {
		funds = rules.MaxBet * 3 // sometimes short of money for doubles and splits
	}
	a := game.Action{Kind: game.Deal, Bets: randomBets(rng, rules), Funds: funds}
	if a.Total() > funds {
		a.Funds = a.Total()
	}
	for step := 0; ; step++ {
		if step > 200 {
			t.Fatalf("round %d: no end after 200 steps", n)
		}
		ev, err := r.Apply(a, shoe)
		if err != nil {
			t.Fatalf("round %d: Apply(%v) = %v, want success (legal %v)", n, a.Kind, err, r.Legal(a.Funds))
		}
		acts = append(acts, a)
		evs = append(evs, ev...)
		st, pd := game.Money(ev)
		funds += pd - st
		if trip {
			roundTrip(t, r)
		}
		if r.Done() {
			if l := r.Legal(funds); len(l) != 0 {
				t.Fatalf("round %d: Legal after the end = %v, want none", n, l)
			}
			return r, acts, evs
		}
		legal := r.Legal(funds)
		if len(legal) == 0 {
			t.Fatalf("round %d: no legal action in phase %s", n, r.Phase)
		}
		k := legal[rng.IntN(len(legal))]
		if rng.IntN(2) == 0 {
			k = steer(r, legal)
		}
		a = game.Action{Kind: k, Funds: funds}
	}
}

// checkRound checks one finished round: money conservation against the
// events, every hand's payout against its outcome, and no card lost.
func checkRound(t testing.TB, r *Round, evs []game.Event) {
	t.Helper()
	staked, paid := game.Money(evs)
	if staked != r.Staked || paid != r.Paid {
		t.Fatalf("round %d: events stake %v pay %v, round says %v and %v", r.Number, staked, paid, r.Staked, r.Paid)
	}
	tb := r.Table()
	if tb.Staked != staked || tb.Paid != paid || !tb.Done {
		t.Fatalf("round %d: table %v/%v done %v, events %v/%v", r.Number, tb.Staked, tb.Paid, tb.Done, staked, paid)
	}
	// Per-bet ledger: every stake and payout belongs to a hand or side bet.
	var stakeBy, payBy = map[string]money.Cents{}, map[string]money.Cents{}
	for _, e := range evs {
		key := fmt.Sprintf("%d/%s", e.Hand, e.Bet)
		if e.Bet.IsSide() {
			key = fmt.Sprintf("s%d/%s", e.Spot, e.Bet)
		}
		switch e.Kind {
		case game.Stake:
			if e.Amount <= 0 {
				t.Fatalf("round %d: stake %v", r.Number, e.Amount)
			}
			stakeBy[key] += e.Amount
		case game.Payout:
			if e.Amount <= 0 {
				t.Fatalf("round %d: payout %v", r.Number, e.Amount)
			}
			payBy[key] += e.Amount
		}
	}
	var money0, win0 money.Cents
	for _, h := range r.Hands {
		money0 += h.Stake + h.Double + h.Insured
		win0 += h.Win + h.InsWin
	}
	for _, sd := range r.Sides {
		money0 += sd.Amount
		win0 += sd.Win
	}
	if money0 != staked || win0 != paid {
		t.Fatalf("round %d: hands hold %v and won %v, events %v and %v", r.Number, money0, win0, staked, paid)
	}
	// A capped round's payouts are reduced; check them only when the cap
	// withheld nothing.
	capped := len(find(evs, func(e game.Event) bool { return e.Kind == game.Note && e.Text == "wincap" })) > 0
	if capped && paid-staked != r.Rules.WinCap {
		t.Fatalf("round %d: capped, net win %v, want the cap %v", r.Number, paid-staked, r.Rules.WinCap)
	}
	dt, _ := card.BlackjackTotal(r.Dealer)
	dbj := r.dealerNatural()
	for i, h := range r.Hands {
		pt, _ := card.BlackjackTotal(h.Cards)
		want := expectedPay(r, &h, pt, dt, dbj)
		if h.Win != want && !capped {
			t.Fatalf("round %d hand %d (%s vs %s, %s): paid %v, want %v\n%s", r.Number, i, card.Format(h.Cards),
				card.Format(r.Dealer), h.Outcome, h.Win, want, encode(t, r))
		}
		if h.Insured > 0 {
			wantIns := money.Cents(0)
			if dbj {
				wantIns = 3 * h.Insured
			}
			if h.InsWin != wantIns && !capped {
				t.Fatalf("round %d hand %d: insurance %v paid %v, want %v", r.Number, i, h.Insured, h.InsWin, wantIns)
			}
		}
		if !h.Settled || h.Hidden {
			t.Fatalf("round %d hand %d: settled %v hidden %v at the end", r.Number, i, h.Settled, h.Hidden)
		}
		if r.Rules.MaxCards > 0 && len(h.Cards) > r.Rules.MaxCards {
			t.Fatalf("round %d hand %d: %d cards, cap %d", r.Number, i, len(h.Cards), r.Rules.MaxCards)
		}
	}
	if r.Rules.WinCap > 0 && paid-staked > r.Rules.WinCap {
		t.Fatalf("round %d: net win %v above the cap %v", r.Number, paid-staked, r.Rules.WinCap)
	}
	// Cards: every card drawn sits in a hand, a zapped pile or the dealer.
	n := len(r.Dealer)
	for _, h := range r.Hands {
		n += len(h.Cards) + len(h.Zapped)
	}
	if d := len(game.Drawn(evs)); d != n {
		t.Fatalf("round %d: %d cards drawn, %d on the table", r.Number, d, n)
	}
	if r.HoleDown {
		t.Fatalf("round %d: hole card still down at the end", r.Number)
	}
}

// expectedPay is an independent statement of what a hand's main, split and
// double bets pay at the end of the round (games.md §0–§4), from its cards
// and the dealer's.
func expectedPay(r *Round, h *Hand, pt, dt int, dbj bool) money.Cents {
	win := 2*(h.Stake+h.Double) + h.Token + h.DoubleToken
	push := h.Stake + h.Double
	nat := !h.FromSplit && h.Zapped == nil && len(h.Cards) == 2 && pt == 21
	switch {
	case h.Outcome == game.Surrendered:
		return h.Stake / 2
	case h.Note == "evenmoney":
		return 2 * h.Stake
	case pt > 21:
		return 0
	case r.Rules.CharlieCards > 0 && len(h.Cards) >= r.Rules.CharlieCards:
		return win
	case h.Zapped != nil && len(h.Cards) == 2 && pt == 21:
		return win
	case nat && dbj:
		return h.Stake
	case nat:
		return h.Stake + h.Stake*3/2
	case dbj && r.Rules.Peek == PeekAceOnly:
		if h.SplitHand {
			return h.Stake + h.Double
		}
		return h.Double
	case dbj:
		return 0
	case dt == 22 && r.Rules.Dealer22Push:
		return push
	case dt > 21 || pt > dt:
		return win
	case pt == dt:
		return push
	}
	return 0
}

func seedFor(t testing.TB) uint64 {
	if *flagSeed != 0 {
		return *flagSeed
	}
	if s := os.Getenv("BLACKJACK_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("BLACKJACK_SEED=%q: %v", s, err)
		}
		return v
	}
	return uint64(time.Now().UnixNano())
}

// TestRandomPlay plays random rounds of every variant (100k rounds in all by
// default, fewer with -short) and checks money conservation, payouts against
// outcomes, and that replaying the recorded actions on a stack of the drawn
// cards rebuilds the final state byte for byte.
func TestRandomPlay(t *testing.T) {
	seed := seedFor(t)
	t.Logf("seed %d (rerun with -seed=%d)", seed, seed)
	vs := variants()
	per := 100000 / len(vs)
	if testing.Short() {
		per = 2000
	}
	if *flagRounds > 0 {
		per = *flagRounds
	}
	names := []string{"classic", "classic-european", "classic-2hands", "classic-h17", "royal", "freebet", "zappit", "zappit-nocap"}
	for vi, name := range names {
		rules := vs[name]
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewChaCha8(seedKey(seed, uint64(vi))))
			shoeRand := card.NewSeeded(seed + uint64(vi))
			var staked, paid money.Cents
			outcomes := map[game.Outcome]int{}
			actions := map[game.ActionKind]int{}
			defer func() {
				t.Logf("%d rounds: staked %v paid %v; outcomes %v; actions %v", per, staked, paid, outcomes, actions)
			}()
			for n := range uint64(per) {
				shoe := card.NewShoe(rules.Decks)
				shoe.Rand = shoeRand
				r, acts, evs := playRandom(t, rng, rules, n+1, shoe, n%50 == 0)
				checkRound(t, r, evs)
				staked += r.Staked
				paid += r.Paid
				for _, h := range r.Hands {
					outcomes[h.Outcome]++
				}
				for _, a := range acts {
					actions[a.Kind]++
				}
				replay, err := New(rules, n+1)
				if err != nil {
					t.Fatal(err)
				}
				stack := card.NewStack(game.Drawn(evs)...)
				var evs2 []game.Event
				for _, a := range acts {
					ev, err := replay.Apply(a, stack)
					if err != nil {
						t.Fatalf("seed %d round %d: replay Apply(%v) = %v, want success", seed, n+1, a.Kind, err)
					}
					evs2 = append(evs2, ev...)
				}
				if a, b := encode(t, r), encode(t, replay); !bytes.Equal(a, b) {
					t.Fatalf("seed %d round %d: replay differs:\n%s\n%s", seed, n+1, a, b)
				}
				if !slices.Equal(evs, evs2) {
					t.Fatalf("seed %d round %d: replay events differ:\n%v\n%v", seed, n+1, evs, evs2)
				}
			}
		})
	}
}

func seedKey(seed, v uint64) [32]byte {
	var k [32]byte
	for i := range 8 {
		k[i] = byte(seed >> (8 * i))
		k[8+i] = byte(v >> (8 * i))
	}
	return k
}

// steer keeps random play on sensible lines half the time, so deep states
// (splits, doubles after them, dealer draws) are reached: stand from 17,
// hit below, otherwise the first legal action. A test helper, not a
// strategy (the players are internal/player).
func steer(r *Round, legal []game.ActionKind) game.ActionKind {
	if cards, _, ok := r.ActiveHand(); ok {
		t, _ := card.BlackjackTotal(cards)
		for _, k := range []game.ActionKind{game.Stand, game.Hit} {
			if slices.Contains(legal, k) && (k == game.Stand) == (t >= 17) {
				return k
			}
		}
	}
	return legal[0]
}
