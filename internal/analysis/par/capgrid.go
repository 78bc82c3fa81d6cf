package par

import (
	"context"
	"fmt"
	"io"
	"math"

	"cabinet/internal/game/blackjack"
	"cabinet/internal/money"
)

// CapPoint is one configuration of a win cap grid: spots at bet under the
// rules' cap, the floor the guard uses and the simulated capped return
// (per money staked, with its 95 % half-width).
type CapPoint struct {
	Spots     int         `json:"spots"`
	Bet       money.Cents `json:"bet"`
	Floor     float64     `json:"floor"`
	Sim       float64     `json:"sim"`
	HalfWidth float64     `json:"half_width"`
}

// Above says whether the floor lies above the simulated return beyond its
// interval (the floor would not be one).
func (p CapPoint) Above() bool { return p.Floor > p.Sim+p.HalfWidth }

// Gap is how far the floor lies below the simulated return.
func (p CapPoint) Gap() float64 { return p.Sim - p.Floor }

// CapGrid computes, for every spots × bet under r's win cap, the floor and
// the simulated capped return (rounds rounds each, the seed CapSeed): the
// check of the floor against the analyser's player on the engine. One
// analysis serves every point (the floor's law does not depend on the
// bet, the spots or the cap).
func CapGrid(ctxt context.Context, r blackjack.Rules, spots []int, bets []money.Cents, rounds int, progress func(string)) ([]CapPoint, error) {
	if r.WinCap <= 0 {
		return nil, fmt.Errorf("par: cap grid: %s has no win cap", r.Game)
	}
	if rounds <= 0 {
		return nil, fmt.Errorf("par: cap grid: %d rounds, want 1 or more", rounds)
	}
	most := 1
	for _, k := range spots {
		most = max(most, k)
	}
	base := r
	base.MaxSpots = most
	free, law, err := analyseBase(ctxt, base, nil)
	if err != nil {
		return nil, err
	}
	var out []CapPoint
	for _, k := range spots {
		for _, bet := range bets {
			rk := r
			rk.MaxSpots, rk.MaxBet = k, bet
			if err := rk.Validate(); err != nil {
				return nil, fmt.Errorf("par: cap grid: %d spot(s) at %v: %w", k, bet, err)
			}
			pt := CapPoint{Spots: k, Bet: bet, Floor: WithFloor(free, law, rk).RTP, Sim: free.RTP}
			if _, binds := WorstBet(rk); binds {
				if progress != nil {
					progress(fmt.Sprintf("cap grid: %d spot(s) at %v under %v, %d rounds", k, bet, r.WinCap, rounds))
				}
				est, err := simulateCap(ctxt, rk, rounds, CapSeed)
				if err != nil {
					return nil, err
				}
				ev := free.EV - est.Excess/float64(k)
				pt.Sim = (free.Staked + ev) / free.Staked
				pt.HalfWidth = 1.96 * est.ExcessSE / float64(k) / free.Staked
			}
			out = append(out, pt)
		}
	}
	return out, nil
}

// WriteCapGrid prints a grid as a table, each point with its verdict
// against tol (how far below the simulation a floor may lie).
func WriteCapGrid(w io.Writer, cap money.Cents, pts []CapPoint, tol float64) (bad int) {
	fmt.Fprintf(w, "win cap %v: floor (the return guard's) against the simulated return of the same player, per money staked\n", cap)
	fmt.Fprintf(w, "%5s %10s %10s %10s %10s %9s  %s\n", "spots", "bet", "floor %", "sim %", "± 95 %", "gap", "verdict")
	for _, p := range pts {
		v := "ok"
		switch {
		case p.Above():
			v, bad = "FLOOR ABOVE THE SIMULATION", bad+1
		case p.Gap()-p.HalfWidth > tol:
			v, bad = fmt.Sprintf("more than %.2f point(s) below", 100*tol), bad+1
		}
		fmt.Fprintf(w, "%5d %10v %10.4f %10.4f %10.4f %9.4f  %s\n", p.Spots, p.Bet, 100*p.Floor, 100*p.Sim, 100*p.HalfWidth, 100*p.Gap(), v)
	}
	return bad
}

// GridBets are the bets of the grid for cap c: from a tenth of the cap to
// twice the cap (at least the minimum bet of r).
func GridBets(r blackjack.Rules) []money.Cents {
	var out []money.Cents
	for _, f := range []float64{0.1, 0.25, 0.5, 1, 2} {
		b := money.Cents(math.Round(float64(r.WinCap) * f))
		out = append(out, max(b, r.MinBet))
	}
	return out
}
