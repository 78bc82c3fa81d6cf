package par

import (
	"context"
	"fmt"
	"sync"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
)

// Values is the analyser's valuation of every decision under one set of
// rules: the expected value of each action, computed by the same recursion
// as the PAR figures. A player (internal/player.Optimal) chooses by it, so
// simulated and computed returns compare. Values are computed on demand per
// up card and kept. Safe for concurrent use.
type Values struct {
	b  *bj
	mu sync.Mutex
	up [11]*upEval
}

// NewValues returns the valuation of rules r (nothing computed yet).
func NewValues(r blackjack.Rules) (*Values, error) {
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("par: values for %s: %w", r.Game, err)
	}
	return &Values{b: newBJ(r)}, nil
}

// AnalysedValues returns the valuation with every up card computed (in
// parallel) together with the main game's result.
func AnalysedValues(ctxt context.Context, r blackjack.Rules) (*Values, MainResult, error) {
	v, err := NewValues(r)
	if err != nil {
		return nil, MainResult{}, err
	}
	res, err := v.b.analyse(ctxt, &v.up, nil)
	return v, res, err
}

// Rules are the rules valued.
func (v *Values) Rules() blackjack.Rules { return v.b.r }

func (v *Values) eval(up int) *upEval {
	if v.up[up] == nil {
		v.up[up] = v.b.upEval(up)
	}
	return v.up[up]
}

// Option is one action on a hand and its value: the expected net win per
// unit of the hand's bet where the dealer's blackjack is found after play;
// where the dealer peeks, the value of the hand and no dealer blackjack
// (the same factor for every option of one hand, so options compare).
type Option struct {
	Action game.ActionKind
	EV     float64
}

// Decision is a hand to decide, by card values (ace = 1, ten-values = 10).
type Decision struct {
	Up    int   // the dealer's up card
	Cards []int // the hand's cards
	// Split: the hand comes from a split of a pair of Cards[0]; Second: it
	// is not the first hand of its spot; Hands: the spot's hands (2 or 3),
	// each holding one pair card the hand knows of.
	Split, Second bool
	Hands         int
	// Zapped: the hand's cards replaced a zapped hand (Zappit); Discarded,
	// when known, the two cards it discarded (the player saw them: the
	// analyser values the new hand with them out of the shoe).
	Zapped    bool
	Discarded []int
}

// Options values the actions on hand d as the analyser does: stand and hit
// always (unless settled), double, split, surrender and zap where the rules
// and the hand allow them. Insurance is a separate bet, never valued here.
func (v *Values) Options(d Decision) []Option {
	if d.Up < 1 || d.Up > 10 || len(d.Cards) == 0 {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	u := v.eval(d.Up)
	h := handOf(d.Cards...)
	var opts []option
	switch {
	case d.Split:
		p := d.Cards[0]
		k := u.splitKind()
		if d.Second {
			k = u.secondSplitKind(p)
		}
		opts = u.splitHandOptions(p, d.Hands, h, k)
	case d.Zapped && len(d.Discarded) == 2:
		opts = u.zappedOptions(d.Discarded[0], d.Discarded[1], h)
	case d.Zapped:
		opts = u.zappedOptionsIn(u.main, h)
	case h.n == 2:
		opts = u.originalOptions(d.Cards[0], d.Cards[1])
	default:
		c, k := u.main, u.base()
		if x, ok := c.settled(h, k); ok {
			opts = []option{{aStand, val{ev: x}}}
		} else {
			opts = []option{{aStand, val{ev: c.stand(h, k)}}, {aHit, c.hitHand(h, k)}}
		}
	}
	out := make([]Option, len(opts))
	for i, o := range opts {
		out[i] = Option{Action: game.ActionKind(o.name), EV: o.v.ev}
	}
	return out
}

// Better says whether a is worth more than b (beyond floating-point noise).
func Better(a, b Option) bool { return better(val{ev: a.EV}, val{ev: b.EV}) }

// EvenMoney says whether even money is worth more than letting a player
// blackjack ride against an ace.
func (v *Values) EvenMoney() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, em := v.eval(1).blackjackEV()
	return em
}

// SituationEV is the expected net win per initial bet of the original hand
// a, b against up, with action taken first ("" = the best action), the
// dealer's blackjack included.
func (v *Values) SituationEV(up, a, b int, action game.ActionKind) (float64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	u := v.eval(up)
	if (a == 1 && b == 10) || (a == 10 && b == 1) {
		ev, _ := u.blackjackEV()
		return ev, nil
	}
	opts := u.originalOptions(a, b)
	o := bestOf(opts)
	if action != "" {
		found := false
		for _, x := range opts {
			if x.name == string(action) {
				o, found = x, true
			}
		}
		if !found {
			return 0, fmt.Errorf("par: %d,%d against %d: action %s not available", a, b, up, action)
		}
	}
	ev := o.v.ev
	if u.main.excl {
		ev -= u.main.pBJ(handOf(a, b))
	}
	return ev, nil
}
