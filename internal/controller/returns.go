package controller

import (
	"fmt"

	"cabinet/internal/game"
	"cabinet/internal/inforce"
	"cabinet/internal/view"
)

// Settings is everything the controller asks of the configuration and the
// return analysis (platform.md §6, issue 19), behind one interface so that
// the controller imports neither: internal/settings implements it from
// internal/config and internal/analysis/rtp, and cmd/cabinet wires it
// (Options.Settings). Its methods must be safe for concurrent use and must
// not touch the store: a draft's return is computed off the input path
// (draftreturn.go).
//
// Its methods take and return the settings as plain data
// (inforce.InForce, which InForce converts to and from).
type Settings interface {
	// Apply is the settings in force with the operator overrides o on top
	// of base: at boot (the stored overrides), for a draft and for a
	// change being saved. A bad value is an error, and so is a combination
	// whose return is refused (100 % or more, or below min_rtp).
	Apply(base inforce.InForce, o map[string]string) (inforce.InForce, error)
	// Figures are the help figures of game id under s (nil: none).
	Figures(s inforce.InForce, id game.ID) []view.RTPLine
	// Return is the operator menu's return of game id under s (from
	// Apply), its floor and whether it is refused (nil: none computed).
	Return(s inforce.InForce, id game.ID) (*view.OperatorRTP, error)
	// Explain reads an error of Apply for the operator menu.
	Explain(err error) Refusal
	// Validate is Apply without the return's computation: the
	// configuration's own refusal of the overrides o (a bad value, a
	// minimum above the maximum), fast enough for the input path, so a
	// draft the configuration refuses is refused at once while its return
	// is computed off the input path.
	Validate(o map[string]string) error
}

// Refusal is what an error of Settings.Apply says (internal/inforce).
type Refusal = inforce.Refusal

// PreviewReturns is the figures of game id if the operator set key to
// value (nothing is stored): for the operator menu to show the return live
// as a draft changes. A refused combination or a bad value returns
// Settings.Apply's error (Settings.Explain reads it).
func (c *Controller) PreviewReturns(id game.ID, key, value string) ([]view.RTPLine, error) {
	st := c.opt.Settings
	if st == nil {
		return nil, fmt.Errorf("cabinet: preview %s = %q: no settings wired", key, value)
	}
	s, err := st.Apply(inforce.InForce(c.base), withValue(c.led.cur().overrides, key, value))
	if err != nil {
		return nil, fmt.Errorf("cabinet: preview %s = %q: %w", key, value, err)
	}
	return st.Figures(s, id), nil
}

// ReturnFigures are the figures of game id under the settings in force, as
// help shows them (cabinet sim's "computed" column; nil without Settings).
func (c *Controller) ReturnFigures(id game.ID) []view.RTPLine {
	if c.opt.Settings == nil {
		return nil
	}
	return c.opt.Settings.Figures(inforce.InForce(c.set), id)
}
