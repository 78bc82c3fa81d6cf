package main

import (
	"fmt"

	"cabinet/internal/analysis"
	"cabinet/internal/cabinet"
	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/view"
)

// loadSettings reads the configuration file and turns it into the
// controller's settings. A bad file stops here, before the store is opened.
func loadSettings(path string) (cabinet.Settings, *config.Config, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return cabinet.Settings{}, nil, err
	}
	s, err := cabinet.SettingsFrom(cfg)
	return s, cfg, err
}

// operatorMenu is the configuration's operator menu.
func operatorMenu(cfg *config.Config) cabinet.OperatorMenu { return cfg }

// chooser is autoplay's strategy: the analyser's computed strategy for each
// blackjack game (so simulated and computed RTP compare), the reference
// player for Poker Duel.
func chooser(s cabinet.Settings) cabinet.Chooser {
	strat := map[game.ID]*analysis.Strategy{}
	for id, r := range s.Rules {
		if st, err := analysis.NewStrategy(r); err == nil {
			strat[id] = st
		}
	}
	return func(r game.Round, legal []game.ActionKind) game.Action {
		if br, ok := r.(*blackjack.Round); ok {
			if st := strat[br.Rules.Game]; st != nil {
				return game.Action{Kind: st.Choose(r.Table(), legal)}
			}
		}
		return cabinet.BasicChooser(r, legal)
	}
}

// figures gives the help screens the analyser's committed RTP figures.
func figures(id game.ID) []view.RTPLine {
	fs, err := analysis.Figures(id)
	if err != nil {
		return nil
	}
	out := make([]view.RTPLine, 0, len(fs))
	for _, f := range fs {
		out = append(out, view.RTPLine{Bet: f.Bet, RTPBP: f.RTP, Method: f.Method})
	}
	return out
}

// figureBP is the analyser's RTP of one bet of a game, in hundredths of a
// percent (false if the analysis has none).
func figureBP(id game.ID, bet game.BetKind) (int64, bool) {
	for _, f := range figures(id) {
		if f.Bet == bet {
			return f.RTPBP, true
		}
	}
	return 0, false
}

// computedBetRTP is the analyser's figure for one bet of a game ("" if none).
func computedBetRTP(id game.ID, bet game.BetKind) string {
	if bp, ok := figureBP(id, bet); ok {
		return fmt.Sprintf("%d.%02d%%", bp/100, bp%100)
	}
	return ""
}
