// Package partest is the test support of the engine comparisons: a shoe
// with stacked first cards, a per-round accumulator and a round player over
// the real engine, shared by the analyser's tests (internal/analysis/par)
// and the players' (internal/player).
package partest

import (
	"io"
	"math"
	"os"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// Unit is the bet of the comparisons; Rich the player's funds (never short).
const (
	Unit = money.Cents(100)
	Rich = money.Cents(1 << 40)
)

// Rounds scales a default-run round count: fewer under the race detector
// (which slows this arithmetic about tenfold; the full short run happens
// without -race), many more with PAR_LONG.
func Rounds(short, longRun int) int {
	switch {
	case Long():
		return longRun
	case raceEnabled:
		return short / 10
	}
	return short
}

// RaceEnabled reports whether the race detector is on: pure computations
// that take ten times as long under it skip there (scripts/test runs them
// again without it).
func RaceEnabled() bool { return raceEnabled }

// Long reports whether the long versions of the engine comparisons run
// (PAR_LONG=1): more rounds, tighter intervals.
func Long() bool { return os.Getenv("PAR_LONG") != "" }

// StackedShoe deals the prefix cards first, then draws at random from the
// rest of the shoe (lazy Fisher–Yates over the undealt cards).
type StackedShoe struct {
	pre  []card.Card
	shoe *card.Shoe
	rng  io.Reader
}

// NewStackedShoe returns a shoe of decks drawing with rng.
func NewStackedShoe(decks int, rng io.Reader) *StackedShoe {
	return &StackedShoe{shoe: card.NewShoe(decks), rng: rng}
}

// Reset starts a fresh shoe with pre dealt first.
func (s *StackedShoe) Reset(pre []card.Card) {
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

// Draw deals the next card.
func (s *StackedShoe) Draw() (card.Card, error) {
	if len(s.pre) > 0 {
		c := s.pre[0]
		s.pre = s.pre[1:]
		return c, nil
	}
	return s.shoe.DrawRandom(s.rng)
}

// Acc accumulates a per-round quantity.
type Acc struct {
	N          int
	sum, sumsq float64
}

// Add counts x.
func (a *Acc) Add(x float64) { a.N++; a.sum += x; a.sumsq += x * x }

// Mean is the mean so far.
func (a *Acc) Mean() float64 { return a.sum / float64(a.N) }

// SE is the standard error of the mean.
func (a *Acc) SE() float64 {
	m := a.Mean()
	return math.Sqrt((a.sumsq/float64(a.N) - m*m) / float64(a.N))
}

// Chooser is a blackjack player.
type Chooser interface {
	Choose(t game.Table, legal []game.ActionKind) game.ActionKind
}

// Play runs one round with player p; force, if set, is the first play
// decision of hand 0 (after declining insurance). It returns the round's
// events.
func Play(t testing.TB, r blackjack.Rules, n uint64, p Chooser, src card.Source, bets []game.Bet, force game.ActionKind) (*blackjack.Round, []game.Event) {
	t.Helper()
	rd, err := blackjack.New(r, n)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := rd.Apply(game.Action{Kind: game.Deal, Funds: Rich, Bets: bets}, src)
	if err != nil {
		t.Fatalf("Apply(deal) = %v", err)
	}
	for !rd.Done() {
		legal := rd.Legal(Rich)
		a := p.Choose(rd.Table(), legal)
		if force != "" && rd.Phase == blackjack.PhasePlay {
			a, force = force, ""
		}
		e, err := rd.Apply(game.Action{Kind: a, Funds: Rich}, src)
		if err != nil {
			t.Fatalf("round %d: Apply(%v) = %v, legal %v", n, a, err, legal)
		}
		evs = append(evs, e...)
	}
	return rd, evs
}

// Net returns the round's net result by bet group, in units: the main bet
// with its doubles and splits, and each side bet.
func Net(evs []game.Event) (main float64, side map[game.BetKind]float64) {
	side = map[game.BetKind]float64{}
	for _, e := range evs {
		var x float64
		switch e.Kind {
		case game.Stake:
			x = -float64(e.Amount) / float64(Unit)
		case game.Payout:
			x = float64(e.Amount) / float64(Unit)
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
