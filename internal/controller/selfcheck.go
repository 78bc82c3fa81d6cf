package controller

import (
	"fmt"
	"io"
	"math/bits"

	"cabinet/internal/hw"
	"cabinet/internal/view"
)

// Values of a self-check line (the display translates "check.value."+v).
const (
	checkOK       = "ok"
	checkFailed   = "failed"
	checkOpen     = "open"
	checkJammed   = "jammed"
	checkMismatch = "mismatch"
)

// selfChecks runs the audit's self-test page: the store's full integrity
// check, the meter invariant, the progressive pool, the program digest, a
// health test of the random source, the settings in force, the doors and
// the bill acceptor. It runs when the technician opens the page (not on
// every frame: the store check reads every record). A store that fails its
// check puts the cabinet in a memory-error tilt, as at boot.
func (c *Controller) selfChecks(cs state) []view.KV {
	v := func(ok bool, bad string) string {
		if ok {
			return checkOK
		}
		return bad
	}
	var out []view.KV
	storeErr := c.led.store().Check()
	if storeErr != nil {
		c.led.fail(fmt.Errorf("%w: self-test: %w", ErrMemory, storeErr))
	}
	out = append(out,
		view.KV{Key: "store", Value: v(storeErr == nil && c.led.cur().memErr == nil, checkFailed)},
		view.KV{Key: "invariant", Value: v(cs.m.Meters.Check(cs.m.Credits) == nil, checkFailed)},
		view.KV{Key: "pool", Value: v(cs.m.PoolUnits >= 0, checkFailed)},
		view.KV{Key: "digest", Value: v(c.led.cur().digestErr == nil, checkMismatch)},
		view.KV{Key: "rng", Value: v(rngHealthy(c.rng.Step(0, -1)) == nil, checkFailed)},
		view.KV{Key: "config", Value: v(c.set.Validate() == nil, checkFailed)},
		view.KV{Key: "main_door", Value: v(!cs.switches[hw.MainDoor], checkOpen)},
		view.KV{Key: "cash_door", Value: v(!cs.switches[hw.CashDoor], checkOpen)},
		view.KV{Key: "acceptor", Value: v(!cs.jam, checkJammed)},
	)
	return append(out, validatorChecks(c.opt.Validator)...)
}

// validatorChecks are the serial note validator v's lines (none without
// one): sound or not, then its model, version and status in its own words.
func validatorChecks(v NoteValidator) []view.KV {
	if v == nil {
		return nil
	}
	h := v.Health()
	health := checkOK
	if !h.OK {
		health = checkFailed
	}
	return []view.KV{{Key: "validator", Value: health}, {Key: "validator_model", Value: h.Model},
		{Key: "validator_version", Value: h.Version}, {Key: "validator_status", Value: h.Status}}
}

// rngHealthy is FIPS 140-2's monobit test on 20,000 bits of r: the count
// of ones must lie strictly between 9,725 and 10,275 (a stuck or broken
// source fails; a sound one fails about once in a million runs).
func rngHealthy(r io.Reader) error {
	buf := make([]byte, 2500)
	if _, err := io.ReadFull(r, buf); err != nil {
		return fmt.Errorf("cabinet: rng health: %w", err)
	}
	ones := 0
	for _, b := range buf {
		ones += bits.OnesCount8(b)
	}
	if ones <= 9725 || ones >= 10275 {
		return fmt.Errorf("cabinet: rng health: %d ones in 20000 bits", ones)
	}
	return nil
}
