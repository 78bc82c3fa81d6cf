package rtp

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/money"
)

// gridCase is one combination of operator settings (file or menu).
type gridCase struct {
	name string
	r    blackjack.Rules
}

func classicGrid(base blackjack.Rules, short bool) []gridCase {
	decks := []int{1, 2, 6, 8}
	if short {
		decks = []int{1, 6}
	}
	var out []gridCase
	for _, d := range decks {
		for _, h17 := range []bool{false, true} {
			for _, peek := range []blackjack.PeekMode{blackjack.PeekAceTen, blackjack.NoHole} {
				for _, sur := range []bool{false, true} {
					for _, mh := range []int{2, 3} {
						r := base
						r.Decks, r.HitSoft17, r.Peek, r.Surrender, r.MaxHands = d, h17, peek, sur, mh
						out = append(out, gridCase{fmt.Sprintf("decks=%d,h17=%v,peek=%s,surrender=%v,max_hands=%d", d, h17, peek, sur, mh), r})
					}
				}
			}
		}
	}
	return out
}

func zappitGrid(base blackjack.Rules) []gridCase {
	var out []gridCase
	for _, spots := range []int{1, 3} {
		for _, mb := range []money.Cents{500, 2500, 100000} {
			for _, cp := range []money.Cents{0, 10000, 50000} {
				r := base
				r.MaxSpots, r.MaxBet, r.WinCap = spots, mb, cp
				out = append(out, gridCase{fmt.Sprintf("spots=%d,max_bet=%v,win_cap=%v", spots, mb, cp), r})
			}
		}
	}
	return out
}

func freeBetGrid(base blackjack.Rules) []gridCase {
	var out []gridCase
	for _, pen := range []int{50, 75, 90} {
		for _, spots := range []int{1, 3} {
			for _, sides := range []bool{false, true} {
				r := base
				r.Penetration, r.MaxSpots = pen, spots
				if !sides {
					r.Side = nil
				}
				out = append(out, gridCase{fmt.Sprintf("penetration=%d,spots=%d,side_bets=%v", pen, spots, sides), r})
			}
		}
	}
	return out
}

func royalGrid(base blackjack.Rules) []gridCase {
	var out []gridCase
	for _, stake := range []money.Cents{100, 500, 2500} {
		for _, side := range []bool{false, true} {
			r := base
			r.RoyalStake = stake
			if !side {
				r.Side = nil
			}
			out = append(out, gridCase{fmt.Sprintf("royal_stake=%v,side_bet=%v", stake, side), r})
		}
	}
	return out
}

// TestGrid: under a grid of operator settings for every game (file and
// menu settings: decks, H17/S17, dealing mode, surrender, max split hands,
// Free Bet penetration and side bets, Zappit spots × max bet × win cap,
// Royal Poker stake and side bet), every combination the check accepts has
// every wager in [min_rtp, 100 %), and every combination it refuses names a
// wager at 100 % or more or below min_rtp. DAS is not an operator setting
// (fixed by each game's rules) and is not varied.
//
// The grid is pure computation (hundreds of PAR analyses) and takes about ten
// times as long under the race detector, where it is skipped: scripts/test
// runs it separately without -race.
func TestGrid(t *testing.T) {
	if raceEnabled {
		t.Skip("pure computation, run without -race by scripts/test")
	}
	in, err := FromConfig(shipped(t))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[game.ID][]gridCase{
		game.Classic: classicGrid(in.Rules[game.Classic], testing.Short()),
		game.Zappit:  zappitGrid(in.Rules[game.Zappit]),
		game.FreeBet: freeBetGrid(in.Rules[game.FreeBet]),
		game.Royal:   royalGrid(in.Rules[game.Royal]),
	}
	g := NewGuard()
	refused := map[game.ID]int{}
	for _, id := range []game.ID{game.Royal, game.FreeBet, game.Zappit, game.Classic} {
		for _, c := range cases[id] {
			c.r.Game = id
			gi := Input{Games: []game.ID{id}, Rules: map[game.ID]blackjack.Rules{id: c.r}, Progressive: in.Progressive, MinRTP: in.MinRTP}
			figs, err := g.Check(context.Background(), gi)
			if len(figs[id]) == 0 {
				t.Fatalf("%s %s: no figures (%v)", id, c.name, err)
			}
			var bad *Figure
			for _, f := range figs[id] {
				if f.RTP >= 10000 || f.RTP < in.MinRTP {
					bad = &f
					break
				}
			}
			var re *RefusedError
			switch {
			case bad == nil && err != nil:
				t.Errorf("%s %s: refused (%v) but every wager is within [min_rtp, 100 %%)", id, c.name, err)
			case bad != nil && !errors.As(err, &re):
				t.Errorf("%s %s: %s returns %s, accepted (err %v)", id, c.name, bad.Bet, Percent(bad.RTP), err)
			case bad != nil:
				refused[id]++
				if re.Game != id || re.Bet != bad.Bet || re.RTP != bad.RTP {
					t.Errorf("%s %s: refusal %+v, want %s %s", id, c.name, re.Figure, bad.Bet, Percent(bad.RTP))
				}
				t.Logf("%s %s: refused: %v", id, c.name, err)
			}
		}
	}
	// Combinations known to be refused: a player advantage in Classic with
	// one deck, S17, resplits and surrender; Zappit's 1000.00 bet under a
	// 100.00 cap.
	if refused[game.Classic] == 0 || refused[game.Zappit] == 0 {
		t.Errorf("refused per game %v, want refusals in Classic and Zappit", refused)
	}
}
