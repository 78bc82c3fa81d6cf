package display

import (
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// audio plays the cues through raylib when an audio device is there; with
// none (no sound card, a test machine) it stays silent and the cabinet
// carries on (DEPENDENCIES.md: IsAudioDeviceReady is false and playing is
// a no-op, but it is checked rather than relied on).
type audio struct {
	ready  bool
	volume float32
	sounds map[Cue]rl.Sound
	prev   *view.Snapshot
}

// openAudio opens the device and makes the sounds; volume is 0…1.
func openAudio(volume float32) *audio {
	a := &audio{volume: max(0, min(1, volume))}
	rl.InitAudioDevice()
	if !rl.IsAudioDeviceReady() {
		return a
	}
	a.ready = true
	a.sounds = map[Cue]rl.Sound{}
	for _, c := range Cues {
		pcm := synth(c)
		w := rl.NewWave(uint32(len(pcm)), sampleRate, 16, 1, pcmBytes(pcm))
		s := rl.LoadSoundFromWave(w)
		rl.SetSoundVolume(s, a.volume)
		a.sounds[c] = s
	}
	return a
}

// setVolume follows the operator's volume (0…1).
func (a *audio) setVolume(v float32) {
	v = max(0, min(1, v))
	if v == a.volume {
		return
	}
	a.volume = v
	for _, s := range a.sounds {
		rl.SetSoundVolume(s, v)
	}
}

// frame plays the cues of the change to the picture drawn now, when the
// operator has the sound on.
func (a *audio) frame(cur *view.Snapshot) {
	if cur == a.prev {
		return
	}
	cues := cuesFor(a.prev, cur)
	a.prev = cur
	if cur.Sound && !cur.Demo { // the attract demo plays silently
		for _, c := range cues {
			a.play(c)
		}
	}
}

// button plays the button click (a press on the screen or keyboard).
func (a *audio) button(on bool) {
	if on {
		a.play(CueButton)
	}
}

func (a *audio) play(c Cue) {
	if !a.ready || a.volume <= 0 {
		return
	}
	if s, ok := a.sounds[c]; ok {
		rl.PlaySound(s)
	}
}

func (a *audio) close() {
	if a.ready {
		for _, s := range a.sounds {
			rl.UnloadSound(s)
		}
		rl.CloseAudioDevice()
	}
}
