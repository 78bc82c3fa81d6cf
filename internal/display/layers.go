package display

import (
	"cabinet/internal/game"
	"cabinet/internal/hw"
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// Frame cost: a busy table draws hundreds of strings, rounded boxes and
// cards, each a batch of its own (font atlas, shapes texture), which costs
// far more than the pixels. Most of it does not move between snapshots, so
// the frame is drawn in two layers:
//
//   - the still layer: the whole screen with every pulse at rest, rendered
//     into a texture when the snapshot (or the language, or the legend)
//     changes;
//   - the moving layer, drawn every frame over that texture: the pulsing
//     halo of the lit buttons, the active hand's frame, the selected betting
//     spot, the jackpot and overlay borders.
//
// Screens whose whole picture moves (attract, boot, Poker Duel's Baron and
// confetti) are drawn in full every frame.

// layerCache is the still layer of the last snapshot drawn.
type layerCache struct {
	tex    rl.RenderTexture2D
	loaded bool
	s      *view.Snapshot
	seq    uint64
	lang   string
	legend bool
	faded  bool
	// dest is the framebuffer draw draws into: 0 the window, a render
	// texture's id when the frame goes to one (set by the caller).
	dest int64
	// noBlit keeps the textured copy (a multisampled window cannot be the
	// target of a blit from a single-sampled layer).
	noBlit bool
}

// layered reports whether s's screen is drawn from the still layer.
func layered(s *view.Snapshot) bool {
	m := s.Mode
	if m == view.Tilt || m == view.Handpay {
		m = s.Under
	}
	switch m {
	case view.Table:
		return s.Game != game.Duel
	case view.Menu, view.Help, view.Audit, view.Operator, view.HwTest:
		return true
	}
	return false
}

// prepare renders fr's still layer into the cache if the snapshot changed.
// It must run outside BeginDrawing/BeginTextureMode (it uses its own).
func (c *layerCache) prepare(fr *frame) {
	if !layered(fr.s) {
		return
	}
	if !c.loaded {
		c.tex = rl.LoadRenderTexture(ScreenW, ScreenH)
		c.loaded = true
	}
	if c.s == fr.s && c.seq == fr.s.Seq && c.lang == fr.lang && c.legend == fr.legend && c.faded == fr.faded {
		return
	}
	still := *fr
	still.still = true
	rl.BeginTextureMode(c.tex)
	still.draw()
	rl.EndTextureMode()
	c.s, c.seq, c.lang, c.legend, c.faded = fr.s, fr.s.Seq, fr.lang, fr.legend, fr.faded
}

// draw draws fr's frame: the still layer and the moving parts on top, or
// the whole frame for a screen that is not layered. prepare comes first.
func (c *layerCache) draw(fr *frame) {
	if !layered(fr.s) || !c.loaded || c.s != fr.s {
		fr.draw()
		return
	}
	rl.DrawRenderBatchActive()
	if v := rl.GetVersion(); !c.noBlit && (v == rl.Opengl33 || v == rl.Opengl43) {
		// OpenGL 3.3: a framebuffer blit copies the still layer without a
		// shader pass (GLES 2 on the Pi has none: the textured copy below).
		rl.BindFramebuffer(rl.ReadFramebuffer, c.tex.ID)
		rl.BindFramebuffer(rl.DrawFramebuffer, uint32(c.dest))
		rl.BlitFramebuffer(0, 0, ScreenW, ScreenH, 0, 0, ScreenW, ScreenH, 0x4000) // GL_COLOR_BUFFER_BIT
		rl.BindFramebuffer(rl.ReadFramebuffer, uint32(c.dest))
	} else {
		// The still layer is opaque: copied without blending (cheaper, and
		// the same pixels).
		rl.DisableColorBlend()
		rl.DrawTextureRec(c.tex.Texture, rl.Rectangle{Width: ScreenW, Height: -ScreenH}, v2(0, 0), rl.White)
		rl.DrawRenderBatchActive()
		rl.EnableColorBlend()
	}
	fr.drawMoving()
}

func (c *layerCache) unload() {
	if c.loaded {
		rl.UnloadRenderTexture(c.tex)
	}
	*c = layerCache{}
}

// drawMoving draws the moving layer over the still one.
func (fr *frame) drawMoving() {
	s := fr.s
	overlay := s.Mode == view.Tilt || s.Mode == view.Handpay
	if !overlay {
		switch s.Mode {
		case view.Table:
			fr.movingTable()
		case view.Menu:
			for i, g := range s.Games {
				if g.ID == s.Game {
					r := menuTile(i, len(s.Games))
					r.Y -= 12
					frameBox(r, 18, 6, fade(colActive, 0.25+0.2*fr.pulse(1.2))) // raylib draws the line outside r: the glow's ring
				}
			}
		}
		glow := fr.pulse(1.2)
		for b := hw.Button(0); b < hw.NumButtons; b++ {
			if s.Lamps.Has(b) {
				r := ButtonRect(b)
				frameBox(r, 10, 3, fade(colLit, 0.25+0.25*glow)) // outside r: the halo's ring
			}
		}
		return
	}
	if s.Mode == view.Tilt {
		frameBox(tiltRect, 24, 4, mix(colLose, colWhite, fr.pulse(1)*0.5))
	} else {
		frameBox(handpayRect, 24, 5, mix(colGoldDark, colGold, fr.pulse(1)))
	}
}

// movingTable: the active hand's frame, the selected betting spot and the
// jackpot's border, drawn where the still layer drew them at rest.
func (fr *frame) movingTable() {
	s := fr.s
	t := s.Round
	info, _ := fr.gameInfo(s.Game)
	spots := max(info.Spots, 1)
	pending := len(s.Bets) > 0 || t == nil
	p := fr.pulse(1)
	switch {
	case pending || t.Done && len(t.Hands) == 0:
		if x, y, r, ok := fr.selectedCircle(info, spots); ok {
			rl.DrawRing(v2(x, y), r, r+4, 0, 360, 48, mix(colActive, colWhite, p*0.5))
		}
	default:
		if hl, ok := activeHighlight(t, spots); ok {
			frameBox(hl, 14, 3, mix(colActive, colWhite, p*0.4))
		}
	}
	fr.drawFlying()
	if s.Game == game.Royal {
		frameBox(jackpotBar, jackpotBar.H/2, 3, mix(colGoldDark, colGold, fr.pulse(1.6)))
	}
}
