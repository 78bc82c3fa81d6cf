package rtp

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	"cabinet/internal/analysis/par"
	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/money"
)

// Basis is what a figure is a return of.
type Basis string

const (
	// PerStaked: the main bet per money staked, doubles and paid splits
	// included (the meters' basis). Figure.Initial gives it per initial bet.
	PerStaked Basis = "staked"
	// PerUnit: a side bet or insurance per unit staked on it.
	PerUnit Basis = "unit"
)

// Figure is the return of one wager of one game under the rules in force.
type Figure struct {
	Game game.ID      `json:"game"`
	Bet  game.BetKind `json:"bet"`
	// RTP on Basis, in hundredths of a percent rounded down (9970 =
	// 99.70 %): a figure is never overstated.
	RTP   int64 `json:"rtp"`
	Basis Basis `json:"basis"`
	// Initial is the main bet's return per initial bet (hundredths of a
	// percent, rounded down); 0 for other wagers.
	Initial int64 `json:"initial,omitempty"`
	// WorstBet, when not zero, is the bet per spot the figure was computed
	// at, on WorstSpots spots: a cap makes the return depend on the bet and
	// this is the worst allowed one. The figure is then a lower bound.
	WorstBet   money.Cents `json:"worst_bet,omitempty"`
	WorstSpots int         `json:"worst_spots,omitempty"`
	Method     string      `json:"method"`
}

// Figures are the figures of every enabled blackjack game, main bet first.
type Figures map[game.ID][]Figure

// Input is what the return depends on: the enabled games and their rules
// in force, the Royal Poker progressive, and the minimum return.
type Input struct {
	Games       []game.ID // enabled games; Poker Duel (no money paid) is skipped
	Rules       map[game.ID]blackjack.Rules
	Progressive par.Progressive
	MinRTP      int64 // hundredths of a percent
}

// FromConfig is the Input of a validated configuration (with overrides
// applied by config.With when there are any).
func FromConfig(cfg *config.Config) (Input, error) {
	in := Input{Games: cfg.Enabled(), Rules: map[game.ID]blackjack.Rules{},
		Progressive: par.Progressive{Reset: cfg.Jackpot.Reset, RateE7: cfg.Jackpot.RateE7}, MinRTP: cfg.MinRTP()}
	for _, id := range in.Games {
		if id == game.Duel {
			continue
		}
		r, err := cfg.Rules(id)
		if err != nil {
			return Input{}, fmt.Errorf("rtp: rules of %s: %w", id, err)
		}
		in.Rules[id] = r
	}
	return in, nil
}

// Guard computes figures and keeps them by the rules they were computed
// for, and keeps what they depend on besides the limits (par.Base: bets,
// spots and the win cap's amount change no analysis, only the floor's sum),
// so a change of limits is answered at once. Safe for concurrent use. The
// zero value is not usable: NewGuard.
type Guard struct {
	mu    sync.Mutex
	cache map[string][]Figure
	bases map[string]par.Base
}

// NewGuard returns a Guard that holds the embedded bases of the shipped
// configuration's rules (known.json).
func NewGuard() *Guard {
	return &Guard{cache: map[string][]Figure{}, bases: known()}
}

// newColdGuard returns a Guard that knows nothing: everything computed.
func newColdGuard() *Guard {
	return &Guard{cache: map[string][]Figure{}, bases: map[string]par.Base{}}
}

// Check computes every wager of every enabled blackjack game of in and
// refuses the combination when a wager returns 100 % or more or below
// in.MinRTP, with a *RefusedError naming every such wager (the figures are
// returned with it). Another error means the rules could not be analysed.
func (g *Guard) Check(ctxt context.Context, in Input) (Figures, error) {
	out := Figures{}
	var bad []Figure
	for _, id := range in.Games {
		r, ok := in.Rules[id]
		if !ok {
			continue
		}
		fs, err := g.Game(ctxt, r, in.Progressive)
		if err != nil {
			return nil, err
		}
		out[id] = fs
		for _, f := range fs {
			if f.RTP >= 10000 || f.RTP < in.MinRTP {
				bad = append(bad, f)
			}
		}
	}
	if len(bad) > 0 {
		return out, &RefusedError{Figure: bad[0], Also: bad[1:], MinRTP: in.MinRTP}
	}
	return out, nil
}

// Check is Guard.Check for a configuration, with a fresh Guard.
func Check(ctxt context.Context, cfg *config.Config) (Figures, error) {
	in, err := FromConfig(cfg)
	if err != nil {
		return nil, err
	}
	return NewGuard().Check(ctxt, in)
}

