package par

import (
	"context"
	"io"
	"runtime"
	"sync"

	"cabinet/internal/game"
	"cabinet/internal/game/blackjack"
	"cabinet/internal/game/card"
	"cabinet/internal/money"
)

// The simulations' common parts (capsim.go, cutcard.go): blocks of work
// seeded from (seed, block), played by one goroutine a core, each with its
// own valuation, round and buffers, and summed by the caller in block order.

// blockSeed is the random source of block b of a simulation seeded seed.
func blockSeed(seed uint64, b int) io.Reader {
	return card.NewSeeded(seed ^ uint64(b+1)*0x9E3779B97F4A7C15)
}

// simFunds are the player's funds in a simulation (never short).
const simFunds = money.Cents(1 << 50)

// simBuf is one goroutine's reusable buffers.
type simBuf struct {
	evs   []game.Event
	legal []game.ActionKind
	bets  []game.Bet
}

// play plays one round with bets and player ch, calling see with every event.
func (b *simBuf) play(rd *blackjack.Round, ch *roundChooser, shoe *card.Shoe, n uint64, bets []game.Bet, see func(game.Event)) (err error) {
	rd.Renew(n)
	a := game.Action{Kind: game.Deal, Bets: bets, Funds: simFunds}
	for {
		if b.evs, err = rd.AppendApply(b.evs[:0], a, shoe); err != nil {
			return err
		}
		for _, e := range b.evs {
			see(e)
		}
		if rd.Done() {
			return nil
		}
		b.legal = rd.AppendLegal(b.legal[:0], simFunds)
		a = game.Action{Kind: ch.choose(rd, b.legal), Funds: simFunds}
	}
}

// round plays one round of one spot and returns its net result and the
// money staked (main, doubles, paid splits) in units of the bet.
func (b *simBuf) round(r blackjack.Rules, rd *blackjack.Round, ch *roundChooser, shoe *card.Shoe, n uint64) (net, staked float64, err error) {
	unit := r.MinBet
	if b.bets == nil {
		b.bets = []game.Bet{{Spot: 0, Kind: game.Main, Amount: unit}}
	}
	err = b.play(rd, ch, shoe, n, b.bets, func(e game.Event) {
		if e.Bet != game.Main && e.Bet != game.DoubleBet && e.Bet != game.SplitBet {
			return
		}
		switch e.Kind {
		case game.Stake:
			net -= float64(e.Amount) / float64(unit)
			staked += float64(e.Amount) / float64(unit)
		case game.Payout:
			net += float64(e.Amount) / float64(unit)
		}
	})
	return net, staked, err
}

// simWorkers runs f on blocks [0, nblocks) in parallel, one goroutine a
// core, each with its own valuation of r (memoised under a lock, so not
// shared), round, player and buffers.
func simWorkers(ctxt context.Context, r blackjack.Rules, nblocks int, f func(b int, rd *blackjack.Round, ch *roundChooser, buf *simBuf) error) error {
	next := make(chan int)
	errs := make(chan error, runtime.GOMAXPROCS(0)+1)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := NewValues(r)
			if err != nil {
				errs <- err
				return
			}
			rd, err := blackjack.New(r, 1)
			if err != nil {
				errs <- err
				return
			}
			ch, buf := newRoundChooser(v), &simBuf{}
			for b := range next {
				if err := f(b, rd, ch, buf); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	go func() {
		defer close(next)
		for b := range nblocks {
			select {
			case next <- b:
			case <-ctxt.Done():
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return ctxt.Err()
}
