package scenario

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"cabinet/internal/cabinet"
	"cabinet/internal/config"
	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/hw/sim"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// Scenario is a script of inputs played on a fresh cabinet. Each "shot"
// line names a screen captured at that point.
type Scenario struct {
	Name   string
	Seed   uint64 // the seeded RNG's seed: the same cards every run
	Script string
}

// Options are what a play needs from outside: the configuration file, a
// directory for the store, and the program digest shown on the audit page.
type Options struct {
	Config string // configuration file (configs/cabinet.toml)
	Dir    string // the store lives here (a temp dir)
	Digest string // program SHA-256 shown by audit (a fixed string in tests)
	// Display plays the cabinet as `cabinet run` has it, with a window
	// that reports what it has shown: the table waits for the script's
	// "shown" and "held" lines (controller/shown.go). false: headless,
	// every step counts as shown when committed.
	Display bool
}

// Shot is one captured screen: its name, the script line that took it and
// the committed snapshot as the controller published it.
type Shot struct {
	Name string
	Line int
	Snap *view.Snapshot
}

// Start is the scenario clock's first reading: every reading adds a second,
// so event times and recall times are the same on every run.
var Start = time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)

// player is the cabinet being played: the controller on its store and the
// sim panel whose inputs are handed to it one by one.
type player struct {
	opt   Options
	cfg   *config.Config
	set   controller.InForce
	seed  uint64
	path  string
	st    *recovery.Store
	be    *sim.Backend
	c     *controller.Controller
	clock time.Time
	shots []Shot
	rules cabinet.Rules
}

// Play runs sc from a fresh store and returns its shots in script order.
// A script error (bad line, an input refused that the script did not mark
// with "!", an input accepted that it did) names the line.
func Play(sc Scenario, opt Options) ([]Shot, error) {
	// The configuration and the return check of its rules in force, as
	// `cabinet run` has them (internal/cabinet).
	rules, err := cabinet.LoadRules(context.Background(), opt.Config)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	p := &player{opt: opt, rules: rules, cfg: rules.Config, set: rules.InForce, seed: sc.Seed, clock: Start,
		path: filepath.Join(opt.Dir, sc.Name+".db")}
	if err := p.boot(); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	defer p.close()
	for n, line := range strings.Split(sc.Script, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if err := p.line(n+1, line); err != nil {
			return nil, fmt.Errorf("scenario %s line %d %q: %w", sc.Name, n+1, line, err)
		}
	}
	return p.shots, nil
}

func (p *player) now() time.Time {
	p.clock = p.clock.Add(time.Second)
	return p.clock
}

// boot opens the store and starts a controller on it, as `cabinet run` does
// (configuration, operator menu, return check), with the seeded RNG.
func (p *player) boot() error {
	st, err := recovery.Open(p.path, recovery.Options{Init: true, RecallDepth: p.cfg.RecallDepth(), EventDepth: p.cfg.EventDepth(), Now: p.now})
	if err != nil {
		return err
	}
	p.st, p.be = st, sim.New()
	var display *controller.Presentation
	if p.opt.Display {
		display = controller.NewPresentation()
	}
	c, err := cabinet.New(cabinet.Parts{Rules: p.rules, Store: st, HW: p.be, RNG: controller.SeededRNG{Seed: p.seed},
		Now: p.now, Digest: p.opt.Digest, Display: display})
	if err != nil {
		st.Close()
		return err
	}
	p.c = c
	return nil
}

func (p *player) close() {
	if p.st != nil {
		p.st.Close()
	}
	if p.be != nil {
		p.be.Close()
	}
	p.st, p.be, p.c = nil, nil, nil
}

