package scenario

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"cabinet/internal/config"
	"cabinet/internal/controller"
	"cabinet/internal/hw/sim"
	"cabinet/internal/money"
	"cabinet/internal/selftest"
	"cabinet/internal/settings"
	"cabinet/internal/view"
)

// Library is the scenarios behind every screen of the display's tests,
// `cabinet screenshot` and the README pictures. Seeds were chosen so the
// pictured rounds show what the screen is for (a split, zapped hands, a
// side bet); the cards are whatever the seeded shoe deals.
var Library = []Scenario{
	{Name: "attract", Seed: 1, Script: `
		shot attract
		press help
		shot help-attract
	`},
	{Name: "royal", Seed: 3, Script: `
		bill 100.00
		shot menu
		press deal          # Royal Poker is first on the menu
		press special       # chip 5.00
		press bet       # spot 1
		press spot
		press bet       # spot 2
		press spot
		shot royal-side     # the Royal Poker circle chosen: highlighted, the table says how to stake it
		press bet       # the Royal Poker side bet (both spots bet)
		shot royal-bet
		press deal
		shot royal
	`},
	{Name: "classic", Seed: 7, Script: `
		bill 100.00
		menu classic
		press deal
		press special       # chip 5.00
		press special       # chip 10.00
		press bet       # spot 1
		press spot
		press bet       # spot 2
		press spot
		press bet
		press clear         # the last chip off again
		shot classic-bet
		press deal
		shot classic
		powercut
		shot recovered
		switch main_door on
		shot tilt
		switch main_door off
	`},
	{Name: "blackjack", Seed: 33, Script: `
		bill 20.00
		menu classic
		press deal
		press bet
		press deal          # a blackjack: the round settles at once
		shot classic-blackjack
	`},
	{Name: "freebet", Seed: 12, Script: `
		bill 50.00
		menu freebet
		press deal
		press special       # chip 5.00
		press bet       # main bet
		press spot
		press bet       # Any Pair
		press deal          # a pair: the Any Pair bet pays
		press split         # a free split: the token plays the second hand
		shot freebet
	`},
	{Name: "result-notice", Seed: 11, Script: `
		bill 20.00
		menu freebet
		press deal
		press bet
		press deal
		press stand         # the dealer plays: paid 2.00
		! press hit         # the round is over: the notice goes under its result
		shot result-notice
	`},
	{Name: "zappit", Seed: 13, Script: `
		bill 50.00
		menu zappit
		press deal
		press special       # chip 5.00
		press bet
		press spot
		press bet
		press spot
		press bet
		press deal
		shot zappit
	`},
	{Name: "duel", Seed: 17, Script: `
		bill 20.00
		menu duel
		press deal
		shot duel-buy
		press deal          # buy a session
		press deal          # the first deal
		shot duel
	`},
	{Name: "duel-play", Seed: 118, Script: `
		bill 20.00
		menu duel
		press deal
		press deal          # buy a session
		autostep 4 duel     # ante and deal, check, the draw, the player opens 75 (BET+ steps by the ante)
		shot duel-raise     # the Baron drew 3 and raises: narrated
		autoplay 1 duel     # to the showdown
		shot duel-showdown  # both hands named
	`},
	{Name: "duel-fold", Seed: 1, Script: `
		bill 20.00
		menu duel
		press deal
		press deal          # buy a session
		press deal          # the first deal: the player speaks first
		press bet
		press bet           # two presses, two steps: 15 chips
		shot duel-bet
		press yes           # opens 15: the Baron raises
		! press double      # the draw waits for the answer, and says so
		shot duel-draw-early
		press no            # the player folds: named
		shot duel-fold
		press deal          # the next deal starts from the ante
		shot duel-next
	`},
	{Name: "duel-victory", Seed: 37, Script: `
		bill 20.00
		menu duel
		press deal
		press deal          # buy a session
		autoplay 69 duel    # deals until the Baron has nothing left to pawn
		shot duel-victory
	`},
	{Name: "max-bet", Seed: 3, Script: `
		bill 50.00
		menu zappit
		press deal
		press yes           # max bet: the credits, below the table maximum
		shot max-bet
		press no            # every bet back
		! press no          # nothing left to clear: refused, and says why
		shot clear-all
	`},
	{Name: "insurance", Seed: 41, Script: `
		bill 20.00
		menu classic
		press deal
		press bet
		press deal          # the dealer shows an ace
		press yes           # insurance: the dealer has blackjack
		shot insurance-pays
	`},
	{Name: "insurance-lost", Seed: 21, Script: `
		bill 50.00
		menu classic
		press deal
		press special       # chip 5.00
		press special       # chip 10.00
		press bet
		press deal          # the dealer shows an ace: insurance costs 5.00
		shot insurance-offer
		press yes           # the dealer peeks: no blackjack
		shot insurance-lost
	`},
	{Name: "dealer22", Seed: 4, Script: `
		bill 20.00
		menu freebet
		press deal
		press bet
		press deal
		press stand         # the dealer makes 22: the hand pushes
		shot dealer22
	`},
	{Name: "dealer-blackjack", Seed: 22, Script: `
		bill 20.00
		menu freebet
		press deal
		press bet
		press deal
		press stand         # the dealer turns a blackjack
		shot dealer-blackjack
	`},
	{Name: "demo", Seed: 5, Script: `
		bill 20.00
		menu classic
		press deal
		press special       # chip 5.00
		press bet
		press spot
		press bet
		shot demo-1         # bets placed
		press deal
		shot demo-2         # the deal
		press stand
		shot demo-3
		press stand         # the dealer plays, the round settles
		shot demo-4
	`},
	{Name: "help", Seed: 1, Script: `
		bill 20.00
		press help
		shot help-royal
		press spot      # the next page: the shoe's commitment and its QR code
		shot help-commitment
		press game
		menu freebet
		press help
		shot help-freebet
		press game
		menu zappit
		press help
		shot help-zappit
		press game
		menu classic
		press help
		shot help-classic
		press game
		menu duel
		press help
		shot help-duel
	`},
	{Name: "audit", Seed: 5, Script: `
		bill 100.00
		bill 100.00
		autoplay 30
		switch main_door on
		switch main_door off
		switch audit_key on
		shot audit-meters
		press spot
		shot audit-recall
		press spot
		shot audit-events
		press spot
		shot audit-tickets
		press spot
		shot audit-selftest
		press spot
		shot audit-program
		switch audit_key off
		switch operator_key on
		shot operator
		press spot      # bills
		press spot      # jackpot
		press spot      # the first game's group
		press stand     # its second setting
		press bet       # a draft: its return is computed live
		shot operator-draft
		press yes       # asks for confirmation
		shot operator-confirm
		press yes       # saved: the return it gives, with the minimum
		shot operator-saved
	`},
	{Name: "refusals", Seed: 19, Script: `
		bill 20.00
		press deal          # Royal Poker
		press bet           # 1.00 on spot 1 only
		press spot
		press spot          # the Royal Poker side bet
		press bet
		! press deal
		shot refuse-royal-both
		press game
		menu freebet
		press deal
		press spot          # Any Pair
		press bet
		! press deal
		shot refuse-side-main
		press clear
		press spot
		press spot
		press spot
		press spot          # back to the main bet
		press special       # chip 5.00
		press special       # chip 10.00
		press special       # chip 25.00
		! press bet         # 25.00 with 20.00 of credit
		shot refuse-funds
		bill 100.00
		bill 100.00
		press special       # chip 100.00
		press bet           # main 100.00
		press spot
		press bet           # Any Pair 100.00, its maximum
		! press bet
		shot refuse-max
		press deal
		switch operator_key on
		shot refuse-operator
		switch operator_key off
	`},
	{Name: "bills", Seed: 1, Script: `
		bill 100.00
		bill 100.00
		bill 100.00
		bill 100.00
		bill 100.00
		bill 100.00
		bill 100.00
		bill 100.00
		bill 100.00
		bill 50.00
		bill 20.00
		bill 20.00
		! bill 20.00        # 990.00 would become 1010.00, over the limit
		shot refuse-bill-limit
		press cashout
		! bill 20.00        # handpay pending: the acceptor is off
		shot refuse-bill-inhibited
		switch reset_key on
		switch reset_key off
		jam on
		! bill 5.00
		shot refuse-bill-jammed
		jam off
		! garble            # a signal that is no bill: nothing credited
		shot refuse-bill-garbled
	`},
	{Name: "handpay", Seed: 1, Script: `
		bill 100.00
		bill 50.00
		press cashout
		shot handpay
		switch audit_key on
		switch reset_key on  # not paid from the audit screens: says why
		shot refuse-reset-audit
		switch reset_key off
		switch audit_key off
		switch reset_key on  # paid: the screen confirms it, with the amount
		shot handpay-paid
	`},
}

