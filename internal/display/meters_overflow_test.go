package display

import (
	"fmt"
	"strings"
	"testing"

	"cabinet/internal/view"
)

// TestMetersThatDoNotFitSaySo: a meters page with more lines than the grid
// holds says how many are left out and where to read them (it dropped them
// silently), and draws no more cells than fit.
func TestMetersThatDoNotFitSaySo(t *testing.T) {
	o := offscreen(t)
	for _, n := range []int{40, 300} {
		kvs := make([]view.KV, n)
		for i := range kvs {
			kvs[i] = view.KV{Key: fmt.Sprintf("bills.%d", (i+1)*100), Value: "1"}
		}
		s := view.Snapshot{Mode: view.Audit, Lang: "en", Audit: &view.AuditView{Page: "meters", Meters: kvs}}
		l, err := o.inkOf(&s, false)
		if err != nil {
			t.Fatal(err)
		}
		var more string
		for _, x := range l.texts {
			if strings.Contains(x.s, "more lines") {
				more = x.s
			}
		}
		switch {
		case n == 40 && more != "":
			t.Errorf("%d meters fit, yet the page says %q", n, more)
		case n == 300 && !strings.Contains(more, "cabinet audit meters"):
			t.Errorf("%d meters: no line says how many were left out (got %q)", n, more)
		}
	}
}
