package cabinet

import (
	"fmt"

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

// operatorButton: HIT / STAND move the cursor, BET+ changes the selected
// setting to its next allowed value (a draft, shown but not in force), YES
// saves the draft (validated, stored as an override, logged old → new,
// effective from the next round), NO drops it.
func (c *Controller) operatorButton(b hw.Button) error {
	if c.opt.Operator == nil {
		return fmt.Errorf("%w: no operator menu configured", ErrNotNow)
	}
	items := c.operatorItems()
	if len(items) == 0 {
		return nil
	}
	cur := c.ui.opCursor % len(items)
	it := items[cur]
	switch b {
	case hw.Hit:
		c.ui.opCursor, c.ui.opDraft, c.ui.opError = (cur+len(items)-1)%len(items), "", ""
	case hw.Stand:
		c.ui.opCursor, c.ui.opDraft, c.ui.opError = (cur+1)%len(items), "", ""
	case hw.BetPlus:
		next, err := c.opt.Operator.Next(it.Key, it.Value)
		if err != nil {
			c.ui.opError = err.Error()
			return err
		}
		c.ui.opDraft, c.ui.opError = next, ""
	case hw.Yes:
		if c.ui.opDraft == "" {
			return fmt.Errorf("%w: nothing changed", ErrNotNow)
		}
		old := c.opt.Operator.Items(c.overrides())[cur].Value
		if err := c.setOverride(it.Key, old, c.ui.opDraft); err != nil {
			return err
		}
		c.ui.opDraft = ""
	case hw.No:
		c.ui.opDraft, c.ui.opError = "", ""
	default:
		return fmt.Errorf("%w: %s in the operator menu", ErrNotNow, b)
	}
	return nil
}

// operatorItems are the settings with the draft shown on the selected one.
func (c *Controller) operatorItems() []view.Setting {
	items := c.opt.Operator.Items(c.overrides())
	if c.ui.opDraft != "" && len(items) > 0 {
		items[c.ui.opCursor%len(items)].Value = c.ui.opDraft
	}
	return items
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
		return tx.Log(meters.KindConfigChange, fmt.Sprintf("%s: %s → %s", key, old, value))
	})
	if err != nil {
		return fmt.Errorf("cabinet: store override %s: %w", key, err)
	}
	c.set = s // no round is open in the operator menu: effective from the next round
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