// RefusalShots are the library's screens of a refused input and the notice
// each must show.
var RefusalShots = map[string]string{
	"refuse-royal-both":     controller.NoticeRoyalNeedsBoth,
	"refuse-side-main":      controller.NoticeSideNeedsMain,
	"refuse-funds":          controller.NoticeFunds,
	"refuse-max":            controller.NoticeMaxBet,
	"refuse-operator":       controller.NoticeOperatorRound,
	"refuse-bill-limit":     controller.NoticeCreditLimit,
	"refuse-bill-inhibited": controller.NoticeBillInhibited,
	"refuse-bill-jammed":    controller.NoticeBillJammed,
	"refuse-bill-garbled":   controller.NoticeBillError,
	"refuse-reset-audit":    controller.NoticeResetInAudit,
}

// Demo is the attract loop's demonstration: the shots of the demo
// scenario, a Classic round played through the real controller, in order.
func Demo(opt Options) ([]*view.Snapshot, error) {
	for _, sc := range Library {
		if sc.Name != "demo" {
			continue
		}
		shots, err := Play(sc, opt)
		if err != nil {
			return nil, err
		}
		out := make([]*view.Snapshot, len(shots))
		for i, s := range shots {
			out[i] = s.Snap
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: no demo scenario", ErrUnknown)
}

// Boot is the boot screen: what the display shows before the controller's
// first snapshot (display.Run draws the same), in the configuration's
// language.
const Boot = "boot"

// HwTest is the hardware self-test screen, played through selftest.Run.
const HwTest = "hwtest"

// hwtestScript is the technician's actions on the self-test screen.
var hwtestScript = []string{"press deal", "switch main_door on", "switch main_door off", "press stand", "bill 20.00"}

// Screens names every screen, sorted.
func Screens() []string {
	names := []string{Boot, HwTest}
	for _, sc := range Library {
		names = append(names, shotNames(sc)...)
	}
	slices.Sort(names)
	return names
}

// shotNames are the screens sc shows.
func shotNames(sc Scenario) []string {
	var names []string
	for _, line := range strings.Split(sc.Script, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "shot" {
			names = append(names, f[1])
		}
	}
	return names
}

// PlayAll plays every scenario once and returns every screen by name.
func PlayAll(opt Options) (map[string]*view.Snapshot, error) {
	out := map[string]*view.Snapshot{}
	for _, sc := range Library {
		shots, err := Play(sc, opt)
		if err != nil {
			return nil, err
		}
		for _, s := range shots {
			out[s.Name] = s.Snap
		}
	}
	for _, n := range []string{Boot, HwTest} {
		s, err := Screen(n, opt)
		if err != nil {
			return nil, err
		}
		out[n] = s
	}
	return out, nil
}

// Screen plays the scenario that shows the named screen and returns it.
func Screen(name string, opt Options) (*view.Snapshot, error) { return ScreenSeed(name, 0, opt) }

// ScreenSeed is Screen with the scenario's cards dealt from seed instead of
// its own (0: its own): to look for a seed that pictures a screen well.
func ScreenSeed(name string, seed uint64, opt Options) (*view.Snapshot, error) {
	switch name {
	case Boot:
		cfg, err := config.Load(opt.Config)
		if err != nil {
			return nil, err
		}
		return &view.Snapshot{Mode: view.Boot, Lang: cfg.Cabinet.Language}, nil
	case HwTest:
		return hwtest(opt)
	}
	for _, sc := range Library {
		if !slices.Contains(shotNames(sc), name) {
			continue
		}
		if seed != 0 {
			sc.Seed = seed
		}
		shots, err := Play(sc, opt)
		if err != nil {
			return nil, err
		}
		for _, s := range shots {
			if s.Name == name {
				return s.Snap, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: screen %q (want one of %s)", ErrUnknown, name, strings.Join(Screens(), ", "))
}

// hwtest runs the real self-test on the sim panel, the lamp held on the
// first button, plays hwtestScript and returns the screen once every line
// has been reported.
func hwtest(opt Options) (*view.Snapshot, error) {
	cfg, err := config.Load(opt.Config)
	if err != nil {
		return nil, err
	}
	screen := &selftest.Screen{}
	be := sim.New()
	defer be.Close()
	ctx, cancel := context.WithCancel(context.Background())
	lines := make(chan selftest.Line, 64)
	done := make(chan error, 1)
	go func() {
		done <- selftest.Run(ctx, be, selftest.Options{LampInterval: time.Hour, Accept: money.Cents(1 << 40),
			Now: func() time.Time { return Start }},
			func(l selftest.Line) { lines <- l })
	}()
	want := len(hwtestScript) // the inputs, after the first lamp
	timeout := time.After(10 * time.Second)
	// The acceptor is enabled before the first lamp is reported: the
	// script starts after it, so the bill is read, not refused.
	select {
	case l := <-lines:
		screen.Add(l)
	case <-timeout:
		err = fmt.Errorf("scenario hwtest: no lamp lit in 10s")
	}
	if err == nil {
		err = sim.Script(ctx, be, strings.NewReader(strings.Join(hwtestScript, "\n")), noSleep)
	}
	for got := 0; err == nil && got < want; {
		select {
		case l := <-lines:
			screen.Add(l)
			if l.Kind == selftest.InputSeen {
				got++
			}
		case <-timeout:
			err = fmt.Errorf("scenario hwtest: %d of %d self-test lines in 10s", got, want)
		}
	}
	cancel()
	if rerr := <-done; err == nil && rerr != nil && rerr != context.Canceled {
		err = rerr
	}
	if err != nil {
		return nil, err
	}
	set, err := settings.FromConfig(cfg)
	if err != nil {
		return nil, err
	}
	// As `cabinet hwtest` builds its frames.
	return &view.Snapshot{Seq: 1, Mode: view.HwTest, Lang: set.Language, Currency: set.Currency,
		Denom: set.Denom, Lamps: screen.Lamps(), HwTest: screen.View()}, nil
}
