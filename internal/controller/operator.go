package controller

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"cabinet/internal/analysis/rtp"
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/meters"
	"cabinet/internal/recovery"
	"cabinet/internal/view"
)

// OperatorMenu is the operator's settings editor, supplied by the
// configuration package (it knows keys, values and what is allowed).
type OperatorMenu interface {
	// Items lists the settings with their effective values.
	Items(overrides map[string]string) []view.Setting
	// Next returns the next allowed value after current for key.
	Next(key, current string) (string, error)
}

func (u *ui) enterOperator() {
	u.opPrev, u.mode, u.opCursor, u.opError = u.mode, view.Operator, 0, ""
	u.opDraft, u.opConfirm, u.opSaved, u.opRTP, u.opChoices = "", false, "", nil, nil
}

func (u *ui) leaveOperator() {
	u.mode = u.opPrev
	if u.mode == "" || u.mode == view.Operator {
		u.mode = u.c.idleMode()
	}
}

func (c *Controller) overrides() map[string]string {
	var o map[string]string
	if err := c.st.View(func(tx *recovery.Tx) error {
		var err error
		o, err = tx.Overrides()
		return err
	}); err != nil {
		c.log.Error("read overrides", "err", err)
	}
	return o
}

// operatorPageSize is how many settings an operator page shows.
const operatorPageSize = 8

// settingGroup is the group a setting key belongs to: bills, the cabinet,
// the jackpot, each game ("games.<id>"; the duel's keys are its game's).
func settingGroup(key string) string {
	switch {
	case strings.HasPrefix(key, "cabinet.bill"):
		return "bills"
	case strings.HasPrefix(key, "games."):
		parts := strings.SplitN(key, ".", 3)
		return parts[0] + "." + parts[1]
	case strings.HasPrefix(key, "duel."):
		return "games." + string(game.Duel)
	}
	g, _, _ := strings.Cut(key, ".")
	return g
}

// gameOfKey is the game a setting changes, "" if none in particular.
func gameOfKey(key string) game.ID {
	if g := settingGroup(key); strings.HasPrefix(g, "games.") {
		return game.ID(strings.TrimPrefix(g, "games."))
	}
	return ""
}

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
// and says so, NO drops the draft.
func (c *Controller) operatorButton(b hw.Button) error {
	if c.opt.Operator == nil {
		return fmt.Errorf("%w: no operator menu configured", ErrNotNow)
	}
	items := c.operatorItems()
	if len(items) == 0 {
		return nil
	}
	u := &c.ui
	cur := u.opCursor % len(items)
	it := items[cur]
	move := func(to int) {
		u.opCursor, u.opDraft, u.opError, u.opConfirm, u.opSaved, u.opRTP = to, "", "", false, "", nil
	}
	switch b {
	case hw.Hit:
		move((cur + len(items) - 1) % len(items))
	case hw.Stand:
		move((cur + 1) % len(items))
	case hw.Spot:
		_, hi, _, _, _, _ := operatorPage(items, cur)
		move(hi % len(items))
	case hw.BetPlus:
		from := it.Value // the draft when there is one: BET+ steps on
		next, err := c.opt.Operator.Next(it.Key, from)
		if err != nil {
			u.opError = err.Error()
			return err
		}
		u.opDraft, u.opError, u.opConfirm, u.opSaved = next, "", false, ""
		u.opRTP = c.draftRTP(it.Key, next)
	case hw.Yes:
		if u.opDraft == "" {
			return fmt.Errorf("%w: nothing changed", ErrNotNow)
		}
		if u.opRTP != nil && u.opRTP.Refused {
			return fmt.Errorf("%w: %s = %s gives a return of %d bp", ErrNotNow, it.Key, u.opDraft, u.opRTP.RTP)
		}
		if !u.opConfirm {
			u.opConfirm = true
			return nil
		}
		old := ""
		for _, x := range c.opt.Operator.Items(c.overrides()) {
			if x.Key == it.Key {
				old = x.Value
			}
		}
		if err := c.setOverride(it.Key, old, u.opDraft); err != nil {
			return err
		}
		u.opDraft, u.opConfirm, u.opSaved, u.opRTP = "", false, it.Key, nil
	case hw.No:
		u.opDraft, u.opError, u.opConfirm, u.opRTP = "", "", false, nil
	default:
		return fmt.Errorf("%w: %s in the operator menu", ErrNotNow, b)
	}
	return nil
}

