package par

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"cabinet/internal/game/blackjack"
	"cabinet/internal/money"
)

// Action names used by the analyser's option lists (the game.ActionKind strings).
const (
	aStand     = "stand"
	aHit       = "hit"
	aDouble    = "double"
	aSplit     = "split"
	aSurrender = "surrender"
	aZap       = "zap"
)

// option is one action available on a hand with its value.
type option struct {
	name string
	v    val
}

func bestOf(opts []option) option {
	b := opts[0]
	for _, o := range opts[1:] {
		if better(o.v, b.v) {
			b = o
		}
	}
	return b
}

// bj holds what every up card shares: the rules, the full shoe by value and
// the dealer graphs.
type bj struct {
	r      blackjack.Rules
	full   [11]int
	n      int
	graphs [11]*dealerGraph
}

// newBJ prepares the analysis of r. A win cap is not part of the values
// (the player decides without it); its floor is capbound.go's.
func newBJ(r blackjack.Rules) *bj {
	b := &bj{r: r}
	for v := 1; v <= 9; v++ {
		b.full[v] = 4 * r.Decks
	}
	b.full[10] = 16 * r.Decks
	b.n = 52 * r.Decks
	for up := 1; up <= 10; up++ {
		b.graphs[up] = newDealerGraph(up, r.HitSoft17)
	}
	return b
}

// upEval evaluates every decision against one up card. Not safe for
// concurrent use.
type upEval struct {
	b     *bj
	up    int
	main  *ctx
	split map[[2]int]*ctx // by pair value and hands on the spot
	zap   map[[2]int]*ctx
	sv    map[int]val
	dc    map[uint64][nOutcomes]float64
	orig  map[[2]int][]option
}

func (b *bj) upEval(up int) *upEval {
	dc := map[uint64][nOutcomes]float64{}
	return &upEval{b: b, up: up, main: newCtx(&b.r, b.graphs[up], b.full, dc, up),
		split: map[[2]int]*ctx{}, zap: map[[2]int]*ctx{}, sv: map[int]val{}, dc: dc, orig: map[[2]int][]option{}}
}

// base is the kind of an original hand.
func (u *upEval) base() kind { return kind{win: 1, loss: 1, late: 1, stake: 1} }

// splitKind is the kind of the first hand of a split.
func (u *upEval) splitKind() kind { return u.base() }

// secondSplitKind is the kind of the second hand of a split of value p.
func (u *upEval) secondSplitKind(p int) kind {
	r := &u.b.r
	switch {
	case r.FreeBets && p != 10:
		return kind{win: 1} // free-bet token: wins as money, loses nothing
	case r.Peek == blackjack.NoHole:
		return kind{win: 1, loss: 1, late: 1, stake: 1}
	case r.FreeBets:
		return kind{win: 1, loss: 1, late: 0, stake: 1} // paid split stake returned on a late blackjack
	}
	return kind{win: 1, loss: 1, late: 1, stake: 1}
}

// splitCtx is the context of a split hand of pair value p when the spot
// holds t hands: the hand's own pair card is in the hand, the other t−1
// pair cards are out of the shoe.
func (u *upEval) splitCtx(p, t int) *ctx {
	t = max(2, t)
	c, ok := u.split[[2]int{p, t}]
	if !ok {
		out := make([]int, t-1)
		for i := range out {
			out[i] = p
		}
		c = newCtx(&u.b.r, u.b.graphs[u.up], u.b.full, u.dc, u.up, out...)
		u.split[[2]int{p, t}] = c
	}
	return c
}

func (u *upEval) zapCtx(a, b int) *ctx {
	key := [2]int{min(a, b), max(a, b)}
	c, ok := u.zap[key]
	if !ok {
		c = newCtx(&u.b.r, u.b.graphs[u.up], u.b.full, u.dc, u.up, a, b)
		u.zap[key] = c
	}
	return c
}

// splitHandOptions lists the actions on a hand that came from a split of
// pair value p, the spot holding t hands (h holds the hand's own cards; the
// other pair cards are out of the shoe).
func (u *upEval) splitHandOptions(p, t int, h hand, k kind) []option {
	c := u.splitCtx(p, t)
	if v, ok := c.settled(h, k); ok {
		return []option{{aStand, val{ev: v}}}
	}
	tot, _ := h.total()
	opts := []option{{aStand, val{ev: c.stand(h, k)}}}
	if p == 1 || tot == 21 || (u.b.r.MaxCards > 0 && h.n >= u.b.r.MaxCards) {
		return opts // split aces take one card; 21 stands
	}
	opts = append(opts, option{aHit, c.hitHand(h, k)})
	if h.n == 2 && u.b.r.DoubleAfterSplit && c.canDouble(h) {
		opts = append(opts, option{aDouble, c.double(h, k)})
	}
	return opts
}

