package duel

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

var allKinds = []game.ActionKind{game.Buy, game.Deal, game.Ante, game.Open, game.Wait, game.Pass,
	game.Raise, game.Change, game.See, game.Draw, game.Hit}

// randomAction picks a legal action with a random legal size or discard.
func randomAction(rng *rand.Rand, r *Round, legal []game.ActionKind) game.Action {
	k := legal[rng.IntN(len(legal))]
	var p Params
	switch k {
	case game.Buy:
		p.Deck = r.Config.Decks[rng.IntN(len(r.Config.Decks))]
		p.Level = r.Config.Levels[rng.IntN(len(r.Config.Levels))]
		p.Seed = rng.Uint64()
	case game.Open, game.Raise:
		lo, hi := r.BetRange()
		p.Amount = lo + rng.Int64N(hi-lo+1)
	case game.Draw:
		for i := range 5 {
			if rng.IntN(2) == 0 {
				p.Discard = append(p.Discard, i)
			}
		}
	}
	return funded(Act(k, p), 1000)
}

// randomIllegal returns an action that must be refused, or false.
func randomIllegal(rng *rand.Rand, r *Round, legal []game.ActionKind) (game.Action, bool) {
	switch rng.IntN(3) {
	case 0: // a kind not legal now
		var bad []game.ActionKind
		for _, k := range allKinds {
			if !slices.Contains(legal, k) && !(k == game.Buy && r.Phase == PhaseBuy) {
				bad = append(bad, k)
			}
		}
		return funded(Act(bad[rng.IntN(len(bad))], Params{Amount: 5}), 1000), true
	case 1: // a size out of range
		for _, k := range []game.ActionKind{game.Open, game.Raise} {
			if slices.Contains(legal, k) {
				_, hi := r.BetRange()
				return funded(Act(k, Params{Amount: hi + 1 + rng.Int64N(5)}), 1000), true
			}
		}
	case 2: // a bad discard
		if slices.Contains(legal, game.Draw) {
			return Act(game.Draw, Params{Discard: []int{rng.IntN(5), 5}}), true
		}
	}
	return game.Action{}, false
}

type step1 struct {
	a   game.Action
	evs []game.Event
}

// playSession plays random sessions of rounds and checks every step. It
// returns how often the outfit and session events happened.
func playSession(t *testing.T, seed uint64, cfg Config, rounds int) map[string]int {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	seen := map[string]int{}
	var sess *Session
	for no := uint64(1); no <= uint64(rounds); no++ {
		r, err := New(cfg, sess, no)
		if err != nil {
			t.Fatalf("seed %d: New(round %d) = %v", seed, no, err)
		}
		start := sess.clone()
		shoe := &card.Shoe{Cards: card.Deck(), Rand: card.NewSeeded(rng.Uint64())}
		if r.DeckSize() == 32 {
			shoe.Cards = card.ShortDeck()
		}
		var steps []step1
		for !r.Done() {
			legal := r.Legal(1000)
			if len(legal) == 0 {
				t.Fatalf("seed %d round %d: no legal action in phase %s", seed, no, r.Phase)
			}
			if bad, ok := randomIllegal(rng, r, legal); ok {
				before, _ := json.Marshal(r)
				_, err := r.Apply(bad, shoe)
				after, _ := json.Marshal(r)
				if !errors.Is(err, game.ErrIllegal) {
					t.Fatalf("seed %d: Apply(%+v) = %v, want ErrIllegal (legal %v)", seed, bad, err, legal)
				}
				if string(before) != string(after) {
					t.Fatalf("seed %d: refused Apply(%+v) changed the round", seed, bad)
				}
			}
			a := randomAction(rng, r, legal)
			if v, ok := r.PlayerView(); ok && rng.IntN(10) < 7 {
				a = HardStrategy{}.Decide(v).Action() // a player good enough to win sessions too
			}
			evs := apply(t, r, a, shoe)
			// Resume from the stored form, as after a power cut: the
			// decoded round (and a copy of the shoe) must go on identically.
			r = roundTrip(t, r)
			shoe = &card.Shoe{Cards: slices.Clone(shoe.Cards), Pos: shoe.Pos, Rand: shoe.Rand}
			for _, e := range evs {
				if k, _, ok := strings.Cut(e.Text, ":"); ok || strings.HasPrefix(e.Text, "duel.session_") {
					seen[k]++
				}
				if e.Kind == game.Payout {
					t.Fatalf("seed %d: Apply(%+v) emitted a Payout %+v: chips are never money", seed, a, e)
				}
				if e.Kind == game.Stake && (e.Bet != game.Session || e.Amount != cfg.Price) {
					t.Fatalf("seed %d: Apply(%+v) emitted Stake %+v, want only the session price", seed, a, e)
				}
			}
			tab := r.Table()
			if !r.Showdown && len(PictureOf(tab).Computer) > 0 {
				t.Fatalf("seed %d: Table shows the computer's cards before the showdown", seed)
			}
			steps = append(steps, step1{a, evs})
		}
		// Replay: the recorded actions with the recorded cards rebuild the round.
		re, err := New(cfg, start, no)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range steps {
			evs, err := re.Apply(s.a, card.NewStack(game.Drawn(s.evs)...))
			if err != nil {
				t.Fatalf("seed %d: replay Apply(%+v) = %v", seed, s.a, err)
			}
			if !reflect.DeepEqual(evs, s.evs) {
				t.Fatalf("seed %d: replay events differ:\n got %+v\nwant %+v", seed, evs, s.evs)
			}
		}
		a, _ := json.Marshal(re)
		b, _ := json.Marshal(r)
		if string(a) != string(b) {
			t.Fatalf("seed %d: replay state differs:\n%s\n%s", seed, a, b)
		}
		sess = r.Session()
	}
	return seen
}

func TestRandomSessions(t *testing.T) {
	seed := uint64(20261122)
	t.Logf("seed %d", seed)
	cfgs := map[string]Config{"default": DefaultConfig()}
	small := DefaultConfig()
	small.Stack, small.Ante, small.MinBet, small.MaxBet, small.PawnValue, small.BuyBack = 40, 5, 5, 30, 20, 60
	small.Items = []string{"hat", "scarf"}
	cfgs["small"] = small
	for name, cfg := range cfgs {
		t.Run(name, func(t *testing.T) {
			seen := map[string]int{}
			for i := range uint64(8) {
				for k, n := range playSession(t, seed+i, cfg, 60) {
					seen[k] += n
				}
			}
			t.Logf("outfit and session events: %v", seen)
			if name == "small" {
				for _, k := range []string{"pawn", "off", "buyback", "duel.session_won", "duel.session_lost"} {
					if seen[k] == 0 {
						t.Errorf("no %q event in the random sessions: the test does not cover it", k)
					}
				}
			}
		})
	}
}

// FuzzActions plays random action sequences chosen by the fuzzer's seed.
func FuzzActions(f *testing.F) {
	f.Add(uint64(1), uint8(0))
	f.Add(uint64(99), uint8(1))
	f.Fuzz(func(t *testing.T, seed uint64, variant uint8) {
		cfg := DefaultConfig()
		if variant%2 == 1 {
			cfg.Stack, cfg.PawnValue, cfg.BuyBack, cfg.MaxBet = 30, 10, 40, 25
			cfg.Items = []string{"hat"}
			cfg.RaiseCap = int(variant % 5)
		}
		playSession(t, seed, cfg, 15)
	})
}

var _ = money.Cents(0)
