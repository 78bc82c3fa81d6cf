package blackjack

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

var errNoCard = errors.New("no card today")

// failSource refuses every draw.
type failSource struct{}

func (failSource) Draw() (card.Card, error) { return card.Card{}, errNoCard }

// TestAppendApplyMatchesApply plays the same random rounds twice in lock
// step: once with New and Apply (a fresh copy per step), once on one reused
// Round with Renew, AppendApply and AppendLegal (storage reused across steps
// and rounds). Every step must give the same events, the same legal actions
// and the same encoded round, including steps refused half-way by a card
// source that fails (the round must come back unchanged).
func TestAppendApplyMatchesApply(t *testing.T) {
	rounds := 400
	if testing.Short() {
		rounds = 80
	}
	for name, rules := range variants() {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			shoeA, shoeB := card.NewShoe(rules.Decks), card.NewShoe(rules.Decks)
			shoeA.Rand, shoeB.Rand = card.NewSeeded(3), card.NewSeeded(3)
			reused, err := New(rules, 0)
			if err != nil {
				t.Fatal(err)
			}
			var evBuf []game.Event
			var legalBuf []game.ActionKind
			funds := money.Cents(1 << 40)
			for n := uint64(1); n <= uint64(rounds); n++ {
				shoeA.Pos, shoeB.Pos = 0, 0
				fresh, err := New(rules, n)
				if err != nil {
					t.Fatal(err)
				}
				reused.Renew(n)
				if a, b := encode(t, fresh), encode(t, reused); !bytes.Equal(a, b) {
					t.Fatalf("round %d: Renew encodes\n%s\nNew encodes\n%s", n, b, a)
				}
				a := game.Action{Kind: game.Deal, Bets: randomBets(rng, rules), Funds: funds}
				for step := 0; step < 200; step++ {
					applied := false
					if rng.IntN(5) == 0 {
						before := encode(t, fresh)
						evA, errA := fresh.Apply(a, failSource{})
						var errB error
						evBuf, errB = reused.AppendApply(evBuf[:0], a, failSource{})
						if (errA == nil) != (errB == nil) || !slices.Equal(evA, evBuf) {
							t.Fatalf("round %d %s on a failing source: Apply = %v, %v; AppendApply = %v, %v", n, a.Kind, evA, errA, evBuf, errB)
						}
						applied = errA == nil // a step that draws no card
						if !applied {
							if !errors.Is(errB, errNoCard) {
								t.Fatalf("round %d %s: AppendApply error %v, want %v", n, a.Kind, errB, errNoCard)
							}
							if got := encode(t, reused); !bytes.Equal(got, before) {
								t.Fatalf("round %d: a refused AppendApply changed the round:\n%s\nwas\n%s", n, got, before)
							}
						}
					}
					if !applied {
						evA, errA := fresh.Apply(a, shoeA)
						var errB error
						evBuf, errB = reused.AppendApply(evBuf[:0], a, shoeB)
						if errA != nil || errB != nil {
							t.Fatalf("round %d %s: Apply = %v, AppendApply = %v", n, a.Kind, errA, errB)
						}
						if !slices.Equal(evA, evBuf) {
							t.Fatalf("round %d %s: events differ:\nApply       %v\nAppendApply %v", n, a.Kind, evA, evBuf)
						}
					}
					if a, b := encode(t, fresh), encode(t, reused); !bytes.Equal(a, b) {
						t.Fatalf("round %d: rounds differ:\nApply       %s\nAppendApply %s", n, a, b)
					}
					legal := fresh.Legal(funds)
					legalBuf = reused.AppendLegal(legalBuf[:0], funds)
					if !slices.Equal(legal, legalBuf) {
						t.Fatalf("round %d: Legal %v, AppendLegal %v", n, legal, legalBuf)
					}
					if fresh.Done() {
						break
					}
					k := legal[rng.IntN(len(legal))]
					if rng.IntN(2) == 0 {
						k = steer(fresh, legal)
					}
					a = game.Action{Kind: k, Funds: funds}
				}
				if !fresh.Done() {
					t.Fatalf("round %d: not over", n)
				}
			}
		})
	}
}

// TestCommitSwapsEveryStateField: commit swaps the fields a step can change
// by name; a field added to Round must be added there (or here, if a step
// never changes it).
func TestCommitSwapsEveryStateField(t *testing.T) {
	want := []string{"V", "Rules", "Number", "Phase", "Dealer", "HoleDown", "Hands", "Active", "Sides", "Pending", "Staked", "Paid", "mem"}
	var got []string
	rt := reflect.TypeFor[Round]()
	for i := range rt.NumField() {
		got = append(got, rt.Field(i).Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Round fields = %v, want %v: update commit (mem.go) and this list", got, want)
	}
}