// line plays one script line.
func (p *player) line(n int, line string) error {
	refuse := strings.HasPrefix(line, "!")
	line = strings.TrimSpace(strings.TrimPrefix(line, "!"))
	f := strings.Fields(line)
	switch f[0] {
	case "shot":
		if len(f) != 2 || refuse {
			return fmt.Errorf("%w: shot <name>", ErrScript)
		}
		s := *p.c.Snapshot()
		p.shots = append(p.shots, Shot{Name: f[1], Line: n, Snap: &s})
		return nil
	case "shown", "held":
		// The display has shown the published picture in full ("held":
		// and kept its result on screen the minimum time).
		if len(f) != 1 || refuse || !p.opt.Display {
			return fmt.Errorf("%w: %s takes no argument and needs Options.Display", ErrScript, f[0])
		}
		rep := view.Shown{Shown: p.c.Snapshot().Present}
		if f[0] == "held" {
			rep.Held = rep.Shown
		}
		return p.c.Handle(controller.Input{Shown: &rep})
	case "powercut":
		// The process dies between two inputs (every step is committed or
		// not at all); a new controller boots on the same store.
		p.close()
		return p.boot()
	case "autoplay":
		if len(f) < 2 || refuse {
			return fmt.Errorf("%w: autoplay <rounds> [game…]", ErrScript)
		}
		rounds, err := strconv.Atoi(f[1])
		if err != nil || rounds < 1 {
			return fmt.Errorf("%w: autoplay %q: want a number of rounds", ErrScript, f[1])
		}
		games := p.set.Games
		if len(f) > 2 {
			games = nil
			for _, g := range f[2:] {
				games = append(games, game.ID(g))
			}
		}
		for i := range rounds {
			id := games[i%len(games)]
			for {
				if err := p.c.Handle(controller.Input{Auto: &controller.AutoStep{Game: id}}); err != nil {
					return fmt.Errorf("autoplay %s: %w", id, err)
				}
				if p.c.OpenGame() == "" {
					break
				}
			}
		}
		return nil
	case "autostep":
		// autostep <steps> <game>: that many committed steps of autoplay
		// (a round left open, to show it mid-play).
		if len(f) != 3 || refuse {
			return fmt.Errorf("%w: autostep <steps> <game>", ErrScript)
		}
		steps, err := strconv.Atoi(f[1])
		if err != nil || steps < 1 {
			return fmt.Errorf("%w: autostep %q: want a number of steps", ErrScript, f[1])
		}
		for range steps {
			if err := p.c.Handle(controller.Input{Auto: &controller.AutoStep{Game: game.ID(f[2])}}); err != nil {
				return fmt.Errorf("autostep %s: %w", f[2], err)
			}
		}
		return nil
	case "menu":
		// Presses SPOT on the menu until the named game is highlighted.
		if len(f) != 2 || refuse {
			return fmt.Errorf("%w: menu <game>", ErrScript)
		}
		for range len(p.set.Games) + 1 {
			if s := p.c.Snapshot(); s.Mode == view.Menu && s.Game == game.ID(f[1]) {
				return nil
			}
			p.be.Press(hw.Spot)
			if err := p.feed(line, false); err != nil {
				return err
			}
		}
		return fmt.Errorf("%w: game %q not on the menu", ErrScript, f[1])
	}
	return p.input(line, refuse)
}

// input plays a sim script line (press, switch, bill, jam) on the panel and
// hands what the panel reports to the controller.
func (p *player) input(line string, refuse bool) error {
	if err := sim.Script(context.Background(), p.be, strings.NewReader(line), noSleep); err != nil {
		return err
	}
	return p.feed(line, refuse)
}

// feed hands the panel's pending inputs to the controller one at a time. A
// refusal is an input the controller answered with an error or a bill the
// acceptor returned; it must match what the script expects ("!").
func (p *player) feed(line string, refuse bool) error {
	var why []string
	for done := false; !done; {
		select {
		case in := <-p.be.Inputs():
			in.At = p.clock
			if err := p.c.Handle(controller.HW(in)); err != nil {
				why = append(why, err.Error())
			}
			if in.Kind == hw.BillRefused || in.Kind == hw.BillError {
				why = append(why, in.String())
			}
		default:
			done = true
		}
	}
	switch {
	case refuse && len(why) == 0:
		return fmt.Errorf("%w: %q", ErrAccepted, line)
	case !refuse && len(why) > 0:
		return fmt.Errorf("%w: %s", ErrRefused, strings.Join(why, "; "))
	}
	return nil
}

func noSleep(context.Context, time.Duration) error { return nil }
