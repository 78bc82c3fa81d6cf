package controller

import (
	"cabinet/internal/config"
	"cabinet/internal/game"
	"cabinet/internal/inforce"
	"cabinet/internal/settings"
	"cabinet/internal/view"
)

// inForceFrom is the controller's settings of cfg, as cmd/cabinet builds
// them (internal/settings).
func inForceFrom(cfg *config.Config) (InForce, error) {
	s, err := settings.FromConfig(cfg)
	return InForce(s), err
}

// stubReturn is the configuration's Settings with a stand-in return of its
// own (TestOperatorRTPLive): rtp's figure, refused at 100 % or more or
// below min.
type stubReturn struct {
	*settings.Settings
	rtp func(InForce, game.ID) (int64, error)
	min int64
}

func (s stubReturn) Return(st inforce.InForce, id game.ID) (*view.OperatorRTP, error) {
	bp, err := s.rtp(InForce(st), id)
	if err != nil {
		return nil, err
	}
	return &view.OperatorRTP{Game: id, RTP: bp, MinRTP: s.min, Refused: bp >= 10000 || (s.min > 0 && bp < s.min)}, nil
}
