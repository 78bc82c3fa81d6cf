// Package pulse decodes a pulse-mode bill acceptor: the acceptor sends N
// pulses for a bill, N = value / value per pulse. Decoder is a pure state
// machine: it is fed edges with their timestamps and Tick calls with the
// current time (an injected clock), never sleeps and starts no goroutine.
//
// A bill is credited only for a complete, well-formed train:
//
//   - the line was inactive for at least EndGap before the first pulse
//     (after start-up, after any error, after the previous train);
//   - every pulse lasts WidthMin..WidthMax, every gap between two pulses
//     GapMin..GapMax;
//   - the line then stays inactive for EndGap (seen by Tick or by the next
//     edge), and the count N is the count of one of the configured bills.
//
// Anything else (a pulse too short or too long, a gap too short or too long
// inside a train, too many pulses, a count that is no bill, a missed edge,
// time running backwards, a train cut by Reset, a train begun before EndGap
// of quiet line since start-up or Reset) is one Error event for the train,
// never credit; the decoder then waits for EndGap of quiet line before it
// accepts a new train. No train ends without an event: one that begins
// while the decoder waits for quiet is refused at its first edge
// (ErrNotQuiet, or ErrMissedEdge for a line seen inactive twice), so a
// bill the acceptor stacked is never lost without a word in the log
// (decided: a certification lab's reading; a train the decoder cannot
// count is a bill error the operator reconciles, never silence).
package pulse
