package duel

import (
	"encoding/json"
	"fmt"

	"cabinet/internal/game"
)

// Params is Poker Duel's part of an action (games.md §5), carried as the
// action's game.Action.Params: the generic contract knows nothing of it.
// The JSON names are those the first stored format kept at the top level
// of the action (game.Action.UnmarshalJSON moves them here), so every
// recorded round replays.
type Params struct {
	// Amount: open/raise size in chips.
	Amount int64 `json:"amount,omitempty"`
	// Discard: card positions (0–4) to exchange.
	Discard []int `json:"discard,omitempty"`
	// Deck and Level: session choices (32 or 52; level name).
	Deck  int    `json:"deck,omitempty"`
	Level string `json:"level,omitempty"`
	// Seed: the session's bluff randomness, drawn by the controller from the
	// production RNG and recorded with the Buy.
	Seed uint64 `json:"seed,omitempty"`
}

// Act is the action of kind k with the duel's params p (none when p is
// zero).
func Act(k game.ActionKind, p Params) game.Action {
	a := game.Action{Kind: k}
	if p.Amount != 0 || len(p.Discard) > 0 || p.Deck != 0 || p.Level != "" || p.Seed != 0 {
		raw, err := json.Marshal(p)
		if err != nil {
			panic(fmt.Sprintf("BUG: duel: encode params %+v: %v", p, err))
		}
		a.Params = raw
	}
	return a
}

// ParamsOf reads the duel's params of a (zero when it has none).
func ParamsOf(a game.Action) (Params, error) {
	var p Params
	if len(a.Params) == 0 {
		return p, nil
	}
	if err := json.Unmarshal(a.Params, &p); err != nil {
		return Params{}, game.Illegal(a.Kind, "params %s: %v", a.Params, err)
	}
	return p, nil
}
