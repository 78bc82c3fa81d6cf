package display

import (
	"context"
	"fmt"
	"time"

	"cabinet/internal/hw"
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// Options configure the window of Run.
type Options struct {
	Title      string // window title; "Cabinet" if empty
	Fullscreen bool
	FPS        int  // target frames per second; 60 if 0
	Legend     bool // simulator: show the keyboard legend; ESC closes the window
	MSAA       bool // 4× multisampling (smoother edges; costly on a Pi)
	// NoPace shows every committed step at once whatever the operator's
	// pace (scripted runs). Otherwise each dealt card takes the snapshot's
	// DealPaceMS from the shoe (pace.go), and the sound effects play at its
	// Volume when its Sound is on: the operator's settings, followed at
	// once.
	NoPace bool
	// Demo is the attract loop's demonstration round (scenario.Demo): its
	// pictures take turns with the attract screen while no credit is in.
	Demo []*view.Snapshot
	// Shown, if set, hears how far the presentation has got (report.go):
	// the controller accepts a decision only on a step shown in full
	// (cmd/cabinet wires it to controller.Presentation.Report). It must
	// not block.
	Shown func(view.Shown)
}

// Run opens the 1280×720 window and draws snap() every frame until ctx is
// done or the window is closed (both return nil). Keyboard, mouse and touch
// become inputs through in (may be nil: display only). snap must be cheap
// and never block: it returns the last published snapshot (nil draws the
// boot screen).
//
// Run must be called on the main OS thread (raylib and GLFW require it):
// cmd/cabinet calls runtime.LockOSThread in main's init and runs the rest
// of the cabinet in other goroutines. Only one of Run, Screenshot or an
// Offscreen may use raylib at a time in a process.
func Run(ctx context.Context, opt Options, snap func() *view.Snapshot, in Input) error {
	if err := checkDisplay(); err != nil {
		return err
	}
	title := opt.Title
	if title == "" {
		title = "Cabinet"
	}
	fps := opt.FPS
	if fps <= 0 {
		fps = 60
	}
	var flags uint32
	if opt.MSAA {
		flags |= rl.FlagMsaa4xHint
	}
	if opt.Fullscreen {
		flags |= rl.FlagFullscreenMode
	}
	rl.SetTraceLogLevel(rl.LogWarning)
	rl.SetConfigFlags(flags)
	rl.InitWindow(ScreenW, ScreenH, title)
	if !rl.IsWindowReady() {
		return fmt.Errorf("display: run: %w", ErrWindow)
	}
	defer rl.CloseWindow()
	if rl.IsWindowHidden() {
		// raylib keeps configuration flags across windows of a process: a
		// hidden window before (an Offscreen) would hide this one.
		rl.ClearWindowState(rl.FlagWindowHidden)
	}
	if !opt.Legend {
		rl.SetExitKey(rl.KeyNull) // a cabinet has no ESC to quit
	}
	rl.SetTargetFPS(int32(fps))
	f, err := loadFonts()
	if err != nil {
		return err
	}
	defer f.unload()
	target := rl.LoadRenderTexture(ScreenW, ScreenH)
	defer rl.UnloadRenderTexture(target)
	rl.SetTextureFilter(target.Texture, rl.FilterBilinear)

	cache := layerCache{noBlit: opt.MSAA}
	defer cache.unload()
	var demos demoReel
	pace := newPacer(0)
	rep := reporter{report: opt.Shown}
	var refused refusalClock
	sound := openAudio(0.8)
	defer sound.close()
	if in != nil {
		in = clicker{in, sound}
	}
	keys := keymap()
	start := time.Now()
	for !rl.WindowShouldClose() {
		if ctx.Err() != nil {
			return nil
		}
		s := snap()
		if s == nil {
			s = &view.Snapshot{Mode: view.Boot}
		}
		sw, sh := float32(rl.GetScreenWidth()), float32(rl.GetScreenHeight())
		fit := letterbox(sw, sh)
		pollInput(in, keys, func(p rl.Vector2) (float32, float32) {
			return (p.X - fit.X) * ScreenW / fit.W, (p.Y - fit.Y) * ScreenH / fit.H
		})
		now := time.Since(start).Seconds()
		if !opt.NoPace {
			pace.per = float64(s.DealPaceMS) / 1000
		}
		sound.setVolume(float32(s.Volume) / 100)
		demo := demos.pick(s, opt.Demo, now)
		pf := pace.frame(s, now)
		// Reported once the frame is on screen (after EndDrawing): shown
		// means drawn, not about to be.
		shownPF := pf
		if demo != nil {
			pf = paced{s: demo}
		}
		fr := newFrame(f, pf.s, now, opt.Legend)
		fr.faded = refused.faded(s, now)
		fr.fly, fr.flyF = pf.flying, pf.f
		fr.chips, fr.chipF = pf.chips, pf.cf
		sound.frame(pf.s)
		cache.prepare(fr)
		if sw == ScreenW && sh == ScreenH {
			rl.BeginDrawing()
			cache.draw(fr)
			rl.EndDrawing()
			rep.frame(s, shownPF, demo != nil, now)
			continue
		}
		// Another screen size: draw at design size and scale, letterboxed.
		rl.BeginTextureMode(target)
		cache.dest = int64(target.ID)
		cache.draw(fr)
		cache.dest = 0
		rl.EndTextureMode()
		rl.BeginDrawing()
		rl.ClearBackground(colInk)
		rl.DrawTexturePro(target.Texture, rl.Rectangle{Width: ScreenW, Height: -ScreenH}, rec(fit), v2(0, 0), 0, rl.White)
		rl.EndDrawing()
		rep.frame(s, shownPF, demo != nil, now)
	}
	return nil
}

// letterbox is where the design frame goes on a sw×sh screen, scaled to fit
// and centred.
func letterbox(sw, sh float32) Rect {
	if sw <= 0 || sh <= 0 {
		return Rect{0, 0, ScreenW, ScreenH}
	}
	s := min(sw/ScreenW, sh/ScreenH)
	w, h := ScreenW*s, ScreenH*s
	return Rect{(sw - w) / 2, (sh - h) / 2, w, h}
}

// clicker passes inputs on, with the button's click. A press during a
// reveal is the controller's to consume: it finishes the reveal through the
// snapshot (Snapshot.Hurry), so the window never finishes one on its own and
// then lets the same press act on what it showed.
type clicker struct {
	Input
	a *audio
}

func (k clicker) Press(b hw.Button) bool {
	k.a.button(k.a.prev != nil && k.a.prev.Sound)
	return k.Input.Press(b)
}