// splitHand is the value of one split hand of value p before its second
// card, excluding (noP) or including a second card of value p.
func (u *upEval) splitHand(p, t int, k kind, noP bool) val {
	c := u.splitCtx(p, t)
	h0 := handOf(p)
	w := c.noBJ(h0)
	var out val
	var mass float64
	for v := 1; v <= 10; v++ {
		if noP && v == p {
			continue
		}
		pr := c.p(h0, v)
		if pr == 0 {
			continue
		}
		mass += pr
		out = out.add(bestOf(u.splitHandOptions(p, t, h0.add(v), k)).v.scale(pr))
	}
	if mass == 0 {
		return val{}
	}
	out = out.scale(1 / mass)
	out.stake += k.stake * w
	return out
}

// splitValue is the value of splitting a pair of value p (both hands), with
// its extra money staked. Each split hand is valued on the shoe less the up
// card and the spot's pair cards, the other hands' drawn cards unseen: the
// player plays each hand on its own cards and the pair cards on the spot
// (as player.Optimal does). For that player the value is exact, not an
// approximation: cards are exchangeable and the other hands' cards are
// taken at stopping times the hand does not look at, so what this hand and
// the dealer draw has the law of draws from the shoe without them
// (predictable sampling). With three hands allowed a pair card drawn as a
// split hand's second card is always resplit; the probability of drawing
// one and the hands' values follow the pair cards on the spot.
func (u *upEval) splitValue(p int) val {
	if v, ok := u.sv[p]; ok {
		return v
	}
	r := &u.b.r
	w := u.splitCtx(p, 2).noBJ(handOf(p))
	k1, k2 := u.splitKind(), u.secondSplitKind(p)
	var out val
	if r.MaxHands <= 2 || p == 1 {
		out = u.splitHand(p, 2, k1, false).add(u.splitHand(p, 2, k2, false))
	} else {
		// With t hands on the spot every hand knows the t pair cards: a
		// hand's second card is a pair card with probability pp(t), and
		// is then resplit while t < MaxHands.
		anyV := func(t int) val { return u.splitHand(p, t, k1, false) }
		npV := func(t int) val { return u.splitHand(p, t, k1, true) }
		pp := func(t int) float64 { return u.splitCtx(p, t).p(handOf(p), p) }
		memo := map[[2]int]val{}
		var f func(k, t int) val
		f = func(k, t int) val {
			if k == 0 {
				return val{}
			}
			if v, ok := memo[[2]int{k, t}]; ok {
				return v
			}
			var v val
			if t < r.MaxHands {
				v = f(k+1, t+1).scale(pp(t)).add(npV(t).add(f(k-1, t)).scale(1 - pp(t)))
			} else {
				v = anyV(t).add(f(k-1, t))
			}
			memo[[2]int{k, t}] = v
			return v
		}
		out = f(2, 2)
	}
	out.stake -= w // the original bet is counted by the caller
	u.sv[p] = out
	return out
}

// zapValue is the value of zapping the original hand a, b.
func (u *upEval) zapValue(a, b int) val {
	c := u.zapCtx(a, b)
	var out val
	var h0 hand
	for v1 := 1; v1 <= 10; v1++ {
		p1 := c.p(h0, v1)
		if p1 == 0 {
			continue
		}
		h1 := h0.add(v1)
		for v2 := 1; v2 <= 10; v2++ {
			p2 := c.p(h1, v2)
			if p2 == 0 {
				continue
			}
			out = out.add(bestOf(u.zappedOptions(a, b, h1.add(v2))).v.scale(p1 * p2))
		}
	}
	return out
}

// zappedOptions lists the actions on a zapped hand h (its new cards; a, b
// were discarded). Two new cards making 21 win at once (games.md §3).
func (u *upEval) zappedOptions(a, b int, h hand) []option {
	return u.zappedOptionsIn(u.zapCtx(a, b), h)
}

