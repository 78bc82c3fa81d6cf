package display

import "cabinet/internal/view"

// A refusal's notice says why a press, a bill or a key was refused at that
// moment; it is not left to go stale (issue 35: "no round, bet first" sat
// over a round's result for 8 s). The display shows it for at most
// view.RefusalMS from the moment its number (Snapshot.Refusal) changes,
// then the standing notice under it (Snapshot.Standing), if any. The clock
// is the frame's, as the result's hold is (report.go).

// refusalClock remembers when the refusal on screen was first drawn.
type refusalClock struct {
	n  uint64  // the refusal's number (Snapshot.Refusal)
	at float64 // when it was first drawn (seconds, the frame clock)
}

// faded reports whether s's refusal notice has had its time at now.
func (c *refusalClock) faded(s *view.Snapshot, now float64) bool {
	if s.Refusal == 0 {
		return false
	}
	if s.Refusal != c.n {
		c.n, c.at = s.Refusal, now
	}
	return now-c.at >= float64(view.RefusalMS)/1000
}

// msg is the notice the frame shows: the snapshot's, or once a refusal has
// faded, the standing notice under it.
func (fr *frame) msg() string {
	if fr.faded {
		return fr.s.Standing
	}
	return fr.s.Message
}
