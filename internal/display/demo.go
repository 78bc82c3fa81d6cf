package display

import (
	"cabinet/internal/view"
)

// The attract loop plays a demonstration: the pictures of a round played
// through the real controller (scenario.Demo), shown in turn between
// spells of the attract screen, marked DEMO, with the attract screen's
// lamps and credits (nothing of the demo is playable or real money).

const (
	attractSpell = 8.0 // seconds of the attract screen between demos
	demoStep     = 2.5 // seconds per demo picture
)

// demoReel keeps the demo pictures dressed for the current attract
// snapshot (one copy per picture, so the frame cache sees stable
// snapshots).
type demoReel struct {
	under  *view.Snapshot
	frames []*view.Snapshot
}

// pick returns the demo picture to show at now instead of the attract
// snapshot s, or nil for the attract screen itself. A notice of this
// cabinet on the attract screen (a bill returned, a handpay just paid)
// holds the demo off while it is shown: the demo would cover it (issue 35:
// the handpay's confirmation vanished under the demonstration).
func (d *demoReel) pick(s *view.Snapshot, demo []*view.Snapshot, now float64) *view.Snapshot {
	if s == nil || s.Mode != view.Attract || len(demo) == 0 || s.Message != "" || s.Paid != nil {
		return nil
	}
	cycle := attractSpell + demoStep*float64(len(demo))
	at := now - cycle*float64(int(now/cycle))
	if at < attractSpell {
		return nil
	}
	if d.under != s {
		d.under, d.frames = s, make([]*view.Snapshot, len(demo))
		for i, f := range demo {
			c := *f
			c.Seq, c.Lang, c.Lamps, c.Credits, c.Win, c.Jackpot = s.Seq, s.Lang, s.Lamps, s.Credits, 0, s.Jackpot
			c.Message, c.Recovered, c.Demo = "", false, true
			if f.Round != nil { // the demo's round is nobody's: no round number
				t := *f.Round
				t.Round = 0
				c.Round = &t
			}
			d.frames[i] = &c
		}
	}
	return d.frames[min(int((at-attractSpell)/demoStep), len(demo)-1)]
}