// zappedOptionsIn values a zapped hand in context c.
func (u *upEval) zappedOptionsIn(c *ctx, h hand) []option {
	k := u.base()
	if v, ok := c.settled(h, k); ok {
		return []option{{aStand, val{ev: v}}}
	}
	t, _ := h.total()
	if h.n == 2 && t == 21 {
		return []option{{aStand, val{ev: k.pay() * c.noBJ(h)}}}
	}
	opts := []option{{aStand, val{ev: c.stand(h, k)}}}
	if t == 21 || (u.b.r.MaxCards > 0 && h.n >= u.b.r.MaxCards) {
		return opts
	}
	opts = append(opts, option{aHit, c.hitHand(h, k)})
	if h.n == 2 && c.canDouble(h) {
		opts = append(opts, option{aDouble, c.double(h, k)})
	}
	return opts
}

// originalOptions lists the actions on an original two-card hand a, b that
// is not a blackjack, valued in the main context.
func (u *upEval) originalOptions(a, b int) []option {
	a, b = min(a, b), max(a, b)
	if o, ok := u.orig[[2]int{a, b}]; ok {
		return o
	}
	o := u.computeOriginal(a, b)
	u.orig[[2]int{a, b}] = o
	return o
}

func (u *upEval) computeOriginal(a, b int) []option {
	r := &u.b.r
	c := u.main
	h := handOf(a, b)
	k := u.base()
	opts := []option{{aStand, val{ev: c.stand(h, k)}}, {aHit, c.hitHand(h, k)}}
	if c.canDouble(h) {
		opts = append(opts, option{aDouble, c.double(h, k)})
	}
	if a == b && r.MaxHands >= 2 {
		opts = append(opts, option{aSplit, u.splitValue(a)})
	}
	if r.Surrender {
		opts = append(opts, option{aSurrender, val{ev: u.surrenderEV(h)}})
	}
	if r.Zap && h.cnt[1] == 0 && h.hard >= 15 && h.hard <= 18 {
		opts = append(opts, option{aZap, u.zapValue(a, b)})
	}
	return opts
}

// surrenderEV is the value of surrendering the original hand h: half the
// bet back, except where a dealer blackjack is found after play (European
// dealing, games.md §4): the surrender is settled when the dealer's hand is
// complete and loses the whole bet to a dealer blackjack.
func (u *upEval) surrenderEV(h hand) float64 {
	c := u.main
	if c.late {
		pb := c.pBJ(h)
		return -0.5*(1-pb) - u.base().late*pb
	}
	return -0.5 * c.noBJ(h)
}

// blackjackEV is the value of a player blackjack against this up card
// (even money taken when it is worth more).
func (u *upEval) blackjackEV() (ev float64, evenMoney bool) {
	pbj := u.main.pBJ(handOf(1, 10))
	ev = 1.5 * (1 - pbj)
	if u.b.r.EvenMoney && u.up == 1 && ev < 1 {
		return 1, true
	}
	return ev, false
}

// MainResult is the analysis of a blackjack game's main bet, per unit of
// initial bet, with the analyser's strategy.
type MainResult struct {
	EV        float64            `json:"ev"`          // expected net win per initial bet
	Staked    float64            `json:"staked"`      // expected money staked per round (doubles and paid splits included)
	RTP       float64            `json:"rtp"`         // (Staked + EV) / Staked
	RTPBet    float64            `json:"rtp_initial"` // 1 + EV: return per initial bet
	Actions   map[string]float64 `json:"actions"`     // probability of each first decision taken
	Blackjack float64            `json:"blackjack"`   // probability of a player blackjack
	Notes     []string           `json:"notes"`
	// WorstBet, when not zero, is the bet per spot at which a win cap was
	// applied (the maximum bet, on WorstSpots spots): the figures are then
	// a lower bound of the return at that bet (see WorstBet).
	WorstBet   money.Cents `json:"worst_bet,omitempty"`
	WorstSpots int         `json:"worst_spots,omitempty"`
	// Cap, when set, is the win cap's cost simulated at the worst bet
	// (capsim.go): EV, RTP and RTPBet are then the capped figures, within
	// Cap.HalfWidth (95 %), no longer a bound.
	Cap *CapResult `json:"cap,omitempty"`
	// Floor, when set, is a win cap at the worst bet applied by its floor
	// (capbound.go): EV, RTP and RTPBet are then lower bounds of the capped
	// figures for this strategy.
	Floor *CapFloor `json:"floor,omitempty"`
	// Cut, when set, is the cut card's effect simulated (cutcard.go): EV,
	// RTP and RTPBet are then the returns by the cut card, within
	// Cut.HalfWidth (95 %); Cut.FullShoe the exact full shoe's.
	Cut *CutResult `json:"cut,omitempty"`
}

