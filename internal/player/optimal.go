package player

import (
	"fmt"

	"cabinet/internal/analysis/par"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
)

// Optimal is the analyser's composition-dependent player for one set of
// rules: every decision maximises the expected value computed by the same
// recursion as the PAR figures (par.Values.Choose, which says what it
// never or always takes). Safe for concurrent use.
type Optimal struct{ v *par.Values }

// NewOptimal returns the player for rules r (values computed on demand).
func NewOptimal(r blackjack.Rules) (*Optimal, error) {
	v, err := par.NewValues(r)
	if err != nil {
		return nil, fmt.Errorf("player: %w", err)
	}
	return &Optimal{v: v}, nil
}

// OptimalFor returns the player choosing by v.
func OptimalFor(v *par.Values) *Optimal { return &Optimal{v: v} }

// Choose returns the action to take at table t among legal (par.Values.Choose:
// the analyser's own decision rule, which its cap simulation plays too).
func (o *Optimal) Choose(t game.Table, legal []game.ActionKind) game.ActionKind {
	return o.v.Choose(t, legal)
}
