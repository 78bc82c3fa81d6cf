package par

import (
	"bytes"
	"context"
	"testing"

	"cabinet/internal/game/blackjack"
	"cabinet/internal/money"
)

func TestTmpBig(t *testing.T) {
	r := blackjack.Zappit()
	r.WinCap = 10000
	pts, err := CapGrid(context.Background(), r, []int{1}, []money.Cents{20000, 10000}, 30_000_000, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteCapGrid(&b, r.WinCap, pts, 0.01)
	t.Logf("\n%s", b.String())
}
