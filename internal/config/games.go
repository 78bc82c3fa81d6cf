package config

import (
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
)

// limits reads a table's main-bet limits (min_bet, max_bet) of games.<id>.
func limits(r *blackjack.Rules, id game.ID, minS, maxS string) error {
	p := "games." + string(id) + "."
	lo, err := amount(p+"min_bet", minS, aboveZero)
	if err != nil {
		return err
	}
	hi, err := amount(p+"max_bet", maxS, aboveZero)
	if err != nil {
		return err
	}
	if hi < lo {
		return bad(p+"max_bet", maxS, "an amount at least min_bet (%v)", lo)
	}
	r.MinBet, r.MaxBet = lo, hi
	return nil
}

func spots(id game.ID, n int) (int, error) {
	if err := spotsRange.check("games."+string(id)+".spots", n, "betting spots"); err != nil {
		return 0, err
	}
	return n, nil
}

func (c *Config) void(id game.ID, s string) error {
	d, err := duration("games."+string(id)+".void_after", s)
	if err != nil {
		return err
	}
	c.voidAfter[id] = d
	return nil
}

func buildClassic(c *Config, g gamesFile) error {
	f := g.Classic
	r := blackjack.Classic()
	if err := limits(&r, game.Classic, f.MinBet, f.MaxBet); err != nil {
		return err
	}
	var err error
	if r.MaxSpots, err = spots(game.Classic, f.Spots); err != nil {
		return err
	}
	if f.Decks < 1 || f.Decks > 8 {
		return bad("games.classic.decks", f.Decks, "1 to 8 decks")
	}
	r.Decks, r.HitSoft17, r.Surrender = f.Decks, f.HitSoft17, f.Surrender
	switch f.Dealing {
	case "american":
		r.Peek = blackjack.PeekAceTen
	case "european":
		r.Peek = blackjack.NoHole
	default:
		return bad("games.classic.dealing", f.Dealing, `"american" (hole card, peek) or "european" (no hole card)`)
	}
	if err := maxHandsRange.check("games.classic.max_hands", f.MaxHands, "hands (2: split once, 3: resplit to three hands)"); err != nil {
		return err
	}
	r.MaxHands = f.MaxHands
	c.rules[game.Classic] = r
	return c.void(game.Classic, f.VoidAfter)
}

// royalHands are the fixed-prize hands of the Royal Poker bet; royal flush
// and straight flush are paid from the progressive pool, not from pays.
var royalHands = []string{"four of a kind", "full house", "flush", "straight", "three of a kind"}

func buildRoyal(c *Config, g gamesFile) error {
	f := g.Royal
	r := blackjack.Royal()
	if err := limits(&r, game.Royal, f.MinBet, f.MaxBet); err != nil {
		return err
	}
	stake, err := amount("games.royal.royal_stake", f.RoyalStake, aboveZero)
	if err != nil {
		return err
	}
	r.RoyalStake = stake
	r.Side = nil
	if f.SideBet {
		pays, err := paytable("games.royal.pays", f.Pays, royalHands)
		if err != nil {
			return err
		}
		r.Side = []blackjack.SideRule{{Kind: game.RoyalSide, Min: stake, Max: stake, Pays: pays}}
	}
	c.rules[game.Royal] = r
	return c.void(game.Royal, f.VoidAfter)
}

func buildFreeBet(c *Config, g gamesFile) error {
	f := g.FreeBet
	r := blackjack.FreeBet()
	preset := r
	if err := limits(&r, game.FreeBet, f.MinBet, f.MaxBet); err != nil {
		return err
	}
	var err error
	if r.MaxSpots, err = spots(game.FreeBet, f.Spots); err != nil {
		return err
	}
	if err := penetrationRange.check("games.freebet.penetration", f.Penetration, "(percent of the shoe dealt before the cut card)"); err != nil {
		return err
	}
	r.Penetration = f.Penetration
	r.Side = nil
	for _, s := range []struct {
		kind game.BetKind
		f    sideFile
	}{{game.AnyPair, f.AnyPair}, {game.TwentyOne, f.TwentyOne}, {game.Hot3, f.Hot3}, {game.BustIt, f.BustIt}} {
		if !s.f.Offered {
			continue
		}
		p := "games.freebet." + string(s.kind) + "."
		lo, err := amount(p+"min", s.f.Min, aboveZero)
		if err != nil {
			return err
		}
		hi, err := amount(p+"max", s.f.Max, aboveZero)
		if err != nil {
			return err
		}
		if hi < lo {
			return bad(p+"max", s.f.Max, "an amount at least min (%v)", lo)
		}
		ps, _ := preset.SideRule(s.kind)
		pays, err := paytable(p+"pays", s.f.Pays, sortedKeys(ps.Pays))
		if err != nil {
			return err
		}
		r.Side = append(r.Side, blackjack.SideRule{Kind: s.kind, Min: lo, Max: hi, Pays: pays})
	}
	c.rules[game.FreeBet] = r
	return c.void(game.FreeBet, f.VoidAfter)
}

func buildZappit(c *Config, g gamesFile) error {
	f := g.Zappit
	r := blackjack.Zappit()
	if err := limits(&r, game.Zappit, f.MinBet, f.MaxBet); err != nil {
		return err
	}
	var err error
	if r.MaxSpots, err = spots(game.Zappit, f.Spots); err != nil {
		return err
	}
	if r.WinCap, err = amount("games.zappit.win_cap", f.WinCap, zeroOK); err != nil {
		return err
	}
	c.rules[game.Zappit] = r
	return c.void(game.Zappit, f.VoidAfter)
}

// paytable checks a paytable's hand names and prizes (0 to 100000 per unit
// staked). Hands the file leaves out keep their defaults (decoding merges).
func paytable(key string, pays map[string]int64, hands []string) (map[string]int64, error) {
	out := map[string]int64{}
	for _, h := range sortedKeys(pays) {
		v := pays[h]
		known := false
		for _, k := range hands {
			known = known || k == h
		}
		switch {
		case !known:
			return nil, bad(fmt.Sprintf("%s.%q", key, h), v, "a paying hand among %q", hands)
		case v < 0 || v > 100000:
			return nil, bad(fmt.Sprintf("%s.%q", key, h), v, "a prize from 0 to 100000 (per unit staked)")
		}
		out[h] = v
	}
	return out, nil
}
