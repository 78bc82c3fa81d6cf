package crashtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
)

// State is everything a store holds, read through a read-only open after a
// successful Check.
type State struct {
	Machine   recovery.Machine
	Open      *recovery.OpenRound
	Carry     map[game.ID][]byte
	Overrides map[string]string
	Recall    []meters.Recall // newest first
	Events    []meters.Event  // newest first
	// Shoes are the games' committed shoes not yet revealed, Revealed the
	// ring of revealed ones, newest first (docs/verify.md).
	Shoes    map[game.ID]*recovery.Shoe
	Revealed []recovery.Shoe
}

// Progress grows with every committed round step: the next round number,
// then the open round's steps (a key to compare, not a count).
func (s *State) Progress() int64 {
	n := int64(s.Machine.NextRound) * 1000
	if s.Open != nil {
		n += int64(len(s.Open.Steps))
	}
	return n
}

// Completed is the number of settled rounds (the sim's progress).
func (s *State) Completed() int64 {
	m := s.Machine.Meters
	return m.Won + m.Lost + m.Pushed + m.Voided
}

// Load opens path read-only, runs the full Check and reads every record.
func Load(path string) (*State, error) {
	st, err := recovery.Open(path, recovery.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if err := st.Check(); err != nil {
		return nil, err
	}
	return read(st)
}

func read(st *recovery.Store) (*State, error) {
	s := &State{Carry: map[game.ID][]byte{}}
	err := st.View(func(tx *recovery.Tx) error {
		var err error
		if s.Machine, err = tx.Machine(); err != nil {
			return err
		}
		if s.Open, err = tx.OpenRound(); err != nil {
			return err
		}
		for _, id := range game.IDs {
			b, err := tx.Carry(id)
			if err != nil {
				return err
			}
			if b != nil {
				s.Carry[id] = b
			}
		}
		if s.Overrides, err = tx.Overrides(); err != nil {
			return err
		}
		if s.Recall, err = tx.Recall(0); err != nil {
			return err
		}
		if s.Shoes, err = tx.Shoes(); err != nil {
			return err
		}
		if s.Revealed, err = tx.RevealedShoes(0); err != nil {
			return err
		}
		s.Events, err = tx.Events(0)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("crashtest: read %s: %w", st.Path(), err)
	}
	return s, nil
}

// restartMeter reports whether meter name legitimately differs between a
// killed and an uninterrupted run (it counts the restarts).
func restartMeter(name string) bool { return name == "power_ups" || name == "recoveries" }

// restartEvent reports whether an event kind is added by a restart, or
// may be: device noise (a line fault around the kill, a late answer after
// the restart) depends on when the line was cut, not on the play.
func restartEvent(kind string) bool {
	return kind == meters.KindPowerUp || kind == meters.KindRecovery || meters.Noise(kind)
}

// Compare lists the differences between a killed run's store and the
// reference, ignoring what restarts legitimately change: power-up and
// recovery meters and events, device noise, wall-clock times, and the
// Recovered flag.
func Compare(got, want *State) []string {
	var d []string
	add := func(format string, args ...any) {
		if len(d) < 50 {
			d = append(d, fmt.Sprintf(format, args...))
		}
	}
	gm, wm := got.Machine, want.Machine
	if gm.Credits != wm.Credits {
		add("credits %s, reference %s", gm.Credits, wm.Credits)
	}
	if gm.PoolUnits != wm.PoolUnits {
		add("progressive pool %d units, reference %d", gm.PoolUnits, wm.PoolUnits)
	}
	if gm.NextRound != wm.NextRound {
		add("next round %d, reference %d", gm.NextRound, wm.NextRound)
	}
	if gm.Handpay != wm.Handpay || gm.HandpayKind != wm.HandpayKind {
		add("handpay %s %q, reference %s %q", gm.Handpay, gm.HandpayKind, wm.Handpay, wm.HandpayKind)
	}
	gl, wl := lineMap(gm.Meters.Lines()), lineMap(wm.Meters.Lines())
	for _, l := range wm.Meters.Lines() {
		if !restartMeter(l.Name) && gl[l.Name] != l.Value {
			add("meter %s = %d, reference %d", l.Name, gl[l.Name], l.Value)
		}
	}
	for _, l := range gm.Meters.Lines() {
		if _, ok := wl[l.Name]; !ok && l.Value != 0 {
			add("meter %s = %d, absent from the reference", l.Name, l.Value)
		}
	}
	if (got.Open == nil) != (want.Open == nil) {
		add("open round present %v, reference %v", got.Open != nil, want.Open != nil)
	} else if got.Open != nil && !sameJSON(normOpen(*got.Open), normOpen(*want.Open)) {
		add("open round %d differs", want.Open.Round)
	}
	for _, id := range game.IDs {
		if !bytes.Equal(got.Carry[id], want.Carry[id]) {
			add("carried state of %s differs", id)
		}
	}
	// The committed shoes (issue 38): the same shoes, secrets and
	// commitments as the reference, and every recalled round dealt from
	// its committed shoe.
	for _, id := range game.IDs {
		if !sameJSON(normShoe(got.Shoes[id]), normShoe(want.Shoes[id])) {
			add("committed shoe of %s: %s, reference %s", id, shoeName(got.Shoes[id]), shoeName(want.Shoes[id]))
		}
	}
	if len(got.Revealed) != len(want.Revealed) {
		add("%d revealed shoes, reference %d", len(got.Revealed), len(want.Revealed))
	}
	for i := range min(len(got.Revealed), len(want.Revealed)) {
		if !sameJSON(normShoe(&got.Revealed[i]), normShoe(&want.Revealed[i])) {
			add("revealed shoe %s differs from the reference's %s", shoeName(&got.Revealed[i]), shoeName(&want.Revealed[i]))
		}
	}
	for _, p := range Unverified(got) {
		add("%s", p)
	}
	if !sameJSON(got.Overrides, want.Overrides) {
		add("overrides %v, reference %v", got.Overrides, want.Overrides)
	}
	if len(got.Recall) != len(want.Recall) {
		add("%d recalled rounds, reference %d", len(got.Recall), len(want.Recall))
	}
	for i := range min(len(got.Recall), len(want.Recall)) {
		g, w := normRecall(got.Recall[i]), normRecall(want.Recall[i])
		if !sameJSON(g, w) {
			add("recalled round %d differs from the reference round %d (%s)", g.Round, w.Round, firstStepDiff(g, w))
		}
	}
	ge, we := filterEvents(got.Events), filterEvents(want.Events)
	for i := range min(len(ge), len(we)) {
		if ge[i] != we[i] {
			add("event %d from the newest: %q, reference %q", i, ge[i], we[i])
			break
		}
	}
	return d
}

// Unverified lists the recalled rounds of s that do not agree with their
// committed shoe (recovery.VerifyRound: a mismatch; a shoe still in play,
// or a round written without a shoe by a test, is none).
func Unverified(s *State) []string {
	byNo := make(map[uint64]*recovery.Shoe, len(s.Revealed))
	for i := range s.Revealed {
		byNo[s.Revealed[i].No] = &s.Revealed[i]
	}
	var out []string
	for i := range s.Recall {
		r := &s.Recall[i]
		var sh *recovery.Shoe
		if r.Shoe != nil {
			sh = byNo[r.Shoe.No]
		}
		if err := recovery.VerifyRound(r, sh); errors.Is(err, recovery.ErrMismatch) {
			out = append(out, err.Error())
		}
	}
	return out
}

// normShoe is a shoe without its wall-clock times.
func normShoe(s *recovery.Shoe) *recovery.Shoe {
	if s == nil {
		return nil
	}
	n := *s
	n.Committed, n.Revealed = time.Time{}, time.Time{}
	return &n
}

func shoeName(s *recovery.Shoe) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprintf("shoe %d (commitment %.16s…, at card %d)", s.No, s.Commitment, s.Pos)
}

func lineMap(ls []meters.Line) map[string]int64 {
	m := make(map[string]int64, len(ls))
	for _, l := range ls {
		m[l.Name] = l.Value
	}
	return m
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func normRecall(r meters.Recall) meters.Recall {
	r.Start, r.End = time.Time{}, time.Time{}
	r.Recovered = false // a killed run's resumed round says so; the reference's does not
	r.Steps = normSteps(r.Steps)
	return r
}

func normOpen(o recovery.OpenRound) recovery.OpenRound {
	o.Start, o.Recovered = time.Time{}, false
	o.Steps = normSteps(o.Steps)
	return o
}

func normSteps(ss []meters.Step) []meters.Step {
	out := make([]meters.Step, len(ss))
	for i, s := range ss {
		s.At = time.Time{}
		out[i] = s
	}
	return out
}

func firstStepDiff(g, w meters.Recall) string {
	for i := range min(len(g.Steps), len(w.Steps)) {
		if !sameJSON(g.Steps[i], w.Steps[i]) {
			return fmt.Sprintf("step %d: %s %v vs %s %v", i, g.Steps[i].Action.Kind, game.Drawn(g.Steps[i].Events),
				w.Steps[i].Action.Kind, game.Drawn(w.Steps[i].Events))
		}
	}
	if len(g.Steps) != len(w.Steps) {
		return fmt.Sprintf("%d steps vs %d", len(g.Steps), len(w.Steps))
	}
	return fmt.Sprintf("credits %s→%s vs %s→%s", g.CreditsBefore, g.CreditsAfter, w.CreditsBefore, w.CreditsAfter)
}

func filterEvents(evs []meters.Event) []string {
	var out []string
	for _, e := range evs {
		if !restartEvent(e.Kind) {
			out = append(out, e.Kind+": "+e.Text)
		}
	}
	return out
}

// Prefix checks a store caught mid-run (after a kill) against the finished
// reference: every recalled round the reference still holds must be
// identical, and the open round's steps must be the first steps of the
// reference's round of that number. It is what "no re-roll" means: what was
// committed before a kill is exactly what the uninterrupted run did.
func Prefix(got, ref *State) []string {
	var d []string
	byRound := map[uint64]meters.Recall{}
	for _, r := range ref.Recall {
		byRound[r.Round] = normRecall(r)
	}
	for _, r := range got.Recall {
		w, ok := byRound[r.Round]
		if !ok {
			continue
		}
		if g := normRecall(r); !sameJSON(g, w) {
			d = append(d, fmt.Sprintf("recalled round %d differs from the reference (%s)", r.Round, firstStepDiff(g, w)))
		}
	}
	// A shoe committed before the kill is the shoe the reference dealt
	// from (a power cut between commitment and deal changes nothing).
	refShoes := map[uint64]*recovery.Shoe{}
	for i := range ref.Revealed {
		refShoes[ref.Revealed[i].No] = &ref.Revealed[i]
	}
	for _, sh := range ref.Shoes {
		refShoes[sh.No] = sh
	}
	for _, id := range game.IDs {
		sh := got.Shoes[id]
		if sh == nil {
			continue
		}
		w, ok := refShoes[sh.No]
		if ok && (w.Commitment != sh.Commitment || w.Secret != sh.Secret || w.Cut != sh.Cut || !sameJSON(w.Cards, sh.Cards)) {
			d = append(d, fmt.Sprintf("committed %s differs from the reference's %s", shoeName(sh), shoeName(w)))
		}
	}
	d = append(d, Unverified(got)...)
	if got.Open != nil {
		if w, ok := byRound[got.Open.Round]; ok {
			steps := normSteps(got.Open.Steps)
			switch {
			case got.Open.Game != w.Game:
				d = append(d, fmt.Sprintf("open round %d is %s, reference %s", got.Open.Round, got.Open.Game, w.Game))
			case len(steps) > len(w.Steps):
				d = append(d, fmt.Sprintf("open round %d has %d steps, the reference round only %d", got.Open.Round, len(steps), len(w.Steps)))
			case !sameJSON(steps, w.Steps[:len(steps)]):
				d = append(d, fmt.Sprintf("open round %d: steps differ from the reference", got.Open.Round))
			}
		}
	}
	return d
}
