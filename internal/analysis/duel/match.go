package duel

import (
	"context"
	"fmt"
	"math"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/game/duel"
)

// Result is the evaluated side A's record against B.
type Result struct {
	A, B  string
	Deck  int
	Deals int
	// WinRate: share of deals whose pot A took (a carried pot counts half).
	WinRate, WinCI float64
	// Chips: A's mean net chips per deal; ChipsCI the 95 % half-width.
	Chips, ChipsCI float64
}

// Beats reports whether A wins chips with the whole interval above zero.
func (r Result) Beats() bool { return r.Chips-r.ChipsCI > 0 }

// evalConfig is the rules of the measurement: the default rules with deep
// stacks so that no cap binds and no item is pawned.
func evalConfig(deck int) duel.Config {
	cfg := duel.DefaultConfig()
	cfg.Stack, cfg.BuyBack = 10_000, 1_000_000
	cfg.Decks = []int{deck}
	return cfg
}

// Match plays pairs of mirrored deals of a against b (a's name aName, b's
// bName) and returns a's record. Deterministic for seed.
func Match(ctx context.Context, a, b duel.Strategy, aName, bName string, deck, pairs int, seed uint64) (Result, error) {
	cfg := evalConfig(deck)
	var sumC, sumC2, sumW, sumW2 float64
	for k := range pairs {
		if k%256 == 0 {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
		}
		shoeSeed := mixSeed(seed, uint64(k), 1)
		botSeed := mixSeed(seed, uint64(k), 2)
		playerFirst := k%2 == 0
		var chips, wins float64
		for seat := range 2 {
			p, c := a, b
			if seat == 1 {
				p, c = b, a
			}
			net, won, err := playDeal(cfg, deck, p, c, playerFirst, shoeSeed, botSeed, uint64(2*k+seat))
			if err != nil {
				return Result{}, fmt.Errorf("duel-eval: %s vs %s pair %d: %w", aName, bName, k, err)
			}
			if seat == 1 { // A sat in the computer's seat
				net, won = -net, 1-won // zero-sum between the seats
			}
			chips += net
			wins += won
		}
		chips /= 2
		wins /= 2
		sumC += chips
		sumC2 += chips * chips
		sumW += wins
		sumW2 += wins * wins
	}
	n := float64(pairs)
	mean := func(s, s2 float64) (float64, float64) {
		m := s / n
		v := (s2 - n*m*m) / (n - 1)
		return m, 1.96 * math.Sqrt(max(v, 0)/n)
	}
	res := Result{A: aName, B: bName, Deck: deck, Deals: 2 * pairs}
	res.Chips, res.ChipsCI = mean(sumC, sumC2)
	res.WinRate, res.WinCI = mean(sumW, sumW2)
	return res, nil
}

// playDeal plays one deal, p in the player's seat and c in the computer's,
// and returns the player's net chips and 1, ½ or 0 for a won, carried or
// lost pot.
func playDeal(cfg duel.Config, deck int, p, c duel.Strategy, playerFirst bool, shoeSeed, botSeed, no uint64) (net, won float64, err error) {
	sess := duel.NewSession(cfg, deck, duel.Hard, botSeed)
	sess.PlayerFirst = playerFirst
	r, err := duel.New(cfg, sess, no)
	if err != nil {
		return 0, 0, err
	}
	r.SetComputer(c)
	shoe := &card.Shoe{Cards: card.Deck(), Rand: card.NewSeeded(shoeSeed)}
	if deck == 32 {
		shoe.Cards = card.ShortDeck()
	}
	a := game.Action{Kind: game.Deal}
	for !r.Done() {
		if _, err := r.Apply(a, shoe); err != nil {
			return 0, 0, err
		}
		if r.Done() {
			break
		}
		v, ok := r.PlayerView()
		if !ok {
			return 0, 0, fmt.Errorf("no player decision in phase %s", r.Phase)
		}
		a = p.Decide(v).Action()
	}
	after := r.Session()
	net = float64(after.PlayerStack - cfg.Stack)
	switch r.Outcome {
	case game.Win:
		won = 1
	case game.Push:
		won = 0.5
		// The carried pot is lost to both in a single-deal measurement:
		// each side's share back, so a push is worth what each put in.
		net += float64(after.Carry) / 2
	}
	return net, won, nil
}

// mixSeed derives independent seeds (SplitMix64).
func mixSeed(seed, k, salt uint64) uint64 {
	z := seed ^ k*0x9e3779b97f4a7c15 ^ salt*0xbf58476d1ce4e5b9
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
