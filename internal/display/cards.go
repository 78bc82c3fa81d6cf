package display

import (
	"image/color"
	"strconv"

	"cabinet/internal/game/card"
	"cabinet/internal/money"

	rl "github.com/gen2brain/raylib-go/raylib"
)

var suitGlyph = [4]string{"♠", "♥", "♦", "♣"}

func suitColor(s card.Suit) color.RGBA {
	if s == card.Hearts || s == card.Diamonds {
		return colRed
	}
	return colInk
}

func shadow(r Rect, radius float32) {
	box(Rect{r.X + 3, r.Y + 5, r.W, r.H}, radius, color.RGBA{0, 0, 0, 90})
}

// drawCard draws a face-up card filling r.
func (fr *frame) drawCard(c card.Card, r Rect) {
	defer fr.inObject("card", r)()
	rad := r.W * 0.09
	shadow(r, rad)
	box(r, rad, colWhite)
	frameBox(r, rad, 1.5, color.RGBA{160, 160, 170, 255})
	if !c.Valid() {
		fr.inRect("?", r, r.H*0.4, colRed, true)
		return
	}
	col := suitColor(c.Suit)
	rank := c.Rank.String()
	rs := r.H * 0.2
	fr.text(rank, r.X+r.W*0.08, r.Y+r.H*0.04, rs, col, true)
	fr.text(suitGlyph[c.Suit], r.X+r.W*0.09, r.Y+r.H*0.04+rs*1.02, rs*0.8, col, false)
	// Bottom-right corner, upside down.
	f := fr.f.pick(rs, true)
	rl.DrawTextPro(f, rank, v2(r.X+r.W*0.92, r.Y+r.H*0.96), v2(0, 0), 180, rs, 0, col)
	switch c.Rank {
	case card.Jack, card.Queen, card.King:
		fr.drawCourt(c, r, col)
	case card.Ace:
		fr.centered(suitGlyph[c.Suit], r.X+r.W/2, r.Y+r.H*0.24, r.H*0.5, col, false, 0)
	default:
		fr.centered(suitGlyph[c.Suit], r.X+r.W/2, r.Y+r.H*0.3, r.H*0.38, col, false, 0)
	}
}

// drawCourt is the project's own court-card picture: a framed panel with a
// crown (king), a tiara (queen) or a feathered cap (jack) over the letter.
func (fr *frame) drawCourt(c card.Card, r Rect, col color.RGBA) {
	in := Rect{r.X + r.W*0.26, r.Y + r.H*0.2, r.W * 0.56, r.H * 0.6}
	bg := color.RGBA{250, 236, 200, 255}
	if col == colRed {
		bg = color.RGBA{252, 226, 222, 255}
	}
	box(in, 4, bg)
	frameBox(in, 4, 1.5, colGoldDark)
	cx := in.X + in.W/2
	top := in.Y + in.H*0.1
	w := in.W * 0.7
	switch c.Rank {
	case card.King: // crown: band and three points
		rl.DrawRectangleRec(rec(Rect{cx - w/2, top + in.H*0.18, w, in.H * 0.08}), colGold)
		for i := range 3 {
			x := cx - w/2 + float32(i)*w/2
			tri(v2(x, top+in.H*0.18), v2(x+w/4, top+in.H*0.18), v2(x+w/8, top), colGold)
			tri(v2(x-w/4+0.01, top+in.H*0.18), v2(x, top+in.H*0.18), v2(x-w/8, top), colGold)
		}
	case card.Queen: // tiara: an arc of pearls
		for i := range 5 {
			x := cx - w/2 + float32(i)*w/4
			dy := float32([5]float32{0.16, 0.07, 0, 0.07, 0.16}[i]) * in.H
			rl.DrawCircleV(v2(x, top+dy+in.H*0.06), in.W*0.06, colGold)
		}
	default: // jack: a cap with a feather
		rl.DrawEllipse(int32(cx), int32(top+in.H*0.2), w*0.45, in.H*0.09, col)
		rl.DrawLineEx(v2(cx+w*0.2, top+in.H*0.16), v2(cx+w*0.55, top), 3, colGold)
	}
	fr.centered(c.Rank.String(), cx, in.Y+in.H*0.38, in.H*0.42, col, true, 0)
	fr.centered(suitGlyph[c.Suit], cx, in.Y+in.H*0.78, in.H*0.18, col, false, 0)
}