// CutResult is a cut-card shoe's return, simulated.
type CutResult struct {
	CutEstimate
	FullShoe    float64 `json:"full_shoe"`
	FullShoeBet float64 `json:"full_shoe_initial"`
}

// Sim sizes the simulations `cabinet par` runs where no recursion is exact
// (0: not simulated, the bound or the full shoe instead).
type Sim struct {
	CapRounds int // rounds for a win cap at the worst bet (capsim.go)
	CutShoes  int // shoes for a cut card (cutcard.go)
}

// CapFloor is a win cap at the worst bet applied by its floor.
type CapFloor struct {
	// Uncapped and UncappedBet are the exact returns without the cap (per
	// money staked, per initial bet); Excess the bound of the money the cap
	// withholds per round, in units of one spot's bet.
	Uncapped    float64 `json:"uncapped"`
	UncappedBet float64 `json:"uncapped_initial"`
	Excess      float64 `json:"excess"`
}

// CapResult is a win cap at the worst bet, its cost simulated.
type CapResult struct {
	CapEstimate
	// HalfWidth is the 95 % half-width of RTP (per money staked); HalfWidthBet
	// that of RTPBet (per initial bet).
	HalfWidth    float64 `json:"half_width"`
	HalfWidthBet float64 `json:"half_width_initial"`
	// Uncapped is the exact return per money staked without the cap, Floor
	// the floor the return guard and help use (capbound.go).
	Uncapped float64 `json:"uncapped"`
	Floor    float64 `json:"floor"`
}

// analyseMain computes the main game's expected value by recursion over the
// shoe composition, each up card in parallel. Where a win cap binds at the
// worst bet, the figure is its floor (capbound.go) unless sim.CapRounds > 0:
// then the cap's cost is simulated over that many rounds; a cut-card shoe is
// analysed full unless sim.CutShoes > 0 (`cabinet par`).
func analyseMain(ctxt context.Context, r blackjack.Rules, sim Sim, progress func(string)) (MainResult, error) {
	_, binds := WorstBet(r)
	if !r.FreshShuffle && sim.CutShoes > 0 && binds {
		return MainResult{}, fmt.Errorf("analysis: %s: a win cap with a cut-card shoe is not analysed", r.Game)
	}
	free, law, err := analyseBase(ctxt, r, progress)
	if err != nil {
		return free, err
	}
	if !r.FreshShuffle && sim.CutShoes > 0 {
		return withCut(ctxt, r, free, sim.CutShoes, progress)
	}
	if !binds {
		return free, nil
	}
	floor := WithFloor(free, law, r)
	if sim.CapRounds <= 0 {
		return floor, nil
	}
	res := free
	res.Notes = slices.Clone(free.Notes)
	res.WorstBet, res.WorstSpots = r.MaxBet, max(1, r.MaxSpots)
	if progress != nil {
		progress(fmt.Sprintf("%s win cap: simulating %d rounds at the worst bet", r.Game, sim.CapRounds))
	}
	est, err := simulateCap(ctxt, r, sim.CapRounds, CapSeed)
	if err != nil {
		return MainResult{}, fmt.Errorf("analysis: %s win cap: %w", r.Game, err)
	}
	spots := float64(est.Spots)
	c := &CapResult{CapEstimate: est, Uncapped: free.RTP, Floor: floor.RTP}
	res.EV -= est.Excess / spots
	res.RTPBet = 1 + res.EV
	res.RTP = (res.Staked + res.EV) / res.Staked
	c.HalfWidthBet = 1.96 * est.ExcessSE / spots
	c.HalfWidth = c.HalfWidthBet / res.Staked
	res.Cap = c
	res.Notes = append(res.Notes, fmt.Sprintf(
		"win cap %v at the worst bet (%d spot(s) at %v): its cost simulated on the engine with this strategy, %d rounds (seed %d), the cap bound in %.3f %% of them; 95 %% interval ± %.4f %%; the exact uncapped return is %.4f %%, the floor the return guard and help use %.4f %%",
		r.WinCap, est.Spots, r.MaxBet, est.Rounds, est.Seed, 100*est.Capped, 100*c.HalfWidth, 100*c.Uncapped, 100*c.Floor))
	return res, nil
}

