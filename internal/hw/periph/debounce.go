package periph

import "time"

// debouncer turns raw samples of one input into stable levels: a new level
// counts once it has held for the debounce time. Decisions depend only on
// the samples' timestamps, not on how often tick is called.
type debouncer struct {
	stable    bool      // the debounced level (true = active)
	candidate bool      // the latest sampled level
	since     time.Time // when candidate was first sampled
}

// sample records the level seen at at. It first commits a candidate that
// held long enough before this sample. It reports whether the stable level
// changed (and to what).
func (d *debouncer) sample(active bool, at time.Time, window time.Duration) (changed, level bool) {
	changed, level = d.tick(at, window)
	if active != d.candidate {
		d.candidate, d.since = active, at
	}
	return changed, level
}

// tick commits a candidate that has held for window by now.
func (d *debouncer) tick(now time.Time, window time.Duration) (changed, level bool) {
	if d.candidate != d.stable && now.Sub(d.since) >= window {
		d.stable = d.candidate
		return true, d.stable
	}
	return false, d.stable
}
