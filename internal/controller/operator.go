package controller

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/inforce"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// OperatorMenu is the operator's settings editor, supplied by the
// configuration package (it knows keys, values and what is allowed).
type OperatorMenu interface {
	// Items lists the settings with their effective values and their
	// description as data (label keys, group, game, kind, choices).
	Items(overrides map[string]string) []view.Setting
	// Next returns the next allowed value after current for key.
	Next(key, current string) (string, error)
	// Describe is the description of key (no value); ok false for a key
	// that is not an operator setting.
	Describe(key string) (view.Setting, bool)
}

func (u *screen) enterOperator() {
	u.opPrev, u.mode, u.opCursor, u.opError = u.mode, view.Operator, 0, nil
	u.opDraft, u.opConfirm, u.opSaved, u.opRTP = "", false, nil, nil
}

func (u *screen) leaveOperator(cs state) {
	u.mode = u.opPrev
	if u.mode == "" || u.mode == view.Operator {
		u.mode = idleMode(cs)
	}
}

// withOverride is the settings in force with key set to value on top of
// the committed overrides (nothing is stored).
func (c *Controller) withOverride(key, value string) (InForce, error) {
	if c.opt.Settings == nil {
		return InForce{}, fmt.Errorf("cabinet: operator change %s = %q: no settings wired", key, value)
	}
	s, err := c.opt.Settings.Apply(inforce.InForce(c.base), withValue(c.led.cur().overrides, key, value))
	return InForce(s), err
}

// operatorPageSize is how many settings an operator page shows: as many
// as the screen's list holds in one line each, with room for a draft's
// return and a few wrapped notes (the display draws them as large as the
// page allows; issue 35: pages of eight left half the screen empty).
const operatorPageSize = 11

// operatorPage places the cursor: its group's bounds [lo, hi) in all, the
// page shown [plo, phi), the page number and count.
func operatorPage(all []view.Setting, cursor int) (lo, hi, plo, phi, page, pages int) {
	g := all[cursor].Group
	lo, hi = cursor, cursor+1
	for lo > 0 && all[lo-1].Group == g {
		lo--
	}
	for hi < len(all) && all[hi].Group == g {
		hi++
	}
	page = (cursor - lo) / operatorPageSize
	pages = (hi - lo + operatorPageSize - 1) / operatorPageSize
	plo = lo + page*operatorPageSize
	phi = min(plo+operatorPageSize, hi)
	return lo, hi, plo, phi, page, pages
}

// operatorButton: HIT / STAND move the cursor (across pages and groups),
// SPOT goes to the next group, BET+ drafts the selected setting's next
// allowed value (marked as a draft, not in force; the return of the game it
// changes shown live and a return of 100 % or more, or below MinRTP,
// refused on screen), YES asks to confirm, YES again saves (validated,
// stored as an override, logged old → new, effective from the next round)
// and says so with the return the change gives, NO drops the draft.
func (c *Controller) operatorButton(b hw.Button) error {
	if c.opt.Operator == nil {
		return fmt.Errorf("%w: no operator menu configured", ErrNotNow)
	}
	items := operatorItems(c.opt.Operator, c.led.cur().overrides, &c.scr)
	if len(items) == 0 {
		return nil
	}
	u := &c.scr
	cur := u.opCursor % len(items)
	it := items[cur]
	move := func(to int) {
		u.opCursor, u.opDraft, u.opError, u.opConfirm, u.opSaved, u.opRTP = to, "", nil, false, nil, nil
	}
	switch b {
	case hw.Hit:
		move((cur + len(items) - 1) % len(items))
	case hw.Stand:
		move((cur + 1) % len(items))
	case hw.Spot:
		// The next page of the group, then the next group (issue 26: a
		// group's pages 2 and 3 had no way to them but HIT/STAND).
		_, hi, _, phi, page, pages := operatorPage(items, cur)
		if page+1 < pages {
			move(phi)
		} else {
			move(hi % len(items))
		}
	case hw.BetPlus:
		from := it.Value // the draft when there is one: BET+ steps on
		next, err := c.opt.Operator.Next(it.Key, from)
		if err != nil {
			u.opError = &view.OperatorError{Setting: it, Value: from}
			return err
		}
		u.opDraft, u.opError, u.opConfirm, u.opSaved = next, nil, false, nil
		u.draftChanged(it, next) // its return: computing, then the figure (draftreturn.go)
	case hw.Yes:
		if u.opDraft == "" {
			return fmt.Errorf("%w: nothing changed", ErrNotNow)
		}
		if u.opRTP != nil && u.opRTP.Computing {
			return fmt.Errorf("%w: the return of %s = %s is being computed", ErrNotNow, it.Key, u.opDraft)
		}
		if u.opRTP != nil && u.opRTP.Refused {
			return fmt.Errorf("%w: %s = %s gives a return of %d bp", ErrNotNow, it.Key, u.opDraft, u.opRTP.RTP)
		}
		if !u.opConfirm {
			u.opConfirm = true
			return nil
		}
		old := ""
		for _, x := range c.opt.Operator.Items(c.led.cur().overrides) {
			if x.Key == it.Key {
				old = x.Value
			}
		}
		if err := c.setOverride(it, old, u.opDraft); err != nil {
			return err
		}
		saved := it
		saved.Value, saved.Draft = u.opDraft, false
		// The return stays with the saved change: the "Saved" line states
		// what it gives and the minimum (issue 35: the figure was shown
		// only while drafting, or with a refusal).
		u.opDraft, u.opConfirm, u.opSaved = "", false, &saved
	case hw.No:
		u.opDraft, u.opError, u.opConfirm, u.opRTP = "", nil, false, nil
	default:
		return fmt.Errorf("%w: %s in the operator menu", ErrNotNow, b)
	}
	return nil
}

