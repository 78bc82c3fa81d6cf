package display

import (
	"slices"
	"testing"

	"cabinet/internal/game"
	"cabinet/internal/view"
)

// TestSynth: every cue is a sound (not silent, not clipped all the way,
// under two seconds) and the same bytes every time (made by code).
func TestSynth(t *testing.T) {
	for _, c := range Cues {
		pcm := synth(c)
		if len(pcm) == 0 || len(pcm) > 2*sampleRate {
			t.Errorf("%s: %d samples, want a sound under 2 s", c, len(pcm))
			continue
		}
		peak := 0
		for _, v := range pcm {
			peak = max(peak, absi(int(v)))
		}
		if peak < 3000 || peak > 32767 {
			t.Errorf("%s: peak %d, want audible and within 16 bits", c, peak)
		}
		if !slices.Equal(pcm, synth(c)) {
			t.Errorf("%s: not the same sound twice", c)
		}
		if len(pcmBytes(pcm)) != 2*len(pcm) {
			t.Errorf("%s: PCM bytes", c)
		}
	}
}

// TestCuesFollowCommittedPictures plays a Classic round through the real
// controller and the pacer, and checks which sounds go with which drawn
// picture: one card sound per card as it lands (none before), none for the
// first picture, a chip when a bet grows.
func TestCuesFollowCommittedPictures(t *testing.T) {
	shots := paceShots(t)
	p := newPacer(0.5)
	var prev *view.Snapshot
	cards := map[Cue]int{}
	now := 0.0
	for _, sh := range shots {
		for range 40 {
			f := p.frame(sh.Snap, now)
			cs := cuesFor(prev, f.s)
			if prev == nil && len(cs) > 0 {
				t.Errorf("first picture sounds %v", cs)
			}
			for _, c := range cs {
				cards[c]++
			}
			if f.s != prev && prev != nil && cardsShown(f.s.Round) > cardsShown(prev.Round)+1 {
				t.Errorf("%s: two cards landed in one picture", sh.Name)
			}
			prev = f.s
			now += 0.125
		}
	}
	last := shots[len(shots)-1].Snap.Round
	dealt := cardsShown(last)
	if shots[1].Snap.Round.Dealer.Hidden > last.Dealer.Hidden {
		dealt++ // the hole card turning sounds too
	}
	if cards[CueCard] != dealt {
		t.Errorf("%d card sounds for %d cards dealt and turned", cards[CueCard], dealt)
	}
	if last.Paid > 0 && cards[CueWin] != 1 {
		t.Errorf("round paid %v: %d win sounds, want 1", last.Paid, cards[CueWin])
	}
	if last.Paid == 0 && cards[CueWin] != 0 {
		t.Errorf("round paid nothing: %d win sounds", cards[CueWin])
	}

	// The other cues, from scenario screens.
	bet, menu := screen(t, "classic-bet"), screen(t, "menu")
	menu.Game = bet.Game
	for _, tc := range []struct {
		name      string
		prev, cur *view.Snapshot
		want      []Cue
	}{
		{"chip placed", func() *view.Snapshot { s := screen(t, "classic-bet"); s.Bets = nil; return s }(), bet, []Cue{CueChip}},
		{"tilt", screen(t, "recovered"), screen(t, "tilt"), []Cue{CueTilt}},
		{"resumed after a power cut", screen(t, "classic-bet"), screen(t, "recovered"), nil},
		{"blackjack", screen(t, "classic"), func() *view.Snapshot {
			s := screen(t, "classic")
			s.Round.Hands[0].Outcome = game.Blackjack
			return s
		}(), []Cue{CueBlackjack}},
	} {
		if got := cuesFor(tc.prev, tc.cur); !slices.Equal(got, tc.want) {
			t.Errorf("%s: cues %v, want %v", tc.name, got, tc.want)
		}
	}
}