// analyseBase is the main game of r without its win cap (exact, for the
// analyser's player), and, when r has a cap, the bounding measure of the
// round's net for up to max(3, r.MaxSpots) spots (capbound.go): neither
// depends on the bets, the cap or the spots in force.
func analyseBase(ctxt context.Context, r blackjack.Rules, progress func(string)) (MainResult, *CapLaw, error) {
	var evals [11]*upEval
	b := newBJ(r)
	res, err := b.analyse(ctxt, &evals, progress)
	if err != nil || r.WinCap <= 0 {
		return res, nil, err
	}
	law, err := b.capLaw(ctxt, &evals, max(3, r.MaxSpots))
	if err != nil {
		return MainResult{}, nil, err
	}
	return res, law, nil
}

// WithFloor is the uncapped result free of r's play rules with r's win cap
// applied at the worst bet (every spot at the maximum bet) by its floor:
// EV − Excess/k, Excess the bound of the money the cap withholds per round
// (law, from the same play rules; see capbound.go). A cap that cannot bind
// leaves free as it is. A law that does not cover r's spots is a bug.
func WithFloor(free MainResult, law *CapLaw, r blackjack.Rules) MainResult {
	c, binds := WorstBet(r)
	if !binds {
		return free
	}
	k := max(1, r.MaxSpots)
	x := law.Excess(k, c*float64(k))
	if math.IsNaN(x) {
		panic(fmt.Sprintf("BUG: win cap floor of %s: no law for %d spot(s)", r.Game, k))
	}
	res := free
	res.Notes = slices.Clone(free.Notes)
	res.WorstBet, res.WorstSpots = r.MaxBet, k
	res.Floor = &CapFloor{Uncapped: free.RTP, UncappedBet: free.RTPBet, Excess: x}
	res.EV -= x / float64(k)
	res.RTPBet = 1 + res.EV
	res.RTP = (res.Staked + res.EV) / res.Staked
	res.Notes = append(res.Notes, fmt.Sprintf(
		"win cap %v at the worst bet (%d spot(s) at %v): floor %.4f %% (a proven lower bound for this strategy: the money the cap withholds, %.4f bets a round at most, bounded by a change of measure over the shoe; docs/par.md); the exact uncapped return is %.4f %%",
		r.WinCap, k, r.MaxBet, 100*res.RTP, x, 100*free.RTP))
	return res
}

// withCut replaces res's figures by the returns by the cut card, simulated
// over shoes shoes.
func withCut(ctxt context.Context, r blackjack.Rules, res MainResult, shoes int, progress func(string)) (MainResult, error) {
	if progress != nil {
		progress(fmt.Sprintf("%s cut card: simulating %d shoes", r.Game, shoes))
	}
	est, err := simulateCut(ctxt, r, res.EV, res.Staked, shoes, CutSeed)
	if err != nil {
		return MainResult{}, fmt.Errorf("analysis: %s cut card: %w", r.Game, err)
	}
	c := &CutResult{CutEstimate: est, FullShoe: res.RTP, FullShoeBet: res.RTPBet}
	res.RTP, res.RTPBet, res.EV = est.RTP, est.RTPBet, est.RTPBet-1
	res.Cut = c
	res.Notes = slices.DeleteFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, "shoe depletion") })
	for i, n := range res.Notes {
		if n == noteFullShoe {
			res.Notes[i] = "one spot"
		}
	}
	res.Notes = append(res.Notes, fmt.Sprintf(
		"cut card at %d %% of the shoe: simulated on the engine with this strategy, %d shoes (seed %d, %.2f rounds a shoe, each shoe also dealt for %d rounds as the exact reference); 95 %% interval ± %.4f %%; the full shoe's exact return is %.4f %% (per initial bet %.4f %%)",
		r.Penetration, est.Shoes, est.Seed, est.Rounds, est.M, 100*est.HalfWidth, 100*c.FullShoe, 100*c.FullShoeBet))
	return res, nil
}

