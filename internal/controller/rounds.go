package controller

import (
	"bytes"
	"encoding/json"
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
)

// newRound starts a round of id with the effective settings. carry is the
// game's state kept between rounds (Poker Duel session), nil if none.
func (s *InForce) newRound(id game.ID, no uint64, carry []byte) (game.Round, json.RawMessage, error) {
	if id == game.Duel {
		return s.newDuel(no, carry)
	}
	rules, ok := s.Rules[id]
	if !ok {
		return nil, nil, fmt.Errorf("cabinet: no rules for %q", id)
	}
	r, err := blackjack.New(rules, no)
	if err != nil {
		return nil, nil, err
	}
	return r, mustJSON(rules), nil
}

// decodeRound rebuilds an engine from its stored JSON.
func decodeRound(id game.ID, state []byte) (game.Round, error) {
	if id == game.Duel {
		return decodeDuel(state)
	}
	r := new(blackjack.Round)
	dec := json.NewDecoder(bytes.NewReader(state))
	dec.DisallowUnknownFields()
	if err := dec.Decode(r); err != nil {
		return nil, fmt.Errorf("decode %s round: %w", id, err)
	}
	if err := r.Check(); err != nil {
		return nil, fmt.Errorf("decode %s round: %w", id, err)
	}
	return r, nil
}

// fresh builds the round as it was before its first step, from the stored
// rules (for the duel: its configuration and the session at the start of the
// round): the start of every replay.
func fresh(id game.ID, rules json.RawMessage, no uint64) (game.Round, error) {
	if id == game.Duel {
		return freshDuel(rules, no)
	}
	var r blackjack.Rules
	if err := json.Unmarshal(rules, &r); err != nil {
		return nil, fmt.Errorf("decode rules: %w", err)
	}
	return blackjack.New(r, no)
}

// restore decodes the open round and proves it: replaying the recorded steps
// with their recorded cards must give exactly the stored state.
func restore(open *recovery.OpenRound) (game.Round, error) {
	r, err := decodeRound(open.Game, open.State)
	if err != nil {
		return nil, err
	}
	re, err := replay(open.Game, open.Rules, open.Round, open.Steps)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if got := mustJSON(re); !bytes.Equal(got, mustJSON(r)) {
		return nil, fmt.Errorf("replayed steps do not rebuild the stored state")
	}
	return r, nil
}

// replay rebuilds a round from its rules and recorded steps, with no RNG:
// each step's drawn cards are fed back in order.
func replay(id game.ID, rules json.RawMessage, no uint64, steps []meters.Step) (game.Round, error) {
	r, err := fresh(id, rules, no)
	if err != nil {
		return nil, err
	}
	for _, s := range steps {
		if s.Action.Kind == game.Void {
			continue
		}
		if _, err := r.Apply(s.Action, card.NewStack(game.Drawn(s.Events)...)); err != nil {
			return nil, fmt.Errorf("step %d (%s): %w", s.N, s.Action.Kind, err)
		}
	}
	return r, nil
}
