package display

import (
	"testing"
	"time"

	"cabinet/internal/game"
	"cabinet/internal/game/card"
	"cabinet/internal/hw"
	"cabinet/internal/view"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// busiest is the heaviest table picture: Free Bet allowed three spots, each
// split with four-card hands and tokens, all four side bets on every spot,
// every lamp lit, a prompt, a notice and the recovered banner.
//
// It starts from the Free Bet scenario screen and fills the round by hand:
// the shipped configuration offers one Free Bet spot, and the benchmark
// wants the heaviest table the display may be given.
func busiest(tb testing.TB) *view.Snapshot {
	s := screen(tb, "freebet")
	for i := range s.Games {
		if s.Games[i].ID == game.FreeBet {
			s.Games[i].Spots = 3
		}
	}
	var hands []game.HandView
	var side []game.SideView
	for sp := range 3 {
		for range 2 {
			h := game.HandView{Spot: sp, Cards: card.MustParse("2S 3H 4D 5C 2D"), Total: 16, Bet: 1000}
			h.Token, h.Doubled, h.Note = 1000, true, "split"
			hands = append(hands, h)
		}
		for _, k := range []game.BetKind{game.AnyPair, game.TwentyOne, game.Hot3, game.BustIt} {
			side = append(side, game.SideView{Spot: sp, Kind: k, Amount: 500, Outcome: game.Win, Hand: "pair", Win: 4500})
		}
	}
	s.Round = &game.Table{Game: game.FreeBet, Round: 99999, Active: 3, Dealer: game.HandView{Cards: card.MustParse("6D 10S 5C"), Total: 21},
		Hands: hands, Side: side, Prompt: "insurance", Staked: 18000, Paid: 27000}
	s.Lamps = hw.ButtonSet(1<<hw.NumButtons - 1)
	s.Recovered = true
	s.Message = "funds"
	return s
}

// BenchmarkFrame times whole frames drawn to the window (BeginDrawing …
// EndDrawing, which waits for the swap) in the same run:
//
//   - empty: a cleared frame, the floor of this machine's GL;
//   - busy: the busiest table as Run draws it, animating (the moving layer
//     over the cached still layer, the clock advancing 1/60 s a frame);
//   - full: the same frame drawn without the cache, every primitive, as a
//     new snapshot costs (the still layer is re-rendered once per snapshot).
//
// It reports each in ms and busy/empty, the figure held to ≤ 3:
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test ./internal/display -run '^$' -bench Frame
func BenchmarkFrame(b *testing.B) { benchFrames(b, busiest(b), nil) }

// BenchmarkFrameDealing is BenchmarkFrame with a card in flight from the
// shoe to the busiest table (pace.go), the frame of a paced deal.
func BenchmarkFrameDealing(b *testing.B) {
	s := busiest(b)
	fly := &reveal{Hand: 5, Card: len(s.Round.Hands[5].Cards), Face: s.Round.Hands[0].Cards[0]}
	benchFrames(b, s, fly)
}

func benchFrames(b *testing.B, s *view.Snapshot, fly *reveal) {
	o := offscreen(b)
	var busy, empty, full time.Duration
	frames := 0
	b.ResetTimer()
	err := o.do(func() {
		rl.SetTargetFPS(0)
		o.cache.dest = 0 // the window
		// The still layer is rendered once per snapshot (its cost is the
		// "full" figure): render it before timing, so busy is the steady
		// animating frame and not that one render spread over few frames.
		o.cache.prepare(newFrame(o.fonts, s, 0, true))
		for b.Loop() {
			t := float64(frames) / 60
			t0 := time.Now()
			rl.BeginDrawing()
			rl.ClearBackground(colBackground)
			rl.EndDrawing()
			t1 := time.Now()
			fr := newFrame(o.fonts, s, t, true)
			fr.fly, fr.flyF = fly, float32(frames%30)/30
			o.cache.prepare(fr)
			rl.BeginDrawing()
			o.cache.draw(fr)
			rl.EndDrawing()
			t2 := time.Now()
			rl.BeginDrawing()
			whole := newFrame(o.fonts, s, t, true)
			whole.fly, whole.flyF = fr.fly, fr.flyF
			whole.draw()
			rl.EndDrawing()
			t3 := time.Now()
			empty += t1.Sub(t0)
			busy += t2.Sub(t1)
			full += t3.Sub(t2)
			frames++
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(frames) / 1000 }
	b.ReportMetric(ms(busy), "busy-ms/frame")
	b.ReportMetric(ms(empty), "empty-ms/frame")
	b.ReportMetric(ms(full), "full-ms/frame")
	b.ReportMetric(float64(busy)/float64(empty), "busy/empty")
}
