package blackjack

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// fuzzKinds are the actions the fuzzer picks from: every blackjack action,
// one of another game and one that does not exist.
var fuzzKinds = []game.ActionKind{
	game.Deal, game.Hit, game.Stand, game.Double, game.Split, game.Surrender, game.Zap,
	game.Insure, game.NoInsure, game.EvenMoney, game.Raise, "nonsense",
}

// FuzzRandomActions drives rounds of every variant with action sequences
// taken from the input: legal and illegal actions, bets in and out of the
// limits, funds that are sometimes short. It checks that nothing panics,
// that a refused action changes nothing, that Apply accepts exactly what
// Legal lists (Deal aside, whose bets may be refused), and that a finished
// round conserves money.
func FuzzRandomActions(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Add([]byte{4, 0, 0, 0, 7, 1, 1, 1, 2, 2, 2, 2})
	f.Add([]byte{6, 9, 0, 3, 3, 6, 6, 1, 1, 1, 1, 2})
	f.Fuzz(fuzzActions)
}

func fuzzActions(t *testing.T, data []byte) {
	if len(data) < 3 {
		return
	}
	names := []string{"classic", "classic-european", "classic-2hands", "classic-h17", "royal", "freebet", "zappit", "zappit-nocap"}
	rules := variants()[names[int(data[0])%len(names)]]
	shoe := card.NewShoe(rules.Decks)
	shoe.Rand = card.NewSeeded(uint64(data[1]))
	r, err := New(rules, 1)
	if err != nil {
		t.Fatal(err)
	}
	var evs []game.Event
	for i := 2; i+1 < len(data) && !r.Done(); i += 2 {
		k := fuzzKinds[int(data[i])%len(fuzzKinds)]
		b := data[i+1]
		funds := plenty
		if b&1 == 1 {
			funds = money.Cents(b) * 20
		}
		a := game.Action{Kind: k, Funds: funds}
		if k == game.Deal {
			a.Bets = fuzzBets(rules, b)
		}
		before := encode(t, r)
		legal := slices.Contains(r.Legal(funds), k)
		ev, err := r.Apply(a, shoe)
		if err != nil {
			if after := encode(t, r); !bytes.Equal(before, after) {
				t.Fatalf("refused Apply(%v) = %v changed the round:\n%s\n%s", k, err, before, after)
			}
			if legal && !(k == game.Deal && (errors.Is(err, game.ErrBet) || errors.Is(err, game.ErrFunds))) {
				t.Fatalf("Apply(%v) = %v, but Legal(%v) lists it", k, err, funds)
			}
			continue
		}
		if !legal {
			t.Fatalf("Apply(%v) succeeded, but Legal(%v) = %v does not list it", k, funds, r.Legal(funds))
		}
		evs = append(evs, ev...)
		roundTrip(t, r)
	}
	if r.Done() {
		checkRound(t, r, evs)
	}
}

// fuzzBets makes a Deal's bets from one byte: mostly valid, sometimes not.
func fuzzBets(r Rules, b byte) []game.Bet {
	amount := r.MinBet * money.Cents(1+b%5)
	if b%17 == 0 {
		amount = r.MaxBet + 1
	}
	bets := []game.Bet{{Spot: int(b>>4) % (r.MaxSpots + 1), Kind: game.Main, Amount: amount}}
	if b&2 != 0 && r.MaxSpots > 1 {
		bets = append(bets, game.Bet{Spot: (bets[0].Spot + 1) % r.MaxSpots, Kind: game.Main, Amount: r.MinBet})
	}
	for i, s := range r.Side {
		if b&(4<<i) != 0 {
			amt := s.Min
			if s.Kind == game.RoyalSide {
				amt = r.RoyalStake
			}
			bets = append(bets, game.Bet{Spot: bets[0].Spot, Kind: s.Kind, Amount: amt})
		}
	}
	return bets
}
