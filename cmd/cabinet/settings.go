package main

import (
	"fmt"

	"cabinet/internal/config"
	"cabinet/internal/controller"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/player"
	"cabinet/internal/settings"
)

// loadSettings reads the configuration file and turns it into the
// controller's settings. A bad file stops here, before the store is opened.
func loadSettings(path string) (controller.InForce, *config.Config, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return controller.InForce{}, nil, err
	}
	s, err := settings.FromConfig(cfg)
	return controller.InForce(s), cfg, err
}

// chooser is autoplay's player: player.Optimal (the analyser's valuation) for each
// blackjack game (so simulated and computed RTP compare), the reference
// player for Poker Duel.
func chooser(s controller.InForce) controller.Chooser {
	strat := map[game.ID]*player.Optimal{}
	for id, r := range s.Rules {
		if st, err := player.NewOptimal(r); err == nil {
			strat[id] = st
		}
	}
	return func(r game.Round, legal []game.ActionKind) game.Action {
		if br, ok := r.(*blackjack.Round); ok {
			if st := strat[br.Rules.Game]; st != nil {
				return game.Action{Kind: st.Choose(r.Table(), legal)}
			}
		}
		return controller.BasicChooser(r, legal)
	}
}

// figureBP is the RTP of one bet of a game under the controller's rules in
// force, in hundredths of a percent (false if the analysis has none).
func figureBP(c *controller.Controller, id game.ID, bet game.BetKind) (int64, bool) {
	for _, f := range c.ReturnFigures(id) {
		if f.Bet == bet {
			return f.RTPBP, true
		}
	}
	return 0, false
}

// computedBetRTP is the figure for one bet of a game ("" if none).
func computedBetRTP(c *controller.Controller, id game.ID, bet game.BetKind) string {
	if bp, ok := figureBP(c, id, bet); ok {
		return fmt.Sprintf("%d.%02d%%", bp/100, bp%100)
	}
	return ""
}
