package duel

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// roundTrip checks that r survives JSON exactly: decoded (strictly) it is
// deeply equal and encodes to the same bytes. It returns the decoded copy.
func roundTrip(t testing.TB, r *Round) *Round {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("json.Marshal(round) = %v", err)
	}
	var back Round
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&back); err != nil {
		t.Fatalf("decode round: %v\n%s", err, b)
	}
	back.computer = r.computer
	if !reflect.DeepEqual(&back, r) {
		t.Fatalf("JSON round trip changed the round:\n got %+v\nwant %+v", back, *r)
	}
	b2, _ := json.Marshal(&back)
	if !bytes.Equal(b, b2) {
		t.Fatalf("re-encoding differs:\n%s\n%s", b, b2)
	}
	return &back
}

// apply applies a, checks the invariants and the JSON round trip, and fails on error.
func apply(t testing.TB, r *Round, a game.Action, src card.Source) []game.Event {
	t.Helper()
	evs, err := r.Apply(a, src)
	if err != nil {
		t.Fatalf("Apply(%v) = %v, want nil", a, err)
	}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, r)
	return evs
}

// stacked deals the fixture cards in order: the deal alternates player,
// computer (player cards at even positions), then the draws in order.
func stacked(s string) *card.Stack { return card.NewStack(card.MustParse(s)...) }

// interleave builds the deal order from the two hands.
func interleave(player, computer string) string {
	p, c := card.MustParse(player), card.MustParse(computer)
	var out []card.Card
	for i := range 5 {
		out = append(out, p[i], c[i])
	}
	return card.Format(out)
}

// script is a Strategy that plays a list of decisions, then checks or calls
// (standing pat at the draw).
type script struct{ ds []Decision }

func (s *script) Decide(v View) Decision {
	if len(s.ds) > 0 {
		d := s.ds[0]
		s.ds = s.ds[1:]
		return d
	}
	if v.Phase == PhaseDraw {
		return Decision{Kind: game.Draw}
	}
	if v.ToCall == 0 {
		return check(v)
	}
	return call(v)
}

// funded is a with the credit meter at f.
func funded(a game.Action, f money.Cents) game.Action {
	a.Funds = f
	return a
}
