package par

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// strategies shares one Strategy per game between the tests (building the
// Zappit zap values is the expensive part, especially under -race).
var strategies sync.Map

type analysed struct {
	s   *Strategy
	res MainResult
}

func strategyFor(t testing.TB, r blackjack.Rules) (*Strategy, MainResult) {
	t.Helper()
	key := string(r.Game) + "/" + string(r.Peek)
	if a, ok := strategies.Load(key); ok {
		return a.(analysed).s, a.(analysed).res
	}
	s, res, err := newAnalysedStrategy(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := strategies.LoadOrStore(key, analysed{s, res})
	return a.(analysed).s, a.(analysed).res
}

// rounds scales a default-run round count: fewer under the race detector
// (which slows this arithmetic about tenfold; the full short run happens
// without -race), many more with PAR_LONG.
func rounds(short, longRun int) int {
	switch {
	case long():
		return longRun
	case raceEnabled:
		return short / 10
	}
	return short
}

// long reports whether the long versions of the engine comparisons run
// (PAR_LONG=1): more rounds, tighter intervals.
func long() bool { return os.Getenv("PAR_LONG") != "" }

// stackedShoe deals the prefix cards first, then draws at random from the
// rest of the shoe (lazy Fisher–Yates over the undealt cards).
type stackedShoe struct {
	pre  []card.Card
	shoe *card.Shoe
	rng  io.Reader
}

func newStackedShoe(decks int, rng io.Reader) *stackedShoe {
	return &stackedShoe{shoe: card.NewShoe(decks), rng: rng}
}

// reset starts a fresh shoe with pre dealt first.
func (s *stackedShoe) reset(pre []card.Card) {
	s.shoe.Pos = 0
	s.pre = pre
	for _, c := range pre { // move the prefix cards out of the random part
		for j := s.shoe.Pos; j < len(s.shoe.Cards); j++ {
			if s.shoe.Cards[j] == c {
				s.shoe.Cards[s.shoe.Pos], s.shoe.Cards[j] = s.shoe.Cards[j], s.shoe.Cards[s.shoe.Pos]
				s.shoe.Pos++
				break
			}
		}
	}
}

func (s *stackedShoe) Draw() (card.Card, error) {
	if len(s.pre) > 0 {
		c := s.pre[0]
		s.pre = s.pre[1:]
		return c, nil
	}
	return s.shoe.DrawRandom(s.rng)
}

// acc accumulates a per-round quantity.
type acc struct {
	n          int
	sum, sumsq float64
}

func (a *acc) add(x float64) { a.n++; a.sum += x; a.sumsq += x * x }
func (a *acc) mean() float64 { return a.sum / float64(a.n) }
func (a *acc) se() float64 {
	m := a.mean()
	return math.Sqrt((a.sumsq/float64(a.n) - m*m) / float64(a.n))
}

const unit = money.Cents(100)
const rich = money.Cents(1 << 40)

// play runs one round with the strategy; force, if set, is the first play
// decision of hand 0 (after declining insurance). It returns the round's
// events.
func play(t testing.TB, r blackjack.Rules, n uint64, s *Strategy, src card.Source, bets []game.Bet, force game.ActionKind) (*blackjack.Round, []game.Event) {
	rd, err := blackjack.New(r, n)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := rd.Apply(game.Action{Kind: game.Deal, Funds: rich, Bets: bets}, src)
	if err != nil {
		t.Fatalf("Apply(deal) = %v", err)
	}
	for !rd.Done() {
		legal := rd.Legal(rich)
		a := s.Choose(rd.Table(), legal)
		if force != "" && rd.Phase == blackjack.PhasePlay {
			a, force = force, ""
		}
		e, err := rd.Apply(game.Action{Kind: a, Funds: rich}, src)
		if err != nil {
			t.Fatalf("round %d: Apply(%v) = %v, legal %v", n, a, err, legal)
		}
		evs = append(evs, e...)
	}
	return rd, evs
}

// net returns the round's net result by bet group, in units.
func net(evs []game.Event) (main float64, side map[game.BetKind]float64) {
	side = map[game.BetKind]float64{}
	for _, e := range evs {
		var x float64
		switch e.Kind {
		case game.Stake:
			x = -float64(e.Amount) / float64(unit)
		case game.Payout:
			x = float64(e.Amount) / float64(unit)
		default:
			continue
		}
		switch e.Bet {
		case game.Main, game.DoubleBet, game.SplitBet:
			main += x
		default:
			side[e.Bet] += x
		}
	}
	return main, side
}

func cardOfValue(v int, suit card.Suit) card.Card {
	switch v {
	case 1:
		return card.Card{Rank: card.Ace, Suit: suit}
	case 10:
		return card.Card{Rank: card.King, Suit: suit}
	}
	return card.Card{Rank: card.Rank(v), Suit: suit}
}

type situation struct {
	a, b, up int
	action   string // "" = the strategy's choice all through
}

func (s situation) String() string {
	act := s.action
	if act == "" {
		act = "best"
	}
	return fmt.Sprintf("%d,%d_vs_%d_%s", s.a, s.b, s.up, act)
}

// analyserEV is the analyser's expected value of situation s (per initial bet).
func analyserEV(st *Strategy, s situation) (float64, error) {
	u := st.eval(s.up)
	if (s.a == 1 && s.b == 10) || (s.a == 10 && s.b == 1) {
		ev, _ := u.blackjackEV()
		return ev, nil
	}
	opts := u.originalOptions(s.a, s.b)
	o := bestOf(opts)
	if s.action != "" {
		found := false
		for _, x := range opts {
			if x.name == s.action {
				o, found = x, true
			}
		}
		if !found {
			return 0, fmt.Errorf("action %s not available", s.action)
		}
	}
	ev := o.v.ev
	if u.main.excl {
		ev -= u.main.pBJ(handOf(s.a, s.b))
	}
	return ev, nil
}

// TestSituationsAgainstEngine plays the real engine with the analyser's
// strategy from fixed first cards and compares the mean result with the
// analyser's expected value of that situation (and of a forced first action).
func TestSituationsAgainstEngine(t *testing.T) {
	rounds := rounds(6000, 200000)
	cases := map[game.ID][]situation{
		game.Classic: {{10, 6, 10, "stand"}, {10, 6, 10, "hit"}, {10, 6, 10, ""}, {8, 8, 10, "split"}, {6, 5, 6, "double"}, {1, 7, 9, ""}, {1, 10, 1, ""}},
		game.Royal:   {{5, 6, 10, "double"}, {1, 1, 6, "split"}, {10, 2, 4, ""}, {1, 10, 1, ""}, {9, 9, 9, "split"}},
		game.FreeBet: {{5, 4, 6, "double"}, {8, 8, 10, "split"}, {10, 10, 6, "split"}, {10, 6, 10, ""}, {1, 10, 10, ""}, {2, 2, 2, ""},
			{1, 7, 10, "double"}, {10, 10, 10, "split"}, {6, 5, 10, "double"}}, // ten up: late blackjack costs the original bet only
		game.Zappit: {{10, 6, 10, "zap"}, {10, 8, 9, ""}, {9, 7, 7, "zap"}, {5, 6, 10, "double"}, {10, 10, 1, ""}},
	}
	european := blackjack.Classic()
	european.Peek = blackjack.NoHole
	const eu = game.ID("classic-european") // test label only
	cases[eu] = []situation{{10, 6, 10, "hit"}, {6, 5, 10, "double"}, {8, 8, 1, "split"}, {10, 6, 1, "surrender"}}
	seed := uint64(20261122)
	for _, id := range []game.ID{game.Classic, game.Royal, game.FreeBet, game.Zappit, eu} {
		r, err := blackjack.Preset(id)
		if id == eu {
			r, err = european, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		st, _ := strategyFor(t, r)
		for i, sit := range cases[id] {
			t.Run(fmt.Sprintf("%s/%v", id, sit), func(t *testing.T) {
				want, err := analyserEV(st, sit)
				if err != nil {
					t.Fatal(err)
				}
				sd := seed + uint64(i)*7919 + uint64(len(id))
				src := newStackedShoe(r.Decks, card.NewSeeded(sd))
				pre := []card.Card{cardOfValue(sit.a, card.Spades), cardOfValue(sit.up, card.Diamonds), cardOfValue(sit.b, card.Hearts)}
				var a acc
				for n := range rounds {
					src.reset(pre)
					_, evs := play(t, r, uint64(n+1), st, src, []game.Bet{{Spot: 0, Kind: game.Main, Amount: unit}}, game.ActionKind(sit.action))
					m, _ := net(evs)
					a.add(m)
				}
				tol := 4*a.se() + 1e-9
				t.Logf("seed %d: engine %.4f ± %.4f over %d rounds, analyser %.4f", sd, a.mean(), a.se(), a.n, want)
				if d := math.Abs(a.mean() - want); d > tol {
					t.Errorf("seed %d: engine mean %.4f, analyser EV %.4f: differ by %.4f > 4 SE = %.4f", sd, a.mean(), want, d, tol)
				}
			})
		}
	}
}
