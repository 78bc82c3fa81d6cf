package recovery

import (
	"fmt"

	"cabinet/internal/meters"
)

// LogEvent appends an event with typed details (meters.Event.Detail and
// Args) to the event ring; Seq and At are set here, as Log sets them.
func (tx *Tx) LogEvent(e meters.Event) error {
	now := tx.s.opt.Now()
	err := tx.push(bEvents, tx.s.opt.EventDepth, func(seq uint64) any {
		e.Seq, e.At = seq, now
		return e
	})
	if err != nil {
		return fmt.Errorf("recovery: log %s: %w", e.Kind, err)
	}
	return nil
}