// WorstBet returns the win cap of r per spot in units of one spot's bet at
// the worst allowed bet (every spot played at the maximum bet), and whether
// the cap can bind there. A spot wins at most 2 × MaxHands bets on the main
// game (a double on every split hand); below that the cap lowers the return
// (games.md §3 Zappit: the round's total win is capped). 0, false: no cap,
// or one that cannot bind.
func WorstBet(r blackjack.Rules) (float64, bool) {
	if r.WinCap <= 0 || r.MaxBet <= 0 {
		return 0, false
	}
	c := float64(r.WinCap) / (float64(r.MaxBet) * float64(max(1, r.MaxSpots)))
	if c >= 2*float64(max(2, r.MaxHands)) {
		return 0, false
	}
	return c, true
}

// analyse computes the main game with the evaluators in evals (created where
// nil, kept for reuse by a Strategy).
func (b *bj) analyse(ctxt context.Context, evals *[11]*upEval, progress func(string)) (MainResult, error) {
	r := b.r
	type part struct {
		ev, stake, bj float64
		acts          map[string]float64
	}
	parts := make([]part, 11)
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var mu sync.Mutex
	done := 0
	for up := 1; up <= 10; up++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctxt.Err() != nil {
				return
			}
			if evals[up] == nil {
				evals[up] = b.upEval(up)
			}
			u := evals[up]
			pu := float64(b.full[up]) / float64(b.n)
			pt := part{acts: map[string]float64{}}
			var h0 hand
			for a := 1; a <= 10; a++ {
				pa := u.main.p(h0, a)
				for c2 := a; c2 <= 10; c2++ {
					pr := pa * u.main.p(h0.add(a), c2)
					if a != c2 {
						pr *= 2
					}
					if pr == 0 {
						continue
					}
					w := pu * pr
					if a == 1 && c2 == 10 {
						ev, em := u.blackjackEV()
						pt.ev += w * ev
						pt.bj += w
						if em {
							pt.acts["evenmoney"] += w
						}
						continue
					}
					best := bestOf(u.originalOptions(a, c2))
					h := handOf(a, c2)
					ev := best.v.ev
					if u.main.excl {
						ev -= u.main.pBJ(h)
					}
					pt.ev += w * ev
					pt.stake += w * best.v.stake
					pt.acts[best.name] += w * u.main.noBJ(h)
				}
			}
			parts[up] = pt
			mu.Lock()
			done++
			if progress != nil {
				progress(fmt.Sprintf("%s main game: %d/10 up cards", r.Game, done))
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := ctxt.Err(); err != nil {
		return MainResult{}, fmt.Errorf("analysis: %s main game: %w", r.Game, err)
	}
	res := MainResult{Actions: map[string]float64{}}
	res.Staked = 1
	for _, pt := range parts[1:] {
		res.EV += pt.ev
		res.Staked += pt.stake
		res.Blackjack += pt.bj
		for k, v := range pt.acts {
			res.Actions[k] += v
		}
	}
	res.RTP = (res.Staked + res.EV) / res.Staked
	res.RTPBet = 1 + res.EV
	res.Notes = mainNotes(r)
	return res, nil
}

const noteFullShoe = "one spot, off the top of a full shoe"

func mainNotes(r blackjack.Rules) []string {
	notes := []string{
		"composition-dependent strategy: each decision uses the hand's own cards and the up card, exact removal",
		"split hands: each played on its own cards, the up card and the pair (exact for that player)",
		noteFullShoe,
	}
	if r.MaxHands > 2 {
		notes = append(notes, "resplits: a pair card drawn to a split hand is always resplit, its probability and the hands' values following the pair cards on the spot")
	}
	if !r.FreshShuffle {
		notes = append(notes, "shoe depletion (cut card) not modelled: figures are for a full shoe (`cabinet par` simulates it)")
	}
	if r.Zap {
		notes = append(notes, "a zapped hand is played knowing the two discarded cards")
	}
	if r.Peek == blackjack.NoHole && r.Surrender {
		notes = append(notes, "European dealing with surrender: settled when the dealer's hand is complete, the whole bet lost to a dealer blackjack")
	}
	if _, binds := WorstBet(r); !binds && r.WinCap > 0 {
		notes = append(notes, fmt.Sprintf("win cap %v cannot bind on the main game at the maximum bet %v on %d spot(s)", r.WinCap, r.MaxBet, max(1, r.MaxSpots)))
	}
	return notes
}
