package recovery

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"

	"cabinet/internal/game"
	"cabinet/internal/meters"
	"cabinet/internal/money"
)

// TestStoreModel: random sequences of cash-in, round steps, cash-out,
// failed transactions, invariant-breaking commits and close/reopen (a clean
// power cycle) keep the store equal to a model, the invariant intact and
// Check clean. (Real SIGKILLs are the crashtest package's job.)
func TestStoreModel(t *testing.T) {
	dir := t.TempDir()
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		path := filepath.Join(dir, fmt.Sprintf("m%d.db", n))
		s, err := Open(path, Options{Init: true, Now: fixedClock()})
		if err != nil {
			rt.Fatal(err)
		}
		defer func() { s.Close() }()
		var model Machine
		var open *OpenRound
		commit := func(fn func(m *Machine, tx *Tx) error) error {
			var next Machine
			err := s.Update(func(tx *Tx) error {
				m, err := tx.Machine()
				if err != nil {
					return err
				}
				if err := fn(&m, tx); err != nil {
					return err
				}
				next = m
				return tx.PutMachine(m)
			})
			if err == nil {
				model = next
			}
			return err
		}
		for range rapid.IntRange(1, 40).Draw(rt, "ops") {
			switch rapid.IntRange(0, 6).Draw(rt, "op") {
			case 0: // bill
				v := money.Cents(rapid.SampledFrom([]int64{500, 1000, 5000}).Draw(rt, "bill"))
				if err := commit(func(m *Machine, tx *Tx) error {
					m.Credits += v
					m.Meters.BillsIn += v
					return tx.Log(meters.KindBillAccepted, v.String())
				}); err != nil {
					rt.Fatalf("bill: %v", err)
				}
			case 1: // a step: open or continue a round
				stake := money.Cents(rapid.Int64Range(0, int64(model.Credits)).Draw(rt, "stake"))
				pay := money.Cents(rapid.Int64Range(0, 3*int64(stake)).Draw(rt, "pay"))
				done := rapid.Bool().Draw(rt, "done")
				evs := []game.Event{{Kind: game.Stake, Bet: game.Main, Amount: stake}, {Kind: game.Payout, Bet: game.Main, Amount: pay}}
				if err := commit(func(m *Machine, tx *Tx) error {
					o := open
					if o == nil {
						o = &OpenRound{Game: game.Classic, Round: m.NextRound + 1, CreditsBefore: m.Credits}
						m.NextRound += 2
						m.Meters.RoundStarted(game.Classic)
					}
					o.Steps = append(o.Steps, meters.Step{N: len(o.Steps), Events: evs})
					m.Credits += pay - stake
					m.Meters.Step(game.Classic, evs)
					if done {
						m.Meters.RoundOver(game.Classic, stake, pay)
						open = nil
						return tx.CloseRound(meters.Recall{Round: o.Round, Game: o.Game, Steps: o.Steps, CreditsBefore: o.CreditsBefore, CreditsAfter: m.Credits})
					}
					open = o
					return tx.PutOpenRound(o)
				}); err != nil {
					rt.Fatalf("step: %v", err)
				}
			case 2: // cash out cleared
				if open != nil {
					continue
				}
				if err := commit(func(m *Machine, tx *Tx) error {
					m.Meters.HandpayCancelled += m.Credits
					m.Credits = 0
					return nil
				}); err != nil {
					rt.Fatalf("cash out: %v", err)
				}
			case 3: // a failing transaction writes nothing
				boom := errors.New("boom")
				if err := commit(func(m *Machine, tx *Tx) error {
					m.Credits += 1
					m.Meters.BillsIn += 1
					_ = tx.Log(meters.KindDoor, "x")
					return boom
				}); !errors.Is(err, boom) {
					rt.Fatalf("failing tx = %v", err)
				}
			case 4: // money from nowhere is refused
				if err := commit(func(m *Machine, tx *Tx) error { m.Credits += 7; return nil }); !errors.Is(err, ErrInvariant) {
					rt.Fatalf("unbalanced commit = %v, want ErrInvariant", err)
				}
			case 5: // power cycle
				if err := s.Close(); err != nil {
					rt.Fatal(err)
				}
				if s, err = Open(path, Options{Init: true, Now: fixedClock()}); err != nil {
					rt.Fatal(err)
				}
				if err := s.Check(); err != nil {
					rt.Fatalf("Check after reopen: %v", err)
				}
			case 6:
				if err := commit(func(m *Machine, tx *Tx) error { m.Meters.MainDoor++; return tx.Log(meters.KindDoor, "open") }); err != nil {
					rt.Fatal(err)
				}
			}
			var got Machine
			var gotOpen *OpenRound
			if err := s.View(func(tx *Tx) error {
				var err error
				if got, err = tx.Machine(); err != nil {
					return err
				}
				gotOpen, err = tx.OpenRound()
				return err
			}); err != nil {
				rt.Fatal(err)
			}
			if !sameJSONTest(got, model) {
				rt.Fatalf("store machine %+v, model %+v", got, model)
			}
			if (gotOpen == nil) != (open == nil) || (open != nil && len(gotOpen.Steps) != len(open.Steps)) {
				rt.Fatalf("open round %v, model %v", gotOpen, open)
			}
		}
		if err := s.Check(); err != nil {
			rt.Fatalf("Check at the end: %v", err)
		}
	})
}
