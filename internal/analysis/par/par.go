package par

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/sidebet"
)

// Report is the PAR sheet of one blackjack game.
type Report struct {
	Game      game.ID         `json:"game"`
	Rules     blackjack.Rules `json:"rules"`
	Main      MainResult      `json:"main"`
	Side      []SideResult    `json:"side,omitempty"`
	Royal     *RoyalResult    `json:"royal,omitempty"`
	Insurance *SideResult     `json:"insurance,omitempty"`
	Seconds   float64         `json:"seconds"`
}

// Analyse computes the PAR sheet of a blackjack game under r. progress, if
// not nil, receives a line now and then on long work.
//
// A win cap that binds at the worst bet is valued by its bound (WorstBet);
// `cabinet par` simulates its cost instead (Options.CapRounds).
func Analyse(ctxt context.Context, r blackjack.Rules, pr Progressive, progress func(string)) (Report, error) {
	return analyse(ctxt, r, pr, Sim{}, progress)
}

func analyse(ctxt context.Context, r blackjack.Rules, pr Progressive, sim Sim, progress func(string)) (Report, error) {
	start := time.Now()
	if err := r.Validate(); err != nil {
		return Report{}, fmt.Errorf("analysis: %s: %w", r.Game, err)
	}
	main, err := analyseMain(ctxt, r, sim, progress)
	if err != nil {
		return Report{}, err
	}
	rep, err := analyseSidesProgress(ctxt, r, pr, progress)
	if err != nil {
		return Report{}, err
	}
	rep.Main = main
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// analyseSides computes every side bet and insurance of r (no main game).
func analyseSides(ctxt context.Context, r blackjack.Rules, pr Progressive) (Report, error) {
	return analyseSidesProgress(ctxt, r, pr, nil)
}

func analyseSidesProgress(ctxt context.Context, r blackjack.Rules, pr Progressive, progress func(string)) (Report, error) {
	rep := Report{Game: r.Game, Rules: r}
	for _, sr := range r.Side {
		if err := ctxt.Err(); err != nil {
			return Report{}, fmt.Errorf("analysis: %s side bets: %w", r.Game, err)
		}
		if progress != nil {
			progress(fmt.Sprintf("%s side bet %s", r.Game, sr.Kind))
		}
		switch sr.Kind {
		case game.RoyalSide:
			rr, err := royal(r, pr)
			if err != nil {
				return Report{}, err
			}
			rep.Royal = &rr
		case game.AnyPair:
			rep.Side = append(rep.Side, toOne(sr.Kind, "exact enumeration of the first two cards", sr, anyPair(r.Decks)))
		case game.TwentyOne:
			rep.Side = append(rep.Side, toOne(sr.Kind, "exact enumeration of two cards and the up card", sr, threeCard(r.Decks, sidebet.TwentyOnePlus3)))
		case game.Hot3:
			rep.Side = append(rep.Side, toOne(sr.Kind, "exact enumeration of two cards and the up card", sr, threeCard(r.Decks, sidebet.Hot3)))
		case game.BustIt:
			rep.Side = append(rep.Side, toOne(sr.Kind, "exact dealer recursion over the shoe; a player blackjack pushes", sr, bustIt(r)))
		default:
			return Report{}, fmt.Errorf("analysis: %s side bet %s: %w", r.Game, sr.Kind, ErrNoSideBet)
		}
	}
	if r.Insurance {
		ins := insurance(r)
		rep.Insurance = &ins
	}
	return rep, nil
}

// blackjackGames are the games `cabinet par` covers, in menu order.
var blackjackGames = []game.ID{game.Royal, game.FreeBet, game.Zappit, game.Classic}

// Command implements `cabinet par --game royal|freebet|zappit|classic|all [--json]`:
// the PAR sheet of each game under its default rules (the engine's presets).
// Progress goes to stderr. cmd/cabinet adds --config and --store (the rules
// in force) and calls Par.
func Command(ctxt context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("par", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gameFlag := fs.String("game", "all", "royal|freebet|zappit|classic|all")
	asJSON := fs.Bool("json", false, "print one JSON object")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	capRounds := fs.Int("cap-rounds", CapRounds, "rounds simulated for a win cap at the worst bet (0: the bound)")
	cutShoes := fs.Int("cut-shoes", CutShoes, "shoes simulated for a cut-card shoe (0: the full shoe)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("par: %w: %w", ErrUsage, err)
	}
	var ids []game.ID
	if *gameFlag == "all" {
		ids = blackjackGames
	} else {
		id := game.ID(*gameFlag)
		if _, err := blackjack.Preset(id); err != nil {
			return fmt.Errorf("par --game %q: %w", *gameFlag, ErrUnknownGame)
		}
		ids = []game.ID{id}
	}
	rules := map[game.ID]blackjack.Rules{}
	for _, id := range ids {
		rules[id], _ = blackjack.Preset(id)
	}
	if *capRounds < 0 || *cutShoes < 0 {
		return fmt.Errorf("par: %w: --cap-rounds %d, --cut-shoes %d (want 0 or more)", ErrUsage, *capRounds, *cutShoes)
	}
	return Par(ctxt, Options{Games: ids, Rules: rules, Progressive: DefaultProgressive(), JSON: *asJSON, Quiet: *quiet,
		Sim: Sim{CapRounds: *capRounds, CutShoes: *cutShoes}}, stdout, stderr)
}

// Options is what `cabinet par` analyses and how it prints.
type Options struct {
	Games       []game.ID // in this order; a game missing from Rules is skipped
	Rules       map[game.ID]blackjack.Rules
	Progressive Progressive
	JSON        bool // one JSON object instead of text
	Quiet       bool // no progress on stderr
	// Sim sizes the simulations of a win cap that binds at the worst bet and
	// of a cut-card shoe; 0 prints the bound or the full shoe instead.
	Sim Sim
}

// Par prints the PAR sheet of every game of opt.
func Par(ctxt context.Context, opt Options, stdout, stderr io.Writer) error {
	start := time.Now()
	progress := func(s string) {
		if !opt.Quiet {
			fmt.Fprintf(stderr, "[%5.1fs] %s\n", time.Since(start).Seconds(), s)
		}
	}
	var reps []Report
	for _, id := range opt.Games {
		r, ok := opt.Rules[id]
		if !ok {
			continue
		}
		rep, err := analyse(ctxt, r, opt.Progressive, opt.Sim, progress)
		if err != nil {
			return fmt.Errorf("par: %w", err)
		}
		reps = append(reps, rep)
		if !opt.JSON {
			WriteReport(stdout, rep)
		}
	}
	if opt.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := struct {
			Reports []Report `json:"reports"`
			Seconds float64  `json:"seconds"`
		}{reps, time.Since(start).Seconds()}
		if err := enc.Encode(out); err != nil {
			return fmt.Errorf("par: write json: %w", err)
		}
		return nil
	}
	fmt.Fprintf(stdout, "total time %.1f s\n", time.Since(start).Seconds())
	return nil
}

func pct(x float64) string { return fmt.Sprintf("%.4f %%", 100*x) }

// WriteReport prints a PAR sheet as text (the form `cabinet par` prints).
func WriteReport(w io.Writer, rep Report) {
	r := rep.Rules
	fmt.Fprintf(w, "=== %s: %d deck(s), %s, peek %s, double %s, max hands %d", rep.Game, r.Decks,
		map[bool]string{true: "H17", false: "S17"}[r.HitSoft17], r.Peek, r.Double, r.MaxHands)
	var extra []string
	if r.DoubleAfterSplit {
		extra = append(extra, "DAS")
	}
	switch {
	case r.Surrender && r.Peek == blackjack.NoHole:
		extra = append(extra, "surrender settled when the dealer's hand is complete")
	case r.Surrender:
		extra = append(extra, "late surrender")
	}
	if r.FreeBets {
		extra = append(extra, "free doubles/splits")
	}
	if r.CharlieCards > 0 {
		extra = append(extra, fmt.Sprintf("%d-card Charlie", r.CharlieCards))
	}
	if r.Dealer22Push {
		extra = append(extra, "dealer 22 pushes")
	}
	if r.Zap {
		extra = append(extra, "zap hard 15-18")
	}
	if r.EvenMoney {
		extra = append(extra, "even money")
	}
	if len(extra) > 0 {
		fmt.Fprintf(w, ", %s", strings.Join(extra, ", "))
	}
	fmt.Fprintf(w, "\n")
	m := rep.Main
	fmt.Fprintf(w, "main game (computed, composition-dependent strategy):\n")
	hw, hwBet := "", ""
	switch {
	case m.Cap != nil:
		fmt.Fprintf(w, "  at the worst bet: %d spot(s) at %v under the win cap %v (smaller bets return more); the cap's cost simulated, %d rounds, 95 %% interval\n", m.WorstSpots, m.WorstBet, r.WinCap, m.Cap.Rounds)
		hw, hwBet = fmt.Sprintf(" ± %.4f %%", 100*m.Cap.HalfWidth), fmt.Sprintf(" ± %.4f %%", 100*m.Cap.HalfWidthBet)
		fmt.Fprintf(w, "  floor the return guard and help use: %s per money staked (a proven lower bound for this strategy, docs/par.md)\n", pct(m.Cap.Floor))
	case m.Cut != nil:
		fmt.Fprintf(w, "  dealt by the cut card at %d %% of the shoe, simulated, %d shoes, 95 %% interval (full shoe, exact: %s)\n", r.Penetration, m.Cut.Shoes, pct(m.Cut.FullShoe))
		hw, hwBet = fmt.Sprintf(" ± %.4f %%", 100*m.Cut.HalfWidth), fmt.Sprintf(" ± %.4f %%", 100*m.Cut.HalfWidthBet)
	case m.WorstBet > 0:
		fmt.Fprintf(w, "  at the worst bet: %d spot(s) at %v under the win cap %v: the floor (a proven lower bound for this strategy; smaller bets return more)\n", m.WorstSpots, m.WorstBet, r.WinCap)
	}
	fmt.Fprintf(w, "  return per initial bet   %s%s  (house edge %s)\n", pct(m.RTPBet), hwBet, pct(-m.EV))
	fmt.Fprintf(w, "  return per money staked  %s%s  (%.4f staked per round with doubles and paid splits)\n", pct(m.RTP), hw, m.Staked)
	fmt.Fprintf(w, "  player blackjack %.5f", m.Blackjack)
	for _, a := range []string{aStand, aHit, aDouble, aSplit, aSurrender, aZap, "evenmoney"} {
		if p, ok := m.Actions[a]; ok {
			fmt.Fprintf(w, ", %s %.5f", a, p)
		}
	}
	fmt.Fprintf(w, " (first decisions)\n")
	for _, n := range m.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if m.EV > 0 {
		fmt.Fprintf(w, "  WARNING: the player has the advantage under these rules (return above 100 %%)\n")
	}
	writeSide := func(s SideResult) {
		fmt.Fprintf(w, "side bet %s: RTP %s (%s)\n", s.Kind, pct(s.RTP), s.Method)
		for _, o := range s.Outcomes {
			name := o.Name
			if name == "" {
				name = "(lost)"
			}
			fmt.Fprintf(w, "  %-18s %-18s p = %.8f  (1 in %.1f)\n", name, o.Pays, o.P, 1/o.P)
		}
		for _, n := range s.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	if rep.Royal != nil {
		writeSide(rep.Royal.SideResult)
	}
	for _, s := range rep.Side {
		writeSide(s)
	}
	if rep.Insurance != nil {
		writeSide(*rep.Insurance)
	}
	fmt.Fprintf(w, "(%.2f s)\n\n", rep.Seconds)
}

// Base is what a game's figures depend on besides its limits (bets, spots
// and the win cap's amount): the PAR sheet of its rules with the cap left
// out, and, for a game with a cap, the bounding measure of a capped round
// (capbound.go). Base.For gives the figures for any limits at once, which
// the return guard needs while an operator edits a draft.
type Base struct {
	Report Report  `json:"report"`
	Law    *CapLaw `json:"law,omitempty"`
}

// AnalyseBase computes the Base of r (its limits do not matter, only
// whether it has a win cap).
func AnalyseBase(ctxt context.Context, r blackjack.Rules, pr Progressive) (Base, error) {
	start := time.Now()
	if err := r.Validate(); err != nil {
		return Base{}, fmt.Errorf("analysis: %s: %w", r.Game, err)
	}
	main, law, err := analyseBase(ctxt, r, nil)
	if err != nil {
		return Base{}, err
	}
	rep, err := analyseSides(ctxt, r, pr)
	if err != nil {
		return Base{}, err
	}
	rep.Main = main
	rep.Seconds = time.Since(start).Seconds()
	return Base{Report: rep, Law: law}, nil
}

// For is the PAR sheet of r, whose rules differ from the base's at most in
// their limits: the main bet at r's worst bet, by the floor, where r's cap
// binds (Analyse's figures, without computing).
func (b Base) For(r blackjack.Rules) (Report, error) {
	if _, binds := WorstBet(r); binds && (b.Law == nil || len(b.Law.Mu) < max(1, r.MaxSpots)) {
		return Report{}, fmt.Errorf("analysis: %s: the base has no win cap law for %d spot(s)", r.Game, max(1, r.MaxSpots))
	}
	rep := b.Report
	rep.Rules = r
	rep.Main.Notes = mainNotes(r)
	rep.Main = WithFloor(rep.Main, b.Law, r)
	return rep, nil
}