// Game returns the figures of one blackjack game under r (the progressive
// counts for Royal Poker only): from the cache, from the base of r's rules
// (embedded or computed before) for its limits, or computed.
func (g *Guard) Game(ctxt context.Context, r blackjack.Rules, pr par.Progressive) ([]Figure, error) {
	key, bkey := Key(r, pr), BaseKey(r, pr)
	g.mu.Lock()
	fs, ok := g.cache[key]
	base, bok := g.bases[bkey]
	g.mu.Unlock()
	if ok {
		return slices.Clone(fs), nil
	}
	if !bok {
		var err error
		if base, err = par.AnalyseBase(ctxt, r, pr); err != nil {
			return nil, fmt.Errorf("rtp: %s: %w", r.Game, err)
		}
	}
	rep, err := base.For(r)
	if err != nil {
		return nil, fmt.Errorf("rtp: %s: %w", r.Game, err)
	}
	fs = FromReport(rep)
	g.mu.Lock()
	g.cache[key] = fs
	g.bases[bkey] = base
	g.mu.Unlock()
	return slices.Clone(fs), nil
}

// Base returns the base of r's rules (par.AnalyseBase), from the Guard or
// computed.
func (g *Guard) Base(ctxt context.Context, r blackjack.Rules, pr par.Progressive) (par.Base, error) {
	bkey := BaseKey(r, pr)
	g.mu.Lock()
	base, ok := g.bases[bkey]
	g.mu.Unlock()
	if ok {
		return base, nil
	}
	base, err := par.AnalyseBase(ctxt, r, pr)
	if err != nil {
		return par.Base{}, fmt.Errorf("rtp: %s: %w", r.Game, err)
	}
	g.mu.Lock()
	g.bases[bkey] = base
	g.mu.Unlock()
	return base, nil
}

// BaseKey identifies what a game's base depends on: its rules without
// their limits (minimum and maximum bet, spots, the win cap's amount, but
// whether there is a cap), and the progressive where Royal Poker's side
// bet is offered.
func BaseKey(r blackjack.Rules, pr par.Progressive) string {
	r.MinBet, r.MaxBet, r.MaxSpots = 0, 0, 0
	if r.WinCap > 0 {
		r.WinCap = 1
	}
	return "base-" + Key(r, pr)
}

// Key identifies what a game's figures depend on: its rules and, for
// Royal Poker's side bet, the progressive.
func Key(r blackjack.Rules, pr par.Progressive) string {
	if _, ok := r.SideRule(game.RoyalSide); !ok {
		pr = par.Progressive{}
	}
	b, err := json.Marshal(struct {
		R  blackjack.Rules `json:"r"`
		PR par.Progressive `json:"pr"`
	}{r, pr})
	if err != nil {
		panic("BUG: rules do not encode: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return string(r.Game) + "-" + hex.EncodeToString(sum[:12])
}

// floorBP converts a return to hundredths of a percent, rounded down (a
// hair of tolerance absorbs floating-point noise on exact values).
func floorBP(x float64) int64 { return int64(math.Floor(x*10000 + 1e-9)) }

// FromReport lists a PAR sheet's figures: the main bet, the side bets (Royal
// Poker first), insurance.
func FromReport(rep par.Report) []Figure {
	m := rep.Main
	method := fmt.Sprintf("computed, composition-dependent strategy; per money staked (%s per initial bet)", Percent(floorBP(m.RTPBet)))
	if m.WorstBet > 0 {
		method += fmt.Sprintf("; at the worst bet, %d spot(s) at %v: a floor (a proven lower bound for this strategy; the cap's cost simulated: cabinet par)", m.WorstSpots, m.WorstBet)
	}
	if !rep.Rules.FreshShuffle {
		method += "; a full shoe (the cut card's effect simulated: cabinet par)"
	}
	fs := []Figure{{Game: rep.Game, Bet: game.Main, RTP: floorBP(m.RTP), Basis: PerStaked, Initial: floorBP(m.RTPBet),
		WorstBet: m.WorstBet, WorstSpots: m.WorstSpots, Method: method}}
	if rep.Royal != nil {
		fs = append(fs, Figure{Game: rep.Game, Bet: game.RoyalSide, RTP: floorBP(rep.Royal.RTP), Basis: PerUnit, Method: rep.Royal.Method})
	}
	for _, s := range rep.Side {
		fs = append(fs, Figure{Game: rep.Game, Bet: s.Kind, RTP: floorBP(s.RTP), Basis: PerUnit, Method: s.Method})
	}
	if rep.Insurance != nil {
		fs = append(fs, Figure{Game: rep.Game, Bet: game.Insurance, RTP: floorBP(rep.Insurance.RTP), Basis: PerUnit, Method: rep.Insurance.Method})
	}
	return fs
}

// knownJSON holds the bases of the shipped configuration's rules by
// BaseKey (the analysis of every game, and Zappit's win cap law: any bets,
// spots and cap answer at once), generated by `go test
// ./internal/analysis/rtp -run TestKnown -update`; a test fails when it is
// stale. Never edit it by hand.
//
//go:embed known.json
var knownJSON []byte

func known() map[string]par.Base {
	var k map[string]par.Base
	if err := json.Unmarshal(knownJSON, &k); err != nil {
		panic("BUG: known.json does not decode: " + err.Error())
	}
	return k
}
