package par

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
)

// Strategy is the analyser's composition-dependent strategy for one set of
// rules: every decision maximises the expected value computed by the same
// recursion as the PAR figures, so simulated and computed returns compare.
//
// It never takes insurance (insurance is analysed as a separate bet); even
// money is taken only when it is worth more than letting the blackjack ride.
// A zapped hand is valued without the two discarded cards (the table does
// not show them), a negligible difference from the analyser.
//
// Safe for concurrent use.
type Strategy struct {
	b  *bj
	mu sync.Mutex
	up [11]*upEval
}

// NewStrategy returns the strategy for rules r.
func NewStrategy(r blackjack.Rules) (*Strategy, error) {
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("analysis: new strategy for %s: %w", r.Game, err)
	}
	return &Strategy{b: newBJ(r, 0)}, nil
}

func value(c card.Card) int {
	switch {
	case c.Rank == card.Ace:
		return 1
	case c.Rank >= card.Ten:
		return 10
	}
	return int(c.Rank)
}

func handOfCards(cs []card.Card) hand {
	var h hand
	for _, c := range cs {
		h = h.add(value(c))
	}
	return h
}

// newAnalysedStrategy returns the strategy with every up card's values
// computed (in parallel) together with the main game's result.
func newAnalysedStrategy(ctxt context.Context, r blackjack.Rules) (*Strategy, MainResult, error) {
	s, err := NewStrategy(r)
	if err != nil {
		return nil, MainResult{}, err
	}
	res, err := s.b.analyse(ctxt, &s.up, nil)
	return s, res, err
}

func (s *Strategy) eval(up int) *upEval {
	if s.up[up] == nil {
		s.up[up] = s.b.upEval(up)
	}
	return s.up[up]
}

// Choose returns the action to take at table t among legal. With nothing to
// decide (no active hand) it returns the first legal action.
func (s *Strategy) Choose(t game.Table, legal []game.ActionKind) game.ActionKind {
	if len(legal) == 0 {
		return ""
	}
	if t.Active < 0 || t.Active >= len(t.Hands) || len(t.Dealer.Cards) == 0 {
		return legal[0]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.eval(value(t.Dealer.Cards[0]))
	hv := t.Hands[t.Active]
	switch t.Prompt {
	case "evenmoney":
		if _, em := u.blackjackEV(); em && slices.Contains(legal, game.EvenMoney) {
			return game.EvenMoney
		}
		return pick(legal, game.NoInsure)
	case "insurance":
		return pick(legal, game.NoInsure)
	}
	opts := s.options(u, t, hv, legal)
	var best *option
	for i := range opts {
		o := &opts[i]
		if !slices.Contains(legal, game.ActionKind(o.name)) {
			continue
		}
		if best == nil || better(o.v, best.v) {
			best = o
		}
	}
	if best == nil {
		return pick(legal, game.Stand)
	}
	return game.ActionKind(best.name)
}

func pick(legal []game.ActionKind, want game.ActionKind) game.ActionKind {
	if slices.Contains(legal, want) {
		return want
	}
	return legal[0]
}

// options values the active hand's actions the way the analyser does.
func (s *Strategy) options(u *upEval, t game.Table, hv game.HandView, legal []game.ActionKind) []option {
	h := handOfCards(hv.Cards)
	// The hand's position among its spot's hands: more than one means a split.
	pos, n := 0, 0
	for i, o := range t.Hands {
		if o.Spot == hv.Spot {
			if i < t.Active {
				pos++
			}
			n++
		}
	}
	switch {
	case n > 1:
		if slices.Contains(legal, game.Split) {
			return []option{{aSplit, val{ev: 1e9}}} // resplits are always taken (as analysed)
		}
		p := value(hv.Cards[0])
		k := u.splitKind()
		if pos > 0 {
			k = u.secondSplitKind(p)
		}
		return u.splitHandOptions(p, h, k)
	case hv.Note == "zapped":
		return u.zappedOptionsIn(u.main, h)
	case h.n == 2:
		return u.originalOptions(value(hv.Cards[0]), value(hv.Cards[1]))
	}
	c, k := u.main, u.base()
	if x, ok := c.settled(h, k); ok {
		return []option{{aStand, val{ev: x}}}
	}
	return []option{{aStand, val{ev: c.stand(h, k)}}, {aHit, c.hitHand(h, k)}}
}
