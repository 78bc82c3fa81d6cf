package duel

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
)

// cardFields lists the paths of the fields of t that can hold a card.
func cardFields(t reflect.Type, path string) []string {
	cardT := reflect.TypeFor[card.Card]()
	if t == cardT {
		return []string{path}
	}
	switch t.Kind() {
	case reflect.Array, reflect.Slice, reflect.Pointer:
		return cardFields(t.Elem(), path+"[]")
	case reflect.Map:
		return append(cardFields(t.Key(), path+"{key}"), cardFields(t.Elem(), path+"{}")...)
	case reflect.Interface:
		return []string{path + " (interface: could hold anything)"}
	case reflect.Struct:
		var out []string
		for f := range t.Fields() {
			out = append(out, cardFields(f.Type, path+"."+f.Name)...)
		}
		return out
	}
	return nil
}

// TestViewCannotHoldHiddenCards: the computer decides from a View, and a
// View has room for exactly its own hand and its own discards.
func TestViewCannotHoldHiddenCards(t *testing.T) {
	got := cardFields(reflect.TypeFor[View](), "View")
	want := []string{"View.Hand[]", "View.Discarded[]"}
	if !slices.Equal(got, want) {
		t.Fatalf("card-holding fields of View = %v, want only %v", got, want)
	}
	// The decision function's signature takes nothing else.
	m, _ := reflect.TypeFor[Strategy]().MethodByName("Decide")
	if m.Type.NumIn() != 1 || m.Type.In(0) != reflect.TypeFor[View]() {
		t.Fatalf("Strategy.Decide takes %v, want only a View", m.Type)
	}
}

// spy records the views the engine builds for the computer and plays the
// hard level.
type spy struct{ views []View }

func (s *spy) Decide(v View) Decision {
	s.views = append(s.views, v)
	return HardStrategy{}.Decide(v)
}

// TestEngineViewHasNoPlayerCards: every view the computer received holds
// its own cards and none the player held at any time of the deal.
func TestEngineViewHasNoPlayerCards(t *testing.T) {
	seed := uint64(4242)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	cfg := DefaultConfig()
	checked := 0
	for no := range uint64(150) {
		s := NewSession(cfg, []int{32, 52}[no%2], Hard, no)
		s.PlayerFirst = no%3 == 0
		r, err := New(cfg, s, no)
		if err != nil {
			t.Fatal(err)
		}
		sp := &spy{}
		r.SetComputer(sp)
		shoe := &card.Shoe{Cards: card.Deck(), Rand: card.NewSeeded(rng.Uint64())}
		if r.DeckSize() == 32 {
			shoe.Cards = card.ShortDeck()
		}
		for !r.Done() {
			apply(t, r, randomAction(rng, r, r.Legal(0)), shoe)
		}
		player := append(slices.Clone(r.Hands[playerSide]), r.Discards[playerSide]...)
		computer := append(slices.Clone(r.Hands[computerSide]), r.Discards[computerSide]...)
		for _, v := range sp.views {
			for _, c := range append(v.Hand[:], v.Discarded...) {
				if slices.Contains(player, c) || !slices.Contains(computer, c) {
					t.Fatalf("deal %d: the computer's view holds %v, not one of its own cards %v", no, c, computer)
				}
			}
			checked++
		}
	}
	if checked < 150 {
		t.Fatalf("only %d computer decisions checked", checked)
	}
}

func TestBuy(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Decks = []int{52}
	r, err := New(cfg, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Legal(cfg.Price - 1); len(got) != 0 {
		t.Errorf("Legal(price-1) = %v, want none", got)
	}
	wantLegal(t, r, []game.ActionKind{}...) // Legal(0): none
	if got := r.Legal(cfg.Price); !slices.Equal(got, []game.ActionKind{game.Buy}) {
		t.Errorf("Legal(price) = %v, want [buy]", got)
	}
	if _, err := r.Apply(funded(Act(game.Buy, Params{Deck: 52, Level: Hard}), cfg.Price-1), nil); !errors.Is(err, game.ErrFunds) {
		t.Errorf("Apply(buy without funds) = %v, want ErrFunds", err)
	}
	wantIllegal(t, r, funded(Act(game.Buy, Params{Deck: 32, Level: Hard}), 500))
	wantIllegal(t, r, funded(Act(game.Buy, Params{Deck: 52, Level: "expert"}), 500))
	wantIllegal(t, r, game.Action{Kind: game.Deal, Funds: 500})
	evs := apply(t, r, funded(Act(game.Buy, Params{Deck: 52, Level: Hard, Seed: 77}), 500), nil)
	if !r.Done() || evs[0].Kind != game.Stake || evs[0].Bet != game.Session || evs[0].Amount != cfg.Price {
		t.Fatalf("Apply(buy) = %+v, want a Stake of %v on the session and the round over", evs, cfg.Price)
	}
	if _, err := r.Apply(game.Action{Kind: game.Deal}, nil); !errors.Is(err, game.ErrRoundOver) {
		t.Errorf("Apply after the purchase = %v, want ErrRoundOver", err)
	}
	s := r.Session()
	if s.Deck != 52 || s.Level != Hard || s.Seed != 77 || s.PlayerStack != 500 || s.ComputerStack != 500 || len(s.Worn) != 6 {
		t.Fatalf("Session() = %+v, want a fresh 52-card hard session with seed 77", s)
	}
	next, err := New(cfg, s, 2)
	if err != nil || !slices.Equal(next.Legal(0), []game.ActionKind{game.Deal}) {
		t.Fatalf("New(after buy).Legal = %v, %v; want [deal]", next.Legal(0), err)
	}
	cfg.Enabled = false
	off, _ := New(cfg, nil, 3)
	if got := off.Legal(1000); len(got) != 0 {
		t.Errorf("disabled game: Legal = %v, want none", got)
	}
	wantIllegal(t, off, game.Action{Kind: game.Buy, Funds: 500})
}

func TestNewRejectsBadInput(t *testing.T) {
	cfg := DefaultConfig()
	bad := cfg
	bad.Ante = 0
	if _, err := New(bad, nil, 1); !errors.Is(err, ErrConfig) {
		t.Errorf("New(ante 0) = %v, want ErrConfig", err)
	}
	s := NewSession(cfg, 52, Hard, 1)
	s.Chips++
	if _, err := New(cfg, s, 1); !errors.Is(err, ErrSession) {
		t.Errorf("New(session with a chip too many) = %v, want ErrSession", err)
	}
}

func TestBadSourceChangesNothing(t *testing.T) {
	cfg := DefaultConfig()
	s := NewSession(cfg, 32, Easy, 1)
	r, _ := New(cfg, s, 1)
	for _, src := range []string{"AS AD 7C 8H", "AS AD 7C 8H 9S 10S JS QS KS 2S", "AS AD 7C 8H 9S 10S JS QS KS AS"} {
		before := r.clone()
		if _, err := r.Apply(game.Action{Kind: game.Deal}, stacked(src)); err == nil || errors.Is(err, game.ErrIllegal) {
			t.Errorf("Apply(deal from %q) = %v, want a source error", src, err)
		}
		if !reflect.DeepEqual(before, r) {
			t.Errorf("failed deal from %q changed the round", src)
		}
	}
}
