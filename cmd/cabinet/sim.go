package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cabinet/internal/cabinet"
	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/hw/sim"
	"cabinet/internal/money"
	"cabinet/internal/recovery"
)

// simResult is the summary `cabinet sim` prints (also as JSON).
type simResult struct {
	Rounds      int64     `json:"rounds"`
	Wagered     string    `json:"wagered"`
	Won         string    `json:"won"`
	RTP         string    `json:"rtp"`
	Credits     string    `json:"credits"`
	Steps       int64     `json:"steps_this_run"`
	StepsPerSec float64   `json:"steps_per_second"`
	Games       []simGame `json:"games"`
}

type simGame struct {
	Game     game.ID `json:"game"`
	Played   int64   `json:"played"`
	Wagered  string  `json:"wagered"`
	Won      string  `json:"won"`
	RTP      string  `json:"rtp"`
	Computed string  `json:"computed_rtp,omitempty"`
	// Bets is the return per bet: "main" gathers the main bet with its
	// doubles and splits (the PAR figure's "per money staked" basis), a
	// progressive prize counts with the Royal Poker side bet.
	Bets []simBet `json:"bets"`
}

type simBet struct {
	Bet      game.BetKind `json:"bet"`
	Wagered  string       `json:"wagered"`
	Won      string       `json:"won"`
	RTP      string       `json:"rtp"`
	Computed string       `json:"computed_rtp,omitempty"`
}

// betTally counts stakes and payouts per game and bet group from the
// committed events.
type betTally map[game.ID]map[game.BetKind]*[2]money.Cents

func betGroup(k game.BetKind) game.BetKind {
	switch k {
	case game.DoubleBet, game.SplitBet:
		return game.Main
	case game.Jackpot:
		return game.RoyalSide
	}
	return k
}

func (t betTally) add(id game.ID, _ uint64, evs []game.Event) {
	for _, e := range evs {
		if e.Kind != game.Stake && e.Kind != game.Payout {
			continue
		}
		if t[id] == nil {
			t[id] = map[game.BetKind]*[2]money.Cents{}
		}
		g := betGroup(e.Bet)
		if t[id][g] == nil {
			t[id][g] = new([2]money.Cents)
		}
		if e.Kind == game.Stake {
			t[id][g][0] += e.Amount
		} else {
			t[id][g][1] += e.Amount
		}
	}
}

func cmdSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gameF := fs.String("game", "classic", "game to play: classic|royal|freebet|zappit|duel|all")
	rounds := fs.Int64("rounds", 1000, "play until the store holds this many completed rounds")
	seed := fs.Uint64("seed", 1, "seed of the deterministic random source (simulation only)")
	storeF := fs.String("store", "", "store file (default: a temporary file, removed at the end)")
	cfgF := fs.String("config", defaultConfig, "configuration file")
	jsonF := fs.Bool("json", false, "print the summary as JSON")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	sasF := fs.String("sas", "", "serve SAS on this serial port or pty while playing (overrides [sas] port; address 1 if [sas] address is 0); after the rounds the sim keeps answering the host until interrupted")
	printerF := fs.String("printer", "", "ticket printer on this serial port or pty, e.g. a tclemu printer's (overrides [printer] port)")
	accF := fs.String("acceptor", "", "take money only from the ID-003 note validator on this serial port or pty (overrides [hardware.acceptor] port): autoplay inserts no bills, waits for notes; after the rounds the sim lets the validator settle")
	settleF := fs.Duration("settle", 10*time.Second, "with --acceptor: after the rounds, serve the validator until it idles with nothing pending, at most this long (0: not at all)")
	paceF := fs.Duration("pace", 0, "pause between steps (e.g. 50ms, so a SAS host can follow the play)")
	cashF := fs.Int64("cashout-every", 0, "press CASH OUT after every N completed rounds (a ticket with --printer and a validating host, else a handpay the sim's attendant pays); 0: never")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("sim: unexpected argument %q", fs.Arg(0))}
	}
	if *paceF < 0 {
		return usageError{fmt.Sprintf("sim: --pace %v: want 0 or more", *paceF)}
	}
	if *cashF < 0 {
		return usageError{fmt.Sprintf("sim: --cashout-every %d: want 0 (never) or more", *cashF)}
	}
	if *rounds < 0 {
		return usageError{fmt.Sprintf("sim: --rounds %d: want 0 or more", *rounds)}
	}
	set, cfg, err := loadSettings(*cfgF)
	if err != nil {
		return err
	}
	rules, err := cabinet.FromConfig(ctx, *cfgF, cfg)
	if err != nil {
		return err
	}
	val, err := newValidatorLink(cfg, *accF)
	if err != nil {
		return err
	}
	if err := checkSerialPorts(cfg, *sasF, *printerF, *accF); err != nil { // before the store is opened
		return fmt.Errorf("sim: %w", err)
	}
	games := set.Games
	if *gameF != "all" {
		id := game.ID(*gameF)
		if !id.Valid() {
			return usageError{fmt.Sprintf("sim: unknown game %q (want classic, royal, freebet, zappit, duel or all)", *gameF)}
		}
		if !contains(set.Games, id) {
			return fmt.Errorf("sim: game %q is not enabled in %s", id, *cfgF)
		}
		games = []game.ID{id}
	}
	path := *storeF
	if path == "" {
		dir, err := os.MkdirTemp("", "cabinet-sim-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "sim.db")
	}
	// The sim's stores are scratch stores: it initialises them itself
	// (Init, logged in the store), with their own proof file next to them.
	st, err := recovery.Open(path, recovery.Options{RecallDepth: cfg.RecallDepth(), EventDepth: cfg.EventDepth(),
		Mirror: path + ".mirror", Init: true})
	if err != nil {
		return err
	}
	defer st.Close()
	be := sim.New()
	defer be.Close()
	tally := betTally{}
	link := newSASLink(cfg, *sasF)
	if err := checkTicketIn(cfg, val != nil, link != nil); err != nil {
		return err
	}
	// Run logs what it could not hand over (a host request, a note) as
	// errors: on stderr, as the sim's own loop printed them.
	opt := cabinet.Parts{Rules: rules, Store: st, HW: be, RNG: controller.SeededRNG{Seed: *seed}, NoOperator: true,
		OnCommit: tally.add, Log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	link.options(&opt)
	tito, closePrinter, err := openPrinter(cfg, *printerF, nil)
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	defer closePrinter()
	opt.TITO = tito
	val.options(&opt)
	auto := make(chan controller.AutoRequest)
	opt.Autoplay = auto
	c, err := cabinet.New(opt)
	if err != nil {
		return err
	}
	if err := c.Err(); err != nil {
		return fmt.Errorf("sim: store %s: %w", path, err)
	}
	// The cabinet's one loop (Run) serves every input: the host, the
	// validator, the printer and autoplay's steps, asked from here.
	completed, credits, open := c.Completed(), c.Credits(), c.OpenGame() // read before Run starts
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	runCtx, stopRun := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- c.Run(runCtx) }()
	stopped := false
	stop := func() error { // Run ends before the summary reads the cabinet
		if stopped {
			return nil
		}
		stopped = true
		stopRun()
		return <-ran
	}
	defer stop()
	sasDone, err := link.start(ctx, st, c, slog.New(slog.NewTextHandler(stderr, nil)))
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	stopVal, err := val.start(ctx, log)
	if err != nil {
		return err
	}
	defer stopVal()
	choose := chooser(set)
	reply := make(chan controller.AutoResult, 1)
	start := time.Now()
	var steps int64
	lastProgress := start
	cashedAt := completed // the rounds count of the last cash-out
	for completed < *rounds {
		id := games[int(completed%int64(len(games)))]
		cash := *cashF > 0 && completed-cashedAt >= *cashF && open == "" && credits > 0
		select {
		case auto <- controller.AutoRequest{Step: controller.AutoStep{Game: id, Choose: choose, CashOut: cash}, Reply: reply}:
		case <-ctx.Done():
			return ctx.Err()
		}
		r := <-reply
		completed, credits, open = r.Completed, r.Credits, r.OpenGame
		err := r.Err
		if cash && err == nil {
			cashedAt = completed
		}
		if errors.Is(err, controller.ErrHostLocked) {
			// The host locked play out or disabled this game: wait for it.
			time.Sleep(2 * time.Millisecond)
			continue
		} else if (val != nil || tito != nil) && (errors.Is(err, controller.ErrNoCredits) || errors.Is(err, controller.ErrNotNow)) {
			// Waiting for notes or tickets, for the validator's tilt to
			// clear, or for a ticket's validation or print: Run serves
			// them meanwhile.
			time.Sleep(2 * time.Millisecond)
			continue
		} else if err != nil {
			return fmt.Errorf("sim: round %d: %w", r.NextRound, err)
		}
		steps++
		time.Sleep(*paceF) // the host is answered during the pause too (Run)
		if !*quiet && time.Since(lastProgress) > 5*time.Second {
			lastProgress = time.Now()
			fmt.Fprintf(stderr, "sim: %d/%d rounds\n", completed, *rounds)
		}
	}
	elapsed := time.Since(start)
	if *settleF > 0 && !val.settle(*settleF) {
		fmt.Fprintf(stderr, "sim: the note validator did not settle within %s (status %s)\n", *settleF, val.v.Info().Status)
	}
	if link != nil {
		fmt.Fprintf(stderr, "sim: %d rounds done; answering the SAS host on %s until interrupted\n", completed, link.port)
		select {
		case err := <-sasDone:
			if ctx.Err() == nil {
				return fmt.Errorf("sim: SAS link: %w", err)
			}
		case <-ctx.Done(): // interrupted: the link stops with it
		}
	}
	if err := stop(); err != nil {
		return err
	}
	res := summarize(c, games, steps, elapsed, tally)
	if *jsonF {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(stdout, "rounds   %d\nwagered  %s\nwon      %s\nRTP      %s\ncredits  %s\nsteps    %d in %s (%.0f steps/s)\n",
		res.Rounds, res.Wagered, res.Won, res.RTP, res.Credits, res.Steps, elapsed.Round(time.Millisecond), res.StepsPerSec)
	fmt.Fprintf(stdout, "%-8s %8s %14s %14s %9s %9s\n", "game", "played", "wagered", "won", "RTP", "computed")
	defer fmt.Fprintf(stdout, "(a game's computed RTP is the analyser's per-bet figures weighted by this run's wagers)\n")
	for _, g := range res.Games {
		fmt.Fprintf(stdout, "%-8s %8d %14s %14s %9s %9s\n", g.Game, g.Played, g.Wagered, g.Won, g.RTP, g.Computed)
	}
	fmt.Fprintf(stdout, "per bet (this run; main = main bet with its doubles and splits)\n")
	fmt.Fprintf(stdout, "%-8s %-10s %14s %14s %9s %9s\n", "game", "bet", "wagered", "won", "RTP", "computed")
	for _, g := range res.Games {
		for _, b := range g.Bets {
			fmt.Fprintf(stdout, "%-8s %-10s %14s %14s %9s %9s\n", g.Game, b.Bet, b.Wagered, b.Won, b.RTP, b.Computed)
		}
	}
	return nil
}

func contains(gs []game.ID, id game.ID) bool {
	for _, g := range gs {
		if g == id {
			return true
		}
	}
	return false
}

// pct formats won/wagered as a percentage with 3 decimals (reporting only).
func pct(won, wagered int64) string {
	if wagered == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f%%", 100*float64(won)/float64(wagered))
}

func summarize(c *controller.Controller, games []game.ID, steps int64, elapsed time.Duration, tally betTally) simResult {
	m := c.Machine()
	mt := m.Meters
	won := int64(mt.TotalWon + mt.JackpotHandpay)
	res := simResult{Rounds: c.Completed(), Wagered: mt.TotalIn.String(), Won: (mt.TotalWon + mt.JackpotHandpay).String(),
		RTP: pct(won, int64(mt.TotalIn)), Credits: m.Credits.String(), Steps: steps,
		StepsPerSec: float64(steps) / max(elapsed.Seconds(), 1e-9)}
	for _, id := range games {
		g := mt.Games[id]
		if g == nil {
			continue
		}
		res.Games = append(res.Games, simGame{Game: id, Played: g.Played, Wagered: g.Wagered.String(), Won: g.Won.String(),
			RTP: pct(int64(g.Won), int64(g.Wagered)), Computed: expectedRTP(c, id, tally[id]), Bets: betLines(c, id, tally[id])})
	}
	return res
}

// betLines lists a game's bets in a stable order: main first, then by name.
func betLines(c *controller.Controller, id game.ID, t map[game.BetKind]*[2]money.Cents) []simBet {
	kinds := make([]game.BetKind, 0, len(t))
	for k := range t {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b game.BetKind) int {
		if (a == game.Main) != (b == game.Main) {
			if a == game.Main {
				return -1
			}
			return 1
		}
		return strings.Compare(string(a), string(b))
	})
	out := make([]simBet, 0, len(kinds))
	for _, k := range kinds {
		v := t[k]
		out = append(out, simBet{Bet: k, Wagered: v[0].String(), Won: v[1].String(), RTP: pct(int64(v[1]), int64(v[0])),
			Computed: computedBetRTP(c, id, k)})
	}
	return out
}

// expectedRTP is the analyser's return for this run's mix of bets under the
// rules in force (file plus the store's overrides): each bet's computed RTP
// weighted by what was wagered on it ("" when a bet has
// no figure, e.g. Poker Duel's session). Reporting only.
func expectedRTP(c *controller.Controller, id game.ID, t map[game.BetKind]*[2]money.Cents) string {
	var num, den int64
	for k, v := range t {
		if v[0] == 0 {
			continue
		}
		bp, ok := figureBP(c, id, k)
		if !ok {
			return ""
		}
		num += int64(v[0]) * bp
		den += int64(v[0])
	}
	if den == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f%%", float64(num)/float64(den)/100)
}
