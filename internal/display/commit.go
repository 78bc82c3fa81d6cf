package display

import (
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"
	"rsc.io/qr"

	"cabinet/internal/view"
)

// The shoe's commitment on screen (issue 38, docs/verify.md): the first 8
// hex digits in the table's title bar while the player bets, all 64 and a
// QR code of them on the help page, and in game recall the round's shoe,
// its reveal and its verdict. The QR code is rsc.io/qr's (Russ Cox's
// encoder; error correction M), drawn module by module here.

// drawShoeTag writes "shoe a3a3da7b" in the title bar, left of its right
// text (the middle is Royal Poker's jackpot).
func (fr *frame) drawShoeTag(right string) {
	c := fr.s.Commitment
	if len(c) < 8 || fr.s.Demo {
		return
	}
	x := float32(ScreenW - 18)
	if right != "" {
		x -= fr.measure(right, 22, true) + 28
	}
	fr.right(fr.trf("table.shoe", c[:8]), x, 19, 17, colDim, false)
}

// qrModule is the size of a QR module on the help page, in pixels.
const qrModule = 4

// qrCode encodes text, nil if it cannot (never for 64 hex digits).
func qrCode(text string) *qr.Code {
	code, err := qr.Encode(text, qr.M)
	if err != nil {
		return nil
	}
	return code
}

// drawQR draws code with its top-left corner at (x, y), dark modules on a
// white square with a quiet zone of two modules.
func drawQR(code *qr.Code, x, y float32) {
	side := float32(code.Size+4) * qrModule
	rl.DrawRectangle(int32(x), int32(y), int32(side), int32(side), color.RGBA{255, 255, 255, 255})
	for row := range code.Size {
		for col := range code.Size {
			if code.Black(col, row) {
				rl.DrawRectangle(int32(x)+int32((col+2)*qrModule), int32(y)+int32((row+2)*qrModule), qrModule, qrModule, color.RGBA{0, 0, 0, 255})
			}
		}
	}
}

// commitmentLines are the help page's block of the shoe's commitment: a
// heading, what it is, the 64 digits in two lines and the QR code of them,
// kept together on one page of the right column.
func (fr *frame) commitmentLines(x, w float32) []helpLine {
	c := fr.s.Commitment
	if len(c) != 64 {
		return nil
	}
	lines := []helpLine{{h: 14}, {h: 26, keep: true, heading: true, draw: func(y float32) {
		fr.text(fr.tr("help.commitment"), x, y, 17, colActive, true)
	}}}
	for _, l := range fr.paragraph(fr.tr("help.commitment_note"), x, w, 14, 18, colWhite) {
		l.keep = true
		lines = append(lines, l)
	}
	for _, half := range []string{c[:32], c[32:]} {
		lines = append(lines, helpLine{h: 20, keep: true, draw: func(y float32) { fr.text(half, x+20, y, 16, colGold, true) }})
	}
	if code := qrCode(c); code != nil {
		side := float32(code.Size+4) * qrModule
		lines = append(lines, helpLine{h: side + 6, draw: func(y float32) { drawQR(code, x+20, y+4) }})
	}
	return lines
}

// drawRecallShoe writes a recalled round's shoe in r: its number, the
// positions of the round's cards, the verdict, the commitment and, once
// revealed, the secret and the whole order.
func (fr *frame) drawRecallShoe(sv *view.ShoeView, r Rect) {
	box(r, 10, fade(colInk, 0.6))
	x, y, w := r.X+12, r.Y+8, r.W-24
	status, c := fr.tr("audit.shoe_"+sv.Status), colWin
	switch sv.Status {
	case "mismatch":
		c = colLose
	case "not_revealed":
		c = colDim
	}
	head := fr.trf("audit.shoe", sv.No, sv.From, sv.To-1)
	fr.text(head, x, y, 15, colGold, true)
	fr.text(status, x+fr.measure(head, 15, true)+16, y, 15, c, true)
	y += 20
	kv := func(label, value string) {
		fr.text(label, x, y, 12, colDim, false)
		fr.text(value, x+90, y, 12, colWhite, false)
		y += 15
	}
	kv(fr.tr("audit.commitment"), sv.Commitment)
	if sv.Detail != "" {
		for _, l := range fr.wrap(sv.Detail, 12, w, false) {
			fr.text(l, x, y, 12, colLose, false)
			y += 15
		}
	}
	if sv.Secret == "" {
		return
	}
	kv(fr.tr("audit.secret"), sv.Secret)
	order := fr.tr("audit.order_nocut")
	if sv.Cut > 0 {
		order = fr.trf("audit.order", sv.Cut)
	}
	fr.text(order, x, y, 12, colDim, false)
	y += 15
	for _, l := range fr.wrap(sv.Order, 11, w, false) {
		if y+13 > r.Y+r.H {
			break // the whole order: cabinet audit recall and cabinet verify
		}
		fr.text(l, x, y, 11, colWhite, false)
		y += 13
	}
}