// drawBack draws a face-down card.
func (fr *frame) drawBack(r Rect) {
	defer fr.inObject("card", r)()
	rad := r.W * 0.09
	shadow(r, rad)
	box(r, rad, colWhite)
	in := r.Inset(r.W * 0.07)
	box(in, rad*0.7, color.RGBA{128, 20, 36, 255})
	// A lattice of small diamonds (no scissor: backs are drawn inside the
	// recall's clipped picture too).
	d := in.W / 6
	for y := in.Y + d/2; y < in.Y+in.H-d/4; y += d {
		for x := in.X + d/2; x < in.X+in.W-d/4; x += d {
			rl.DrawPoly(v2(x, y), 4, d*0.42, 0, color.RGBA{170, 44, 58, 255})
		}
	}
	cx, cy := in.Center()
	rl.DrawCircleV(v2(cx, cy), in.W*0.22, colGoldDark)
	rl.DrawCircleV(v2(cx, cy), in.W*0.17, colGold)
	fr.centered("♠", cx, cy-in.W*0.16, in.W*0.3, color.RGBA{128, 20, 36, 255}, false, 0)
}

// chipColors by value (cents).
func chipColor(v money.Cents) (color.RGBA, color.RGBA) {
	switch {
	case v <= 100:
		return color.RGBA{235, 235, 235, 255}, colInk
	case v <= 500:
		return color.RGBA{200, 30, 40, 255}, colWhite
	case v <= 1000:
		return color.RGBA{30, 80, 200, 255}, colWhite
	case v <= 2500:
		return color.RGBA{20, 140, 70, 255}, colWhite
	case v <= 10000:
		return color.RGBA{30, 30, 34, 255}, colWhite
	default:
		return color.RGBA{110, 40, 160, 255}, colWhite
	}
}

// chipLabel is the short value printed on a chip: "5", "2,5", "1K".
func chipLabel(v money.Cents) string {
	switch {
	case v >= 100000 && v%100000 == 0:
		return strconv.FormatInt(int64(v/100000), 10) + "K"
	case v%100 == 0:
		s := v.Format("", "")
		return s[:len(s)-2]
	}
	return v.Format("", ",")
}

// drawChip draws a casino chip of value v centred at (x, y).
func (fr *frame) drawChip(v money.Cents, x, y, r float32) {
	defer fr.inObject("chip", Rect{x - r, y - r, 2 * r, 2 * r})()
	body, ink := chipColor(v)
	rl.DrawCircleV(v2(x+2, y+3), r, color.RGBA{0, 0, 0, 90})
	rl.DrawCircleV(v2(x, y), r, body)
	stripe := colWhite
	if body.R > 200 && body.G > 200 {
		stripe = color.RGBA{40, 90, 200, 255}
	}
	for i := range 6 {
		a := float32(i) * 60
		rl.DrawRing(v2(x, y), r*0.72, r, a, a+24, 4, stripe)
	}
	rl.DrawCircleV(v2(x, y), r*0.68, mix(body, colWhite, 0.12))
	rl.DrawCircleLinesV(v2(x, y), r*0.68, fade(ink, 0.5))
	fr.inRect(chipLabel(v), Rect{x - r*0.66, y - r*0.6, r * 1.32, r * 1.2}, r*0.8, ink, true)
}

// drawToken draws a Free Bet token: a gold octagon, unlike any money chip.
func (fr *frame) drawToken(x, y, r float32) {
	defer fr.inObject("token", Rect{x - r, y - r, 2 * r, 2 * r})()
	rl.DrawPoly(v2(x+2, y+3), 8, r, 22.5, color.RGBA{0, 0, 0, 90})
	rl.DrawPoly(v2(x, y), 8, r, 22.5, colGoldDark)
	rl.DrawPoly(v2(x, y), 8, r*0.86, 22.5, colToken)
	rl.DrawPolyLinesEx(v2(x, y), 8, r*0.7, 22.5, 1.5, colGoldDark)
	fr.inRect("FREE", Rect{x - r*0.7, y - r*0.4, r * 1.4, r * 0.8}, r*0.55, colInk, true)
}

// drawBolt draws Zappit's lightning bolt in r.
func drawBolt(r Rect, c color.RGBA) {
	p := func(fx, fy float32) rl.Vector2 { return v2(r.X+fx*r.W, r.Y+fy*r.H) }
	tri(p(0.55, 0), p(0.15, 0.58), p(0.5, 0.55), c)
	tri(p(0.55, 0), p(0.5, 0.55), p(0.62, 0.45), c)
	tri(p(0.45, 1), p(0.85, 0.42), p(0.5, 0.45), c)
	tri(p(0.45, 1), p(0.5, 0.45), p(0.38, 0.55), c)
}

// tri draws a filled triangle whatever the vertex order (raylib culls
// triangles given clockwise on screen).
func tri(a, b, c rl.Vector2, col color.RGBA) {
	if (b.X-a.X)*(c.Y-a.Y)-(b.Y-a.Y)*(c.X-a.X) > 0 {
		b, c = c, b
	}
	rl.DrawTriangle(a, b, c, col)
}
