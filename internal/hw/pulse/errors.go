package pulse

import "errors"

// Errors of a malformed train (Event.Err wraps one of them).
var (
	// ErrWidth: a pulse shorter than WidthMin or longer than WidthMax.
	ErrWidth = errors.New("pulse: pulse width out of range")
	// ErrGap: a gap inside a train shorter than GapMin or longer than GapMax
	// (but shorter than EndGap).
	ErrGap = errors.New("pulse: gap out of range inside a train")
	// ErrTooMany: more pulses than the largest bill has.
	ErrTooMany = errors.New("pulse: too many pulses")
	// ErrCount: a complete train whose count is no configured bill.
	ErrCount = errors.New("pulse: pulse count is no bill")
	// ErrMissedEdge: two edges at the same level (an edge was lost).
	ErrMissedEdge = errors.New("pulse: missed edge")
	// ErrClock: an edge stamped earlier than a previous event.
	ErrClock = errors.New("pulse: time ran backwards")
	// ErrNotQuiet: a train begun before the line was quiet for EndGap
	// since start-up or Reset (its first pulses may be unseen).
	ErrNotQuiet = errors.New("pulse: train began before end_gap of quiet line")
	// ErrPartial: a train cut short by Reset (shutdown, inhibit).
	ErrPartial = errors.New("pulse: partial train")
)

// ConfigError is a bad decoder configuration: Key (value_per_pulse,
// bills, width_min, ...), the Value given and what is Allowed.
type ConfigError struct {
	Key, Value, Allowed string
}

func (e *ConfigError) Error() string {
	return "pulse: " + e.Key + " = " + e.Value + ": want " + e.Allowed
}
