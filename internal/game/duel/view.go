package duel

import (
	"errors"
	"slices"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// View is everything a side may know when it decides: its own cards and
// discards, the public betting history, how many cards the opponent
// exchanged, the stacks and the pot. It has no field that could hold the
// opponent's cards or the undealt deck: a strategy that receives a View
// cannot see hidden information. The engine builds it (viewFor).
type View struct {
	Deck  int   `json:"deck"` // 32 or 52
	Phase Phase `json:"phase"`
	// Hand: the deciding side's own five cards; Discarded the cards it
	// exchanged itself.
	Hand      [5]card.Card `json:"hand"`
	Discarded []card.Card  `json:"discarded"`
	// First: the deciding side speaks first in this deal.
	First bool `json:"first"`
	// Moves: the betting so far this deal, Mine set on one's own moves.
	Moves []ViewMove `json:"moves"`
	// Drew and OpponentDrew: cards exchanged, -1 before that side's draw.
	Drew         int `json:"drew"`
	OpponentDrew int `json:"opponent_drew"`
	// Stacks (chips not in the pot) and the pot.
	Stack         int64 `json:"stack"`
	OpponentStack int64 `json:"opponent_stack"`
	Pot           int64 `json:"pot"`
	// ToCall: chips owed to stay in; Legal the actions allowed; MinBet and
	// MaxBet the size range of Open or Raise (0 when none).
	ToCall int64             `json:"to_call"`
	Legal  []game.ActionKind `json:"legal"`
	MinBet int64             `json:"min_bet"`
	MaxBet int64             `json:"max_bet"`
	// Ante of the deal and raises made in this betting round.
	Ante   int64 `json:"ante"`
	Raises int   `json:"raises"`
	// BluffPerMille is the configured bluff rate; Rand a random word for this
	// decision, a pure function of the session seed, the deal and the
	// decision number (so a replay decides the same).
	BluffPerMille int    `json:"bluff_per_mille"`
	Rand          uint64 `json:"rand"`
}

// ViewMove is one betting move as seen by the deciding side.
type ViewMove struct {
	Round  int             `json:"round"`
	Mine   bool            `json:"mine"`
	Kind   game.ActionKind `json:"kind"`
	Amount int64           `json:"amount"`
}

// Decision is a strategy's answer: an action, its size (Open, Raise) and the
// positions to exchange (Draw).
type Decision struct {
	Kind    game.ActionKind
	Amount  int64
	Discard []int
}

// Strategy decides for one side from a View only.
type Strategy interface {
	Decide(v View) Decision
}

// viewFor builds side's view. It copies only side's own cards and discards;
// everything else is public.
func (r *Round) viewFor(side int, rand uint64) View {
	v := View{
		Deck:          r.DeckSize(),
		Phase:         r.Phase,
		Hand:          [5]card.Card(r.Hands[side]),
		Discarded:     slices.Clone(r.Discards[side]),
		First:         r.First == side,
		Drew:          r.Drew[side],
		OpponentDrew:  r.Drew[1-side],
		Stack:         *r.Sess.stack(side),
		OpponentStack: *r.Sess.stack(1 - side),
		Pot:           r.Pot,
		ToCall:        r.In[1-side] - r.In[side],
		Ante:          r.Config.Ante,
		Raises:        r.Raises,
		BluffPerMille: r.Config.BluffPerMille,
		Rand:          rand,
	}
	for _, m := range r.Moves {
		v.Moves = append(v.Moves, ViewMove{Round: m.Round, Mine: m.Who == whoNames[side], Kind: m.Kind, Amount: m.Amount})
	}
	if r.Phase == PhaseDraw {
		v.Legal = []game.ActionKind{game.Draw}
	} else {
		v.Legal = r.options(side)
		if slices.Contains(v.Legal, game.Open) {
			v.MinBet, v.MaxBet = r.betRange(side, false)
		}
		if slices.Contains(v.Legal, game.Raise) {
			v.MinBet, v.MaxBet = r.betRange(side, true)
		}
	}
	return v
}

// PlayerView is the player's view when it is the player's decision (used by
// autoplay and the evaluation's reference players). ok is false when the
// player has no betting or draw decision now.
func (r *Round) PlayerView() (v View, ok bool) {
	if r.Turn != playerSide || (r.Phase != PhaseBet1 && r.Phase != PhaseBet2 && r.Phase != PhaseDraw) {
		return View{}, false
	}
	return r.viewFor(playerSide, mix(r.Sess.Seed^0x9e3779b97f4a7c15, r.Sess.Deals,
		uint64(len(r.Moves))<<40|r.Decisions<<8|uint64(r.Drew[playerSide]+1))), true
}

// Action turns a decision into the player's game.Action.
func (d Decision) Action() game.Action {
	return Act(d.Kind, Params{Amount: d.Amount, Discard: d.Discard})
}

// computerMoves lets the computer act while it is its turn.
func (st *step) computerMoves() error {
	r := st.r
	for r.Turn == computerSide && (r.Phase == PhaseBet1 || r.Phase == PhaseBet2 || r.Phase == PhaseDraw) {
		r.Decisions++
		v := r.viewFor(computerSide, mix(r.Sess.Seed, r.Sess.Deals, r.Decisions))
		strat := r.computer
		if strat == nil {
			strat = LevelStrategy(r.Sess.Level, r.Sess.AIRev)
		}
		d := strat.Decide(v)
		var err error
		if r.Phase == PhaseDraw {
			err = st.draw(computerSide, d.Discard)
		} else {
			err = st.bet(computerSide, d.Kind, d.Amount)
		}
		if errors.Is(err, game.ErrIllegal) {
			// The computer's strategies only choose from View.Legal.
			panic("BUG: duel: computer decision " + string(d.Kind) + ": " + err.Error())
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// mix is SplitMix64 over the three words: the computer's random word.
func mix(seed, deal, n uint64) uint64 {
	z := seed ^ deal*0xbf58476d1ce4e5b9 ^ n*0x94d049bb133111eb
	for range 2 {
		z += 0x9e3779b97f4a7c15
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		z ^= z >> 31
	}
	return z
}
