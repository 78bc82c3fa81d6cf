package display

import (
	"encoding/binary"
	"math"

	"cabinet/internal/game"
	"cabinet/internal/view"
)

// Sound effects (platform.md §7): a card dealt, a chip placed, a win, a
// blackjack, a button pressed, a tilt. They are the project's own, made by
// the code below (the project's licence; no sample files), and played
// through raylib's audio when a device is there (audio.go).

// Cue names a sound effect.
type Cue string

const (
	CueCard      Cue = "card"
	CueChip      Cue = "chip"
	CueWin       Cue = "win"
	CueBlackjack Cue = "blackjack"
	CueButton    Cue = "button"
	CueTilt      Cue = "tilt"
)

// Cues lists every cue, in a stable order.
var Cues = []Cue{CueCard, CueChip, CueWin, CueBlackjack, CueButton, CueTilt}

// sampleRate of the generated sounds (mono, 16-bit).
const sampleRate = 22050

// cuesFor is which sounds go with the change from the picture drawn before
// (prev; nil at start) to the one drawn now (cur), both committed (paced:
// a card sounds when it lands, the win when the reveal ends): a card per
// new card on the table, a chip when the bets grow, a win when a round
// pays, a blackjack when a hand is a blackjack, a tilt when the cabinet
// tilts. Nothing sounds for the first picture or a resumed round.
func cuesFor(prev, cur *view.Snapshot) []Cue {
	if prev == nil || cur == nil || cur.Recovered && !prev.Recovered {
		return nil
	}
	var out []Cue
	if cur.Mode == view.Tilt && prev.Mode != view.Tilt {
		out = append(out, CueTilt)
	}
	if betTotal(cur.Bets) > betTotal(prev.Bets) {
		out = append(out, CueChip)
	}
	pt, ct := prev.Round, cur.Round
	if ct == nil {
		return out
	}
	same := pt != nil && pt.Round == ct.Round && pt.Game == ct.Game
	if cardsShown(ct) > cardsShown(pt) || same && ct.Dealer.Hidden < pt.Dealer.Hidden {
		out = append(out, CueCard)
	}
	if ct.Paid > 0 && (!same || pt.Paid == 0) {
		out = append(out, CueWin)
	}
	for i, h := range ct.Hands {
		if h.Outcome == game.Blackjack && (!same || i >= len(pt.Hands) || pt.Hands[i].Outcome != game.Blackjack) {
			out = append(out, CueBlackjack)
			break
		}
	}
	return out
}

// cardsShown counts the cards on a table picture (face up or down).
func cardsShown(t *game.Table) int {
	if t == nil {
		return 0
	}
	n := len(t.Dealer.Cards) + t.Dealer.Hidden
	for _, h := range t.Hands {
		n += len(h.Cards) + h.Hidden
	}
	return n
}

// synth makes a cue's sound as 16-bit mono PCM at sampleRate.
func synth(c Cue) []int16 {
	var out []float64
	tone := func(freq, dur, amp float64, decay float64) {
		n := int(dur * sampleRate)
		for i := range n {
			t := float64(i) / sampleRate
			env := math.Exp(-decay*t) * math.Min(1, float64(i)/40) // no click at the start
			out = append(out, amp*env*math.Sin(2*math.Pi*freq*t))
		}
	}
	rest := func(dur float64) { out = append(out, make([]float64, int(dur*sampleRate))...) }
	switch c {
	case CueCard: // a short swish: noise from a fixed seed, filtered, fading
		x, lp := uint32(0x9e3779b9), 0.0
		n := sampleRate * 9 / 100
		for i := range n {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			lp += 0.35 * (float64(int32(x))/math.MaxInt32 - lp)
			t := float64(i) / float64(n)
			out = append(out, 0.5*lp*math.Sin(math.Pi*t))
		}
	case CueChip: // two clicks of clay
		tone(2400, 0.035, 0.45, 90)
		rest(0.025)
		tone(2900, 0.05, 0.4, 70)
	case CueWin: // a rising arpeggio
		for _, f := range []float64{523.25, 659.25, 783.99, 1046.5} {
			tone(f, 0.11, 0.35, 8)
		}
	case CueBlackjack: // a fanfare: arpeggio then the chord held
		for _, f := range []float64{392, 523.25, 659.25, 783.99} {
			tone(f, 0.09, 0.3, 6)
		}
		n := int(0.5 * sampleRate)
		for i := range n {
			t := float64(i) / sampleRate
			v := 0.0
			for _, f := range []float64{523.25, 659.25, 783.99, 1046.5} {
				v += math.Sin(2 * math.Pi * f * t)
			}
			out = append(out, 0.16*v*math.Exp(-3*t))
		}
	case CueButton: // a soft click
		tone(1200, 0.03, 0.35, 120)
	case CueTilt: // a two-tone alarm
		for range 3 {
			tone(880, 0.14, 0.4, 2)
			tone(660, 0.14, 0.4, 2)
		}
	}
	pcm := make([]int16, len(out))
	for i, v := range out {
		pcm[i] = int16(math.Round(max(-1, min(1, v)) * math.MaxInt16))
	}
	return pcm
}

// pcmBytes is pcm as little-endian bytes (raylib's wave data).
func pcmBytes(pcm []int16) []byte {
	b := make([]byte, 2*len(pcm))
	for i, v := range pcm {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	}
	return b
}