// draftRTP is the return of the game key changes with value in force. With
// Options.Returns wired (the analyser's computation of the rules in force)
// it is PreviewReturns' main-bet figure, or the refused figure; else
// Options.RTP (default: the published figure). nil when nothing can be
// computed, the key changes no game, or the draft is not valid (YES then
// reports the validation error).
func (c *Controller) draftRTP(key, value string) *view.OperatorRTP {
	id := gameOfKey(key)
	if id == "" || c.opt.Overrides == nil {
		return nil
	}
	if c.opt.Returns != nil {
		lines, err := c.PreviewReturns(id, key, value)
		var ref *rtp.RefusedError
		switch {
		case errors.As(err, &ref):
			return &view.OperatorRTP{Game: ref.Game, RTP: ref.RTP, MinRTP: ref.MinRTP, Refused: true}
		case err != nil:
			return nil
		}
		for _, l := range lines {
			if l.Bet == game.Main {
				return &view.OperatorRTP{Game: id, RTP: l.RTPBP, MinRTP: c.opt.Returns.MinRTP}
			}
		}
		return nil
	}
	if c.opt.RTP == nil {
		return nil
	}
	o := map[string]string{}
	for k, v := range c.overrides() {
		o[k] = v
	}
	o[key] = value
	s, err := c.opt.Overrides(c.base, o)
	if err != nil {
		return nil
	}
	bp, err := c.opt.RTP(s, id)
	if err != nil {
		c.log.Warn("operator: return not computed", "game", id, "err", err)
		return nil
	}
	r := &view.OperatorRTP{Game: id, RTP: bp, MinRTP: c.opt.MinRTP}
	r.Refused = bp >= 10000 || (c.opt.MinRTP > 0 && bp < c.opt.MinRTP)
	return r
}

// operatorItems are every setting (grouped), with the draft on the selected
// one marked as a draft.
func (c *Controller) operatorItems() []view.Setting {
	items := c.opt.Operator.Items(c.overrides())
	for i := range items {
		items[i].Group = settingGroup(items[i].Key)
		items[i].Choices = c.choices(items[i].Key)
		items[i].Kind = valueKind(items[i].Choices)
	}
	// Stable by group, in the order the groups first appear.
	order := map[string]int{}
	for _, it := range items {
		if _, ok := order[it.Group]; !ok {
			order[it.Group] = len(order)
		}
	}
	slices.SortStableFunc(items, func(a, b view.Setting) int { return order[a.Group] - order[b.Group] })
	if c.ui.opDraft != "" && len(items) > 0 {
		it := &items[c.ui.opCursor%len(items)]
		it.Value, it.Draft = c.ui.opDraft, true
	}
	return items
}

// choices are the values BET+ steps through for key, in the
// configuration's order (its allowed set, as data; cached while the menu
// is open).
func (c *Controller) choices(key string) []string {
	if c.ui.opChoices == nil {
		c.ui.opChoices = map[string][]string{}
	}
	if ch, ok := c.ui.opChoices[key]; ok {
		return ch
	}
	var out []string
	seen := map[string]bool{}
	v := "" // Next of a value that is not allowed is the first allowed one
	for range 200 {
		next, err := c.opt.Operator.Next(key, v)
		if err != nil || seen[next] {
			break
		}
		seen[next] = true
		out = append(out, next)
		v = next
	}
	c.ui.opChoices[key] = out
	return out
}

// valueKind tells the display how to show a setting's values: money,
// count, switch (on/off), percent or word. Decided from the allowed values
// themselves, the configuration's only typed description today.
func valueKind(choices []string) string {
	if len(choices) == 0 {
		return ""
	}
	all := func(ok func(string) bool) bool {
		for _, v := range choices {
			if !ok(v) {
				return false
			}
		}
		return true
	}
	digits := func(v string) bool {
		if v == "" {
			return false
		}
		for _, r := range v {
			if r < '0' || r > '9' {
				return false
			}
		}
		return true
	}
	switch {
	case all(func(v string) bool { return v == "on" || v == "off" }):
		return "switch"
	case all(digits):
		return "count"
	case all(func(v string) bool {
		i, f, ok := strings.Cut(v, ".")
		return ok && digits(i) && len(f) == 2 && digits(f)
	}):
		return "money"
	case all(func(v string) bool { return strings.HasSuffix(v, "%") }):
		return "percent"
	}
	return "word"
}

// operatorView is the page of the operator menu the cursor is on.
func (c *Controller) operatorView() *view.OperatorView {
	items := c.operatorItems()
	v := &view.OperatorView{Error: c.ui.opError, Confirm: c.ui.opConfirm, Saved: c.ui.opSaved, RTP: c.ui.opRTP}
	if len(items) == 0 {
		return v
	}
	cur := c.ui.opCursor % len(items)
	_, _, plo, phi, page, pages := operatorPage(items, cur)
	v.Items, v.Cursor, v.Group, v.Page, v.Pages = items[plo:phi], cur-plo, items[cur].Group, page, pages
	return v
}

// setOverride validates and stores one operator change.
func (c *Controller) setOverride(key, old, value string) error {
	o := c.overrides()
	if o == nil {
		o = map[string]string{}
	}
	o[key] = value
	s, err := c.opt.Overrides(c.base, o)
	if err != nil {
		c.ui.opError = err.Error()
		return fmt.Errorf("cabinet: operator %s = %q: %w", key, value, err)
	}
	err = c.commit("store override "+key, func(tx *recovery.Tx, _ *state) error {
		if err := tx.PutOverride(key, value); err != nil {
			return err
		}
		return c.logTx(tx, meters.KindConfigChange, fmt.Sprintf("%s: %s → %s", key, old, value))
	})
	if err != nil {
		return fmt.Errorf("cabinet: store override %s: %w", key, err)
	}
	c.hostRTP = nil
	c.set = s // no round is open in the operator menu: effective from the next round
	c.ui.opChoices = nil
	c.ui.opError = ""
	if !containsGame(c.set.Games, c.ui.game) {
		c.ui.game, c.ui.menu = c.set.Games[0], 0
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