// operatorItems are every setting of menu with the committed overrides
// (grouped), with the screen's draft on the selected one marked as a draft.
func operatorItems(menu OperatorMenu, overrides map[string]string, u *screen) []view.Setting {
	items := menu.Items(overrides)
	// Stable by group, in the order the groups first appear.
	order := map[string]int{}
	for _, it := range items {
		if _, ok := order[it.Group]; !ok {
			order[it.Group] = len(order)
		}
	}
	slices.SortStableFunc(items, func(a, b view.Setting) int { return order[a.Group] - order[b.Group] })
	if u.opDraft != "" && len(items) > 0 {
		it := &items[u.opCursor%len(items)]
		it.Value, it.Draft = u.opDraft, true
	}
	return items
}

// operatorView is the page of the operator menu the cursor is on.
func operatorView(items []view.Setting, u *screen) *view.OperatorView {
	v := &view.OperatorView{Error: u.opError, Confirm: u.opConfirm, Saved: u.opSaved, RTP: u.opRTP}
	if len(items) == 0 {
		return v
	}
	cur := u.opCursor % len(items)
	_, _, plo, phi, page, pages := operatorPage(items, cur)
	v.Items, v.Cursor, v.Group, v.Page, v.Pages = items[plo:phi], cur-plo, items[cur].Group, page, pages
	return v
}

// setOverride validates and stores one operator change.
func (c *Controller) setOverride(it view.Setting, old, value string) error {
	key := it.Key
	s, err := c.withOverride(key, value)
	if err != nil {
		var why Refusal
		if c.opt.Settings != nil {
			why = c.opt.Settings.Explain(err)
		}
		c.scr.opError = c.scr.refusedChange(c.opt.Operator, it, value, why)
		return fmt.Errorf("cabinet: operator %s = %q: %w", key, value, err)
	}
	err = c.led.commit("store override "+key, func(tx *recovery.Tx, st *state) error {
		if err := tx.PutOverride(key, value); err != nil {
			return err
		}
		o := maps.Clone(st.overrides)
		if o == nil {
			o = map[string]string{}
		}
		o[key] = value
		st.overrides = o
		return c.led.logDetail(tx, meters.KindConfigChange, fmt.Sprintf("%s: %s → %s", key, old, value), "setting_changed",
			settingArgs(it, old, value)...)
	})
	if err != nil {
		return fmt.Errorf("cabinet: store override %s: %w", key, err)
	}
	c.hostRTP = nil
	c.set = s // no round is open in the operator menu: effective from the next round
	c.scr.opError = nil
	if !containsGame(c.set.Games, c.scr.game) {
		c.scr.game = c.set.Games[0]
	}
	return nil
}

func containsGame(gs []game.ID, id game.ID) bool {
	for _, g := range gs {
		if g == id {
			return true
		}
	}
	return false
}

// refusedChange is the typed refusal of it = value: the setting the
// configuration names (the one changed, or the one it now conflicts with,
// e.g. max_bet below min_bet) with its value. A refused return is shown by
// the live return (opRTP), the figure with it. why is Settings.Explain of
// the refusal.
func (u *screen) refusedChange(menu OperatorMenu, it view.Setting, value string, why Refusal) *view.OperatorError {
	if why.Return != nil {
		u.opRTP = why.Return
	}
	if why.Key != "" && why.Key != it.Key {
		if d, ok := menu.Describe(why.Key); ok {
			v := why.Value
			if u, uerr := strconv.Unquote(v); uerr == nil {
				v = u
			}
			return &view.OperatorError{Setting: d, Value: v}
		}
	}
	return &view.OperatorError{Setting: it, Value: value}
}

// settingArgs are an operator change's event details: the setting's label
// and its old and new values, typed like the menu shows them.
func settingArgs(it view.Setting, old, value string) []meters.Arg {
	label := strings.Join(it.Label, "|")
	if it.LabelMoney != 0 {
		label += ":" + it.LabelMoney.String()
	}
	return []meters.Arg{{Type: meters.ArgLabel, Value: label}, settingValueArg(it.Kind, old), settingValueArg(it.Kind, value)}
}

func settingValueArg(kind, v string) meters.Arg {
	switch kind {
	case view.KindMoney:
		return meters.Arg{Type: meters.ArgMoney, Value: v}
	case view.KindCount:
		return meters.Arg{Type: meters.ArgCount, Value: v}
	case view.KindPercent:
		return meters.Arg{Type: meters.ArgPercent, Value: v}
	case view.KindSwitch, view.KindWord:
		return meters.Arg{Type: meters.ArgKey, Value: "val." + v}
	}
	return meters.Arg{Type: meters.ArgText, Value: v}
}
