package display

import (
	"cabinet/internal/game"
	"cabinet/internal/hw"
)

// This file is the screen geometry: pure functions of the snapshot's shape,
// unit-tested without a window. Everything is in the 1280×720 design
// resolution; Run scales the whole frame when the screen differs.

// Design resolution.
const (
	ScreenW = 1280
	ScreenH = 720
)

// Rect is a rectangle in design pixels.
type Rect struct{ X, Y, W, H float32 }

// Contains reports whether (x, y) lies inside r.
func (r Rect) Contains(x, y float32) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Center returns r's centre.
func (r Rect) Center() (float32, float32) { return r.X + r.W/2, r.Y + r.H/2 }

// Inset returns r shrunk by d on every side.
func (r Rect) Inset(d float32) Rect { return Rect{r.X + d, r.Y + d, r.W - 2*d, r.H - 2*d} }

// Overlaps reports whether r and o share any area.
func (r Rect) Overlaps(o Rect) bool {
	return r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H
}

// Within reports whether r lies entirely inside o.
func (r Rect) Within(o Rect) bool {
	return r.X >= o.X && r.Y >= o.Y && r.X+r.W <= o.X+o.W && r.Y+r.H <= o.Y+o.H
}

// The screen's bands, top to bottom.
func topBar() Rect    { return Rect{0, 0, ScreenW, 52} }
func feltArea() Rect  { return Rect{0, 52, ScreenW, 514} }
func meterBar() Rect  { return Rect{0, 566, ScreenW, 54} }
func buttonBar() Rect { return Rect{0, 620, ScreenW, 100} }

const (
	buttonMargin = 8
	buttonGap    = 6
	buttonTop    = 626
	buttonH      = 86
)

// ButtonRect is where the on-screen button b is drawn (panel order, left to right).
func ButtonRect(b hw.Button) Rect {
	w := (float32(ScreenW) - 2*buttonMargin - float32(hw.NumButtons-1)*buttonGap) / float32(hw.NumButtons)
	return Rect{buttonMargin + float32(b)*(w+buttonGap), buttonTop, w, buttonH}
}

// ButtonAt returns the on-screen button under (x, y).
func ButtonAt(x, y float32) (hw.Button, bool) {
	for b := hw.Button(0); b < hw.NumButtons; b++ {
		if ButtonRect(b).Contains(x, y) {
			return b, true
		}
	}
	return 0, false
}

// Card sizes.
const (
	cardW = 84
	cardH = 120
)

// cardScale shrinks cards when many hands share the felt.
func cardScale(hands int) float32 {
	switch {
	case hands <= 3:
		return 1
	case hands <= 6:
		return 0.8
	default:
		return 0.66
	}
}

// spotCenterX is the horizontal centre of spot i of n.
func spotCenterX(i, n int) float32 {
	if n < 1 {
		n = 1
	}
	w := float32(1140) / float32(n)
	return 70 + w*(float32(i)+0.5)
}

// spotWidth is the width available to one spot's hands.
func spotWidth(n int) float32 {
	if n < 1 {
		n = 1
	}
	return min(float32(1140)/float32(n)-20, 520)
}

// Vertical placement of the blackjack table.
const (
	dealerTop  = 96
	handTop    = 318
	handAreaH  = 170 // cards, total and outcome labels
	betCircleY = 502
	betCircleR = 28
)

// dealerArea is where the dealer's cards go.
func dealerArea() Rect { return Rect{400, dealerTop, 480, cardH} }

// HandAreas returns the rectangle of each hand of hands, laid out by spot
// (spots is the table's number of spots): a spot's hands (split hands
// included) share the spot's width left to right.
func HandAreas(hands []game.HandView, spots int) []Rect {
	for _, h := range hands {
		spots = max(spots, h.Spot+1)
	}
	count := make([]int, spots)
	for _, h := range hands {
		if h.Spot >= 0 {
			count[h.Spot]++
		}
	}
	seen := make([]int, spots)
	out := make([]Rect, len(hands))
	sw := spotWidth(spots)
	for i, h := range hands {
		s := max(h.Spot, 0)
		k := max(count[s], 1)
		w := (sw - float32(k-1)*10) / float32(k)
		x0 := spotCenterX(s, spots) - sw/2
		out[i] = Rect{x0 + float32(seen[s])*(w+10), handTop, w, handAreaH}
		seen[s]++
	}
	return out
}

// CardRects places n cards of size cw×ch in area left to right, step
// apart (a fraction of cw) or closer, overlapping just enough to fit.
func CardRects(area Rect, n int, cw, ch, step float32) []Rect {
	if n <= 0 {
		return nil
	}
	step *= cw
	if n > 1 && float32(n-1)*step+cw > area.W {
		step = max((area.W-cw)/float32(n-1), 4)
	}
	total := cw + float32(n-1)*step
	x0 := area.X + (area.W-total)/2
	out := make([]Rect, n)
	for i := range n {
		out[i] = Rect{x0 + float32(i)*step, area.Y, cw, ch}
	}
	return out
}

// RowRects places n cards side by side with gap, centred in area (Poker
// Duel shows whole cards).
func RowRects(area Rect, n int, cw, ch, gap float32) []Rect {
	if n <= 0 {
		return nil
	}
	need := float32(n)*cw + float32(n-1)*gap
	if s := min(area.W/need, area.H/ch); s < 1 {
		cw, ch, gap = cw*s, ch*s, gap*s
	}
	total := float32(n)*cw + float32(n-1)*gap
	x0 := area.X + (area.W-total)/2
	out := make([]Rect, n)
	for i := range n {
		out[i] = Rect{x0 + float32(i)*(cw+gap), area.Y + (area.H-ch)/2, cw, ch}
	}
	return out
}

// sideBetCenter is the centre and radius of the side-bet circle j of spot s
// of spots. The Royal Poker bet sits between the two spots; Free Bet's side
// bets line up right of a single spot's hands, or, with several spots,
// smaller between a spot's main bet and the next spot.
func sideBetCenter(kind game.BetKind, j, s, spots int) (x, y, r float32) {
	if kind == game.RoyalSide {
		return ScreenW / 2, betCircleY, 26
	}
	cx := spotCenterX(s, spots)
	if spots <= 1 {
		// 76 apart: their result labels ("Bust in 4") fit side by side.
		return cx + spotWidth(1)/2 + 40 + float32(j)*76, betCircleY - 6, 19
	}
	return cx + 56 + float32(j)*34, betCircleY - 6, 14
}

// Poker Duel geometry.
func duelCharacterArea() Rect { return Rect{24, 64, 380, 478} } // above the legend strip
func duelComputerCards() Rect { return Rect{440, 96, 600, 130} }
func duelPlayerCards() Rect   { return Rect{440, 372, 600, 150} }
func duelPotArea() Rect       { return Rect{530, 254, 420, 104} }
